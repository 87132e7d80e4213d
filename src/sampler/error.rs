//! Why a row could not be sampled.

use super::params::SampleParamsError;

/// A row of logits (or the request's parameters) could not produce a token.
/// Each error concerns one row: in a batch, the other rows are unaffected.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SampleError {
    #[error("logits row has {got} entries but the vocabulary has {expected}")]
    WrongLength { expected: usize, got: usize },

    #[error("logit of token {index} is NaN")]
    NanLogit { index: usize },

    #[error(
        "logit of token {index} is +infinity (logits must be finite, or -infinity to mask a token)"
    )]
    InfiniteLogit { index: usize },

    #[error("no finite logit in the row: all {len} tokens are masked with -infinity")]
    NoFiniteLogit { len: usize },

    #[error(transparent)]
    InvalidParams(#[from] SampleParamsError),

    #[error(
        "temperature {temperature} needs a seed: call SampleParams::resolve_seed before sampling"
    )]
    MissingSeed { temperature: f32 },

    #[error(
        "batch shape mismatch: {logits} logits for vocabulary {vocab}, {params} parameter sets, \
         {steps} steps and {out} result slots (need logits = rows * vocabulary and one of each per row)"
    )]
    BatchShape {
        logits: usize,
        vocab: usize,
        params: usize,
        steps: usize,
        out: usize,
    },
}

//! Host sampler: chooses each slot's next token from that slot's logits with
//! that request's own [`SampleParams`]. It owns the sampling semantics, the
//! reproducible randomness ([`SplitMix64`], counter-based per token) and the
//! fast selection kernels; the engine owns everything around it.
//!
//! # Semantics
//!
//! Logits come as `f32`, `half::f16` or `half::bf16` (widened exactly to
//! `f32`). A logit may be `-inf` (the token is masked: it is never chosen);
//! a NaN or `+inf` logit, or a row with no finite logit, is an error
//! ([`SampleError`]), never a panic or a silent token 0.
//!
//! **Rank.** Tokens are ranked by logit, highest first; equal logits rank
//! by token id, lowest first (`-0.0` equals `+0.0`). Every filter below keeps
//! a prefix of this order, so ties at a boundary always go to the lower id.
//!
//! **Logit transforms.** Before anything below, the request's chain of
//! [`LogitTransform`]s rewrites the row in order ([`Sampler::sample_with`]);
//! the result is what "the logits" means from here on. The chain a request
//! gets ([`LogitParams`], through [`SlotState::sample`]) is vLLM's order:
//! 1. *logit bias* ([`LogitBias`]): `x_i += bias_i`;
//! 2. *repetition penalty* `r` ([`Penalties`]) over the distinct tokens of
//!    the prompt and the output: `x_i / r` if `x_i > 0`, else `x_i * r`;
//! 3. *frequency and presence penalties* `f`, `p` over the output, `c_i`
//!    times token `i` was generated: `x_i -= f * c_i + p` where `c_i > 0`.
//!
//! The penalties read a per-slot [`PenaltyState`] updated as tokens are
//! accepted, so a step costs time in proportion to the distinct tokens seen.
//! With no transforms the row is used as given: no copy, no extra pass.
//!
//! **Log-probabilities** ([`Sampler::logprobs`]) are the log-softmax of the
//! row as given, before every transform, temperature and filter (vLLM's
//! default): `x_i - max - ln(sum_j exp(x_j - max))`, the top `n` selected,
//! never sorted.
//!
//! **Temperature 0 is greedy:** the token of rank 0, i.e. the argmax with
//! the lowest id winning ties, exactly what the device argmax graphs
//! return. `top_k`, `top_p`, `min_p` and the seed are ignored (still
//! validated).
//!
//! **Temperature T > 0**, in this order:
//! 1. *temperature*: `p_i = softmax(x / T)_i` over the vocabulary;
//! 2. *top-k* (`k > 0`): keep exactly the `k` tokens of best rank (all if
//!    fewer are finite);
//! 3. *top-p* (`p < 1`): renormalize what top-k kept and keep the smallest
//!    rank prefix whose probability mass reaches `p` (`>= p`); the token
//!    that crosses `p` is kept;
//! 4. *min-p* (`min_p > 0`): keep the tokens with `p_i >= min_p * p_max`,
//!    `p_max` being the largest remaining probability (that of rank 0,
//!    which every filter keeps);
//! 5. *draw*: one categorical draw from the kept tokens, renormalized.
//!
//! This is the order of Hugging Face `transformers`' sampling warpers. It
//! differs from llama.cpp's default sampler chain, which applies top-k, top-p
//! and min-p to the untempered distribution and the temperature last, so the
//! same parameters can keep a different set of tokens there.
//!
//! Probabilities are computed in `f32` as `exp((x_i - x_max) / T)` (relative
//! error a few 1e-7), masses are summed in `f64`. A token more than `e^87`
//! times less likely than the best one has weight 0 and is never drawn.
//!
//! **The draw** takes the uniform `u` in `[0, 1)` from the top 53 bits of the
//! first output of [`SplitMix64::for_token`]`(seed, n)`, where `n` is the
//! index of the token within its request, and returns the first kept token,
//! walking in token id order, whose cumulative weight exceeds
//! `u * (total kept weight)`. So the token depends only on the logits, the
//! parameters and `(seed, n)`: not on the batch, the slot or the process.
//! Unseeded requests get a seed from [`SampleParams::resolve_seed`], which
//! the caller reports back so that any output can be reproduced.
//!
//! # Speed
//!
//! [`Sampler`] allocates its scratch once and never again. The row is cut
//! into chunks of 64 tokens; one vectorized scan finds the maximum, NaNs and
//! each chunk's maximum, and greedy is done after it. Top-k reads only the
//! chunks whose maximum reaches the k-th largest chunk maximum (for large k
//! that bound is first tightened by counting passes), then selects exactly
//! with `select_nth_unstable`. Top-p without top-k needs every weight once
//! (its mass is relative to the whole vocabulary); the cut is bracketed by
//! a few vectorized mass sums over the row, only the tokens in the final
//! bracket (at most about a thousand) are gathered, and a weighted
//! quickselect finds the crossing token; the draw then walks chunk sums.
//! Nothing sorts the vocabulary. The hot passes are compiled twice
//! (baseline and AVX2, picked at run time) with bit-identical results.

mod adjust;
mod bias;
mod error;
mod kernels;
mod logits;
mod logprobs;
mod params;
mod penalty;
mod rng;
mod row_sampler;
mod slot;
pub mod spec;
mod transforms;

pub use adjust::{LogitTransform, Transforms};
pub use bias::{LogitBias, MAX_LOGIT_BIAS_ENTRIES};
pub use error::SampleError;
pub use logits::Logit;
pub use logprobs::{MAX_TOP_LOGPROBS, TokenLogprobs};
pub use params::{SampleParams, SampleParamsError};
pub use penalty::{Penalties, PenaltyStage, PenaltyState};
pub use rng::{SplitMix64, fresh_seed, mix64, uniform_for_token};
pub use row_sampler::Sampler;
pub use slot::{LogitParams, Sampled, SlotState};

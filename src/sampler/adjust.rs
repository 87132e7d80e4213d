//! The stage before selection: per-request logit transforms (logit bias,
//! repetition, frequency and presence penalties: [`super::LogitBias`],
//! [`super::PenaltyStage`]) that rewrite a row of logits before temperature
//! and the filters see it.
//!
//! A request carries an ordered chain of them, composed like llama.cpp's
//! sampler chain: each stage sees the row as the previous one left it. The
//! sampler widens (or copies) the row once into its own scratch for the
//! chain, so the caller's logits are never written; an empty chain costs
//! one `is_empty` check and no copy.

use std::fmt;

/// One per-request change to a row of logits, applied in place before
/// selection. It may raise or lower any logit, or mask a token with
/// `-inf`; it must not write NaN or `+inf`: the row is checked after the
/// chain, and such a value makes the row an error.
pub trait LogitTransform: fmt::Debug + Send + Sync {
    fn apply(&self, logits: &mut [f32]);
}

/// A request's chain of logit transforms, applied in order.
#[derive(Clone, Copy, Debug, Default)]
pub struct Transforms<'a> {
    stages: &'a [&'a dyn LogitTransform],
}

impl<'a> Transforms<'a> {
    /// No transforms: the row goes to selection untouched and uncopied.
    pub const NONE: Transforms<'static> = Transforms { stages: &[] };

    /// The chain `stages`, first applied first.
    pub const fn new(stages: &'a [&'a dyn LogitTransform]) -> Self {
        Self { stages }
    }

    pub const fn is_empty(&self) -> bool {
        self.stages.is_empty()
    }

    /// Runs every stage over `logits`, in order.
    pub(crate) fn apply(&self, logits: &mut [f32]) {
        for stage in self.stages {
            stage.apply(logits);
        }
    }
}

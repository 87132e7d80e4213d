//! What a request asks of its logits besides selection ([`LogitParams`]:
//! penalties, logit bias, log-probabilities) and the per-slot state that
//! serves it ([`SlotState`]): the entry point the engine samples each row
//! through.
//!
//! The chain per row, in vLLM's order: logit bias, then the penalties
//! (repetition, then frequency and presence), then temperature and the
//! filters of [`Sampler`]. Log-probabilities are of the model's logits as
//! given, before all of it. A request that asks for none of these takes
//! exactly [`Sampler::sample`]: no copy of the row, no extra pass, no
//! allocation.

use super::adjust::{LogitTransform, Transforms};
use super::bias::LogitBias;
use super::error::SampleError;
use super::logits::Logit;
use super::logprobs::{MAX_TOP_LOGPROBS, TokenLogprobs};
use super::params::{SampleParams, SampleParamsError};
use super::penalty::{Penalties, PenaltyState};
use super::row_sampler::Sampler;
use crate::types::TokenId;

/// A request's logit transforms and log-probability request. `Default` is
/// none of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogitParams {
    pub penalties: Penalties,
    pub logit_bias: LogitBias,
    /// `None`: no log-probabilities. `Some(n)`: the chosen token's and those
    /// of the `n` most likely tokens (`n <= MAX_TOP_LOGPROBS`).
    pub logprobs: Option<usize>,
}

impl LogitParams {
    /// True when some transform changes the logits before selection.
    pub fn adjusts(&self) -> bool {
        !self.penalties.is_off() || !self.logit_bias.is_empty()
    }

    /// True when the row must be sampled on the host from the full logits:
    /// some transform is on, or log-probabilities are asked for. A device
    /// sampling path may serve a request only when this is false.
    pub fn needs_host_logits(&self) -> bool {
        self.adjusts() || self.logprobs.is_some()
    }

    /// The API name of the first field that is on, if any.
    pub fn active_field(&self) -> Option<&'static str> {
        let p = &self.penalties;
        [
            (!self.logit_bias.is_empty(), "logit_bias"),
            (p.repetition != 1.0, "repetition_penalty"),
            (p.frequency != 0.0, "frequency_penalty"),
            (p.presence != 0.0, "presence_penalty"),
            (self.logprobs.is_some(), "logprobs"),
        ]
        .into_iter()
        .find_map(|(on, f)| on.then_some(f))
    }

    /// Checks every field against a vocabulary of `vocab` tokens; the error
    /// names the field as the API spells it.
    pub fn validate(&self, vocab: usize) -> Result<(), SampleParamsError> {
        self.penalties.validate()?;
        self.logit_bias.validate(vocab)?;
        if let Some(n) = self.logprobs
            && n > MAX_TOP_LOGPROBS
        {
            return Err(SampleParamsError::invalid(
                "top_logprobs",
                format!("must be in [0, {MAX_TOP_LOGPROBS}], got {n}"),
            ));
        }
        Ok(())
    }
}

/// A token chosen for a row, with its log-probabilities when asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    pub token: TokenId,
    pub logprobs: Option<TokenLogprobs>,
}

/// The state one slot keeps for the request it runs: what its penalties
/// have seen. [`begin`](Self::begin) at admission, [`accept`](Self::accept)
/// for each chosen token; both keep the allocations across requests.
#[derive(Clone, Debug, Default)]
pub struct SlotState {
    penalties: PenaltyState,
    /// The logits [`sample_in_place`](Self::sample_in_place) overwrote, to
    /// put back.
    saved: Vec<(u32, f32)>,
}

impl SlotState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts the slot's next request: forgets the previous one's tokens
    /// (when there are any) and, with penalties on, takes the prompt.
    pub fn begin(&mut self, logit: &LogitParams, prompt: &[TokenId]) {
        if !logit.penalties.is_off() || self.penalties.distinct() > 0 {
            self.penalties.begin(&logit.penalties, prompt);
        }
    }

    /// Records the token the request accepted as output.
    pub fn accept(&mut self, logit: &LogitParams, token: TokenId) {
        if !logit.penalties.is_off() {
            self.penalties.accept(token);
        }
    }

    /// The penalty state (for tests and diagnostics).
    pub fn penalty_state(&self) -> &PenaltyState {
        &self.penalties
    }

    /// The next token of the request from its row of model logits, through
    /// the chain of the module documentation. `step` is the index of the
    /// token within the request (see [`Sampler::sample`]).
    pub fn sample<L: Logit>(
        &self,
        sampler: &mut Sampler,
        row: &[L],
        params: &SampleParams,
        logit: &LogitParams,
        step: u64,
    ) -> Result<Sampled, SampleError> {
        let token = if logit.adjusts() {
            let stage = self.penalties.stage(&logit.penalties);
            let all: [&dyn LogitTransform; 2] = [&logit.logit_bias, &stage];
            let from = usize::from(logit.logit_bias.is_empty());
            let to = if logit.penalties.is_off() { 1 } else { 2 };
            sampler.sample_with(row, params, step, Transforms::new(&all[from..to]))?
        } else {
            sampler.sample(row, params, step)?
        };
        let logprobs = match logit.logprobs {
            None => None,
            Some(n) => Some(sampler.logprobs(row, token, n)?),
        };
        Ok(Sampled { token, logprobs })
    }

    /// [`sample`](Self::sample) for an `f32` row the caller lets us write:
    /// the transforms change the row in place and the changed logits are
    /// put back bit for bit afterwards, so the step costs the entries the
    /// transforms touch (bias entries, distinct tokens seen) instead of a
    /// copy of the row. The result is the same as `sample`'s.
    pub fn sample_in_place(
        &mut self,
        sampler: &mut Sampler,
        row: &mut [f32],
        params: &SampleParams,
        logit: &LogitParams,
        step: u64,
    ) -> Result<Sampled, SampleError> {
        if !logit.adjusts() || row.len() != sampler.vocab() {
            return self.sample(sampler, row, params, logit, step);
        }
        self.saved.clear();
        let penalized = (!logit.penalties.is_off()).then(|| self.penalties.tokens());
        let touched = logit
            .logit_bias
            .entries()
            .iter()
            .map(|e| e.0.0)
            .chain(penalized.into_iter().flatten());
        for id in touched {
            if let Some(&x) = row.get(id as usize) {
                self.saved.push((id, x));
            }
        }
        if !logit.logit_bias.is_empty() {
            logit.logit_bias.apply(row);
        }
        if !logit.penalties.is_off() {
            self.penalties.stage(&logit.penalties).apply(row);
        }
        let token = sampler.sample(row, params, step);
        // Every saved value is the original: all were read before any write.
        for &(id, x) in &self.saved {
            row[id as usize] = x;
        }
        let token = token?;
        let logprobs = match logit.logprobs {
            None => None,
            Some(n) => Some(sampler.logprobs(row, token, n)?),
        };
        Ok(Sampled { token, logprobs })
    }
}

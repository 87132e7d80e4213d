//! Repetition, frequency and presence penalties: their parameters, the
//! per-slot state they read (kept incrementally as tokens are accepted),
//! and the [`LogitTransform`] that applies them.
//!
//! Semantics, per token `i` of the vocabulary, in `f32`:
//! - *repetition* `r` (Hugging Face and vLLM): if `i` occurs in the prompt or
//!   the output, `x_i = x_i / r` when `x_i > 0`, else `x_i * r`;
//! - *frequency* `f` and *presence* `p` (OpenAI): with `c_i` the number of
//!   times `i` occurs in the output, `x_i = x_i - (f * c_i + p)` when
//!   `c_i > 0`.
//!
//! Repetition runs first, then frequency and presence. The state holds
//! one entry per distinct token seen, so a step costs time in proportion to
//! the distinct tokens, never to the vocabulary or the history length.

use std::collections::HashMap;

use super::adjust::LogitTransform;
use super::params::SampleParamsError;
use crate::types::TokenId;

/// A request's penalties. `Default` is every penalty off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Penalties {
    /// `> 0`, finite; `1` is off.
    pub repetition: f32,
    /// `[-2, 2]`; `0` is off.
    pub frequency: f32,
    /// `[-2, 2]`; `0` is off.
    pub presence: f32,
}

impl Default for Penalties {
    fn default() -> Self {
        Self::OFF
    }
}

impl Penalties {
    pub const OFF: Penalties = Penalties {
        repetition: 1.0,
        frequency: 0.0,
        presence: 0.0,
    };

    /// True when no penalty changes any logit.
    pub fn is_off(&self) -> bool {
        !self.repetition_on() && !self.counts_on()
    }

    /// True when the prompt's tokens matter (only repetition reads them).
    pub fn repetition_on(&self) -> bool {
        self.repetition != 1.0
    }

    fn counts_on(&self) -> bool {
        self.frequency != 0.0 || self.presence != 0.0
    }

    /// Checks every field; the error names it as the API spells it.
    pub fn validate(&self) -> Result<(), SampleParamsError> {
        let r = self.repetition;
        if !(r.is_finite() && r > 0.0) {
            return Err(SampleParamsError::invalid(
                "repetition_penalty",
                format!("must be finite and > 0 (1 = off), got {r}"),
            ));
        }
        for (field, v) in [
            ("frequency_penalty", self.frequency),
            ("presence_penalty", self.presence),
        ] {
            if !(-2.0..=2.0).contains(&v) {
                return Err(SampleParamsError::invalid(
                    field,
                    format!("must be in [-2, 2] (0 = off), got {v}"),
                ));
            }
        }
        Ok(())
    }
}

/// One distinct token a slot has seen.
#[derive(Clone, Copy, Debug)]
struct Seen {
    token: u32,
    /// Occurrences in the output (0 for a prompt-only token).
    count: u32,
}

/// What a slot has seen, for its penalties: one entry per distinct token of
/// the prompt (when repetition is on) and of the output. Updated with
/// [`accept`](Self::accept) as each token is chosen, cleared with
/// [`reset`](Self::reset) when the slot takes a new request; both keep the
/// allocations, so a reused slot stops allocating once it has seen as many
/// distinct tokens as before.
#[derive(Clone, Debug, Default)]
pub struct PenaltyState {
    /// Token id -> index in `seen`.
    index: HashMap<u32, u32>,
    seen: Vec<Seen>,
}

impl PenaltyState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets everything, keeping the allocations.
    pub fn reset(&mut self) {
        self.index.clear();
        self.seen.clear();
    }

    /// Starts a request: forgets the previous one and, when repetition is
    /// on, takes the prompt's tokens.
    pub fn begin(&mut self, penalties: &Penalties, prompt: &[TokenId]) {
        self.reset();
        if penalties.repetition_on() {
            for &t in prompt {
                self.entry(t.0);
            }
        }
    }

    /// Counts a token of the output.
    pub fn accept(&mut self, token: TokenId) {
        let i = self.entry(token.0);
        self.seen[i].count += 1;
    }

    fn entry(&mut self, token: u32) -> usize {
        let next = self.seen.len() as u32;
        let i = *self.index.entry(token).or_insert(next);
        if i == next {
            self.seen.push(Seen { token, count: 0 });
        }
        i as usize
    }

    /// Distinct tokens seen.
    pub fn distinct(&self) -> usize {
        self.seen.len()
    }

    /// The distinct tokens seen, in the order first seen.
    pub fn tokens(&self) -> impl Iterator<Item = u32> + '_ {
        self.seen.iter().map(|s| s.token)
    }

    /// Times `token` occurs in the output.
    pub fn count(&self, token: TokenId) -> u32 {
        self.index
            .get(&token.0)
            .map_or(0, |&i| self.seen[i as usize].count)
    }

    /// The transform applying `penalties` with this state.
    pub fn stage<'a>(&'a self, penalties: &'a Penalties) -> PenaltyStage<'a> {
        PenaltyStage {
            penalties,
            state: self,
        }
    }
}

/// The penalties of one request over its slot's state, as a chain stage.
#[derive(Clone, Copy, Debug)]
pub struct PenaltyStage<'a> {
    penalties: &'a Penalties,
    state: &'a PenaltyState,
}

impl LogitTransform for PenaltyStage<'_> {
    fn apply(&self, logits: &mut [f32]) {
        let Penalties {
            repetition: r,
            frequency: f,
            presence: p,
        } = *self.penalties;
        let rep = self.penalties.repetition_on();
        let counts = self.penalties.counts_on();
        for s in &self.state.seen {
            // Ids outside the row cannot come from this model's sampler;
            // skipping them keeps a foreign prompt id from panicking here.
            let Some(x) = logits.get_mut(s.token as usize) else {
                continue;
            };
            if rep {
                *x = if *x > 0.0 { *x / r } else { *x * r };
            }
            if counts && s.count > 0 {
                *x -= f * s.count as f32 + p;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[u32]) -> Vec<TokenId> {
        v.iter().map(|&t| TokenId(t)).collect()
    }

    #[test]
    fn off_is_the_default_and_valid() {
        assert!(Penalties::default().is_off());
        assert_eq!(Penalties::default().validate(), Ok(()));
    }

    #[test]
    fn out_of_range_values_name_their_field() {
        let field = |p: Penalties| p.validate().unwrap_err().field();
        let base = Penalties::OFF;
        for r in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let p = Penalties {
                repetition: r,
                ..base
            };
            assert_eq!(field(p), "repetition_penalty");
        }
        for v in [2.01, -2.01, f32::NAN] {
            let f = Penalties {
                frequency: v,
                ..base
            };
            let p = Penalties {
                presence: v,
                ..base
            };
            assert_eq!(field(f), "frequency_penalty");
            assert_eq!(field(p), "presence_penalty");
        }
        let edge = Penalties {
            repetition: 1e-3,
            frequency: -2.0,
            presence: 2.0,
        };
        assert_eq!(edge.validate(), Ok(()));
    }

    #[test]
    fn repetition_divides_positive_and_multiplies_negative_logits_once() {
        let pen = Penalties {
            repetition: 2.0,
            ..Penalties::OFF
        };
        let mut st = PenaltyState::new();
        st.begin(&pen, &ids(&[1, 2, 1]));
        st.accept(TokenId(2));
        let mut row = [4.0f32, 4.0, -4.0, 4.0];
        st.stage(&pen).apply(&mut row);
        assert_eq!(row, [4.0, 2.0, -8.0, 4.0]);
    }

    #[test]
    fn frequency_and_presence_read_output_counts_only() {
        let pen = Penalties {
            repetition: 1.0,
            frequency: 0.5,
            presence: 0.25,
        };
        let mut st = PenaltyState::new();
        st.begin(&pen, &ids(&[0, 0, 0]));
        assert_eq!(
            st.distinct(),
            0,
            "the prompt is not read without repetition"
        );
        for t in [1, 1, 1, 2] {
            st.accept(TokenId(t));
        }
        let mut row = [1.0f32; 3];
        st.stage(&pen).apply(&mut row);
        assert_eq!(row, [1.0, 1.0 - (1.5 + 0.25), 1.0 - (0.5 + 0.25)]);
    }

    #[test]
    fn begin_forgets_the_previous_request() {
        let pen = Penalties {
            repetition: 1.5,
            frequency: 1.0,
            presence: 0.0,
        };
        let mut st = PenaltyState::new();
        st.begin(&pen, &ids(&[5]));
        st.accept(TokenId(6));
        st.begin(&pen, &ids(&[7]));
        assert_eq!(st.count(TokenId(6)), 0);
        assert_eq!(st.distinct(), 1);
    }
}

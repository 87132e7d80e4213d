//! `logit_bias`: a per-request map of token id -> bias in `[-100, 100]`,
//! added to that token's logit (OpenAI semantics). `-100` all but bans a
//! token, `100` all but forces it.

use super::adjust::LogitTransform;
use super::params::SampleParamsError;
use crate::types::TokenId;

/// Most entries a request's bias may have (OpenAI allows 300; the cost of a
/// step is proportional to the entries, so a bound keeps it small).
pub const MAX_LOGIT_BIAS_ENTRIES: usize = 1024;

/// A request's logit bias, one entry per token, sorted by token id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogitBias {
    entries: Vec<(TokenId, f32)>,
}

impl LogitBias {
    /// The bias of `entries`; a token given twice keeps its last value.
    pub fn new(entries: impl IntoIterator<Item = (TokenId, f32)>) -> Self {
        let mut entries: Vec<(TokenId, f32)> = entries.into_iter().collect();
        // Stable: among equal ids the last given comes last, then wins.
        entries.sort_by_key(|e| e.0);
        let mut out: Vec<(TokenId, f32)> = Vec::with_capacity(entries.len());
        for e in entries {
            match out.last_mut() {
                Some(last) if last.0 == e.0 => *last = e,
                _ => out.push(e),
            }
        }
        Self { entries: out }
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> &[(TokenId, f32)] {
        &self.entries
    }

    /// Checks the values and that every id is a token of a vocabulary of
    /// `vocab` entries; the error names `logit_bias`.
    pub fn validate(&self, vocab: usize) -> Result<(), SampleParamsError> {
        if self.entries.len() > MAX_LOGIT_BIAS_ENTRIES {
            return Err(SampleParamsError::invalid(
                "logit_bias",
                format!(
                    "at most {MAX_LOGIT_BIAS_ENTRIES} entries, got {}",
                    self.entries.len()
                ),
            ));
        }
        for &(id, b) in &self.entries {
            if id.0 as usize >= vocab {
                return Err(SampleParamsError::invalid(
                    "logit_bias",
                    format!(
                        "token id {} is outside the vocabulary of {vocab} tokens",
                        id.0
                    ),
                ));
            }
            if !(-100.0..=100.0).contains(&b) {
                return Err(SampleParamsError::invalid(
                    "logit_bias",
                    format!("the bias of token {} must be in [-100, 100], got {b}", id.0),
                ));
            }
        }
        Ok(())
    }
}

impl LogitTransform for LogitBias {
    fn apply(&self, logits: &mut [f32]) {
        for &(id, b) in &self.entries {
            if let Some(x) = logits.get_mut(id.0 as usize) {
                *x += b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bias_is_added_and_a_repeated_id_keeps_its_last_value() {
        let b = LogitBias::new([(TokenId(2), 1.0), (TokenId(0), -3.0), (TokenId(2), 5.0)]);
        assert_eq!(b.entries(), &[(TokenId(0), -3.0), (TokenId(2), 5.0)]);
        let mut row = [1.0f32, 1.0, 1.0, f32::NEG_INFINITY];
        b.apply(&mut row);
        assert_eq!(row, [-2.0, 1.0, 6.0, f32::NEG_INFINITY]);
    }

    #[test]
    fn ids_outside_the_vocabulary_and_values_outside_the_range_are_refused() {
        let one = |id, v| LogitBias::new([(TokenId(id), v)]);
        assert_eq!(one(9, 0.0).validate(10), Ok(()));
        assert_eq!(one(10, 0.0).validate(10).unwrap_err().field(), "logit_bias");
        assert!(
            one(10, 0.0)
                .validate(10)
                .unwrap_err()
                .to_string()
                .contains("outside the vocabulary")
        );
        assert_eq!(
            one(1, 100.5).validate(10).unwrap_err().field(),
            "logit_bias"
        );
        assert_eq!(
            one(1, f32::NAN).validate(10).unwrap_err().field(),
            "logit_bias"
        );
        assert_eq!(one(1, -100.0).validate(10), Ok(()));
    }
}

//! Whether a request fits a slot: the one rule the model, the engines and
//! the server all apply, and the one error that says why not.
//!
//! A request fits when its prompt is not empty, every prompt token is in the
//! vocabulary, and `prompt + max_tokens` tokens fit the context capacity of
//! a slot. (The last generated token is never written to the cache, but
//! counting it keeps the rule simple to state.) The sum is checked, never
//! wrapped: a `max_tokens` near `usize::MAX` is refused like any other too
//! large one.

use crate::types::TokenId;

/// Why a request does not fit a slot. Nothing ran on the device.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    #[error("the prompt is empty; give at least one token")]
    EmptyPrompt,
    #[error("{}", does_not_fit(*prompt, *max_tokens, *capacity))]
    DoesNotFit {
        prompt: usize,
        max_tokens: usize,
        capacity: usize,
    },
    #[error("token id {token} is outside the vocabulary of {vocab} tokens")]
    TokenOutOfRange { token: u32, vocab: usize },
}

impl FitError {
    /// Tokens the request needs (`None`: more than `usize` can count).
    pub fn needed(&self) -> Option<usize> {
        match self {
            FitError::DoesNotFit {
                prompt, max_tokens, ..
            } => prompt.checked_add(*max_tokens),
            _ => None,
        }
    }
}

fn does_not_fit(prompt: usize, max_tokens: usize, capacity: usize) -> String {
    let advice = "shorten the prompt, lower max_tokens, or load the model with a larger --context";
    if max_tokens == 0 {
        return format!(
            "{prompt} tokens do not fit the context capacity of {capacity} tokens per slot; \
             {advice}"
        );
    }
    let total = match prompt.checked_add(max_tokens) {
        Some(n) => format!("{n} tokens"),
        None => "more tokens than can be counted".to_string(),
    };
    format!(
        "the prompt ({prompt} tokens) plus max_tokens ({max_tokens}) is {total}, more than the \
         context capacity of {capacity}; {advice}"
    )
}

/// Checks the sizes: a non-empty prompt of `prompt` tokens followed by up to
/// `max_tokens` generated ones fits `capacity` tokens.
pub fn check_fits(prompt: usize, max_tokens: usize, capacity: usize) -> Result<(), FitError> {
    if prompt == 0 {
        return Err(FitError::EmptyPrompt);
    }
    match prompt.checked_add(max_tokens) {
        Some(needed) if needed <= capacity => Ok(()),
        _ => Err(FitError::DoesNotFit {
            prompt,
            max_tokens,
            capacity,
        }),
    }
}

/// Checks that every token id is in a vocabulary of `vocab` tokens.
pub fn check_tokens(tokens: &[TokenId], vocab: usize) -> Result<(), FitError> {
    match tokens.iter().find(|t| t.index() >= vocab) {
        Some(t) => Err(FitError::TokenOutOfRange { token: t.0, vocab }),
        None => Ok(()),
    }
}

/// The whole rule for a request: [`check_fits`], then [`check_tokens`].
pub fn check_request(
    prompt: &[TokenId],
    max_tokens: usize,
    capacity: usize,
    vocab: usize,
) -> Result<(), FitError> {
    check_fits(prompt.len(), max_tokens, capacity)?;
    check_tokens(prompt, vocab)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_fits_exactly_up_to_the_capacity() {
        assert_eq!(check_fits(120, 8, 128), Ok(()));
        assert_eq!(
            check_fits(120, 9, 128),
            Err(FitError::DoesNotFit {
                prompt: 120,
                max_tokens: 9,
                capacity: 128
            })
        );
        assert_eq!(check_fits(128, 0, 128), Ok(()));
        assert!(check_fits(129, 0, 128).is_err());
    }

    #[test]
    fn an_empty_prompt_never_fits() {
        assert_eq!(check_fits(0, 4, 128), Err(FitError::EmptyPrompt));
        assert_eq!(check_request(&[], 4, 128, 10), Err(FitError::EmptyPrompt));
    }

    #[test]
    fn a_max_tokens_that_would_wrap_the_sum_does_not_fit() {
        let e = check_fits(1, usize::MAX, 128).unwrap_err();
        assert!(matches!(e, FitError::DoesNotFit { prompt: 1, .. }));
        assert_eq!(e.needed(), None);
        assert!(
            e.to_string()
                .contains("more than the context capacity of 128")
        );
        let e = check_fits(1018, usize::MAX - 1016, 1024).unwrap_err();
        assert!(matches!(e, FitError::DoesNotFit { .. }), "{e}");
    }

    #[test]
    fn the_message_names_the_sum_and_the_capacity() {
        let e = check_fits(100, 29, 128).unwrap_err();
        assert_eq!(e.needed(), Some(129));
        assert!(e.to_string().contains("129 tokens"), "{e}");
        assert!(e.to_string().contains("128"), "{e}");
        let e = check_fits(129, 0, 128).unwrap_err();
        assert!(e.to_string().starts_with("129 tokens do not fit"), "{e}");
    }

    #[test]
    fn token_ids_must_be_in_the_vocabulary() {
        assert_eq!(check_tokens(&[TokenId(0), TokenId(9)], 10), Ok(()));
        assert_eq!(
            check_request(&[TokenId(3), TokenId(10)], 1, 128, 10),
            Err(FitError::TokenOutOfRange {
                token: 10,
                vocab: 10
            })
        );
    }
}

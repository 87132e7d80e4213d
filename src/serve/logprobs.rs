//! Log-probabilities in OpenAI's shapes: the engine's [`TokenLogprobs`]
//! become [`Entry`]s (token ids turned into text) as the generation task
//! decodes, and entries become the `logprobs` object of a completion
//! (`tokens`, `token_logprobs`, `top_logprobs`, `text_offset`) or of a chat
//! completion (`content[{token, logprob, bytes, top_logprobs}]`).
//!
//! A token's text is its id decoded alone with special tokens kept, so a
//! token that is part of a multi-byte character reads as U+FFFD, and
//! `bytes` are that text's UTF-8 bytes. A log-probability of `-inf` (a
//! token the model gives no chance at all) is written as `-9999.0`, as
//! OpenAI does, since JSON has no infinity.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::sampler::TokenLogprobs;
use crate::tokenizer::Tokenizer;
use crate::types::TokenId;

/// What OpenAI writes for a log-probability of `-inf`.
const FLOOR: f32 = -9999.0;

fn finite(lp: f32) -> f32 {
    if lp.is_finite() { lp } else { FLOOR }
}

/// One generated token's log-probabilities, with text.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub token: String,
    pub logprob: f32,
    /// The most likely tokens, most likely first.
    pub top: Vec<(String, f32)>,
    /// Characters of generated text before this token's text.
    pub text_offset: usize,
}

impl Entry {
    /// The entry of `lp`, whose token's text starts `text_offset`
    /// characters into the generated text.
    pub fn new(tokenizer: &Tokenizer, lp: &TokenLogprobs, text_offset: usize) -> Self {
        Entry {
            token: token_text(tokenizer, lp.token),
            logprob: finite(lp.logprob),
            top: lp
                .top
                .iter()
                .map(|&(id, l)| (token_text(tokenizer, id), finite(l)))
                .collect(),
            text_offset,
        }
    }
}

fn token_text(tokenizer: &Tokenizer, id: TokenId) -> String {
    tokenizer.decode_with(&[id], false).unwrap_or_default()
}

/// `choices[].logprobs` of `/v1/completions`. `top_logprobs[i]` holds the
/// `N` most likely tokens and the chosen one (so up to `N + 1` entries, as
/// at OpenAI); two tokens with the same text share one key.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct CompletionLogprobs {
    pub tokens: Vec<String>,
    pub token_logprobs: Vec<f32>,
    pub top_logprobs: Vec<BTreeMap<String, f32>>,
    pub text_offset: Vec<usize>,
}

impl CompletionLogprobs {
    pub fn new(entries: &[Entry]) -> Self {
        let mut out = CompletionLogprobs::default();
        for e in entries {
            out.tokens.push(e.token.clone());
            out.token_logprobs.push(e.logprob);
            let mut top: BTreeMap<String, f32> = e.top.iter().cloned().collect();
            top.entry(e.token.clone()).or_insert(e.logprob);
            out.top_logprobs.push(top);
            out.text_offset.push(e.text_offset);
        }
        out
    }
}

/// `choices[].logprobs` of `/v1/chat/completions`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ChatLogprobs {
    pub content: Vec<ChatTokenLogprob>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ChatTokenLogprob {
    pub token: String,
    pub logprob: f32,
    pub bytes: Vec<u8>,
    pub top_logprobs: Vec<ChatTopLogprob>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ChatTopLogprob {
    pub token: String,
    pub logprob: f32,
    pub bytes: Vec<u8>,
}

impl ChatLogprobs {
    pub fn new(entries: &[Entry]) -> Self {
        let content = entries
            .iter()
            .map(|e| ChatTokenLogprob {
                token: e.token.clone(),
                logprob: e.logprob,
                bytes: e.token.as_bytes().to_vec(),
                top_logprobs: e
                    .top
                    .iter()
                    .map(|(t, l)| ChatTopLogprob {
                        token: t.clone(),
                        logprob: *l,
                        bytes: t.as_bytes().to_vec(),
                    })
                    .collect(),
            })
            .collect();
        ChatLogprobs { content }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(token: &str, logprob: f32, top: &[(&str, f32)], text_offset: usize) -> Entry {
        Entry {
            token: token.into(),
            logprob,
            top: top.iter().map(|(t, l)| (t.to_string(), *l)).collect(),
            text_offset,
        }
    }

    #[test]
    fn completion_logprobs_list_the_chosen_token_among_the_top() {
        let e = [
            entry("a", -0.5, &[("b", -0.25)], 0),
            entry("cd", -1.0, &[("cd", -1.0)], 1),
        ];
        assert_eq!(
            serde_json::to_value(CompletionLogprobs::new(&e)).unwrap(),
            json!({
                "tokens": ["a", "cd"],
                "token_logprobs": [-0.5, -1.0],
                "top_logprobs": [{"a": -0.5, "b": -0.25}, {"cd": -1.0}],
                "text_offset": [0, 1],
            })
        );
    }

    #[test]
    fn chat_logprobs_carry_bytes_and_exactly_the_top_asked_for() {
        let e = [entry("é", -0.5, &[("x", -0.25)], 0)];
        assert_eq!(
            serde_json::to_value(ChatLogprobs::new(&e)).unwrap(),
            json!({"content": [{
                "token": "é", "logprob": -0.5, "bytes": [195, 169],
                "top_logprobs": [{"token": "x", "logprob": -0.25, "bytes": [120]}],
            }]})
        );
    }

    #[test]
    fn minus_infinity_is_written_as_openai_does() {
        assert_eq!(finite(f32::NEG_INFINITY), -9999.0);
        assert_eq!(finite(-3.5), -3.5);
    }
}

//! The one validation step: a parsed OpenAI request becomes an engine
//! request, or an OpenAI error naming the field at fault.
//!
//! Everything the server decides about a request before the engine sees it
//! happens here: the model name, the prompt's token ids (chat: the template
//! first), the length (chat's default uses the rest of the context), the
//! fit rule of [`crate::fit`], the seed (drawn now if none was given, so it
//! is known before the first token) and the stop tokens. What the engine
//! checks again at submission (the fit, the vocabulary) it checks with the
//! same rule.
//!
//! Tokenizing is CPU work proportional to the text, so it is kept off the
//! async request handlers: a text longer than any prompt that could fit the
//! context is refused by its size before tokenizing ([`Validator::max_text_bytes`]),
//! and the rest is tokenized on tokio's blocking pool, at most
//! [`TOKENIZE_PARALLELISM`] at a time.

use std::sync::Arc;

use tokio::sync::Semaphore;

use super::chat::ChatFormatter;
use super::error::ApiError;
use super::openai::{
    ChatRequest, Common, CompletionRequest, DEFAULT_COMPLETION_MAX_TOKENS, Prompt,
};
use crate::engine::Request as EngineRequest;
use crate::fit;
use crate::tokenizer::Tokenizer;
use crate::types::TokenId;

/// Most texts tokenized at once; more wait their turn.
pub const TOKENIZE_PARALLELISM: usize = 4;

/// A request ready for the engine, with what the response needs to know.
#[derive(Clone, Debug)]
pub struct Validated {
    /// Its seed is always set.
    pub request: EngineRequest,
    /// The seed the request is sampled with (its own, or a fresh one).
    pub seed: u64,
    /// Stop strings, matched on the decoded text.
    pub stop: Vec<String>,
    pub stream: bool,
    pub include_usage: bool,
    /// Choices to generate: choice `i` samples with `seed + i` (wrapping).
    pub n: usize,
    /// The request's field for the prompt (`prompt` or `messages`).
    pub prompt_field: &'static str,
    /// The request's field for the length (`max_tokens` or `max_completion_tokens`).
    pub max_tokens_field: &'static str,
}

/// Turns parsed requests into [`Validated`] ones.
pub struct Validator {
    pub tokenizer: Arc<Tokenizer>,
    pub chat: ChatFormatter,
    /// The id clients name the model by.
    pub model_id: String,
    /// Tokens per slot (prompt plus generated).
    pub capacity: usize,
    /// Token ids that end a request besides the model's EOS ids.
    pub stop_tokens: Vec<TokenId>,
    /// Texts longer than this cannot fit the context in any tokenization.
    max_text_bytes: usize,
    tokenizing: Arc<Semaphore>,
}

impl Validator {
    pub fn new(
        tokenizer: Arc<Tokenizer>,
        chat: ChatFormatter,
        model_id: String,
        capacity: usize,
    ) -> Self {
        // The tokenizer config's EOS (e.g. `<|eot_id|>` of chat models) also
        // ends a request, in case generation_config.json does not list it.
        let stop_tokens = tokenizer.eos_id().into_iter().collect();
        let max_text_bytes = capacity.saturating_mul(max_token_bytes(&tokenizer));
        Validator {
            tokenizer,
            chat,
            model_id,
            capacity,
            stop_tokens,
            max_text_bytes,
            tokenizing: Arc::new(Semaphore::new(TOKENIZE_PARALLELISM)),
        }
    }

    /// The longest text that could still fit the context: a text is refused
    /// unread when it is longer.
    pub fn max_text_bytes(&self) -> usize {
        self.max_text_bytes
    }

    /// Tokenizes `text` off the request handlers, unless it is too long to
    /// fit the context whatever its tokens. `field` names the request field
    /// in errors and `what` the text (`prompt`, `messages`).
    async fn encode(
        &self,
        text: String,
        add_special_tokens: bool,
        field: &'static str,
        what: &'static str,
    ) -> Result<Vec<TokenId>, ApiError> {
        if text.len() > self.max_text_bytes {
            return Err(ApiError::invalid(
                field,
                format!(
                    "the {what} is {} bytes of text, more than the {} bytes that could fit the \
                     context capacity of {} tokens; shorten it",
                    text.len(),
                    self.max_text_bytes,
                    self.capacity
                ),
            )
            .with_code("context_length_exceeded"));
        }
        let _permit = self
            .tokenizing
            .acquire()
            .await
            .map_err(|_| ApiError::unavailable("the server is shutting down"))?;
        let tokenizer = self.tokenizer.clone();
        tokio::task::spawn_blocking(move || tokenizer.encode(&text, add_special_tokens))
            .await
            .map_err(|e| ApiError::server(format!("tokenizing failed: {e}")))?
            .map_err(|e| ApiError::invalid(field, format!("cannot tokenize the {what}: {e}")))
    }

    /// `POST /v1/completions`: a text prompt is tokenized with the special
    /// tokens (BOS) added; token ids are used as they are.
    pub async fn completion(&self, r: CompletionRequest) -> Result<Validated, ApiError> {
        self.check_model(&r.common)?;
        let prompt = match r.prompt {
            Prompt::Tokens(t) => t,
            Prompt::Text(text) => self.encode(text, true, "prompt", "prompt").await?,
        };
        let max_tokens = r.common.max_tokens.unwrap_or(DEFAULT_COMPLETION_MAX_TOKENS);
        self.finish(prompt, max_tokens, r.common, "prompt")
    }

    /// `POST /v1/chat/completions`: the messages are rendered with the
    /// model's template, then tokenized. Without a length, the reply may use
    /// the rest of the context.
    pub async fn chat(&self, r: ChatRequest) -> Result<Validated, ApiError> {
        self.check_model(&r.common)?;
        let rendered = self
            .chat
            .render(&r.messages)
            .map_err(|e| ApiError::invalid("messages", e.to_string()))?;
        let prompt = self
            .encode(
                rendered.text,
                rendered.add_special_tokens,
                "messages",
                "conversation",
            )
            .await?;
        let max_tokens = match r.common.max_tokens {
            Some(n) => n,
            None if prompt.len() >= self.capacity => {
                return Err(ApiError::invalid(
                    "messages",
                    format!(
                        "the conversation is {} tokens, which fills the context capacity of \
                         {} tokens and leaves no room for a reply; shorten it",
                        prompt.len(),
                        self.capacity
                    ),
                )
                .with_code("context_length_exceeded"));
            }
            None => self.capacity - prompt.len(),
        };
        self.finish(prompt, max_tokens, r.common, "messages")
    }

    fn check_model(&self, common: &Common) -> Result<(), ApiError> {
        match &common.model {
            Some(m) if *m != self.model_id => Err(ApiError::model_not_found(m, &self.model_id)),
            _ => Ok(()),
        }
    }

    /// What both endpoints do once the prompt is token ids.
    fn finish(
        &self,
        prompt: Vec<TokenId>,
        max_tokens: usize,
        common: Common,
        prompt_field: &'static str,
    ) -> Result<Validated, ApiError> {
        if prompt.is_empty() {
            return Err(ApiError::invalid(
                prompt_field,
                "the prompt is empty after tokenization",
            ));
        }
        fit::check_fits(prompt.len(), max_tokens, self.capacity)
            .map_err(|e| ApiError::from_fit(&e, prompt_field, common.max_tokens_field))?;
        let mut params = common.params;
        let seed = params.resolve_seed();
        Ok(Validated {
            request: EngineRequest {
                prompt,
                params,
                max_tokens,
                stop_tokens: self.stop_tokens.clone(),
                logit: common.logit,
            },
            seed,
            stop: common.stop,
            stream: common.stream,
            include_usage: common.include_usage,
            n: common.n,
            prompt_field,
            max_tokens_field: common.max_tokens_field,
        })
    }
}

/// The most text bytes one token can stand for: the longest entry of the
/// vocabulary (special tokens included), and at least 4 (one UTF-8 character
/// an unknown-token fallback may cover). In the tokenizers Llama-family
/// models use, a vocabulary entry is never shorter than the text it matches
/// (byte-level BPE spells a byte with one or two, SentencePiece a space with
/// three, byte fallback a byte with six), so `capacity` tokens cover at most
/// `capacity` times this many bytes. A normalizer that shrinks text (NFKC
/// ligatures) could break this; the Llama 2 and 3 tokenizers have none.
fn max_token_bytes(tokenizer: &Tokenizer) -> usize {
    tokenizer
        .inner()
        .get_vocab(true)
        .keys()
        .map(String::len)
        .max()
        .unwrap_or(0)
        .max(4)
}

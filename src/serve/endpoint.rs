//! What differs between the two generation endpoints, each in one place:
//! the request it reads, how it is validated, and how its answer is written
//! (whole, or as stream chunks). The handlers are generic over [`Endpoint`].

use axum::response::sse::Event as SseEvent;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::logprobs::{ChatLogprobs, CompletionLogprobs, Entry};
use super::openai::{
    ChatChoice, ChatChunk, ChatChunkChoice, ChatCompletion, ChatDelta, ChatMessage, ChatRequest,
    Completion, CompletionChoice, CompletionRequest, FromObject, Header, Usage,
};
use super::validate::{Validated, Validator};

/// A generation endpoint. See the module documentation.
pub trait Endpoint: Send + Sync + 'static {
    type Request: FromObject + Send;
    /// Prefix of the response ids (`cmpl`, `chatcmpl`).
    const ID_PREFIX: &'static str;

    fn validate(
        v: &Validator,
        request: Self::Request,
    ) -> impl Future<Output = Result<Validated, ApiError>> + Send;
    /// The `object` of the response (or of its stream chunks).
    fn object(stream: bool) -> &'static str;
    /// The whole answer of a request that is not streamed, its choices in
    /// index order.
    fn whole(header: Header, choices: Vec<Choice<'_>>, usage: Usage) -> Response;
    /// A stream chunk of choice `index`: text and its tokens'
    /// log-probabilities (`Some` when asked for), and the finish reason on
    /// the choice's last one. `usage` is `Some(None)` (`null`) when usage
    /// was asked for.
    fn chunk(
        header: Header,
        index: u32,
        text: Option<String>,
        logprobs: Option<&[Entry]>,
        finish: Option<&'static str>,
        usage: Option<Option<Usage>>,
    ) -> SseEvent;
    /// The chunk after the last, with usage and no choices.
    fn usage_chunk(header: Header, usage: Usage) -> SseEvent;
    /// Chunks before the first token, for `n` choices.
    fn opening(_header: &Header, _n: usize, _usage: Option<Option<Usage>>) -> Vec<SseEvent> {
        Vec::new()
    }
}

/// One finished choice of a whole answer. `logprobs` is `Some` (every
/// token's entry) when the request asked for them.
pub struct Choice<'a> {
    pub text: String,
    pub logprobs: Option<&'a [Entry]>,
    pub finish: &'static str,
}

pub fn sse_json<T: serde::Serialize>(value: &T) -> SseEvent {
    SseEvent::default().data(serde_json::to_string(value).unwrap_or_default())
}

/// `POST /v1/completions`.
pub struct Completions;

impl Endpoint for Completions {
    type Request = CompletionRequest;
    const ID_PREFIX: &'static str = "cmpl";

    fn validate(
        v: &Validator,
        request: CompletionRequest,
    ) -> impl Future<Output = Result<Validated, ApiError>> + Send {
        v.completion(request)
    }

    fn object(_stream: bool) -> &'static str {
        "text_completion"
    }

    fn whole(header: Header, choices: Vec<Choice<'_>>, usage: Usage) -> Response {
        let choices = (0..)
            .zip(choices)
            .map(|(index, c)| CompletionChoice {
                index,
                text: c.text,
                logprobs: c.logprobs.map(CompletionLogprobs::new),
                finish_reason: Some(c.finish),
            })
            .collect();
        axum::Json(Completion {
            header,
            choices,
            usage: Some(Some(usage)),
        })
        .into_response()
    }

    fn chunk(
        header: Header,
        index: u32,
        text: Option<String>,
        logprobs: Option<&[Entry]>,
        finish: Option<&'static str>,
        usage: Option<Option<Usage>>,
    ) -> SseEvent {
        sse_json(&Completion {
            header,
            choices: vec![CompletionChoice {
                index,
                text: text.unwrap_or_default(),
                logprobs: logprobs.map(CompletionLogprobs::new),
                finish_reason: finish,
            }],
            usage,
        })
    }

    fn usage_chunk(header: Header, usage: Usage) -> SseEvent {
        sse_json(&Completion {
            header,
            choices: Vec::new(),
            usage: Some(Some(usage)),
        })
    }
}

/// `POST /v1/chat/completions`.
pub struct Chat;

impl Chat {
    fn chunk_with(
        header: Header,
        index: u32,
        delta: ChatDelta,
        logprobs: Option<&[Entry]>,
        finish: Option<&'static str>,
        usage: Option<Option<Usage>>,
    ) -> SseEvent {
        sse_json(&ChatChunk {
            header,
            choices: vec![ChatChunkChoice {
                index,
                delta,
                logprobs: logprobs.map(ChatLogprobs::new),
                finish_reason: finish,
            }],
            usage,
        })
    }
}

impl Endpoint for Chat {
    type Request = ChatRequest;
    const ID_PREFIX: &'static str = "chatcmpl";

    fn validate(
        v: &Validator,
        request: ChatRequest,
    ) -> impl Future<Output = Result<Validated, ApiError>> + Send {
        v.chat(request)
    }

    fn object(stream: bool) -> &'static str {
        if stream {
            "chat.completion.chunk"
        } else {
            "chat.completion"
        }
    }

    fn whole(header: Header, choices: Vec<Choice<'_>>, usage: Usage) -> Response {
        let choices = (0..)
            .zip(choices)
            .map(|(index, c)| ChatChoice {
                index,
                message: ChatMessage {
                    role: "assistant",
                    content: c.text,
                },
                logprobs: c.logprobs.map(ChatLogprobs::new),
                finish_reason: c.finish,
            })
            .collect();
        axum::Json(ChatCompletion {
            header,
            choices,
            usage,
        })
        .into_response()
    }

    fn chunk(
        header: Header,
        index: u32,
        text: Option<String>,
        logprobs: Option<&[Entry]>,
        finish: Option<&'static str>,
        usage: Option<Option<Usage>>,
    ) -> SseEvent {
        let delta = ChatDelta {
            role: None,
            content: text,
        };
        Self::chunk_with(header, index, delta, logprobs, finish, usage)
    }

    fn usage_chunk(header: Header, usage: Usage) -> SseEvent {
        sse_json(&ChatChunk {
            header,
            choices: Vec::new(),
            usage: Some(Some(usage)),
        })
    }

    /// The assistant role, with empty content, for each choice.
    fn opening(header: &Header, n: usize, usage: Option<Option<Usage>>) -> Vec<SseEvent> {
        (0..n as u32)
            .map(|index| {
                let delta = ChatDelta {
                    role: Some("assistant"),
                    content: Some(String::new()),
                };
                Self::chunk_with(header.clone(), index, delta, None, None, usage)
            })
            .collect()
    }
}

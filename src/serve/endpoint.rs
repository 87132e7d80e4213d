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
    /// The whole answer of a request that is not streamed. `logprobs` is
    /// `Some` (every token's entry) when the request asked for them.
    fn whole(
        header: Header,
        text: String,
        logprobs: Option<&[Entry]>,
        finish: &'static str,
        usage: Usage,
    ) -> Response;
    /// A stream chunk: text and its tokens' log-probabilities (`Some` when
    /// asked for), and the finish reason on the last one. `usage` is
    /// `Some(None)` (`null`) when usage was asked for.
    fn chunk(
        header: Header,
        text: Option<String>,
        logprobs: Option<&[Entry]>,
        finish: Option<&'static str>,
        usage: Option<Option<Usage>>,
    ) -> SseEvent;
    /// The chunk after the last, with usage and no choices.
    fn usage_chunk(header: Header, usage: Usage) -> SseEvent;
    /// Chunks before the first token.
    fn opening(_header: &Header, _usage: Option<Option<Usage>>) -> Vec<SseEvent> {
        Vec::new()
    }
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

    fn whole(
        header: Header,
        text: String,
        logprobs: Option<&[Entry]>,
        finish: &'static str,
        usage: Usage,
    ) -> Response {
        axum::Json(Completion {
            header,
            choices: vec![CompletionChoice {
                index: 0,
                text,
                logprobs: logprobs.map(CompletionLogprobs::new),
                finish_reason: Some(finish),
            }],
            usage: Some(Some(usage)),
        })
        .into_response()
    }

    fn chunk(
        header: Header,
        text: Option<String>,
        logprobs: Option<&[Entry]>,
        finish: Option<&'static str>,
        usage: Option<Option<Usage>>,
    ) -> SseEvent {
        sse_json(&Completion {
            header,
            choices: vec![CompletionChoice {
                index: 0,
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
        delta: ChatDelta,
        logprobs: Option<&[Entry]>,
        finish: Option<&'static str>,
        usage: Option<Option<Usage>>,
    ) -> SseEvent {
        sse_json(&ChatChunk {
            header,
            choices: vec![ChatChunkChoice {
                index: 0,
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

    fn whole(
        header: Header,
        text: String,
        logprobs: Option<&[Entry]>,
        finish: &'static str,
        usage: Usage,
    ) -> Response {
        axum::Json(ChatCompletion {
            header,
            choices: vec![ChatChoice {
                index: 0,
                message: ChatMessage {
                    role: "assistant",
                    content: text,
                },
                logprobs: logprobs.map(ChatLogprobs::new),
                finish_reason: finish,
            }],
            usage,
        })
        .into_response()
    }

    fn chunk(
        header: Header,
        text: Option<String>,
        logprobs: Option<&[Entry]>,
        finish: Option<&'static str>,
        usage: Option<Option<Usage>>,
    ) -> SseEvent {
        let delta = ChatDelta {
            role: None,
            content: text,
        };
        Self::chunk_with(header, delta, logprobs, finish, usage)
    }

    fn usage_chunk(header: Header, usage: Usage) -> SseEvent {
        sse_json(&ChatChunk {
            header,
            choices: Vec::new(),
            usage: Some(Some(usage)),
        })
    }

    /// The assistant role, with empty content.
    fn opening(header: &Header, usage: Option<Option<Usage>>) -> Vec<SseEvent> {
        let delta = ChatDelta {
            role: Some("assistant"),
            content: Some(String::new()),
        };
        vec![Self::chunk_with(header.clone(), delta, None, None, usage)]
    }
}

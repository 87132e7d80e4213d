//! The HTTP endpoints and the router.
//!
//! Generation requests go through the same steps: parse and check the body
//! ([`openai`](super::openai)), turn the prompt into token ids (chat: render
//! the template first), submit to the engine thread, then either collect the
//! pieces into one response or stream them as server-sent events ending
//! with `data: [DONE]`. Anything refused before generation is counted as
//! `rejected` in the metrics.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::StreamExt;
use futures_util::stream;
use tokio::sync::mpsc;

use super::chat::ChatFormatter;
use super::error::ApiError;
use super::generation::{self, Piece, Tracker};
use super::metrics::{Metrics, Outcome};
use super::openai::{
    ChatChoice, ChatChunk, ChatChunkChoice, ChatCompletion, ChatDelta, ChatMessage, ChatRequest,
    Common, Completion, CompletionChoice, CompletionRequest, DEFAULT_COMPLETION_MAX_TOKENS, Header,
    Prompt, Usage, parse_object,
};
use super::worker::WorkerHandle;
use crate::engine::{FinishReason, Request as EngineRequest};
use crate::tokenizer::Tokenizer;
use crate::types::TokenId;

/// The largest integer every JSON parser reads exactly (2^53 - 1).
const MAX_EXACT_JSON_INT: u64 = (1 << 53) - 1;

/// Everything the handlers share.
pub struct AppState {
    pub worker: WorkerHandle,
    pub tokenizer: Arc<Tokenizer>,
    pub chat: ChatFormatter,
    pub metrics: Arc<Metrics>,
    /// The id clients name the model by.
    pub model_id: String,
    pub api_key: Option<String>,
    /// Unix time the server started (the model's `created`).
    pub created: u64,
    pub fingerprint: String,
    /// Token ids that end a request besides the model's EOS ids.
    pub stop_tokens: Vec<TokenId>,
    id_prefix: u64,
    next_id: AtomicU64,
}

impl AppState {
    pub fn new(
        worker: WorkerHandle,
        tokenizer: Arc<Tokenizer>,
        chat: ChatFormatter,
        metrics: Arc<Metrics>,
        model_id: String,
        api_key: Option<String>,
    ) -> Self {
        // The tokenizer config's EOS (e.g. `<|eot_id|>` of chat models) also
        // ends a request, in case generation_config.json does not list it.
        let stop_tokens = tokenizer.eos_id().into_iter().collect();
        AppState {
            worker,
            tokenizer,
            chat,
            metrics,
            model_id,
            api_key,
            created: unix_now(),
            fingerprint: format!("iree-llm-{}", env!("CARGO_PKG_VERSION")),
            stop_tokens,
            id_prefix: crate::sampler::fresh_seed() >> 16,
            next_id: AtomicU64::new(1),
        }
    }

    fn response_id(&self, prefix: &str) -> String {
        let n = self.next_id.fetch_add(1, Ordering::Relaxed);
        format!("{prefix}-{:012x}{n:08x}", self.id_prefix)
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The router: `/v1/*` behind the API key (when one is set), `/health` and
/// `/metrics` open, OpenAI-shaped 404 and 405 for everything else.
pub fn router(state: Arc<AppState>) -> Router {
    let v1 = Router::new()
        .route("/v1/completions", post(completions))
        .route("/v1/chat/completions", post(chat_completions))
        .route("/v1/models", get(list_models))
        .route("/v1/models/{model}", get(get_model))
        .route_layer(middleware::from_fn_with_state(state.clone(), authorize));
    Router::new()
        .merge(v1)
        .route("/health", get(health))
        .route("/metrics", get(metrics))
        .fallback(|| async { ApiError::not_found("no such endpoint") })
        .method_not_allowed_fallback(|| async { ApiError::method_not_allowed() })
        .with_state(state)
}

async fn authorize(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let Some(key) = &st.api_key else {
        return next.run(req).await;
    };
    let given = req
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(super::guard::bearer_token);
    match given {
        Some(g) if constant_time_eq(g.as_bytes(), key.as_bytes()) => next.run(req).await,
        Some(_) => ApiError::unauthorized("Incorrect API key provided.").into_response(),
        None => ApiError::unauthorized(
            "Missing API key: send it as the header `Authorization: Bearer <key>`.",
        )
        .into_response(),
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `GET /health`.
#[derive(serde::Serialize)]
struct Health<'a> {
    status: &'static str,
    model: &'a str,
    slots: usize,
    active: usize,
    queued: usize,
}

async fn health(State(st): State<Arc<AppState>>) -> Response {
    let s = st.metrics.status();
    let alive = st.worker.is_alive();
    let body = Health {
        status: if alive { "ok" } else { "unavailable" },
        model: &st.model_id,
        slots: s.slots,
        active: s.active,
        queued: s.queued,
    };
    let status = if alive {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (status, axum::Json(body)).into_response()
}

async fn metrics(State(st): State<Arc<AppState>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        st.metrics.render(),
    )
        .into_response()
}

/// An entry of `GET /v1/models`. `max_model_len` (as vLLM names it) is the
/// context capacity per request.
#[derive(serde::Serialize)]
struct ModelCard<'a> {
    id: &'a str,
    object: &'static str,
    created: u64,
    owned_by: &'static str,
    max_model_len: usize,
}

#[derive(serde::Serialize)]
struct ModelList<'a> {
    object: &'static str,
    data: [ModelCard<'a>; 1],
}

fn model_card(st: &AppState) -> ModelCard<'_> {
    ModelCard {
        id: &st.model_id,
        object: "model",
        created: st.created,
        owned_by: "iree-llm",
        max_model_len: st.worker.capacity(),
    }
}

async fn list_models(State(st): State<Arc<AppState>>) -> Response {
    axum::Json(ModelList {
        object: "list",
        data: [model_card(&st)],
    })
    .into_response()
}

async fn get_model(State(st): State<Arc<AppState>>, Path(model): Path<String>) -> Response {
    if model == st.model_id {
        axum::Json(model_card(&st)).into_response()
    } else {
        ApiError::model_not_found(&model, &st.model_id).into_response()
    }
}

/// Which endpoint a generation request came through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Endpoint {
    Completions,
    Chat,
}

impl Endpoint {
    fn prompt_field(self) -> &'static str {
        match self {
            Endpoint::Completions => "prompt",
            Endpoint::Chat => "messages",
        }
    }
}

async fn completions(
    State(st): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    generate(st, Endpoint::Completions, body).await
}

async fn chat_completions(
    State(st): State<Arc<AppState>>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    generate(st, Endpoint::Chat, body).await
}

/// An accepted request, ready to produce pieces.
struct Accepted {
    pieces: mpsc::Receiver<Piece>,
    header: Header,
    prompt_tokens: usize,
    stream: bool,
    include_usage: bool,
}

async fn generate(
    st: Arc<AppState>,
    endpoint: Endpoint,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let arrived = Instant::now();
    let accepted = match accept(&st, endpoint, body, arrived).await {
        Ok(a) => a,
        Err(e) => {
            st.metrics.count_request(Outcome::Rejected);
            tracing::debug!(error = %e, "request refused");
            return e.into_response();
        }
    };
    if accepted.stream {
        stream_response(endpoint, accepted).into_response()
    } else {
        match collect(endpoint, accepted).await {
            Ok(r) => r,
            Err(e) => e.into_response(),
        }
    }
}

/// Checks the request, builds its prompt and submits it to the engine.
async fn accept(
    st: &Arc<AppState>,
    endpoint: Endpoint,
    body: Result<Bytes, BytesRejection>,
    arrived: Instant,
) -> Result<Accepted, ApiError> {
    let body = body.map_err(|e| {
        let mut err =
            ApiError::bad_request(format!("cannot read the request body: {}", e.body_text()));
        err.status = e.status();
        err
    })?;
    let obj = parse_object(&body)?;
    let (prompt, common, default_max) = match endpoint {
        Endpoint::Completions => {
            let r = CompletionRequest::parse(&obj)?;
            check_model(st, &r.common)?;
            let prompt = match r.prompt {
                Prompt::Tokens(t) => t,
                Prompt::Text(text) => st.tokenizer.encode(&text, true).map_err(|e| {
                    ApiError::invalid("prompt", format!("cannot tokenize the prompt: {e}"))
                })?,
            };
            (prompt, r.common, DEFAULT_COMPLETION_MAX_TOKENS)
        }
        Endpoint::Chat => {
            let r = ChatRequest::parse(&obj)?;
            check_model(st, &r.common)?;
            let rendered = st
                .chat
                .render(&r.messages)
                .map_err(|e| ApiError::invalid("messages", e.to_string()))?;
            let prompt = st
                .tokenizer
                .encode(&rendered.text, rendered.add_special_tokens)
                .map_err(|e| {
                    ApiError::invalid("messages", format!("cannot tokenize the messages: {e}"))
                })?;
            // By default a chat reply may use the rest of the context.
            let capacity = st.worker.capacity();
            if r.common.max_tokens.is_none() && prompt.len() >= capacity {
                return Err(ApiError::invalid(
                    "messages",
                    format!(
                        "the conversation is {} tokens, which fills the context capacity of \
                         {capacity} tokens and leaves no room for a reply; shorten it",
                        prompt.len()
                    ),
                )
                .with_code("context_length_exceeded"));
            }
            let default = capacity.saturating_sub(prompt.len());
            (prompt, r.common, default)
        }
    };
    if prompt.is_empty() {
        return Err(ApiError::invalid(
            endpoint.prompt_field(),
            "the prompt is empty after tokenization",
        ));
    }
    let prompt_tokens = prompt.len();
    let mut params = common.params;
    // Drawn here rather than in the engine so it is known up front, and kept
    // below 2^53 so clients that parse JSON numbers as doubles (JavaScript)
    // can send it back exactly.
    let seed = *params
        .seed
        .get_or_insert_with(|| crate::sampler::fresh_seed() & MAX_EXACT_JSON_INT);
    let request = EngineRequest {
        prompt,
        params,
        max_tokens: common.max_tokens.unwrap_or(default_max),
        stop_tokens: st.stop_tokens.clone(),
    };
    let (id, events) = match st.worker.submit(request, arrived).await {
        Err(gone) => return Err(ApiError::unavailable(gone.to_string())),
        Ok(Err(e)) => {
            return Err(ApiError::from_submit(
                &e,
                endpoint.prompt_field(),
                common.max_tokens_field,
            ));
        }
        Ok(Ok(accepted)) => accepted,
    };
    let tracker = Tracker::new(st.worker.clone(), st.metrics.clone(), id);
    let pieces = generation::spawn(st.tokenizer.clone(), events, tracker, common.stop);
    let (id_prefix, object) = match (endpoint, common.stream) {
        (Endpoint::Completions, _) => ("cmpl", "text_completion"),
        (Endpoint::Chat, false) => ("chatcmpl", "chat.completion"),
        (Endpoint::Chat, true) => ("chatcmpl", "chat.completion.chunk"),
    };
    Ok(Accepted {
        pieces,
        header: Header {
            id: st.response_id(id_prefix),
            object,
            created: unix_now(),
            model: st.model_id.clone(),
            system_fingerprint: st.fingerprint.clone(),
            seed,
        },
        prompt_tokens,
        stream: common.stream,
        include_usage: common.include_usage,
    })
}

fn check_model(st: &AppState, common: &Common) -> Result<(), ApiError> {
    match &common.model {
        Some(m) if *m != st.model_id => Err(ApiError::model_not_found(m, &st.model_id)),
        _ => Ok(()),
    }
}

fn finish_reason(reason: FinishReason) -> &'static str {
    match reason {
        FinishReason::Length => "length",
        _ => "stop",
    }
}

/// Waits for the whole generation and answers it in one response.
async fn collect(endpoint: Endpoint, mut a: Accepted) -> Result<Response, ApiError> {
    let mut text = String::new();
    loop {
        match a.pieces.recv().await {
            Some(Piece::Text(t)) => text.push_str(&t),
            Some(Piece::Failed(e)) => return Err(e),
            None => return Err(ApiError::server("generation ended without a result")),
            Some(Piece::Done {
                reason,
                completion_tokens,
            }) => {
                let usage = Usage::new(a.prompt_tokens, completion_tokens);
                let reason = finish_reason(reason);
                return Ok(match endpoint {
                    Endpoint::Completions => axum::Json(Completion {
                        header: a.header,
                        choices: vec![CompletionChoice {
                            index: 0,
                            text,
                            logprobs: None,
                            finish_reason: Some(reason),
                        }],
                        usage: Some(Some(usage)),
                    })
                    .into_response(),
                    Endpoint::Chat => axum::Json(ChatCompletion {
                        header: a.header,
                        choices: vec![ChatChoice {
                            index: 0,
                            message: ChatMessage {
                                role: "assistant",
                                content: text,
                            },
                            logprobs: None,
                            finish_reason: reason,
                        }],
                        usage,
                    })
                    .into_response(),
                });
            }
        }
    }
}

fn sse_json<T: serde::Serialize>(value: &T) -> SseEvent {
    SseEvent::default().data(serde_json::to_string(value).unwrap_or_default())
}

/// Turns pieces into stream chunks.
struct ChunkWriter {
    endpoint: Endpoint,
    accepted: Accepted,
    done: bool,
}

impl ChunkWriter {
    /// `usage: null` on every chunk but the last when usage was asked for.
    fn usage_slot(&self) -> Option<Option<Usage>> {
        self.accepted.include_usage.then_some(None)
    }

    fn chunk(&self, content: Option<String>, role: bool, finish: Option<&'static str>) -> SseEvent {
        let header = self.accepted.header.clone();
        match self.endpoint {
            Endpoint::Completions => sse_json(&Completion {
                header,
                choices: vec![CompletionChoice {
                    index: 0,
                    text: content.unwrap_or_default(),
                    logprobs: None,
                    finish_reason: finish,
                }],
                usage: self.usage_slot(),
            }),
            Endpoint::Chat => sse_json(&ChatChunk {
                header,
                choices: vec![ChatChunkChoice {
                    index: 0,
                    delta: ChatDelta {
                        role: role.then_some("assistant"),
                        content,
                    },
                    logprobs: None,
                    finish_reason: finish,
                }],
                usage: self.usage_slot(),
            }),
        }
    }

    /// The events that open the stream (chat: the assistant role).
    fn opening(&self) -> Vec<SseEvent> {
        match self.endpoint {
            Endpoint::Chat => vec![self.chunk(Some(String::new()), true, None)],
            Endpoint::Completions => Vec::new(),
        }
    }

    /// The events for one piece (`None`: the generation task vanished).
    fn events(&mut self, piece: Option<Piece>) -> Vec<SseEvent> {
        let done = SseEvent::default().data("[DONE]");
        match piece {
            Some(Piece::Text(t)) => vec![self.chunk(Some(t), false, None)],
            Some(Piece::Done {
                reason,
                completion_tokens,
            }) => {
                self.done = true;
                let mut out = vec![self.chunk(None, false, Some(finish_reason(reason)))];
                if self.accepted.include_usage {
                    let usage = Some(Some(Usage::new(
                        self.accepted.prompt_tokens,
                        completion_tokens,
                    )));
                    let header = self.accepted.header.clone();
                    out.push(match self.endpoint {
                        Endpoint::Completions => sse_json(&Completion {
                            header,
                            choices: Vec::new(),
                            usage,
                        }),
                        Endpoint::Chat => sse_json(&ChatChunk {
                            header,
                            choices: Vec::new(),
                            usage,
                        }),
                    });
                }
                out.push(done);
                out
            }
            Some(Piece::Failed(e)) => {
                self.done = true;
                vec![sse_json(&e.body()), done]
            }
            None => {
                self.done = true;
                let e = ApiError::server("generation ended without a result");
                vec![sse_json(&e.body()), done]
            }
        }
    }
}

/// Streams the pieces as server-sent events. Dropping the stream (the client
/// disconnected) drops the piece receiver, which cancels the request.
fn stream_response(endpoint: Endpoint, accepted: Accepted) -> Response {
    let writer = ChunkWriter {
        endpoint,
        accepted,
        done: false,
    };
    let opening = writer.opening();
    let rest = stream::unfold(writer, |mut w| async move {
        if w.done {
            return None;
        }
        let piece = w.accepted.pieces.recv().await;
        let events = w.events(piece);
        Some((stream::iter(events), w))
    })
    .flatten();
    let events = stream::iter(opening)
        .chain(rest)
        .map(Ok::<_, std::convert::Infallible>);
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

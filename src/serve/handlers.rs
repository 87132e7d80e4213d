//! The HTTP endpoints and the router.
//!
//! Generation requests go through the same steps, generic over the
//! [`Endpoint`]: the body is parsed by the [`OpenAi`] extractor, validated
//! into an engine request ([`validate`](super::validate)), submitted to the
//! engine thread, then the pieces are either collected into one response or
//! streamed as server-sent events ending with `data: [DONE]`. Anything
//! refused before generation is counted as `rejected` in the metrics.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::StreamExt;
use futures_util::stream;
use tokio::sync::mpsc;

use super::chat::ChatFormatter;
use super::endpoint::{Chat, Completions, Endpoint, sse_json};
use super::error::ApiError;
use super::generation::{self, Piece, RequestCount, Tracker};
use super::metrics::{Metrics, Outcome};
use super::openai::{Header, OpenAi, Usage};
use super::validate::Validator;
use super::worker::WorkerHandle;
use crate::engine::FinishReason;
use crate::tokenizer::Tokenizer;

/// Everything the handlers share.
pub struct AppState {
    pub worker: WorkerHandle,
    /// Turns requests into engine requests; owns the tokenizer and the chat template.
    pub validator: Validator,
    pub metrics: Arc<Metrics>,
    pub api_key: Option<String>,
    /// Unix time the server started (the model's `created`).
    pub created: u64,
    pub fingerprint: String,
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
        let validator = Validator::new(tokenizer, chat, model_id, worker.capacity());
        AppState {
            worker,
            validator,
            metrics,
            api_key,
            created: unix_now(),
            fingerprint: format!("iree-llm-{}", env!("CARGO_PKG_VERSION")),
            id_prefix: crate::sampler::fresh_seed() >> 5,
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
        model: &st.validator.model_id,
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
/// context capacity per request; `max_logprobs` (vLLM's name too) the most
/// top log-probabilities a request may ask for.
#[derive(serde::Serialize)]
struct ModelCard<'a> {
    id: &'a str,
    object: &'static str,
    created: u64,
    owned_by: &'static str,
    max_model_len: usize,
    max_logprobs: usize,
}

#[derive(serde::Serialize)]
struct ModelList<'a> {
    object: &'static str,
    data: [ModelCard<'a>; 1],
}

fn model_card(st: &AppState) -> ModelCard<'_> {
    ModelCard {
        id: &st.validator.model_id,
        object: "model",
        created: st.created,
        owned_by: "iree-llm",
        max_model_len: st.worker.capacity(),
        max_logprobs: crate::sampler::MAX_TOP_LOGPROBS,
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
    let served = &st.validator.model_id;
    if model == *served {
        axum::Json(model_card(&st)).into_response()
    } else {
        ApiError::model_not_found(&model, served).into_response()
    }
}

async fn completions(State(st): State<Arc<AppState>>, req: Request) -> Response {
    generate::<Completions>(st, req).await
}

async fn chat_completions(State(st): State<Arc<AppState>>, req: Request) -> Response {
    generate::<Chat>(st, req).await
}

/// An accepted request, ready to produce pieces.
struct Accepted {
    pieces: mpsc::Receiver<Piece>,
    header: Header,
    prompt_tokens: usize,
    include_usage: bool,
    /// The request asked for log-probabilities.
    logprobs: bool,
}

impl Accepted {
    /// `usage: null` on every chunk but the last when usage was asked for.
    fn usage_slot(&self) -> Option<Option<Usage>> {
        self.include_usage.then_some(None)
    }
}

/// Answers one generation request. It is counted from the start, so a client
/// that leaves at any point (even while its body is read) is counted once.
async fn generate<E: Endpoint>(st: Arc<AppState>, req: Request) -> Response {
    let arrived = Instant::now();
    let mut count = Some(RequestCount::new(st.metrics.clone()));
    let body = OpenAi::<E::Request>::from_request(req, &()).await;
    let accepted = match accept::<E>(&st, body, arrived, &mut count).await {
        Ok(a) => a,
        Err(e) => {
            if let Some(c) = &mut count {
                c.finish(Outcome::Rejected);
            }
            tracing::debug!(error = %e, "request refused");
            return e.into_response();
        }
    };
    match accepted {
        (a, true) => stream_response::<E>(a),
        (a, false) => collect::<E>(a)
            .await
            .unwrap_or_else(IntoResponse::into_response),
    }
}

/// Validates the request and submits it to the engine; once it is in the
/// engine, its count moves to the tracker. True: stream it.
async fn accept<E: Endpoint>(
    st: &Arc<AppState>,
    body: Result<OpenAi<E::Request>, ApiError>,
    arrived: Instant,
    count: &mut Option<RequestCount>,
) -> Result<(Accepted, bool), ApiError> {
    let OpenAi(request) = body?;
    let v = E::validate(&st.validator, request).await?;
    let prompt_tokens = v.request.prompt.len();
    let logprobs = v.request.logit.logprobs.is_some();
    let (id, events) = match st.worker.submit(v.request, arrived).await {
        Err(gone) => return Err(ApiError::unavailable(gone.to_string())),
        Ok(Err(e)) => {
            return Err(ApiError::from_submit(
                &e,
                v.prompt_field,
                v.max_tokens_field,
            ));
        }
        Ok(Ok(accepted)) => accepted,
    };
    let count = count.take().expect("counted once");
    let tracker = Tracker::new(st.worker.clone(), count, id);
    let tokenizer = st.validator.tokenizer.clone();
    let pieces = generation::spawn(tokenizer, events, tracker, v.stop);
    let header = Header {
        id: st.response_id(E::ID_PREFIX),
        object: E::object(v.stream),
        created: unix_now(),
        model: st.validator.model_id.clone(),
        system_fingerprint: st.fingerprint.clone(),
        seed: v.seed,
    };
    let accepted = Accepted {
        pieces,
        header,
        prompt_tokens,
        include_usage: v.include_usage,
        logprobs,
    };
    Ok((accepted, v.stream))
}

fn finish_reason(reason: FinishReason) -> &'static str {
    match reason {
        FinishReason::Length => "length",
        _ => "stop",
    }
}

/// Waits for the whole generation and answers it in one response.
async fn collect<E: Endpoint>(mut a: Accepted) -> Result<Response, ApiError> {
    let mut text = String::new();
    let mut entries = Vec::new();
    loop {
        match a.pieces.recv().await {
            Some(Piece::Text { text: t, logprobs }) => {
                text.push_str(&t);
                entries.extend(logprobs);
            }
            Some(Piece::Failed(e)) => return Err(e),
            None => return Err(ApiError::server("generation ended without a result")),
            Some(Piece::Done {
                reason,
                completion_tokens,
            }) => {
                let usage = Usage::new(a.prompt_tokens, completion_tokens);
                let logprobs = a.logprobs.then_some(&entries[..]);
                return Ok(E::whole(
                    a.header,
                    text,
                    logprobs,
                    finish_reason(reason),
                    usage,
                ));
            }
        }
    }
}

/// The events for one piece (`None`: the generation task vanished); true
/// when it was the last.
fn stream_events<E: Endpoint>(a: &Accepted, piece: Option<Piece>) -> (Vec<SseEvent>, bool) {
    let done = SseEvent::default().data("[DONE]");
    match piece {
        Some(Piece::Text { text, logprobs }) => {
            let lp = a.logprobs.then_some(&logprobs[..]);
            let chunk = E::chunk(a.header.clone(), Some(text), lp, None, a.usage_slot());
            (vec![chunk], false)
        }
        Some(Piece::Done {
            reason,
            completion_tokens,
        }) => {
            let finish = Some(finish_reason(reason));
            let mut out = vec![E::chunk(
                a.header.clone(),
                None,
                None,
                finish,
                a.usage_slot(),
            )];
            if a.include_usage {
                let usage = Usage::new(a.prompt_tokens, completion_tokens);
                out.push(E::usage_chunk(a.header.clone(), usage));
            }
            out.push(done);
            (out, true)
        }
        Some(Piece::Failed(e)) => (vec![sse_json(&e.body()), done], true),
        None => {
            let e = ApiError::server("generation ended without a result");
            (vec![sse_json(&e.body()), done], true)
        }
    }
}

/// Streams the pieces as server-sent events. Dropping the stream (the client
/// disconnected) drops the piece receiver, which cancels the request.
fn stream_response<E: Endpoint>(accepted: Accepted) -> Response {
    let opening = E::opening(&accepted.header, accepted.usage_slot());
    let rest = stream::unfold((accepted, false), |(mut a, done)| async move {
        if done {
            return None;
        }
        let piece = a.pieces.recv().await;
        let (events, done) = stream_events::<E>(&a, piece);
        Some((stream::iter(events), (a, done)))
    })
    .flatten();
    let events = stream::iter(opening)
        .chain(rest)
        .map(Ok::<_, std::convert::Infallible>);
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

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
use futures_util::stream::{self, BoxStream};
use tokio::sync::mpsc;

use super::chat::ChatFormatter;
use super::endpoint::{Chat, Choice, Completions, Endpoint, sse_json};
use super::error::ApiError;
use super::generation::{self, Piece, RequestCount, Tracker};
use super::logprobs::Entry;
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

/// An accepted request, ready to produce pieces: one receiver per choice.
struct Accepted {
    pieces: Vec<mpsc::Receiver<Piece>>,
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

    /// The pieces of every choice as they come, each with its choice index.
    /// A choice's stream ends after its `Done` or `Failed`, or with one
    /// `None` if its task vanished without either. Dropping the stream drops
    /// the receivers, which cancels the choices still running.
    fn merged_pieces(&mut self) -> stream::SelectAll<BoxStream<'static, (u32, Option<Piece>)>> {
        let choices = (0..).zip(std::mem::take(&mut self.pieces)).map(|(i, rx)| {
            stream::unfold(Some(rx), move |rx| async move {
                let mut rx = rx?;
                match rx.recv().await {
                    Some(p) => {
                        let last = matches!(p, Piece::Done { .. } | Piece::Failed(_));
                        Some(((i, Some(p)), (!last).then_some(rx)))
                    }
                    None => Some(((i, None), None)),
                }
            })
            .boxed()
        });
        stream::select_all(choices)
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
    let choices = match st.worker.submit(v.request, v.n, arrived).await {
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
    // The first choice's tracker holds the request's count (it is counted once).
    let pieces = choices
        .into_iter()
        .map(|(id, events)| {
            let tracker = Tracker::new(st.worker.clone(), count.take(), id);
            let tokenizer = st.validator.tokenizer.clone();
            generation::spawn(tokenizer, events, tracker, v.stop.clone())
        })
        .collect();
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

/// What one choice has produced so far.
#[derive(Default)]
struct ChoiceSoFar {
    text: String,
    entries: Vec<Entry>,
    finish: Option<&'static str>,
}

/// Waits for every choice to finish and answers them in one response.
async fn collect<E: Endpoint>(mut a: Accepted) -> Result<Response, ApiError> {
    let mut choices: Vec<ChoiceSoFar> = (0..a.pieces.len())
        .map(|_| ChoiceSoFar::default())
        .collect();
    let mut completion_tokens = 0;
    // The choices share one prefill: each reports the same count.
    let mut cached_tokens = 0;
    let mut pieces = a.merged_pieces();
    while let Some((i, piece)) = pieces.next().await {
        let choice = &mut choices[i as usize];
        match piece {
            Some(Piece::Text { text, logprobs }) => {
                choice.text.push_str(&text);
                choice.entries.extend(logprobs);
            }
            Some(Piece::Done {
                reason,
                completion_tokens: generated,
                cached_prompt_tokens,
            }) => {
                choice.finish = Some(finish_reason(reason));
                completion_tokens += generated;
                cached_tokens = cached_tokens.max(cached_prompt_tokens);
            }
            Some(Piece::Failed(e)) => return Err(e),
            None => return Err(ApiError::server("generation ended without a result")),
        }
    }
    let whole = choices
        .iter_mut()
        .map(|c| {
            Some(Choice {
                text: std::mem::take(&mut c.text),
                logprobs: a.logprobs.then_some(&c.entries[..]),
                finish: c.finish?,
            })
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| ApiError::server("generation ended without a result"))?;
    let usage = Usage::new(a.prompt_tokens, completion_tokens, cached_tokens);
    Ok(E::whole(a.header, whole, usage))
}

/// Where a streamed response stands.
struct Streaming {
    accepted: Accepted,
    pieces: stream::SelectAll<BoxStream<'static, (u32, Option<Piece>)>>,
    /// Choices not finished yet.
    running: usize,
    completion_tokens: usize,
    /// Prompt tokens the choices' prefill found cached.
    cached_tokens: usize,
    done: bool,
}

/// The events for one piece of choice `index` (`None`: its generation task
/// vanished); true when it was the last of the response.
fn stream_events<E: Endpoint>(
    s: &mut Streaming,
    index: u32,
    piece: Option<Piece>,
) -> (Vec<SseEvent>, bool) {
    let a = &s.accepted;
    let done = SseEvent::default().data("[DONE]");
    match piece {
        Some(Piece::Text { text, logprobs }) => {
            let lp = a.logprobs.then_some(&logprobs[..]);
            let chunk = E::chunk(
                a.header.clone(),
                index,
                Some(text),
                lp,
                None,
                a.usage_slot(),
            );
            (vec![chunk], false)
        }
        Some(Piece::Done {
            reason,
            completion_tokens,
            cached_prompt_tokens,
        }) => {
            let finish = Some(finish_reason(reason));
            let mut out = vec![E::chunk(
                a.header.clone(),
                index,
                None,
                None,
                finish,
                a.usage_slot(),
            )];
            s.completion_tokens += completion_tokens;
            s.cached_tokens = s.cached_tokens.max(cached_prompt_tokens);
            s.running -= 1;
            if s.running > 0 {
                return (out, false);
            }
            if a.include_usage {
                let usage = Usage::new(a.prompt_tokens, s.completion_tokens, s.cached_tokens);
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

/// Streams the pieces of every choice as server-sent events, in the order
/// they come. Dropping the stream (the client disconnected) drops the piece
/// receivers, which cancels the request's choices.
fn stream_response<E: Endpoint>(mut accepted: Accepted) -> Response {
    let opening = E::opening(
        &accepted.header,
        accepted.pieces.len(),
        accepted.usage_slot(),
    );
    let state = Streaming {
        running: accepted.pieces.len(),
        pieces: accepted.merged_pieces(),
        accepted,
        completion_tokens: 0,
        cached_tokens: 0,
        done: false,
    };
    let rest = stream::unfold(state, |mut s| async move {
        if s.done {
            return None;
        }
        let (index, piece) = s.pieces.next().await?;
        let (events, done) = stream_events::<E>(&mut s, index, piece);
        s.done = done;
        Some((stream::iter(events), s))
    })
    .flatten();
    let events = stream::iter(opening)
        .chain(rest)
        .map(Ok::<_, std::convert::Infallible>);
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

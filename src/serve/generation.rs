//! One accepted request, from engine events to text pieces.
//!
//! [`spawn`] starts a task that owns the request: it turns the engine's
//! token events into text with the tokenizer's `StreamDecoder`, applies the
//! stop strings ([`StopMatcher`]), turns the tokens' log-probabilities (when
//! asked for) into [`Entry`]s, and sends [`Piece`]s to the HTTP side
//! through a small channel. When that channel's receiver is dropped (the
//! client went away, and axum dropped the response), the task ends and its
//! [`Tracker`] cancels the request in the engine, which frees its slot.
//! Every request is counted exactly once in `iree_llm_requests_total`, by
//! the [`RequestCount`] its handler makes when it starts.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::error::ApiError;
use super::logprobs::Entry;
use super::metrics::{Metrics, Outcome};
use super::stop::StopMatcher;
use super::worker::WorkerHandle;
use crate::engine::{Event, FinishReason};
use crate::tokenizer::Tokenizer;
use crate::types::RequestId;

/// What the HTTP side receives, in order: text, then one `Done` or `Failed`.
#[derive(Debug)]
pub enum Piece {
    /// Text, and the log-probabilities of the tokens generated since the
    /// previous piece (empty unless asked for). Entries travel with the next
    /// text released, so text held back (a possible stop string, part of a
    /// character) delays its tokens' entries too; the last come with `Done`'s
    /// preceding piece.
    Text { text: String, logprobs: Vec<Entry> },
    Done {
        /// `Stop` or `Length`.
        reason: FinishReason,
        completion_tokens: usize,
        /// Prompt tokens found in the slot's cache rather than prefilled.
        cached_prompt_tokens: usize,
    },
    /// The request failed after it was accepted (device error, shutdown).
    Failed(ApiError),
}

/// Counts one request in `iree_llm_requests_total` exactly once: with the
/// outcome it is given first, or as `cancelled` when it is dropped without
/// one (the client left, even before the request reached the engine). A
/// handler makes one as soon as it starts.
#[derive(Debug)]
pub struct RequestCount {
    metrics: Arc<Metrics>,
    counted: bool,
}

impl RequestCount {
    pub fn new(metrics: Arc<Metrics>) -> Self {
        RequestCount {
            metrics,
            counted: false,
        }
    }

    /// Records how the request ended (only the first call counts).
    pub fn finish(&mut self, outcome: Outcome) {
        if !self.counted {
            self.counted = true;
            self.metrics.count_request(outcome);
        }
    }

    pub fn is_counted(&self) -> bool {
        self.counted
    }
}

impl Drop for RequestCount {
    fn drop(&mut self) {
        self.finish(Outcome::Cancelled);
    }
}

/// One choice of a request in the engine, and the request's count when it
/// holds it (the first choice does: a request with `n` choices is counted
/// once, with the outcome of its first choice). If it is dropped before the
/// choice ended, it cancels the choice in the engine (and the count, if
/// held, records the request cancelled).
pub struct Tracker {
    worker: WorkerHandle,
    count: Option<RequestCount>,
    id: RequestId,
    ended: bool,
}

impl Tracker {
    pub fn new(worker: WorkerHandle, count: Option<RequestCount>, id: RequestId) -> Self {
        Tracker {
            worker,
            count,
            id,
            ended: false,
        }
    }

    /// Records how the choice ended.
    fn finish(&mut self, outcome: Outcome) {
        self.ended = true;
        if let Some(c) = &mut self.count {
            c.finish(outcome);
        }
    }

    /// Ends the choice early (a stop string matched): the engine stops
    /// generating it, and it counts as `outcome`.
    fn end_early(&mut self, outcome: Outcome) {
        if !self.ended {
            self.worker.cancel(self.id);
        }
        self.finish(outcome);
    }
}

impl Drop for Tracker {
    fn drop(&mut self) {
        if !self.ended {
            self.worker.cancel(self.id);
        }
    }
}

/// Pieces buffered between the generation task and the HTTP response.
const PIECE_BUFFER: usize = 32;

/// Starts the task that turns `events` into pieces (see the module docs).
pub fn spawn(
    tokenizer: Arc<Tokenizer>,
    events: mpsc::UnboundedReceiver<Event>,
    tracker: Tracker,
    stops: Vec<String>,
) -> mpsc::Receiver<Piece> {
    let (tx, rx) = mpsc::channel(PIECE_BUFFER);
    tokio::spawn(run(tokenizer, events, tracker, stops, tx));
    rx
}

async fn run(
    tokenizer: Arc<Tokenizer>,
    mut events: mpsc::UnboundedReceiver<Event>,
    mut tracker: Tracker,
    stops: Vec<String>,
    out: mpsc::Sender<Piece>,
) {
    let mut decoder = tokenizer.stream_decoder();
    let mut stop = StopMatcher::new(stops);
    let mut tokens = 0usize;
    let mut cached = 0usize;
    // Entries not yet sent, and the characters decoded so far.
    let mut pending: Vec<Entry> = Vec::new();
    let mut decoded_chars = 0usize;
    loop {
        let event = tokio::select! {
            // The HTTP side is gone: dropping the tracker cancels the request.
            () = out.closed() => return,
            e = events.recv() => e,
        };
        let piece = match event {
            None => {
                tracker.finish(Outcome::Error);
                Piece::Failed(ApiError::unavailable(
                    "the engine stopped before the request finished",
                ))
            }
            Some(Event::Prefilled { cached: c, .. }) => {
                cached = c;
                continue;
            }
            Some(Event::Token {
                token, logprobs, ..
            }) => {
                tokens += 1;
                let text = match decoder.step(token) {
                    Ok(t) => t.unwrap_or_default(),
                    Err(e) => {
                        tracker.end_early(Outcome::Error);
                        let _ = out
                            .send(Piece::Failed(ApiError::server(e.to_string())))
                            .await;
                        return;
                    }
                };
                if let Some(lp) = &logprobs {
                    pending.push(Entry::new(&tokenizer, lp, decoded_chars));
                }
                decoded_chars += text.chars().count();
                let released = stop.push(&text);
                if !send_text(&out, released.text, &mut pending).await {
                    return;
                }
                if !released.stopped {
                    continue;
                }
                tracker.end_early(Outcome::Stop);
                Piece::Done {
                    reason: FinishReason::Stop,
                    completion_tokens: tokens,
                    cached_prompt_tokens: cached,
                }
            }
            Some(Event::Finished {
                reason,
                generated,
                message,
                ..
            }) => match reason {
                FinishReason::Stop | FinishReason::Length => {
                    let tail = decoder.finish().unwrap_or_default();
                    let released = stop.push(&tail);
                    let mut text = released.text;
                    if !released.stopped {
                        text.push_str(&stop.finish());
                    }
                    if !send_text(&out, text, &mut pending).await {
                        // Finished anyway: count it as it ended.
                        tracker.finish(Outcome::from_finish(reason));
                        return;
                    }
                    let reason = if released.stopped {
                        FinishReason::Stop
                    } else {
                        reason
                    };
                    tracker.finish(Outcome::from_finish(reason));
                    Piece::Done {
                        reason,
                        completion_tokens: generated,
                        cached_prompt_tokens: cached,
                    }
                }
                FinishReason::Cancelled => {
                    tracker.finish(Outcome::Cancelled);
                    Piece::Failed(ApiError::unavailable(
                        "the request was cancelled: the server is shutting down",
                    ))
                }
                FinishReason::Error => {
                    tracing::warn!(request = %tracker.id, error = ?message, "generation failed");
                    tracker.finish(Outcome::Error);
                    Piece::Failed(ApiError::server(
                        message.unwrap_or_else(|| "generation failed".into()),
                    ))
                }
            },
        };
        let _ = out.send(piece).await;
        return;
    }
}

/// Sends `text` with the pending entries, unless both are empty. False when
/// the HTTP side is gone.
async fn send_text(out: &mpsc::Sender<Piece>, text: String, pending: &mut Vec<Entry>) -> bool {
    if text.is_empty() && pending.is_empty() {
        return true;
    }
    let logprobs = std::mem::take(pending);
    out.send(Piece::Text { text, logprobs }).await.is_ok()
}

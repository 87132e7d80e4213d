//! Engines turn requests into token streams over a model on one device.
//!
//! An [`Engine`] takes requests ([`Engine::submit`]), can cancel them, and
//! advances by [`Engine::step`], which returns what happened as [`Event`]s.
//! Two implementations:
//! - [`BatchEngine`]: continuous batching over B slots (B = 4 or 8); each
//!   step samples on the device when every row asks for temperature-only
//!   sampling and reads back the logits for the host sampler otherwise
//!   (see its module documentation for the rule);
//! - [`SingleEngine`]: one sequence at a time over the argmax graphs, greedy
//!   only; the reference the batch engine's greedy output is checked against.
//!
//! Both apply the same rules: a request is refused before any device work if
//! its prompt plus `max_tokens` does not fit a slot; generation stops at an
//! EOS token of the model or one of the request's stop token ids (reason
//! `stop`; the stop token itself is not emitted), or after `max_tokens`
//! tokens (reason `length`). When the token that reaches `max_tokens` is
//! itself a stop token, `stop` wins.

mod batch;
mod single;

pub use batch::{BatchEngine, BatchOptions, Fault, samples_on_device};
pub use single::SingleEngine;

use std::collections::VecDeque;
use std::time::Duration;

use crate::fit::{self, FitError};
use crate::model::ModelError;
use crate::sampler::{LogitParams, SampleParams, SampleParamsError, TokenLogprobs};
use crate::types::{RequestId, TokenId};

/// A generation request.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub prompt: Vec<TokenId>,
    pub params: SampleParams,
    /// Most tokens to generate (at least 1).
    pub max_tokens: usize,
    /// Token ids that end the request like EOS does.
    pub stop_tokens: Vec<TokenId>,
    /// Penalties, logit bias and log-probabilities (default: none).
    pub logit: LogitParams,
}

impl Request {
    pub fn greedy(prompt: Vec<TokenId>, max_tokens: usize) -> Self {
        Request {
            prompt,
            params: SampleParams::greedy(),
            max_tokens,
            stop_tokens: Vec::new(),
            logit: LogitParams::default(),
        }
    }

    /// True when the request must be sampled on the host from the full
    /// logits (penalties, logit bias or log-probabilities are on); see
    /// [`LogitParams::needs_host_logits`].
    pub fn needs_host_logits(&self) -> bool {
        self.logit.needs_host_logits()
    }
}

/// Why a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FinishReason {
    /// An EOS or stop token was generated.
    Stop,
    /// `max_tokens` were generated.
    Length,
    Cancelled,
    /// A device or sampling error; the message says what.
    Error,
}

impl FinishReason {
    pub fn as_str(self) -> &'static str {
        match self {
            FinishReason::Stop => "stop",
            FinishReason::Length => "length",
            FinishReason::Cancelled => "cancelled",
            FinishReason::Error => "error",
        }
    }
}

/// Something that happened to a request during a step.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The request's prompt is in its slot's cache, `cached` of its tokens
    /// found there already (prefix reuse) rather than prefilled. Comes once,
    /// before the request's first token.
    Prefilled { id: RequestId, cached: usize },
    /// The request's `index`-th generated token (0-based).
    Token {
        id: RequestId,
        token: TokenId,
        index: usize,
        /// Its log-probabilities, when the request asked for them.
        logprobs: Option<TokenLogprobs>,
    },
    /// The request ended; no further events follow for it.
    Finished {
        id: RequestId,
        reason: FinishReason,
        /// Tokens generated (emitted as `Token` events).
        generated: usize,
        /// The seed the request was sampled with (fresh if it had none).
        seed: u64,
        /// What went wrong, for `FinishReason::Error`.
        message: Option<String>,
    },
}

impl Event {
    pub fn id(&self) -> RequestId {
        match self {
            Event::Prefilled { id, .. } | Event::Token { id, .. } | Event::Finished { id, .. } => {
                *id
            }
        }
    }
}

/// Why a request was refused at submission. Nothing ran on the device.
#[derive(Debug, thiserror::Error)]
pub enum SubmitError {
    #[error(transparent)]
    Params(#[from] SampleParamsError),
    #[error("max_tokens must be at least 1")]
    NoTokensRequested,
    /// The request does not fit a slot (the rule of [`crate::fit`]).
    #[error(transparent)]
    Fit(#[from] FitError),
    #[error("the queue is full ({limit} requests waiting); retry later")]
    QueueFull { limit: usize },
    #[error("this engine decodes greedily only (temperature 0); use the batch engine to sample")]
    GreedyOnly,
    /// The engine reads back argmax ids only, not logits.
    #[error(
        "this engine reads back argmax ids only, so `{field}` (penalties, logit_bias, logprobs) \
         cannot be served; use the batch engine"
    )]
    NoHostLogits { field: &'static str },
    /// More choices of one prompt than the engine has slots.
    #[error("n must be from 1 to {most} (the choices this engine runs at once), got {n}")]
    TooManyChoices { n: usize, most: usize },
}

/// A snapshot of an engine's load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineStatus {
    pub queued: usize,
    pub active: usize,
    pub slots: usize,
}

/// Cumulative device time of an engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct EngineStats {
    /// Prompts prefilled (once for the `n` choices of one request), and the
    /// chunk calls that prefilled them.
    pub prefills: u64,
    pub prefill_chunks: u64,
    pub prefill_time: Duration,
    pub decode_steps: u64,
    pub decode_time: Duration,
    /// Active rows summed over the decode steps: `decode_steps * slots`
    /// minus this is the rows that ran empty (a free slot, a slot whose
    /// prompt is being prefilled, the tail of a run).
    pub decode_rows: u64,
    /// Decode steps that carried a prefill chunk (one call for both), their
    /// time and active rows; the chunk is counted in `prefill_chunks` too,
    /// and none of this is in `decode_*` or `prefill_time`.
    pub mixed_steps: u64,
    pub mixed_time: Duration,
    pub mixed_rows: u64,
    /// Time inside [`Engine::step`]: what is not prefill or decode in it is
    /// host work (sampling, stop checks, bookkeeping, uploads).
    pub step_time: Duration,
    pub tokens: u64,
    /// Decode steps whose rows were all sampled on the device (only token
    /// ids read back), and steps that read the logits back for the host.
    pub device_path_steps: u64,
    pub host_path_steps: u64,
    /// Bytes the decode steps read back from the device.
    pub readback_bytes: u64,
    /// Prompts prefilled into the spare slot while every row decoded, and
    /// the time spent moving their caches into a row's slot.
    pub spare_prefills: u64,
    pub spare_move_time: Duration,
    /// Prompts admitted past a prefix their slot's cache still held (prefix
    /// reuse), and the prompt tokens not prefilled thanks to it.
    pub reused_prompts: u64,
    pub reused_tokens: u64,
    /// Of those, prompts whose prefix was copied from another slot's cache
    /// ([`BatchEngine`]'s admission: a prefix another slot holds).
    pub prefix_copies: u64,
    /// Prompts admitted while rows generated: carried in decode calls, and
    /// prefilled in calls of their own.
    pub carried_prompts: u64,
    pub alone_prompts: u64,
}

/// A continuous-batching backend a server or CLI can drive.
pub trait Engine: Send {
    /// Queues a request; refused (with nothing run on the device) if it is
    /// invalid or cannot fit a slot.
    fn submit(&mut self, request: Request) -> Result<RequestId, SubmitError>;
    /// Queues `n` choices of one request (OpenAI's `n`): one id per choice,
    /// in choice order. Choice `i` samples with the request's seed plus `i`
    /// (wrapping; the seed resolved once for all), so each choice has its own
    /// draw stream and can be reproduced alone. Engines that cannot share a
    /// prompt between slots take only `n == 1`.
    fn submit_choices(
        &mut self,
        request: Request,
        n: usize,
    ) -> Result<Vec<RequestId>, SubmitError> {
        if n != 1 {
            return Err(SubmitError::TooManyChoices { n, most: 1 });
        }
        Ok(vec![self.submit(request)?])
    }
    /// Cancels a queued or running request; its `Finished { Cancelled }`
    /// event comes from the next step. False if the id is not live.
    fn cancel(&mut self, id: RequestId) -> bool;
    /// Does one unit of work and reports what happened.
    fn step(&mut self) -> Vec<Event>;
    /// True when nothing is queued, running or waiting to be reported.
    fn is_idle(&self) -> bool;
    fn status(&self) -> EngineStatus;
    fn stats(&self) -> EngineStats;
    /// Tokens per slot (prompt plus generated).
    fn capacity(&self) -> usize;
}

/// Checks what every engine checks at submission.
pub(crate) fn validate(
    request: &Request,
    capacity: usize,
    vocab: usize,
) -> Result<(), SubmitError> {
    request.params.validate()?;
    request.logit.validate(vocab)?;
    if request.prompt.is_empty() {
        return Err(FitError::EmptyPrompt.into());
    }
    if request.max_tokens == 0 {
        return Err(SubmitError::NoTokensRequested);
    }
    fit::check_request(&request.prompt, request.max_tokens, capacity, vocab)?;
    Ok(())
}

/// The per-request generation state both engines keep.
#[derive(Clone, Debug)]
pub(crate) struct Progress {
    pub id: RequestId,
    pub request: Request,
    pub seed: u64,
    /// Tokens emitted so far.
    pub generated: usize,
    /// The token to feed next, at `position`.
    pub last: TokenId,
    pub position: usize,
    /// The first choice's id, for the choices of one request (prefilled
    /// once, together); `None` for a request of one choice.
    pub group: Option<RequestId>,
}

impl Progress {
    pub fn new(id: RequestId, mut request: Request) -> Self {
        let seed = request.params.resolve_seed();
        Progress {
            id,
            position: request.prompt.len(),
            request,
            seed,
            generated: 0,
            last: TokenId(0),
            group: None,
        }
    }

    /// Takes a freshly chosen token: emits it unless it stops the request.
    /// Returns the finish reason if the request is done.
    pub fn accept(
        &mut self,
        token: TokenId,
        logprobs: Option<TokenLogprobs>,
        eos: &[TokenId],
        events: &mut Vec<Event>,
    ) -> Option<FinishReason> {
        if eos.contains(&token) || self.request.stop_tokens.contains(&token) {
            return Some(FinishReason::Stop);
        }
        events.push(Event::Token {
            id: self.id,
            token,
            index: self.generated,
            logprobs,
        });
        self.generated += 1;
        self.last = token;
        if self.generated >= self.request.max_tokens {
            return Some(FinishReason::Length);
        }
        None
    }

    pub fn finished(&self, reason: FinishReason, message: Option<String>) -> Event {
        Event::Finished {
            id: self.id,
            reason,
            generated: self.generated,
            seed: self.seed,
            message,
        }
    }
}

/// The waiting line both engines keep: request ids, queued requests in FIFO
/// order, and the events of requests that ended outside a step (cancelled
/// while queued or running), which the next step reports.
#[derive(Debug, Default)]
pub(crate) struct Queue {
    waiting: VecDeque<Progress>,
    pending: Vec<Event>,
    next_id: u64,
}

impl Queue {
    /// Queues `request` under a fresh id.
    pub fn push(&mut self, request: Request) -> RequestId {
        self.next_id += 1;
        let id = RequestId(self.next_id);
        self.waiting.push_back(Progress::new(id, request));
        id
    }

    pub fn pop(&mut self) -> Option<Progress> {
        self.waiting.pop_front()
    }

    /// Queues the choices of one request: `n` requests under consecutive
    /// ids, choice `i` seeded with `seed + i` (wrapping).
    pub fn push_choices(&mut self, mut request: Request, n: usize) -> Vec<RequestId> {
        let seed = request.params.resolve_seed();
        let first = RequestId(self.next_id + 1);
        (0..n as u64)
            .map(|i| {
                let mut choice = request.clone();
                choice.params.seed = Some(seed.wrapping_add(i));
                self.next_id += 1;
                let id = RequestId(self.next_id);
                let mut p = Progress::new(id, choice);
                p.group = (n > 1).then_some(first);
                self.waiting.push_back(p);
                id
            })
            .collect()
    }

    /// How many requests the next admission takes: the head and the
    /// choices queued right behind it from the same request.
    pub fn head_len(&self) -> usize {
        let Some(head) = self.waiting.front() else {
            return 0;
        };
        match head.group {
            None => 1,
            Some(g) => self
                .waiting
                .iter()
                .take_while(|p| p.group == Some(g))
                .count(),
        }
    }

    /// Takes the next admission ([`head_len`](Self::head_len) requests).
    pub fn pop_head(&mut self) -> Vec<Progress> {
        let n = self.head_len();
        self.waiting.drain(..n).collect()
    }

    pub fn len(&self) -> usize {
        self.waiting.len()
    }

    /// Removes a queued request and reports it cancelled; false if `id` is
    /// not queued.
    pub fn cancel_waiting(&mut self, id: RequestId) -> bool {
        let Some(i) = self.waiting.iter().position(|p| p.id == id) else {
            return false;
        };
        let p = self.waiting.remove(i).expect("position is in range");
        self.report(p.finished(FinishReason::Cancelled, None));
        true
    }

    /// Holds an event for the next step.
    pub fn report(&mut self, event: Event) {
        self.pending.push(event);
    }

    /// The held events, to start a step's event list.
    pub fn take_reported(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.pending)
    }

    /// Nothing waiting and nothing to report.
    pub fn is_empty(&self) -> bool {
        self.waiting.is_empty() && self.pending.is_empty()
    }
}

/// Turns a device-side failure into the message its requests finish with.
pub(crate) fn error_message(e: &ModelError) -> String {
    format!("device error: {e}")
}

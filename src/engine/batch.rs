//! Continuous batching over B slots of one device.
//!
//! Each slot owns a KV cache on the device. A step:
//! 1. **Admission** by chunked prefill, FIFO into free slots
//!    (`batch/admission.rs`): the request at the head of the queue takes its slots
//!    and its prompt is prefilled into the slot's cache in place as a
//!    sequence of chunk calls ([`crate::emit::chunks`]: sizes that follow the
//!    prompt's length, at most [`BatchOptions::max_chunk`] tokens each).
//!    While any slot is generating, **one chunk runs per step, then the
//!    decode of the running slots**, so a running slot waits for at most
//!    one chunk between two tokens however long the prompt being admitted;
//!    when no slot is generating, every free slot is filled at once (nobody
//!    is waiting, and a decode step costs as much with one row as with
//!    all), also when decode calls carry chunks.
//!    After the prompt's last chunk its first token is sampled from that
//!    chunk's logits and its slot joins the decode. The `n`
//!    choices of one request ([`Engine::submit_choices`]) are admitted
//!    together once `n` slots are free: one prefill, its cache copied to the
//!    other choices' slots on the device, each choice sampling its first
//!    token from the same logits with its own seed.
//!
//!    Why this policy: it is vLLM's chunked prefill interleaved with decode,
//!    one prompt's chunk per step; the bound on a running slot's wait is the
//!    largest chunk, which is the option to trade admission speed against
//!    inter-token latency. A chunk call reads every weight once, like a
//!    decode step, so a call of its own pays a fixed cost (about 9 tokens'
//!    worth on SmolLM2 on the CPU). So, when asked to
//!    ([`BatchOptions::decode_chunks`], `--carry-chunks`), a prompt admitted
//!    while slots are running is cut into chunks of at most
//!    [`BatchOptions::carried_chunk`] tokens (16 by default) and **every
//!    chunk rides in a decode call** ([`GraphKind::DecodeChunk`]): one call
//!    whose matmuls take the decode rows and the chunk's rows together, and
//!    whose attention reads the slot's earlier chunks from the cache. The
//!    step stays about as long as a plain one (a decode step is bound by
//!    reading the weights, and a few more rows fill multipliers it leaves
//!    idle), so running slots keep their pace; the prompt's first token is
//!    sampled from its last chunk's logits and its slot decodes from the
//!    next step. If every running slot ends first, the rest of the prompt
//!    runs at once in chunks of the calls' own size. A chunk whose graph
//!    was not compiled up front runs as a call of its own before the decode.
//!    Which way costs the running rows less depends on the model, the
//!    kernels and the host, so with [`BatchOptions::choose_carry`] each
//!    prompt admitted while rows run goes the way (carried in chunks of
//!    one of a few sizes, or in calls of its own) that has cost them least
//!    a prompt token lately, measured as the engine runs
//!    (`batch/carry_choice.rs`).
//!    If a call carrying a chunk fails, the new prompt fails and the running
//!    rows are decoded again in a plain call.
//!
//!    **Prefix reuse** (`batch/resident.rs`, on unless
//!    [`BatchEngine::set_prefix_reuse`]`(false)`): a slot's cache keeps its
//!    last request's tokens, and a prompt that starts with them (the next
//!    turn of that conversation, a shared system prompt) goes into that
//!    slot and is prefilled from where they differ.
//! 2. **Decode**: one ragged decode over all B rows, each active row at its
//!    own position; inactive rows run at position 0 of their own free slot
//!    on the token that slot already holds there (so what the slot holds
//!    stays reusable), or token 0 in an empty one (a slot whose prompt is
//!    being prefilled writes at the next chunk's first position instead,
//!    which that chunk overwrites).
//! 3. **Sampling** of each active row with its request's own parameters;
//!    host-sampled rows go through the slot's [`SlotState`] (penalties,
//!    logit bias, logprobs; exactly the plain sampler when a request has
//!    none of them); finished rows free their slot for the next step.
//!
//! # Where tokens are sampled: device path and host path
//!
//! The decode graph the engine calls samples inside itself
//! ([`crate::emit::sample`]: Gumbel-max per row, keyed by the request's
//! seed and token index) and also returns the logits. A request is sampled
//! **on the device** when its parameters are temperature only
//! ([`samples_on_device`]: greedy or plain softmax sampling, no
//! top-k/top-p/min-p, no penalties, logit bias or logprobs), and **on the
//! host** ([`Sampler`] through [`SlotState`]) otherwise. Per step:
//! - every active row on the device: the step reads back only the B token
//!   ids (4 bytes a row) — the *device path*;
//! - any active row on the host: the step also reads back the logits
//!   `[B, V]` and samples those rows on the host — the *host path*. The
//!   other rows still take the device's ids.
//!
//! So which sampler draws a request's tokens depends on its own parameters
//! only, never on its neighbours: a seeded request gives the same tokens
//! whatever else runs. The first token of every request comes from the
//! prefill's logits and is sampled on the host. Greedy rows get the exact
//! argmax either way (lowest id on ties), so greedy output is identical on
//! both samplers. [`BatchEngine::set_device_sampling`]`(false)` sends every
//! row to the host (the logits decode graph), for comparisons.
//!
//! A device error fails exactly the requests of the call that failed (the
//! prefilled request, or the active rows of the decode) with an error event;
//! the engine stays usable for the next requests.

mod admission;
mod carry_choice;
mod decode;
mod resident;

use std::time::Instant;

use super::{
    Engine, EngineStats, EngineStatus, Event, FinishReason, Progress, Queue, Request, SubmitError,
    validate,
};
use crate::emit::{GraphKind, Output};
use crate::model::{DeviceModel, KvCache, ModelError, RowDraw};
use crate::sampler::{Sampler, SlotState};
use crate::types::{RequestId, SlotId, TokenId};
use admission::{Admission, Ready};
use carry_choice::CarryChoice;
use resident::Resident;

/// Settings of a [`BatchEngine`].
#[derive(Clone, Copy, Debug)]
pub struct BatchOptions {
    /// Number of slots, the batch of the decode graph (4 or 8).
    pub batch: usize,
    /// Most requests waiting for a slot; more are refused with `QueueFull`.
    pub max_queue: usize,
    /// Most prompt tokens prefilled per step while other slots generate
    /// (the largest prefill chunk; rounded up to 8): the longest a running
    /// slot waits between two tokens is one chunk of this size.
    pub max_chunk: usize,
    /// While slots are running, prefill a prompt in chunks of at most
    /// `carried_chunk` tokens that ride in the running slots' decode calls
    /// ([`GraphKind::DecodeChunk`]), one a step, instead of as calls of
    /// their own. It compiles a decode+chunk graph per carried size and
    /// decode window at startup.
    pub decode_chunks: bool,
    /// With `decode_chunks`: each prompt admitted while rows generate is
    /// carried (in chunks of at most 4 tokens, one of the powers of two
    /// from 8 up to `carried_chunk`, or `carried_chunk`) or runs in calls
    /// of its own, whichever has cost the running rows least a prompt token
    /// lately (`batch/carry_choice.rs`); without it every such prompt is
    /// carried in chunks of at most `carried_chunk`.
    pub choose_carry: bool,
    /// The largest chunk a decode call carries (below 8, that many tokens
    /// ride in the 8-token graph, its padding rows skipped): a decode
    /// step reads every weight anyway and leaves the CPU's multipliers
    /// partly idle, so a few more rows ride cheaply; smaller chunks keep
    /// the running slots' steps shorter, larger ones admit a prompt in
    /// fewer steps ([`crate::emit::DEFAULT_CARRIED_CHUNK`]).
    pub carried_chunk: usize,
    /// With `decode_chunks` (on by default): a cache slot more than rows,
    /// which the prompt at the head of the queue is prefilled into (its
    /// chunks carried by the decode calls) while every row decodes, so no
    /// row waits idle for a prompt. Its cache moves to the first row that
    /// ends. It costs one slot's cache.
    pub spare_slot: bool,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            batch: 4,
            max_queue: 256,
            max_chunk: crate::emit::DEFAULT_MAX_CHUNK,
            decode_chunks: false,
            choose_carry: false,
            carried_chunk: crate::emit::DEFAULT_CARRIED_CHUNK,
            spare_slot: true,
        }
    }
}

impl BatchOptions {
    /// Cache slots past the decode rows.
    pub fn spare(&self) -> usize {
        usize::from(self.decode_chunks && self.spare_slot)
    }
}

/// Where a simulated device error strikes (see [`BatchEngine::inject_fault`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    NextPrefill,
    NextDecode,
    /// The next submission skips the fit rule, as a bug in it would: for
    /// tests that a row reaching the end of its context finishes alone.
    UncheckedSubmit,
}

/// The continuous-batching engine. See the module documentation.
pub struct BatchEngine {
    model: DeviceModel,
    batch: usize,
    /// The caches of every slot, one device tensor: slot i is decode row i;
    /// slot `batch`, if there is one, is the spare.
    kv: KvCache,
    slots: Vec<Option<Progress>>,
    /// A request prefilled into the spare slot (its first token sampled
    /// and held back), waiting for a row to end.
    ready: Option<Ready>,
    /// One sampler for every row: its scratch is reused row after row.
    sampler: Sampler,
    /// Per slot (the spare's last): what the penalties of its request have
    /// seen, kept as tokens are accepted and restarted when the slot takes
    /// a request.
    states: Vec<SlotState>,
    queue: Queue,
    eos: Vec<TokenId>,
    max_queue: usize,
    stats: EngineStats,
    fault: Option<Fault>,
    /// The request whose prompt is being prefilled, chunk by chunk.
    admission: Option<Admission>,
    max_chunk: usize,
    decode_chunks: bool,
    /// With `choose_carry`: the running costs each way and the choice.
    carry_choice: Option<CarryChoice>,
    carried_chunk: usize,
    /// The admission's next chunk runs inside this step's decode call.
    ride: bool,
    /// Decode through the sampling graph (see the module documentation).
    device_sampling: bool,
    /// What each slot's cache holds, for prompts that start with it.
    resident: Resident,
    // Buffers reused by every decode step.
    logits: Vec<f32>,
    tokens: Vec<TokenId>,
    positions: Vec<usize>,
    draws: Vec<RowDraw>,
    ids: Vec<TokenId>,
}

/// Whether the device's sampling graph draws a request's tokens: the one
/// place that decides it (see the module documentation).
pub fn samples_on_device(request: &Request) -> bool {
    request.params.is_temperature_only() && !request.needs_host_logits()
}

fn sampling_graph(device_sampling: bool) -> Output {
    if device_sampling {
        Output::Sample
    } else {
        Output::Logits
    }
}

impl BatchEngine {
    /// Builds the engine and its B slot caches on the model's device. The
    /// decode graph of `opts.batch` and the common chunk graphs of
    /// `opts.max_chunk` ([`crate::emit::EmitPlan::chunk_kinds`]) must be
    /// loaded (or loadable on demand).
    pub fn new(mut model: DeviceModel, opts: BatchOptions) -> Result<Self, ModelError> {
        let batch = opts.batch;
        let spare = opts.spare();
        model.ensure_graph(GraphKind::Decode {
            batch: batch as i64,
            output: sampling_graph(true),
            window: None,
            spare: spare as i64,
        })?;
        // The chunk graphs most prompts use at this largest chunk, compiled
        // now rather than in the middle of serving.
        let chunks = model.manifest().plan.chunk_kinds(
            (batch + spare) as i64,
            opts.max_chunk,
            Output::Logits,
        );
        for kind in chunks {
            model.ensure_graph(kind)?;
        }
        if opts.decode_chunks {
            for kind in model.manifest().plan.decode_chunk_kinds(
                batch as i64,
                spare as i64,
                opts.carried_chunk,
            ) {
                model.ensure_graph(kind)?;
            }
        }
        let kv = model.new_kv_with_spare(batch, spare)?;
        let capacity = model.capacity();
        let vocab = model.vocab();
        Ok(BatchEngine {
            eos: model.config().eos_token_ids.clone(),
            model,
            batch,
            kv,
            slots: (0..batch).map(|_| None).collect(),
            ready: None,
            sampler: Sampler::new(vocab),
            states: (0..batch + spare).map(|_| SlotState::new()).collect(),
            queue: Queue::default(),
            max_queue: opts.max_queue,
            stats: EngineStats::default(),
            fault: None,
            admission: None,
            max_chunk: opts.max_chunk,
            decode_chunks: opts.decode_chunks,
            carry_choice: (opts.decode_chunks && opts.choose_carry).then(|| {
                CarryChoice::new(
                    &carry_choice::carried_sizes(capacity, opts.carried_chunk),
                    batch,
                )
            }),
            carried_chunk: opts.carried_chunk,
            ride: false,
            device_sampling: true,
            resident: Resident::new(batch + spare),
            logits: Vec::with_capacity(batch * vocab),
            tokens: vec![TokenId(0); batch],
            positions: vec![0; batch],
            draws: vec![RowDraw::GREEDY; batch],
            ids: Vec::with_capacity(batch),
        })
    }

    /// Turns sampling on the device on (the default) or off (every row on
    /// the host, through the logits decode graph, which must be loaded or
    /// loadable on demand).
    pub fn set_device_sampling(&mut self, on: bool) -> Result<(), ModelError> {
        self.model.ensure_graph(GraphKind::Decode {
            batch: self.batch as i64,
            output: sampling_graph(on),
            window: None,
            spare: self.kv.spare() as i64,
        })?;
        self.device_sampling = on;
        Ok(())
    }

    pub fn device_sampling(&self) -> bool {
        self.device_sampling
    }

    /// With [`BatchOptions::choose_carry`]: each way a prompt admitted
    /// while rows generate may go (carried in chunks of at most so many
    /// tokens, or `None`: in calls of its own) and its running cost of a
    /// prompt token, in ms the running rows waited (none until that way
    /// has prefilled a prompt). Empty when the engine does not choose.
    pub fn carry_costs(&self) -> Vec<(Option<usize>, Option<f64>)> {
        self.carry_choice.as_ref().map_or_else(Vec::new, |c| {
            c.costs()
                .into_iter()
                .map(|(way, cost)| match way {
                    carry_choice::Way::Carried(size) => (Some(size), cost),
                    carry_choice::Way::Alone => (None, cost),
                })
                .collect()
        })
    }

    /// Turns prefix reuse on (the default) or off: with it, a prompt that
    /// starts with what a free slot's cache still holds (an earlier turn of
    /// its conversation, a shared system prompt) is admitted into that slot
    /// and prefilled from where they differ ([`resident`]). Off, every
    /// prompt is prefilled whole, so its results do not depend on what
    /// ran before it.
    pub fn set_prefix_reuse(&mut self, on: bool) {
        self.resident.set_enabled(on);
    }

    pub fn prefix_reuse(&self) -> bool {
        self.resident.enabled()
    }

    /// Forgets what every slot holds, so that no prompt reuses a prefix
    /// prefilled before this call (a benchmark's warm-up, for one).
    pub fn forget_prefixes(&mut self) {
        for slot in 0..self.batch + self.kv.spare() {
            self.resident.forget(slot);
        }
    }

    /// Loads the model in `dir` on `device` with a context of `capacity`
    /// tokens per slot, compiling every graph the engine uses up front
    /// (cached across runs), and builds the engine.
    pub fn load(
        dir: &std::path::Path,
        device: crate::types::DeviceUri,
        capacity: i64,
        opts: BatchOptions,
        progress: &dyn crate::model::LoadProgress,
    ) -> Result<Self, ModelError> {
        let plan = crate::emit::EmitPlan::new(capacity, &[opts.batch as i64])?;
        let load = crate::model::LoadOptions::batched(device, plan, opts.batch as i64);
        Self::load_with(dir, &load, opts, progress)
    }

    /// [`load`](Self::load) with full control over what is loaded and how
    /// (weight placement, module cache, compiler target).
    pub fn load_with(
        dir: &std::path::Path,
        load: &crate::model::LoadOptions,
        opts: BatchOptions,
        progress: &dyn crate::model::LoadProgress,
    ) -> Result<Self, ModelError> {
        let instance = crate::runtime::Instance::new()?;
        // The decode+chunk graphs compile with the others (and show in
        // their progress), not silently in `new`.
        let mut load = load.clone();
        let spare = opts.spare() as i64;
        if opts.decode_chunks {
            let kinds = load
                .plan
                .decode_chunk_kinds(opts.batch as i64, spare, opts.carried_chunk);
            load.graphs.extend(kinds);
        }
        // The engine's own graphs take a cache with the spare slot.
        for use_ in &mut load.uses {
            if let crate::emit::GraphUse::Batched { batch, spare: s } = use_
                && *batch == opts.batch as i64
            {
                *s = spare;
            }
        }
        let model = DeviceModel::load(&instance, dir, &load, progress)?;
        Self::new(model, opts)
    }

    pub fn model(&self) -> &DeviceModel {
        &self.model
    }

    /// The model, for extra device work between steps (e.g. diagnostics).
    pub fn model_mut(&mut self) -> &mut DeviceModel {
        &mut self.model
    }

    pub fn batch(&self) -> usize {
        self.batch
    }

    /// The slot a running request occupies.
    pub fn slot_of(&self, id: RequestId) -> Option<SlotId> {
        self.slots
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.id == id))
            .map(SlotId)
    }

    /// Makes the next prefill or decode call fail as a device error would,
    /// without touching the device. For tests of error handling.
    pub fn inject_fault(&mut self, fault: Fault) {
        self.fault = Some(fault);
    }

    fn take_fault(&mut self, at: Fault) -> Result<(), ModelError> {
        if self.fault == Some(at) {
            self.fault = None;
            return Err(ModelError::InvalidCall(format!("injected fault at {at:?}")));
        }
        Ok(())
    }
}

impl Engine for BatchEngine {
    fn submit(&mut self, request: Request) -> Result<RequestId, SubmitError> {
        if self.fault == Some(Fault::UncheckedSubmit) {
            self.fault = None;
        } else {
            validate(&request, self.model.capacity(), self.model.vocab())?;
        }
        if self.queue.len() >= self.max_queue {
            return Err(SubmitError::QueueFull {
                limit: self.max_queue,
            });
        }
        Ok(self.queue.push(request))
    }

    /// Up to the batch size: the choices are admitted together when enough
    /// slots are free, the prompt prefilled once and its cache copied to the
    /// other choices' slots on the device.
    fn submit_choices(
        &mut self,
        request: Request,
        n: usize,
    ) -> Result<Vec<RequestId>, SubmitError> {
        if n == 0 || n > self.batch {
            return Err(SubmitError::TooManyChoices {
                n,
                most: self.batch,
            });
        }
        validate(&request, self.model.capacity(), self.model.vocab())?;
        if self.queue.len() + n > self.max_queue {
            return Err(SubmitError::QueueFull {
                limit: self.max_queue,
            });
        }
        Ok(self.queue.push_choices(request, n))
    }

    fn cancel(&mut self, id: RequestId) -> bool {
        if self.queue.cancel_waiting(id) {
            return true;
        }
        if let Some(SlotId(slot)) = self.slot_of(id) {
            let p = self.slots[slot].take().expect("running request");
            self.stats.tokens += p.generated as u64;
            self.queue.report(p.finished(FinishReason::Cancelled, None));
            return true;
        }
        if let Some(p) = self.admission.as_mut().and_then(|a| a.remove(id)) {
            self.queue.report(p.finished(FinishReason::Cancelled, None));
            return true;
        }
        if self.ready.as_ref().is_some_and(|r| r.progress.id == id) {
            // Its first token, held back, goes out before the cancellation.
            let (p, held) = self.ready.take().expect("checked above").into_parts();
            for event in held {
                self.queue.report(event);
            }
            self.stats.tokens += p.generated as u64;
            self.queue.report(p.finished(FinishReason::Cancelled, None));
            return true;
        }
        false
    }

    fn step(&mut self) -> Vec<Event> {
        let start = Instant::now();
        // Graphs compiled in the background (see `resume_plan`) join here.
        self.model.install_compiled();
        let mut events = self.queue.take_reported();
        self.admit(&mut events);
        self.decode(&mut events);
        self.stats.step_time += start.elapsed();
        events
    }

    fn is_idle(&self) -> bool {
        self.queue.is_empty()
            && self.slots.iter().all(Option::is_none)
            && self.ready.is_none()
            && self.admission.as_ref().is_none_or(|a| a.len() == 0)
    }

    fn status(&self) -> EngineStatus {
        EngineStatus {
            // A request being prefilled still waits for its first token;
            // one in the spare slot waits for a row.
            queued: self.queue.len()
                + self.admission.as_ref().map_or(0, Admission::len)
                + usize::from(self.ready.is_some()),
            active: self.slots.iter().filter(|s| s.is_some()).count(),
            slots: self.batch,
        }
    }

    fn stats(&self) -> EngineStats {
        self.stats
    }

    fn capacity(&self) -> usize {
        self.model.capacity()
    }
}

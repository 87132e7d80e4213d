//! Continuous batching over B slots of one device.
//!
//! Each slot owns a KV cache on the device. A step:
//! 1. **Admission**, FIFO into free slots: the prompt is prefilled into the
//!    slot's cache in place and its first token sampled. While any slot is
//!    generating, at most one prefill runs per step, so running slots wait
//!    for at most one prefill between their tokens; when no slot is
//!    generating, every free slot is filled at once (nobody is waiting).
//! 2. **Decode**: one ragged decode over all B rows, each active row at its
//!    own position; inactive rows run on token 0 at position 0 of their own
//!    free slot, which the next prefill overwrites.
//! 3. **Sampling** of each active row on the host with its request's own
//!    parameters; finished rows free their slot for the next step.
//!
//! A device error fails exactly the requests of the call that failed (the
//! prefilled request, or the active rows of the decode) with an error event;
//! the engine stays usable for the next requests.

use std::time::Instant;

use super::{
    Engine, EngineStats, EngineStatus, Event, FinishReason, Progress, Queue, Request, SubmitError,
    error_message, validate,
};
use crate::emit::{GraphKind, Output};
use crate::model::{DeviceModel, KvCache, ModelError};
use crate::sampler::Sampler;
use crate::types::{RequestId, SlotId, TokenId};

/// Settings of a [`BatchEngine`].
#[derive(Clone, Copy, Debug)]
pub struct BatchOptions {
    /// Number of slots, the batch of the decode graph (4 or 8).
    pub batch: usize,
    /// Most requests waiting for a slot; more are refused with `QueueFull`.
    pub max_queue: usize,
}

impl Default for BatchOptions {
    fn default() -> Self {
        BatchOptions {
            batch: 4,
            max_queue: 256,
        }
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
    /// The caches of every slot, one device tensor: slot i is decode row i.
    kv: KvCache,
    slots: Vec<Option<Progress>>,
    /// One sampler for every row: its scratch is reused row after row.
    sampler: Sampler,
    queue: Queue,
    eos: Vec<TokenId>,
    max_queue: usize,
    stats: EngineStats,
    fault: Option<Fault>,
    // Buffers reused by every decode step.
    logits: Vec<f32>,
    tokens: Vec<TokenId>,
    positions: Vec<usize>,
}

impl BatchEngine {
    /// Builds the engine and its B slot caches on the model's device. The
    /// decode graph of `opts.batch` must be loaded (or loadable on demand).
    pub fn new(mut model: DeviceModel, opts: BatchOptions) -> Result<Self, ModelError> {
        let batch = opts.batch;
        model.ensure_graph(GraphKind::Decode {
            batch: batch as i64,
            output: Output::Logits,
            window: None,
        })?;
        let kv = model.new_kv_slots(batch)?;
        let vocab = model.vocab();
        Ok(BatchEngine {
            eos: model.config().eos_token_ids.clone(),
            model,
            batch,
            kv,
            slots: (0..batch).map(|_| None).collect(),
            sampler: Sampler::new(vocab),
            queue: Queue::default(),
            max_queue: opts.max_queue,
            stats: EngineStats::default(),
            fault: None,
            logits: Vec::with_capacity(batch * vocab),
            tokens: vec![TokenId(0); batch],
            positions: vec![0; batch],
        })
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
        let model = DeviceModel::load(&instance, dir, load, progress)?;
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

    fn admit(&mut self, events: &mut Vec<Event>) {
        let running = self.slots.iter().any(Option::is_some);
        let mut budget = if running { 1 } else { self.batch };
        while budget > 0 {
            let Some(slot) = self.slots.iter().position(Option::is_none) else {
                break;
            };
            let Some(mut p) = self.queue.pop() else {
                break;
            };
            budget -= 1;
            let start = Instant::now();
            let result = self.take_fault(Fault::NextPrefill).and_then(|()| {
                self.model
                    .prefill_logits_at(&mut self.kv, slot, &p.request.prompt)
            });
            self.stats.prefills += 1;
            self.stats.prefill_time += start.elapsed();
            let logits = match result {
                Ok(logits) => logits,
                Err(e) => {
                    events.push(p.finished(FinishReason::Error, Some(error_message(&e))));
                    continue;
                }
            };
            match self.sampler.sample(&logits, &p.request.params, 0) {
                Err(e) => events
                    .push(p.finished(FinishReason::Error, Some(format!("sampling failed: {e}")))),
                Ok(token) => match p.accept(token, &self.eos, events) {
                    Some(reason) => {
                        self.stats.tokens += p.generated as u64;
                        events.push(p.finished(reason, None));
                    }
                    None => self.slots[slot] = Some(p),
                },
            }
        }
    }

    /// Ends, alone, every row whose context is full: it cannot be fed
    /// another token, and sending it to the device would fail the whole
    /// decode call. It finishes with `length`, as at OpenAI when a reply
    /// reaches the context limit. (The fit rule at submission keeps this
    /// from happening; this is the engine's own guard.)
    fn finish_full_rows(&mut self, events: &mut Vec<Event>) {
        let capacity = self.model.capacity();
        for slot in &mut self.slots {
            if slot.as_ref().is_some_and(|p| p.position >= capacity) {
                let p = slot.take().expect("checked above");
                self.stats.tokens += p.generated as u64;
                events.push(p.finished(FinishReason::Length, None));
            }
        }
    }

    fn decode(&mut self, events: &mut Vec<Event>) {
        self.finish_full_rows(events);
        if self.slots.iter().all(Option::is_none) {
            return;
        }
        for (i, slot) in self.slots.iter().enumerate() {
            (self.tokens[i], self.positions[i]) = match slot {
                Some(p) => (p.last, p.position),
                None => (TokenId(0), 0),
            };
        }
        let start = Instant::now();
        let result = self.take_fault(Fault::NextDecode).and_then(|()| {
            self.model.decode_logits(
                &mut self.kv,
                &self.tokens,
                &self.positions,
                &mut self.logits,
            )
        });
        self.stats.decode_steps += 1;
        self.stats.decode_time += start.elapsed();
        if let Err(e) = result {
            let message = error_message(&e);
            for slot in &mut self.slots {
                if let Some(p) = slot.take() {
                    self.stats.tokens += p.generated as u64;
                    events.push(p.finished(FinishReason::Error, Some(message.clone())));
                }
            }
            return;
        }
        let vocab = self.model.vocab();
        for i in 0..self.batch {
            let Some(p) = self.slots[i].as_mut() else {
                continue;
            };
            p.position += 1;
            let row = &self.logits[i * vocab..(i + 1) * vocab];
            let outcome = match self
                .sampler
                .sample(row, &p.request.params, p.generated as u64)
            {
                Ok(token) => p.accept(token, &self.eos, events).map(|r| (r, None)),
                Err(e) => Some((FinishReason::Error, Some(format!("sampling failed: {e}")))),
            };
            if let Some((reason, message)) = outcome {
                let p = self.slots[i].take().expect("active slot");
                self.stats.tokens += p.generated as u64;
                events.push(p.finished(reason, message));
            }
        }
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
        false
    }

    fn step(&mut self) -> Vec<Event> {
        let mut events = self.queue.take_reported();
        self.admit(&mut events);
        self.decode(&mut events);
        events
    }

    fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.slots.iter().all(Option::is_none)
    }

    fn status(&self) -> EngineStatus {
        EngineStatus {
            queued: self.queue.len(),
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

//! Admission into the batch engine by chunked prefill: the request at the
//! head of the queue takes its slots, its prompt is prefilled one chunk
//! ([`ChunkCall`]) per step (inside the step's decode call while slots are
//! running and the engine carries chunks, as calls of their own before it
//! otherwise), and once its last chunk has run its first token is sampled
//! and its slots start decoding.
//!
//! With a spare slot ([`super::BatchOptions::spare_slot`]) the head of the
//! queue need not wait for a row to end: while every row is busy its
//! prompt is prefilled into the spare slot, chunk by chunk in the decode
//! calls, and its first token sampled; it then waits, ready, for the first
//! row that ends, where its cache is copied and it decodes from the next
//! step. A row that ends thus starts its next request at once instead of
//! idling while that prompt is prefilled.

use std::time::{Duration, Instant};

use super::carry_choice::Way;
use super::{BatchEngine, Fault};
use crate::emit::{ChunkCall, GraphKind};
use crate::engine::{Event, FinishReason, Progress, error_message};
use crate::model::DeviceModel;
use crate::types::{RequestId, TokenId};

/// A request being admitted: its choices, the slots they will run in, and
/// how far its prompt's prefill has got.
pub(super) struct Admission {
    /// Each live choice and its slot (cancelled choices are removed).
    members: Vec<(Progress, usize)>,
    /// The slot the prompt is prefilled into; copied to the other choices'
    /// slots when the prefill ends.
    slot: usize,
    prompt: Vec<TokenId>,
    plan: Vec<ChunkCall>,
    /// The next chunk call to run.
    next: usize,
    /// Whether `plan` was cut into chunks for decode calls to carry.
    carried: bool,
    /// Leading prompt tokens the slot held already (prefix reuse).
    reused: usize,
    /// What its chunks have cost the running rows so far, for the choice
    /// of the way (`carry_choice.rs`).
    spent: Spent,
}

/// The chunks an admission has run each way and their time.
#[derive(Debug)]
struct Spent {
    /// The way it was admitted.
    way: Way,
    /// Whether rows were generating when it was admitted: only such
    /// prompts measure a way (the others filled empty slots at once).
    while_running: bool,
    /// Calls of their own.
    alone: Duration,
    /// Decode calls that carried a chunk, and how many.
    carrying: Duration,
    carrying_steps: u32,
    /// Decode rows of its own that stood idle, summed over the steps.
    idle_rows: u32,
    /// Prompt tokens those chunks prefilled.
    tokens: usize,
}

/// A request prefilled into the spare slot, its first token sampled, that
/// waits for a row: the events of that token, held back until it has one.
pub(super) struct Ready {
    pub(super) progress: Progress,
    held: Vec<Event>,
}

impl Ready {
    pub(super) fn into_parts(self) -> (Progress, Vec<Event>) {
        (self.progress, self.held)
    }
}

impl Admission {
    /// Whether the admission holds slot `i` (a decode row of it is idle,
    /// unless `i` is the spare slot).
    pub(super) fn holds(&self, i: usize) -> bool {
        self.slot == i || self.members.iter().any(|&(_, s)| s == i)
    }

    /// Where an idle decode row of slot `i` may write its K/V: the first
    /// position the next chunk writes for the prefilled slot (so that chunk
    /// overwrites it), 0 for the other slots (the cache copy overwrites
    /// them).
    pub(super) fn idle_position(&self, i: usize) -> usize {
        if i == self.slot {
            self.plan[self.next].start
        } else {
            0
        }
    }

    pub(super) fn len(&self) -> usize {
        self.members.len()
    }

    /// The slot the prompt is prefilled into, the prompt and its next chunk.
    pub(super) fn next_chunk(&self) -> (usize, &[TokenId], ChunkCall) {
        (self.slot, &self.prompt, self.plan[self.next])
    }

    /// Its next chunk rode in a decode call of `batch` rows that took
    /// `time`, with `waiting` free rows that a queued request waited for.
    pub(super) fn carried_step(&mut self, time: Duration, batch: usize, waiting: usize) {
        self.spent.carrying += time;
        self.spent.carrying_steps += 1;
        self.spent.tokens += self.plan[self.next].len;
        self.idle_step(batch, waiting);
    }

    /// A decode call of `batch` rows ran while it was being prefilled: the
    /// rows it holds (not the spare slot) stood idle, and `waiting` free
    /// rows that queued requests wait to take once it is done.
    pub(super) fn idle_step(&mut self, batch: usize, waiting: usize) {
        let held = self.members.iter().filter(|&&(_, s)| s < batch).count();
        self.spent.idle_rows += (held + waiting) as u32;
    }

    /// Removes a choice; its cancellation event is the caller's to report.
    pub(super) fn remove(&mut self, id: RequestId) -> Option<Progress> {
        let i = self.members.iter().position(|(p, _)| p.id == id)?;
        Some(self.members.remove(i).0)
    }
}

impl BatchEngine {
    /// Free rows that a queued request waits for: they stand idle behind
    /// the admission in progress. Counted only when the engine chooses the
    /// way (its one use), so that other engines' steps skip the count.
    pub(super) fn waiting_rows(&self) -> usize {
        if self.carry_choice.is_none() || self.queue.is_empty() {
            0
        } else {
            self.free_slots().len()
        }
    }

    fn free_slots(&self) -> Vec<usize> {
        (0..self.batch)
            .filter(|&i| self.slots[i].is_none())
            .filter(|&i| !self.admission.as_ref().is_some_and(|a| a.holds(i)))
            .collect()
    }

    /// The spare slot, if the cache has one and it is free: no request is
    /// ready in it and none is being prefilled into it.
    fn free_spare(&self) -> Option<usize> {
        let spare = self.batch;
        (self.kv.spare() > 0
            && self.ready.is_none()
            && self.admission.as_ref().is_none_or(|a| a.slot != spare))
        .then_some(spare)
    }

    /// Starts admitting the head of the queue if its choices fit the free
    /// slots (or, one choice while rows are running and chunks are carried,
    /// the free spare slot), its prompt cut into chunks for decode calls to
    /// carry, of at most `carried` tokens, when that is given. False when
    /// nothing could start.
    fn begin_admission(
        &mut self,
        carried: Option<usize>,
        while_running: bool,
        events: &mut Vec<Event>,
    ) -> bool {
        let way = carried.map_or(Way::Alone, Way::Carried);
        let size = carried.unwrap_or(self.max_chunk);
        let carried = carried.is_some();
        let mut free = self.free_slots();
        let need = self.queue.head_len();
        if need == 1 && free.is_empty() && carried {
            free.extend(self.free_spare());
        }
        if need == 0 || need > free.len() {
            return false;
        }
        let group = self.queue.pop_head();
        let prompt = group[0].request.prompt.clone();
        let plan = match self.model.chunk_plan(prompt.len(), size) {
            // The prompt fits: carried, in the carried plan's chunks.
            Ok(_) if carried => self.model.carried_chunk_plan_from(0, prompt.len(), size),
            Ok(plan) => plan,
            Err(e) => {
                for p in &group {
                    events.push(p.finished(FinishReason::Error, Some(error_message(&e))));
                }
                return true;
            }
        };
        let best = self.resident.choose(&free, &prompt).expect("a free slot");
        free.swap(0, best);
        let slot = free[0];
        let donor = self.resident.donor(slot, &prompt);
        let held = donor.map_or_else(|| self.resident.shared(slot, &prompt), |(_, n)| n);
        let (from, plan) = match self.resume_plan(held, &prompt, &plan, carried, size) {
            Some(rest) if self.take_prefix(donor, slot) => rest,
            _ => (0, plan),
        };
        if from > 0 {
            self.stats.reused_prompts += 1;
            self.stats.reused_tokens += from as u64;
        }
        self.resident.keep(slot, from);
        for &other in &free[1..need] {
            // The other choices' slots receive a copy of the prompt's cache.
            self.resident.forget(other);
        }
        self.admission = Some(Admission {
            slot,
            members: group.into_iter().zip(free).collect(),
            prompt,
            plan,
            next: 0,
            carried,
            reused: from,
            spent: Spent {
                way,
                while_running,
                alone: Duration::ZERO,
                carrying: Duration::ZERO,
                carrying_steps: 0,
                idle_rows: 0,
                tokens: 0,
            },
        });
        true
    }

    /// Copies into `slot` the prefix that `donor` (a slot and a length,
    /// [`super::resident::Resident::donor`]) holds; true when there was
    /// nothing to copy or the copy succeeded. A failed copy may have written
    /// part of `slot`, so its record is forgotten and the prompt is
    /// prefilled whole.
    fn take_prefix(&mut self, donor: Option<(usize, usize)>, slot: usize) -> bool {
        let Some((other, n)) = donor else {
            return true;
        };
        match self.model.copy_kv_positions(&mut self.kv, other, slot, n) {
            Ok(()) => {
                self.resident.copied(other, slot, n);
                self.stats.prefix_copies += 1;
                true
            }
            Err(e) => {
                tracing::warn!(error = %e, "copying a shared prefix failed; prefilling the whole prompt");
                self.resident.forget(slot);
                false
            }
        }
    }

    /// The chunk calls that prefill `prompt` past its first `from` tokens,
    /// which a slot holds already ([`super::resident`]): taken when they
    /// cost less than `whole`, the plan from position 0. Chunks carried by decode calls have a graph for every
    /// window; calls of their own use loaded graphs only, so that reuse
    /// never waits for a compile in the middle of serving. The graphs of
    /// the plan it would rather have take their turn in the background,
    /// for the next prompt resumed there (a conversation's next turn).
    fn resume_plan(
        &mut self,
        from: usize,
        prompt: &[TokenId],
        whole: &[ChunkCall],
        carried: bool,
        size: usize,
    ) -> Option<(usize, Vec<ChunkCall>)> {
        if from == 0 {
            return None;
        }
        let plan = if carried {
            self.model.carried_chunk_plan_from(from, prompt.len(), size)
        } else {
            let best = self.model.chunk_plan_from(from, prompt.len(), size);
            if self.model.chunk_plan_cost(&best) < self.model.chunk_plan_cost(whole) {
                let slots = self.kv.slots();
                let wanted: Vec<GraphKind> = best
                    .iter()
                    .map(|c| DeviceModel::chunk_kind(slots, c))
                    .filter(|&k| !self.model.is_loaded(k))
                    .collect();
                self.model.compile_in_background(&wanted);
            }
            self.model
                .loaded_chunk_plan_from(self.kv.slots(), from, prompt.len(), size)?
        };
        (self.model.chunk_plan_cost(&plan) < self.model.chunk_plan_cost(whole))
            .then_some((from, plan))
    }

    /// Admission, FIFO: while a slot is running, at most one prefill chunk
    /// runs per step (so a running slot waits for one chunk at most between
    /// two tokens); when none is, every free slot is filled at once, in
    /// calls of their own, before the first decode step.
    ///
    /// Why fill them all first, even when decode calls carry chunks: a
    /// decode step costs the same with one row as with all of them, so
    /// decoding the first prompts while the next ride in their steps
    /// spends whole steps on few rows. On the 1B preset (bf16 form, 8
    /// slots) that took 2.7 s to start the eighth request, against 1.4 s
    /// filling every slot first (docs/performance.md, sixty-third session).
    pub(super) fn admit(&mut self, events: &mut Vec<Event>) {
        self.place_ready(events);
        let running = self.slots.iter().any(Option::is_some);
        let mut budget = if running { 1 } else { usize::MAX };
        loop {
            if self.admission.is_none() {
                let carried = if running && self.decode_chunks {
                    self.carried_size()
                } else {
                    None
                };
                if !self.begin_admission(carried, running, events) {
                    return;
                }
                match (running, carried) {
                    (true, Some(_)) => self.stats.carried_prompts += 1,
                    (true, None) => self.stats.alone_prompts += 1,
                    _ => {}
                }
            }
            let Some(adm) = self.admission.take() else {
                continue;
            };
            if adm.members.is_empty() {
                // Every choice was cancelled: its slots are free again.
                continue;
            }
            if budget == 0 {
                self.admission = Some(adm);
                return;
            }
            budget -= 1;
            if running && self.decode_chunks {
                // The chunk rides in this step's decode call, if its graph
                // is loaded (the decode decides, `BatchEngine::decode`).
                self.admission = Some(adm);
                self.ride = true;
                return;
            }
            let mut adm = adm;
            if !running && adm.carried {
                // Nobody is running any more: the rest goes in chunks of
                // the calls' own size, through graphs already loaded where
                // they can.
                let from = adm.plan[adm.next].start;
                let len = adm.prompt.len();
                let rest = self
                    .model
                    .loaded_chunk_plan_from(self.kv.slots(), from, len, self.max_chunk)
                    .unwrap_or_else(|| self.model.chunk_plan_from(from, len, self.max_chunk));
                adm.plan.truncate(adm.next);
                adm.plan.extend(rest);
                adm.carried = false;
            }
            self.run_chunk(adm, events);
        }
    }

    /// The largest chunk of the next prompt admitted while rows generate
    /// (decode calls carry chunks), or `None` for calls of its own:
    /// `carried_chunk`, unless the engine chooses the way by cost.
    fn carried_size(&self) -> Option<usize> {
        match self.carry_choice.as_ref().map(|c| c.way()) {
            None => Some(self.carried_chunk),
            Some(Way::Carried(size)) => Some(size),
            Some(Way::Alone) => None,
        }
    }

    /// An admission's prompt has been prefilled: what its chunks cost the
    /// running rows a token, if they all went one way and rows were
    /// running when it was admitted, measures that way.
    fn measure(&mut self, spent: &Spent) {
        let Some(choice) = &mut self.carry_choice else {
            return;
        };
        if !spent.while_running {
            return;
        }
        let way = match (spent.alone.is_zero(), spent.carrying_steps) {
            (false, 0) => Way::Alone,
            (true, steps) if steps > 0 => spent.way,
            _ => return,
        };
        let (alone, carrying, steps) = (spent.alone, spent.carrying, spent.carrying_steps);
        if let Some(wait) = choice.waited(alone, carrying, steps, spent.idle_rows) {
            choice.record(way, wait, spent.tokens);
        }
    }

    /// Runs the next chunk of `adm` as a call of its own.
    pub(super) fn run_chunk(&mut self, mut adm: Admission, events: &mut Vec<Event>) {
        let call = adm.plan[adm.next];
        let start = Instant::now();
        let result = self.take_fault(Fault::NextPrefill).and_then(|()| {
            self.model
                .prefill_chunk_at(&mut self.kv, adm.slot, &adm.prompt, call)
        });
        let took = start.elapsed();
        self.stats.prefill_chunks += 1;
        self.stats.prefill_time += took;
        adm.spent.alone += took;
        adm.spent.tokens += call.len;
        self.chunk_done(adm, result.map_err(|e| error_message(&e)), events);
    }

    /// The next chunk of `adm` has run (alone or inside a decode call) with
    /// `result`: the prompt's last token's logits when it ended the prompt,
    /// or what went wrong.
    pub(super) fn chunk_done(
        &mut self,
        mut adm: Admission,
        result: Result<Option<Vec<f32>>, String>,
        events: &mut Vec<Event>,
    ) {
        match &result {
            Ok(_) => {
                let call = adm.plan[adm.next];
                let tokens = &adm.prompt[call.start..call.start + call.len];
                self.resident.wrote(adm.slot, call.start, tokens);
            }
            Err(_) => self.resident.forget(adm.slot),
        }
        match result {
            Err(message) => {
                self.stats.prefills += 1;
                for (p, _) in &adm.members {
                    events.push(p.finished(FinishReason::Error, Some(message.clone())));
                }
            }
            Ok(None) => {
                adm.next += 1;
                self.admission = Some(adm);
            }
            Ok(Some(logits)) => {
                self.stats.prefills += 1;
                self.measure(&adm.spent);
                self.start_decoding(adm, logits, events);
            }
        }
    }

    /// The prefill of `adm` has ended with `logits`: each choice gets the
    /// prompt's cache in its slot and samples its first token from its own
    /// copy of the logits.
    fn start_decoding(&mut self, adm: Admission, mut logits: Vec<f32>, events: &mut Vec<Event>) {
        for (mut p, slot) in adm.members {
            if slot != adm.slot {
                // The other choices share the prompt: its cache is copied
                // slot to slot on the device.
                if let Err(e) = self.model.copy_kv_slot(&mut self.kv, adm.slot, slot) {
                    self.resident.forget(slot);
                    events.push(p.finished(FinishReason::Error, Some(error_message(&e))));
                    continue;
                }
                self.resident.copied(adm.slot, slot, usize::MAX);
            }
            events.push(Event::Prefilled {
                id: p.id,
                cached: adm.reused,
            });
            // A host transform edits the row in place and restores it.
            let state = &mut self.states[slot];
            let spare = slot == self.batch;
            state.begin(&p.request.logit, &p.request.prompt);
            let sampled = state.sample_in_place(
                &mut self.sampler,
                &mut logits,
                &p.request.params,
                &p.request.logit,
                0,
            );
            match sampled {
                Err(e) => events
                    .push(p.finished(FinishReason::Error, Some(format!("sampling failed: {e}")))),
                Ok(s) => {
                    state.accept(&p.request.logit, s.token);
                    // In the spare slot the first token is held back until
                    // the request has a row, so that its tokens come at the
                    // others' pace: sent at once, it would be followed by a
                    // wait as long as a running row takes to end.
                    let mut held = Vec::new();
                    let out = if spare { &mut held } else { &mut *events };
                    match p.accept(s.token, s.logprobs, &self.eos, out) {
                        Some(reason) => {
                            events.append(&mut held);
                            self.stats.tokens += p.generated as u64;
                            events.push(p.finished(reason, None));
                        }
                        None if spare => {
                            self.stats.spare_prefills += 1;
                            self.ready = Some(Ready { progress: p, held });
                            self.place_ready(events);
                        }
                        None => self.slots[slot] = Some(p),
                    }
                }
            }
        }
    }

    /// Moves the request ready in the spare slot to the first free row: its
    /// prompt's cache is copied there, and its penalties' state with it.
    fn place_ready(&mut self, events: &mut Vec<Event>) {
        if self.ready.is_none() {
            return;
        }
        let Some(&row) = self.free_slots().first() else {
            return;
        };
        let Ready {
            progress: p,
            mut held,
        } = self.ready.take().expect("checked above");
        let start = Instant::now();
        let spare = self.batch;
        let copied = self
            .model
            .copy_kv_positions(&mut self.kv, spare, row, p.position);
        self.stats.spare_move_time += start.elapsed();
        match copied {
            Ok(()) => {
                self.resident.copied(spare, row, p.position);
                self.states.swap(spare, row);
                self.slots[row] = Some(p);
                events.append(&mut held);
            }
            Err(e) => {
                self.resident.forget(row);
                // Its first token still goes out, as `generated` counts it.
                events.append(&mut held);
                self.stats.tokens += p.generated as u64;
                events.push(p.finished(FinishReason::Error, Some(error_message(&e))));
            }
        }
    }
}

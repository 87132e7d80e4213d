//! A decode step of the batch engine (step 2 of the module documentation
//! in `batch.rs`): each row's token and position, the one decode call of
//! every row (carrying the admission's next chunk when it rides), and the
//! sampling of each running row from what the call returned.

use std::time::Instant;

use super::admission::Admission;
use super::{BatchEngine, Fault, samples_on_device};
use crate::engine::{Event, FinishReason, error_message};
use crate::model::{ModelError, RowDraw};
use crate::types::TokenId;

impl BatchEngine {
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

    /// Each row's token and position for the decode call: a running slot's
    /// last token at its position; an idle row at its idle position, with
    /// the slot's own first token at position 0 (which rewrites that
    /// position's K/V as it was, keeping the slot's cache for reuse) and
    /// token 0 elsewhere.
    fn fill_rows(&mut self) {
        for (i, slot) in self.slots.iter().enumerate() {
            (self.tokens[i], self.positions[i]) = match slot {
                Some(p) => (p.last, p.position),
                None => match self.admission.as_ref().map_or(0, |a| a.idle_position(i)) {
                    0 => (self.resident.first(i), 0),
                    at => (TokenId(0), at),
                },
            };
        }
    }

    /// The decode call of `fill_rows`' rows ran: each running row's token
    /// is in its slot's cache, and each idle row's filler too.
    fn record_rows(&mut self) {
        for i in 0..self.batch {
            let (token, at) = (self.tokens[i], self.positions[i]);
            if self.slots[i].is_some() {
                self.resident.wrote(i, at, &[token]);
            } else {
                self.resident.filled(i, at, token);
            }
        }
    }

    /// A decode call failed: any row's slot may have been written.
    fn forget_rows(&mut self) {
        for i in 0..self.batch {
            self.resident.forget(i);
        }
    }

    pub(super) fn decode(&mut self, events: &mut Vec<Event>) {
        self.finish_full_rows(events);
        let mut ride = std::mem::take(&mut self.ride);
        if ride && self.slots.iter().all(Option::is_none) {
            // Every running row ended: the chunk runs alone.
            let adm = self.admission.take().expect("a riding chunk");
            self.run_chunk(adm, events);
            ride = false;
        }
        if self.slots.iter().all(Option::is_none) {
            return;
        }
        self.fill_rows();
        if ride {
            let (_, _, call) = self
                .admission
                .as_ref()
                .expect("a riding chunk")
                .next_chunk();
            let kind = self
                .model
                .decode_chunk_kind(&self.kv, &self.positions, call);
            if !self.model.is_loaded(kind) {
                // Not compiled up front: the chunk runs alone, before the
                // decode (as without decode chunks).
                let adm = self.admission.take().expect("a riding chunk");
                self.run_chunk(adm, events);
                ride = false;
                self.fill_rows();
            }
        }
        let active = self.slots.iter().flatten().count() as u64;
        let start = Instant::now();
        let host_rows = !self.device_sampling
            || self
                .slots
                .iter()
                .flatten()
                .any(|p| !samples_on_device(&p.request));
        let mut chunk = None;
        let mut carried = None;
        if ride {
            let adm = self.admission.take().expect("a riding chunk");
            match self.take_fault(Fault::NextPrefill) {
                // The chunk fails alone; the rows decode in a plain call.
                Err(e) => self.chunk_done(adm, Err(error_message(&e)), events),
                Ok(()) => {
                    let result = self
                        .take_fault(Fault::NextDecode)
                        .and_then(|()| self.decode_call_with_chunk(host_rows, &adm));
                    let took = start.elapsed();
                    self.stats.mixed_steps += 1;
                    self.stats.mixed_time += took;
                    self.stats.mixed_rows += active;
                    self.stats.prefill_chunks += 1;
                    match result {
                        Ok(outcome) => {
                            let mut adm = adm;
                            adm.carried_step(took, self.batch, self.waiting_rows());
                            chunk = Some((adm, outcome.logits));
                            carried = Some(outcome.bytes);
                        }
                        // The newcomer's prompt fails, as a failed chunk
                        // call of its own would; the running rows are
                        // decoded again in a plain call below (which ends
                        // them if the device fails again).
                        Err(e) => {
                            self.forget_rows();
                            self.chunk_done(adm, Err(error_message(&e)), events)
                        }
                    }
                }
            }
        }
        let result = match carried {
            Some(bytes) => Ok(bytes),
            None => {
                let start = Instant::now();
                let result = self
                    .take_fault(Fault::NextDecode)
                    .and_then(|()| self.decode_call(host_rows));
                let took = start.elapsed();
                self.stats.decode_steps += 1;
                self.stats.decode_time += took;
                if let Some(choice) = &mut self.carry_choice {
                    choice.plain_step(took);
                }
                let waiting = self.waiting_rows();
                if let Some(adm) = &mut self.admission {
                    adm.idle_step(self.batch, waiting);
                }
                self.stats.decode_rows += active;
                result
            }
        };
        match result {
            Ok(_) => self.record_rows(),
            Err(_) => self.forget_rows(),
        }
        if let Ok(bytes) = result {
            self.stats.readback_bytes += bytes as u64;
            if host_rows {
                self.stats.host_path_steps += 1;
            } else {
                self.stats.device_path_steps += 1;
            }
        }
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
            let state = &mut self.states[i];
            let sampled = if self.device_sampling && samples_on_device(&p.request) {
                let id = self.ids[i];
                // The graph answers V for a row without a maximum (NaN).
                if id.index() < vocab {
                    Ok(crate::sampler::Sampled {
                        token: id,
                        logprobs: None,
                    })
                } else {
                    Err("the device sampler found no largest logit (NaN logits)".to_string())
                }
            } else {
                let row = &mut self.logits[i * vocab..(i + 1) * vocab];
                state
                    .sample_in_place(
                        &mut self.sampler,
                        row,
                        &p.request.params,
                        &p.request.logit,
                        p.generated as u64,
                    )
                    .map_err(|e| e.to_string())
            };
            let outcome = match sampled {
                Ok(s) => {
                    state.accept(&p.request.logit, s.token);
                    p.accept(s.token, s.logprobs, &self.eos, events)
                        .map(|r| (r, None))
                }
                Err(e) => Some((FinishReason::Error, Some(format!("sampling failed: {e}")))),
            };
            if let Some((reason, message)) = outcome {
                let p = self.slots[i].take().expect("active slot");
                self.stats.tokens += p.generated as u64;
                events.push(p.finished(reason, message));
            }
        }
        // The prompt whose chunk rode in this call: its slot joins the
        // next step's decode once its last chunk has run.
        if let Some((adm, logits)) = chunk {
            self.chunk_done(adm, Ok(logits), events);
        }
    }

    /// The decode call of a step: through the sampling graph with each
    /// row's draw (reading the logits back only when `host_rows`), or the
    /// logits graph when device sampling is off. Returns the bytes read back.
    fn decode_call(&mut self, host_rows: bool) -> Result<usize, ModelError> {
        if !self.device_sampling {
            self.model.decode_logits(
                &mut self.kv,
                &self.tokens,
                &self.positions,
                &mut self.logits,
            )?;
            return Ok(self.logits.len() * 4);
        }
        self.set_draws();
        self.model.decode_sample(
            &mut self.kv,
            &self.tokens,
            &self.positions,
            &self.draws,
            &mut self.ids,
            host_rows.then_some(&mut self.logits),
        )
    }

    /// Each row's draw for a sampling call: the request's, when it samples
    /// on the device (and device sampling is on), else the argmax, for the
    /// host to sample from the logits or for an empty row.
    fn set_draws(&mut self) {
        for (draw, slot) in self.draws.iter_mut().zip(&self.slots) {
            *draw = match slot {
                Some(p) if self.device_sampling && samples_on_device(&p.request) => {
                    RowDraw::for_token(p.request.params.temperature, p.seed, p.generated as u64)
                }
                _ => RowDraw::GREEDY,
            };
        }
    }

    /// [`decode_call`](Self::decode_call) carrying the next chunk of `adm`
    /// ([`DeviceModel::decode_sample_with_chunk`]). With device sampling off
    /// every row draws the argmax and the host samples from the logits.
    fn decode_call_with_chunk(
        &mut self,
        host_rows: bool,
        adm: &Admission,
    ) -> Result<crate::model::ChunkOutcome, ModelError> {
        self.set_draws();
        self.model.decode_sample_with_chunk(
            &mut self.kv,
            &self.tokens,
            &self.positions,
            &self.draws,
            &mut self.ids,
            host_rows.then_some(&mut self.logits),
            adm.next_chunk(),
        )
    }
}

//! One sequence at a time over the argmax graphs: the device picks each token
//! (lowest id on ties) and only a token id comes back per step. Greedy only;
//! it is the reference the batch engine's greedy streams are compared with.

use std::time::Instant;

use super::{
    Engine, EngineStats, EngineStatus, Event, FinishReason, Progress, Queue, Request, SubmitError,
    error_message, validate,
};
use crate::emit::{GraphKind, Output};
use crate::model::{DeviceModel, KvCache, ModelError};
use crate::types::{RequestId, TokenId};

pub struct SingleEngine {
    model: DeviceModel,
    kv: KvCache,
    current: Option<Progress>,
    queue: Queue,
    eos: Vec<TokenId>,
    stats: EngineStats,
}

impl SingleEngine {
    pub fn new(mut model: DeviceModel) -> Result<Self, ModelError> {
        model.ensure_graph(GraphKind::Decode {
            batch: 1,
            output: Output::Argmax,
            window: None,
            spare: 0,
        })?;
        Ok(SingleEngine {
            kv: model.new_kv()?,
            eos: model.config().eos_token_ids.clone(),
            model,
            current: None,
            queue: Queue::default(),
            stats: EngineStats::default(),
        })
    }

    pub fn model(&self) -> &DeviceModel {
        &self.model
    }

    fn finish(
        &mut self,
        p: Progress,
        reason: FinishReason,
        message: Option<String>,
        events: &mut Vec<Event>,
    ) {
        self.stats.tokens += p.generated as u64;
        events.push(p.finished(reason, message));
    }

    /// One step: see [`Engine::step`].
    fn step_once(&mut self) -> Vec<Event> {
        let mut events = self.queue.take_reported();
        let (mut p, token) = match self.current.take() {
            None => {
                let Some(p) = self.queue.pop() else {
                    return events;
                };
                let start = Instant::now();
                let result = self.model.prefill_argmax(&mut self.kv, &p.request.prompt);
                self.stats.prefills += 1;
                self.stats.prefill_time += start.elapsed();
                match result {
                    Ok(t) => {
                        events.push(Event::Prefilled {
                            id: p.id,
                            cached: 0,
                        });
                        (p, t)
                    }
                    Err(e) => {
                        self.finish(p, FinishReason::Error, Some(error_message(&e)), &mut events);
                        return events;
                    }
                }
            }
            Some(mut p) => {
                let start = Instant::now();
                let result = self
                    .model
                    .decode_argmax(&mut self.kv, &[p.last], &[p.position]);
                self.stats.decode_steps += 1;
                self.stats.decode_rows += 1;
                self.stats.decode_time += start.elapsed();
                match result {
                    Ok(tokens) => {
                        p.position += 1;
                        (p, tokens[0])
                    }
                    Err(e) => {
                        self.finish(p, FinishReason::Error, Some(error_message(&e)), &mut events);
                        return events;
                    }
                }
            }
        };
        match p.accept(token, None, &self.eos, &mut events) {
            Some(reason) => self.finish(p, reason, None, &mut events),
            None => self.current = Some(p),
        }
        events
    }
}

impl Engine for SingleEngine {
    fn submit(&mut self, request: Request) -> Result<RequestId, SubmitError> {
        if !request.params.is_greedy() {
            return Err(SubmitError::GreedyOnly);
        }
        if let Some(field) = request.logit.active_field() {
            return Err(SubmitError::NoHostLogits { field });
        }
        validate(&request, self.model.capacity(), self.model.vocab())?;
        Ok(self.queue.push(request))
    }

    fn cancel(&mut self, id: RequestId) -> bool {
        if self.queue.cancel_waiting(id) {
            return true;
        }
        if self.current.as_ref().is_some_and(|p| p.id == id) {
            let p = self.current.take().expect("running request");
            self.stats.tokens += p.generated as u64;
            self.queue.report(p.finished(FinishReason::Cancelled, None));
            return true;
        }
        false
    }

    /// Prefills the next request, or decodes one token of the current one.
    fn step(&mut self) -> Vec<Event> {
        let start = Instant::now();
        let events = self.step_once();
        self.stats.step_time += start.elapsed();
        events
    }

    fn is_idle(&self) -> bool {
        self.queue.is_empty() && self.current.is_none()
    }

    fn status(&self) -> EngineStatus {
        EngineStatus {
            queued: self.queue.len(),
            active: usize::from(self.current.is_some()),
            slots: 1,
        }
    }

    fn stats(&self) -> EngineStats {
        self.stats
    }

    fn capacity(&self) -> usize {
        self.model.capacity()
    }
}

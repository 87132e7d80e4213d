//! Chunked prefill on the device: one chunk call of a prompt's plan
//! ([`crate::emit::chunk_plan`]) at a time, or the whole plan at once. The
//! batched engine runs one call per step, between decode steps.

use super::{DeviceModel, KvCache, ModelError, Result};
use crate::emit::{
    ChunkCall, GraphKind, Output, carried_plan_from, chunk_plan, chunk_plan_from, loaded_plan_from,
    plan_cost,
};
use crate::fit::FitError;
use crate::types::TokenId;

impl DeviceModel {
    /// The chunk calls that prefill a prompt of `prompt` tokens with chunks
    /// of at most `max_chunk` tokens in this model's capacity.
    pub fn chunk_plan(&self, prompt: usize, max_chunk: usize) -> Result<Vec<ChunkCall>> {
        if prompt == 0 || prompt > self.capacity() {
            return Err(FitError::DoesNotFit {
                prompt,
                max_tokens: 0,
                capacity: self.capacity(),
            }
            .into());
        }
        let padding = self.manifest().plan.chunk_padding();
        Ok(chunk_plan(
            prompt,
            self.capacity() as i64,
            max_chunk,
            padding,
        ))
    }

    /// The chunk calls that prefill positions `from..prompt` of a prompt
    /// whose earlier positions are in its slot already, with chunks of at
    /// most `max_chunk` tokens ([`chunk_plan_from`]); graphs not loaded
    /// compile on first use.
    pub fn chunk_plan_from(&self, from: usize, prompt: usize, max_chunk: usize) -> Vec<ChunkCall> {
        chunk_plan_from(
            from,
            prompt,
            self.capacity() as i64,
            max_chunk,
            self.manifest().plan.chunk_padding(),
        )
    }

    /// The chunk calls that prefill positions `from..prompt` in chunks
    /// decode calls carry, of at most `carried` tokens
    /// ([`carried_plan_from`]): below the smallest graph, each in that
    /// graph with its padding rows skipped.
    pub fn carried_chunk_plan_from(
        &self,
        from: usize,
        prompt: usize,
        carried: usize,
    ) -> Vec<ChunkCall> {
        carried_plan_from(
            from,
            prompt,
            self.capacity() as i64,
            carried,
            self.manifest().plan.chunk_padding(),
        )
    }

    /// The logits graph that runs `call` over a cache of `slots` slots.
    pub fn chunk_kind(slots: usize, call: &ChunkCall) -> GraphKind {
        chunk_graph(slots, call.size, call.window)
    }

    /// The chunk calls that prefill positions `from..prompt` of a prompt
    /// into a cache of `slots` slots whose positions before `from` already
    /// hold the prompt's tokens, through chunk graphs that are loaded only
    /// ([`loaded_plan_from`]): `None` if that takes a graph not loaded.
    pub fn loaded_chunk_plan_from(
        &self,
        slots: usize,
        from: usize,
        prompt: usize,
        max_chunk: usize,
    ) -> Option<Vec<ChunkCall>> {
        if from >= prompt || prompt > self.capacity() {
            return None;
        }
        let loaded = |tokens: i64, window: i64| self.is_loaded(chunk_graph(slots, tokens, window));
        loaded_plan_from(
            from,
            prompt,
            self.capacity() as i64,
            max_chunk,
            self.manifest().plan.chunk_padding(),
            &loaded,
        )
    }

    /// What a plan's calls cost these graphs ([`plan_cost`]), to compare two
    /// ways of prefilling the same prompt.
    pub fn chunk_plan_cost(&self, calls: &[ChunkCall]) -> usize {
        plan_cost(calls, self.manifest().plan.chunk_padding())
    }

    /// Runs one chunk call of the plan of `prompt` into slot `slot` of `kv`.
    /// Returns the logits `[vocab]` of the prompt's last token when this call
    /// ends the prompt, and `None` (nothing read back) otherwise. The calls
    /// before it must have run, in order, into the same slot.
    pub fn prefill_chunk_at(
        &mut self,
        kv: &mut KvCache,
        slot: usize,
        prompt: &[TokenId],
        call: ChunkCall,
    ) -> Result<Option<Vec<f32>>> {
        self.check_chunk(kv, slot, prompt, call)?;
        let end = call.start + call.len;
        let tokens = &prompt[call.start..end];
        let kind = Self::chunk_kind(kv.slots(), &call);
        self.ensure_graph(kind)?;
        let function = self.graphs.function(kind)?;
        let mut padded: Vec<i32> = tokens.iter().map(|t| t.0 as i32).collect();
        padded.resize(call.size as usize, 0);
        let ids = self.session.upload(&[call.size], &padded)?;
        let len = self.session.upload(&[], &[call.len as i32])?;
        let slot = self.session.upload(&[], &[slot as i32])?;
        let start = self.session.upload(&[], &[call.start as i32])?;
        let mut outputs = self.call_with_kv(function, kv, &[&ids, &len, &slot, &start])?;
        if end < prompt.len() {
            return Ok(None);
        }
        Ok(Some(self.session.read::<f32>(&outputs.remove(0))?))
    }

    /// Refuses a chunk call that does not fit its slot, prompt or capacity
    /// (the cache write would be clamped silently otherwise).
    pub(super) fn check_chunk(
        &self,
        kv: &KvCache,
        slot: usize,
        prompt: &[TokenId],
        call: ChunkCall,
    ) -> Result<()> {
        if slot >= kv.slots() {
            return Err(ModelError::InvalidCall(format!(
                "slot {slot} of a cache of {} slots",
                kv.slots()
            )));
        }
        let end = call.start + call.len;
        if call.len == 0
            || call.len as i64 > call.size
            || end > prompt.len()
            || call.start as i64 + call.size > self.capacity() as i64
            || call.window < call.start as i64
            || (call.window == 0) != (call.start == 0)
        {
            return Err(ModelError::InvalidCall(format!(
                "chunk {call:?} of a prompt of {} tokens in a capacity of {}",
                prompt.len(),
                self.capacity()
            )));
        }
        self.check_tokens(&prompt[call.start..end])
    }

    /// Prefills `prompt` into slot `slot` of `kv` chunk by chunk (chunks of
    /// at most `max_chunk` tokens) and returns the logits `[vocab]` of its
    /// last token: what [`prefill_logits_at`](Self::prefill_logits_at)
    /// computes with one whole-prompt call.
    pub fn prefill_chunked_logits_at(
        &mut self,
        kv: &mut KvCache,
        slot: usize,
        prompt: &[TokenId],
        max_chunk: usize,
    ) -> Result<Vec<f32>> {
        let mut last = None;
        for call in self.chunk_plan(prompt.len(), max_chunk)? {
            last = self.prefill_chunk_at(kv, slot, prompt, call)?;
        }
        last.ok_or_else(|| ModelError::InvalidCall("an empty chunk plan".into()))
    }
}

/// The logits chunk graph of `tokens` tokens at `window` over `slots` slots.
fn chunk_graph(slots: usize, tokens: i64, window: i64) -> GraphKind {
    GraphKind::Chunk {
        slots: slots as i64,
        tokens,
        window,
        output: Output::Logits,
    }
}

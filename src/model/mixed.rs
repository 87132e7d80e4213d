//! A decode step that carries a prefill chunk ([`crate::emit::llama::decode_with_chunk`]):
//! the sampling decode of every slot and one chunk of one slot's prompt in
//! one call, so both share one read of the weights and one call's fixed cost.

use super::{DeviceModel, KvCache, ModelError, Result, RowDraw};
use crate::emit::{ChunkCall, GraphKind};
use crate::types::TokenId;

/// What a decode step with a chunk returns besides the sampled ids.
#[derive(Debug)]
pub struct ChunkOutcome {
    /// Bytes read back from the device.
    pub bytes: usize,
    /// The logits `[vocab]` of the prompt's last token when the chunk ends
    /// the prompt (`None`, nothing read back, otherwise).
    pub logits: Option<Vec<f32>>,
}

impl DeviceModel {
    /// The graph of a decode step over `positions` (one per row) of `kv`
    /// that carries chunk `call`. Its window holds the rows' positions and
    /// every cached position before the chunk's start.
    pub fn decode_chunk_kind(
        &self,
        kv: &KvCache,
        positions: &[usize],
        call: ChunkCall,
    ) -> GraphKind {
        let furthest = positions.iter().copied().max().unwrap_or(0).max(call.start);
        GraphKind::DecodeChunk {
            batch: positions.len() as i64,
            window: self.auto_window(&[furthest]),
            tokens: call.size,
            spare: kv.spare() as i64,
        }
    }

    /// Whether `kind` is loaded: a step carries a chunk only through a graph
    /// compiled beforehand, never one compiled in the middle of serving.
    pub fn is_loaded(&self, kind: GraphKind) -> bool {
        self.graphs.function(kind).is_ok()
    }

    /// [`decode_sample`](Self::decode_sample) together with chunk `call` of
    /// `prompt` into slot `slot` ([`prefill_chunk_at`](Self::prefill_chunk_at)),
    /// in one call. The decode rows write their K/V first: a chunk's slot
    /// that is a decode row (not a spare slot) runs an idle row, which must
    /// sit at the chunk's first position so that the chunk's write replaces
    /// it.
    #[allow(clippy::too_many_arguments)]
    pub fn decode_sample_with_chunk(
        &mut self,
        kv: &mut KvCache,
        tokens: &[TokenId],
        positions: &[usize],
        draws: &[RowDraw],
        ids: &mut Vec<TokenId>,
        logits: Option<&mut Vec<f32>>,
        (slot, prompt, call): (usize, &[TokenId], ChunkCall),
    ) -> Result<ChunkOutcome> {
        let batch = kv.rows();
        if tokens.len() != batch || positions.len() != batch || draws.len() != batch {
            return Err(ModelError::InvalidCall(format!(
                "decode of {batch} slots got {} tokens, {} positions and {} draws",
                tokens.len(),
                positions.len(),
                draws.len()
            )));
        }
        self.check_decode_rows(tokens, positions)?;
        self.check_chunk(kv, slot, prompt, call)?;
        if slot < batch && positions[slot] != call.start {
            return Err(ModelError::InvalidCall(format!(
                "the idle row of slot {slot} is at {}, not at the chunk's start {}",
                positions[slot], call.start
            )));
        }
        let kind = self.decode_chunk_kind(kv, positions, call);
        let function = self.graphs.function(kind)?;
        let b = batch as i64;
        let ids_in: Vec<i32> = tokens.iter().map(|t| t.0 as i32).collect();
        let pos: Vec<i32> = positions.iter().map(|&p| p as i32).collect();
        let temps: Vec<f32> = draws.iter().map(|d| d.temperature).collect();
        let keys: Vec<i32> = draws.iter().flat_map(|d| d.key.words()).collect();
        let end = call.start + call.len;
        let mut chunk: Vec<i32> = prompt[call.start..end].iter().map(|t| t.0 as i32).collect();
        chunk.resize(call.size as usize, 0);
        let inputs = [
            self.session.upload(&[b], &ids_in)?,
            self.session.upload(&[b], &pos)?,
            self.session.upload(&[b], &temps)?,
            self.session.upload(&[b, 2], &keys)?,
            self.session.upload(&[call.size], &chunk)?,
            self.session.upload(&[], &[call.len as i32])?,
            self.session.upload(&[], &[slot as i32])?,
            self.session.upload(&[], &[call.start as i32])?,
            // The chunk's logits are read only when it ends the prompt.
            self.session
                .upload(&[], &[i32::from(end == prompt.len())])?,
        ];
        let rest: Vec<_> = inputs.iter().collect();
        let outputs = self.call_with_kv(function, kv, &rest)?;
        let [out, all_logits, chunk_logits] =
            <[_; 3]>::try_from(outputs).map_err(|o: Vec<_>| {
                ModelError::InvalidCall(format!(
                    "{} returned {} results besides the caches, expected 3",
                    kind.name(),
                    o.len()
                ))
            })?;
        let mut bytes = self.read_sampled(&out, &all_logits, ids, logits)?;
        let logits = if end < prompt.len() {
            None
        } else {
            let l = self.session.read::<f32>(&chunk_logits)?;
            bytes += l.len() * 4;
            Some(l)
        };
        Ok(ChunkOutcome { bytes, logits })
    }
}

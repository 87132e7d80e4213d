//! Decode steps that sample on the device ([`crate::emit::sample`]): each
//! row brings a temperature and a draw key, the graph returns one token id
//! per row, and the logits are read back only when the caller asks.

use super::{DeviceModel, KvCache, Result};
use crate::emit::Output;
use crate::emit::sample::DrawKey;
use crate::runtime::Buffer;
use crate::sampler::SplitMix64;
use crate::types::TokenId;
use rand_core::Rng;

/// One row's draw on the device: its temperature (0 = the exact argmax) and
/// the key of its noise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowDraw {
    pub temperature: f32,
    pub key: DrawKey,
}

impl RowDraw {
    /// The draw of token `n` (0-based, within its request) of a request
    /// seeded with `seed`: the key is the first output of
    /// [`SplitMix64::for_token`]`(seed, n)`, the same 64-bit word the host
    /// sampler turns into its uniform. So the draw depends only on
    /// `(seed, n)` and the temperature, not on the batch or the slot.
    pub fn for_token(temperature: f32, seed: u64, n: u64) -> Self {
        RowDraw {
            temperature,
            key: DrawKey(SplitMix64::for_token(seed, n).next_u64()),
        }
    }

    /// The argmax (for rows whose result is not used, or greedy rows).
    pub const GREEDY: RowDraw = RowDraw {
        temperature: 0.0,
        key: DrawKey(0),
    };
}

impl DeviceModel {
    /// One decode step over the `kv.rows()` rows through the sampling graph:
    /// row i feeds `tokens[i]` at `positions[i]` of slot i and draws its next
    /// token with `draws[i]`. The ids go to `ids`; the logits `[batch,
    /// vocab]` are read back into `logits` only when it is given. Returns the
    /// bytes read back from the device.
    pub fn decode_sample(
        &mut self,
        kv: &mut KvCache,
        tokens: &[TokenId],
        positions: &[usize],
        draws: &[RowDraw],
        ids: &mut Vec<TokenId>,
        logits: Option<&mut Vec<f32>>,
    ) -> Result<usize> {
        let batch = kv.rows();
        if draws.len() != batch {
            return Err(super::ModelError::InvalidCall(format!(
                "decode of {batch} slots got {} draws",
                draws.len()
            )));
        }
        let window = self.auto_window(positions);
        let temps: Vec<f32> = draws.iter().map(|d| d.temperature).collect();
        let keys: Vec<i32> = draws.iter().flat_map(|d| d.key.words()).collect();
        let b = batch as i64;
        let temps = self.session.upload(&[b], &temps)?;
        let keys = self.session.upload(&[b, 2], &keys)?;
        let outputs = self.decode_all(
            kv,
            tokens,
            positions,
            Output::Sample,
            window,
            &[&temps, &keys],
        )?;
        let [out, all_logits] = <[_; 2]>::try_from(outputs).map_err(|o: Vec<_>| {
            super::ModelError::InvalidCall(format!(
                "the sampling decode returned {} results besides the caches, expected 2",
                o.len()
            ))
        })?;
        self.read_sampled(&out, &all_logits, ids, logits)
    }

    /// Reads a sampling call's token ids `out` [batch] into `ids`, and its
    /// logits `all_logits` [batch, vocab] into `logits` when given; returns
    /// the bytes read back.
    pub(super) fn read_sampled(
        &self,
        out: &Buffer,
        all_logits: &Buffer,
        ids: &mut Vec<TokenId>,
        logits: Option<&mut Vec<f32>>,
    ) -> Result<usize> {
        let read = self.session.read::<i32>(out)?;
        ids.clear();
        ids.extend(read.iter().map(|&t| TokenId(t as u32)));
        let mut bytes = read.len() * 4;
        if let Some(logits) = logits {
            logits.resize(read.len() * self.vocab(), 0.0);
            self.session.read_into(all_logits, 0, logits)?;
            bytes += logits.len() * 4;
        }
        Ok(bytes)
    }
}

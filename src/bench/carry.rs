//! `graph-bench --carry`: what a decode step pays to carry a prompt's chunk
//! ([`DeviceModel::decode_sample_with_chunk`]) against the same plain step,
//! timed interleaved in one run so machine load hits both alike. The
//! difference is what the engine's admission costs its running slots per
//! carried chunk with `--carry-chunks`.

use std::time::{Duration, Instant};

use super::median;
use crate::emit::chunk_plan_from;
use crate::model::{DeviceModel, ModelError, RowDraw};
use crate::types::TokenId;

/// Where the carried chunk starts in its slot: a prompt's second chunk or
/// later, reading cached positions as most carried chunks do.
pub const CHUNK_START: usize = 32;

/// One batch size and chunk size, side by side.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CarriedChunk {
    pub batch: i64,
    pub tokens: i64,
    /// Median plain sampling decode step.
    pub plain_ms: f64,
    /// Median step carrying the chunk.
    pub carrying_ms: f64,
}

impl CarriedChunk {
    /// What one token of the chunk added to the step.
    pub fn ms_per_token(&self) -> f64 {
        (self.carrying_ms - self.plain_ms) / self.tokens as f64
    }
}

/// The positions of the rows (the last slot's idle row at the chunk's
/// start, as the engine points it) and the chunk of `tokens` tokens a step
/// carries into the last slot.
fn layout(
    model: &DeviceModel,
    batch: usize,
    position: usize,
    tokens: usize,
) -> Result<(Vec<usize>, crate::emit::ChunkCall), ModelError> {
    let capacity = model.capacity();
    let start = CHUNK_START.min(capacity.saturating_sub(tokens + 1));
    let padding = model.manifest().plan.chunk_padding();
    let call = chunk_plan_from(start, start + tokens, capacity as i64, tokens, padding)[0];
    let mut positions = vec![position; batch];
    positions[batch - 1] = call.start;
    Ok((positions, call))
}

/// Times `iterations` plain steps and steps carrying a `tokens`-token chunk
/// (after one warm-up each) for `batch` rows at `position`, greedy. The
/// model compiles the graphs on demand.
pub fn compare(
    model: &mut DeviceModel,
    batch: i64,
    position: usize,
    tokens: usize,
    iterations: usize,
    token: impl Fn(usize) -> TokenId,
) -> Result<CarriedChunk, ModelError> {
    let b = batch as usize;
    let (positions, call) = layout(model, b, position, tokens)?;
    let mut kv = model.new_kv_slots(b)?;
    model.ensure_graph(model.decode_chunk_kind(&kv, &positions, call))?;
    let rows: Vec<TokenId> = (0..b).map(&token).collect();
    let prompt: Vec<TokenId> = (0..call.start + call.len).map(&token).collect();
    let draws = vec![RowDraw::GREEDY; b];
    let mut ids = Vec::new();
    let (mut plain, mut carrying) = (Vec::new(), Vec::new());
    for n in 0..=iterations {
        let t = Instant::now();
        model.decode_sample(&mut kv, &rows, &positions, &draws, &mut ids, None)?;
        let step = t.elapsed();
        let t = Instant::now();
        model.decode_sample_with_chunk(
            &mut kv,
            &rows,
            &positions,
            &draws,
            &mut ids,
            None,
            (b - 1, &prompt, call),
        )?;
        if n > 0 {
            plain.push(step);
            carrying.push(t.elapsed());
        }
    }
    let ms = |xs: Vec<Duration>| median(xs).as_secs_f64() * 1e3;
    Ok(CarriedChunk {
        batch,
        tokens: call.size,
        plain_ms: ms(plain),
        carrying_ms: ms(carrying),
    })
}

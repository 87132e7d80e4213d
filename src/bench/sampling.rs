//! `graph-bench --sampling`: one decode step sampled on the host (logits
//! graph, logits read back, the host sampler on every row) against the same
//! step sampled on the device (sampling graph, token ids read back), timed
//! interleaved in one run so machine load hits both alike.

use std::time::{Duration, Instant};

use super::median;
use crate::model::{DeviceModel, ModelError, RowDraw};
use crate::sampler::{SampleParams, Sampler};
use crate::types::TokenId;

/// The two sampling paths of one batch size, side by side.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SamplingPaths {
    pub batch: i64,
    /// Median step (decode call, read back, sampling) on the host path.
    pub host_step_ms: f64,
    /// Of which the host sampler's share (median).
    pub host_sampler_ms: f64,
    pub host_bytes_read: usize,
    /// Median step on the device path.
    pub device_step_ms: f64,
    pub device_bytes_read: usize,
}

/// Times `iterations` steps of each path (after one warm-up each) for
/// `batch` rows at `position`, every row sampling at temperature 1.
pub fn compare(
    model: &mut DeviceModel,
    batch: i64,
    position: usize,
    iterations: usize,
    token: impl Fn(usize) -> TokenId,
) -> Result<SamplingPaths, ModelError> {
    let b = batch as usize;
    let mut kv = model.new_kv_slots(b)?;
    let tokens: Vec<TokenId> = (0..b).map(token).collect();
    let positions = vec![position; b];
    let vocab = model.vocab();
    let mut sampler = Sampler::new(vocab);
    let params: Vec<SampleParams> = (0..b as u64)
        .map(|i| SampleParams::with_temperature(1.0).seeded(100 + i))
        .collect();
    let mut logits = Vec::new();
    let mut ids = Vec::new();
    let (mut host, mut host_sampler, mut device) = (Vec::new(), Vec::new(), Vec::new());
    let (mut host_bytes, mut device_bytes) = (0, 0);
    for n in 0..=iterations as u64 {
        let t = Instant::now();
        model.decode_logits(&mut kv, &tokens, &positions, &mut logits)?;
        let s = Instant::now();
        for (i, p) in params.iter().enumerate() {
            let row = &logits[i * vocab..(i + 1) * vocab];
            let chosen = sampler
                .sample(row, p, n)
                .map_err(|e| ModelError::InvalidCall(format!("host sampling failed: {e}")))?;
            std::hint::black_box(chosen);
        }
        let (step, sampling) = (t.elapsed(), s.elapsed());
        host_bytes = logits.len() * 4;

        let draws: Vec<RowDraw> = params
            .iter()
            .map(|p| RowDraw::for_token(p.temperature, p.seed.unwrap_or(0), n))
            .collect();
        let t = Instant::now();
        device_bytes = model.decode_sample(&mut kv, &tokens, &positions, &draws, &mut ids, None)?;
        let device_step = t.elapsed();
        if n > 0 {
            host.push(step);
            host_sampler.push(sampling);
            device.push(device_step);
        }
    }
    let ms = |xs: Vec<Duration>| median(xs).as_secs_f64() * 1e3;
    Ok(SamplingPaths {
        batch,
        host_step_ms: ms(host),
        host_sampler_ms: ms(host_sampler),
        host_bytes_read: host_bytes,
        device_step_ms: ms(device),
        device_bytes_read: device_bytes,
    })
}

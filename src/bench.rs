//! Measurements printed by the CLI: graph timings (compile, prefill, decode
//! step, peak memory) for one model on one device. Figures come from wall
//! clocks around real device calls; nothing here gates tests.

use std::time::{Duration, Instant};

use crate::emit::{EmitPlan, GraphKind, Output};
use crate::model::{DeviceModel, LoadOptions, LoadProgress, ModelError};
use crate::runtime::Instance;
use crate::types::{DeviceUri, TokenId};

/// Peak resident set size of this process in bytes (Linux `VmHWM`).
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

pub fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// Median of some durations.
pub fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

/// What `graph-bench` measures.
#[derive(Clone, Debug)]
pub struct GraphBenchOptions {
    pub device: DeviceUri,
    pub capacity: i64,
    pub batches: Vec<i64>,
    pub prefill_lengths: Vec<usize>,
    pub iterations: usize,
    /// Position of every row during the decode measurement.
    pub decode_position: usize,
}

/// Results of `graph-bench`, printed as text and as one JSON line.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GraphBenchReport {
    pub device: String,
    pub capacity: i64,
    pub modules: usize,
    pub modules_compiled: usize,
    pub compile_s: f64,
    pub upload_s: f64,
    pub weight_gib: f64,
    /// (batch, median step ms)
    pub decode_step_ms: Vec<(i64, f64)>,
    /// (tokens, median prefill ms)
    pub prefill_ms: Vec<(usize, f64)>,
    pub peak_rss_gib: f64,
}

/// Loads the graphs needed, then times prefill and decode.
pub fn graph_bench(
    dir: &std::path::Path,
    opts: &GraphBenchOptions,
    progress: &dyn LoadProgress,
    log: &mut dyn FnMut(&str),
) -> Result<GraphBenchReport, ModelError> {
    let plan = EmitPlan::new(opts.capacity, &opts.batches)?;
    let mut graphs = Vec::new();
    for &len in &opts.prefill_lengths {
        let tokens = plan.bucket_for(len).ok_or(ModelError::ContextOverflow {
            needed: len,
            capacity: opts.capacity as usize,
        })?;
        let kind = GraphKind::Prefill {
            tokens,
            output: Output::Logits,
        };
        if !graphs.contains(&kind) {
            graphs.push(kind);
        }
    }
    for &batch in &opts.batches {
        graphs.push(GraphKind::Decode {
            batch,
            output: Output::Logits,
        });
    }
    let load_opts = LoadOptions::with_graphs(opts.device.clone(), plan, graphs);
    let mut model = DeviceModel::load(&Instance::new()?, dir, &load_opts, progress)?;
    let stats = model.stats().clone();
    log(&format!(
        "loaded {} graphs ({} compiled now) in {:.1}s, uploaded {:.2} GiB of f32 parameters in {:.1}s",
        stats.modules,
        stats.modules_compiled,
        stats.compile_time.as_secs_f64(),
        gib(stats.weight_bytes as u64),
        stats.upload_time.as_secs_f64()
    ));

    let vocab = model.vocab() as u32;
    let token = |i: usize| TokenId((i as u32 * 2654435761 % (vocab - 300)) + 1);
    let mut prefill_ms = Vec::new();
    for &len in &opts.prefill_lengths {
        let tokens: Vec<TokenId> = (0..len).map(token).collect();
        let mut kv = model.new_kv()?;
        model.prefill(&mut kv, &tokens, Output::Logits)?; // warm-up
        let times: Vec<Duration> = (0..opts.iterations)
            .map(|_| {
                let t = Instant::now();
                model
                    .prefill(&mut kv, &tokens, Output::Logits)
                    .map(|_| t.elapsed())
            })
            .collect::<Result<_, _>>()?;
        let ms = median(times).as_secs_f64() * 1e3;
        log(&format!(
            "prefill {len:>5} tokens: {ms:9.2} ms (median of {})",
            opts.iterations
        ));
        prefill_ms.push((len, ms));
    }

    let mut decode_step_ms = Vec::new();
    for &batch in &opts.batches {
        let b = batch as usize;
        let mut kvs: Vec<_> = (0..b).map(|_| model.new_kv()).collect::<Result<_, _>>()?;
        let tokens: Vec<TokenId> = (0..b).map(token).collect();
        let positions = vec![opts.decode_position.min(model.capacity() - 1); b];
        let mut logits = Vec::new();
        model.decode_logits(&mut kvs, &tokens, &positions, &mut logits)?; // warm-up
        let times: Vec<Duration> = (0..opts.iterations)
            .map(|_| {
                let t = Instant::now();
                model
                    .decode_logits(&mut kvs, &tokens, &positions, &mut logits)
                    .map(|_| t.elapsed())
            })
            .collect::<Result<_, _>>()?;
        let ms = median(times).as_secs_f64() * 1e3;
        log(&format!(
            "decode B={batch}: {ms:9.2} ms per step (median of {}), {:.1} tokens/s",
            opts.iterations,
            batch as f64 * 1e3 / ms
        ));
        decode_step_ms.push((batch, ms));
    }
    let peak = peak_rss_bytes().unwrap_or(0);
    Ok(GraphBenchReport {
        device: opts.device.to_string(),
        capacity: opts.capacity,
        modules: stats.modules,
        modules_compiled: stats.modules_compiled,
        compile_s: stats.compile_time.as_secs_f64(),
        upload_s: stats.upload_time.as_secs_f64(),
        weight_gib: gib(stats.weight_bytes as u64),
        decode_step_ms,
        prefill_ms,
        peak_rss_gib: gib(peak),
    })
}

//! Measurements printed by the CLI: graph timings (compile, prefill, decode
//! step, peak memory) for one model on one device. Figures come from wall
//! clocks around real device calls; nothing here gates tests.

mod carry;
mod paired;
mod sampling;

use std::time::{Duration, Instant};

pub use sampling::SamplingPaths;

use crate::bandwidth;
use crate::emit::{EmitPlan, GraphUse};
use crate::fit::FitError;
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

/// CPU time this process has used so far, all threads together (Linux:
/// the sum of `/proc/self/task/*/schedstat`). On a shared machine the
/// wall time of a step swings with other processes' load; its CPU time
/// (work done, including the runtime's dispatch overhead) much less.
pub fn process_cpu_time() -> Option<Duration> {
    let mut ns = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        ns += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(ns))
}

pub fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// The whole-prompt prefill bucket of a prompt of `len` tokens.
fn plan_bucket(model: &DeviceModel, len: usize) -> i64 {
    model.manifest().plan.bucket_for(len).unwrap_or(0)
}

/// The least and the greatest of some figures, if there are any.
fn span(xs: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    xs.fold(None, |acc, x| match acc {
        None => Some((x, x)),
        Some((lo, hi)) => Some((lo.min(x), hi.max(x))),
    })
}

/// " (median of N probes, lo-hi)" in GB/s, where the floor came from several probes.
fn probe_range(probes: &[bandwidth::Bandwidth]) -> String {
    match span(probes.iter().map(|b| b.gb_per_s())) {
        Some((lo, hi)) if probes.len() >= 2 => {
            format!(" (median of {} probes, {lo:.1}-{hi:.1})", probes.len())
        }
        _ => String::new(),
    }
}

/// " (segments lo-hix)" for the segments' own ratios.
fn ratio_range(ratios: &[f64]) -> String {
    span(ratios.iter().copied()).map_or(String::new(), |(lo, hi)| {
        format!(" (segments {lo:.2}-{hi:.2}x)")
    })
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
    pub weights: crate::model::DeviceWeights,
    pub capacity: i64,
    pub batches: Vec<i64>,
    pub prefill_lengths: Vec<usize>,
    pub iterations: usize,
    /// Position of every row during the decode measurement.
    pub decode_position: usize,
    /// Also compare a step sampled on the host with one sampled on the
    /// device (`decode_sample_*`), for each batch size.
    pub sampling: bool,
    /// Bandwidth for the floors, in GB/s, instead of the host probe.
    pub bandwidth_gbps: Option<f64>,
    /// Chunk sizes to time a decode step carrying, for each batch size.
    pub carry: Vec<usize>,
}

/// Results of `graph-bench`, printed as text and as one JSON line.
#[derive(Clone, Debug, serde::Serialize)]
pub struct GraphBenchReport {
    pub device: String,
    pub capacity: i64,
    /// The hand-written kernels the graphs call, which decide the numeric form.
    pub kernels: crate::emit::Kernels,
    pub modules: usize,
    pub modules_compiled: usize,
    pub compile_s: f64,
    pub upload_s: f64,
    pub weight_gib: f64,
    /// (batch, median step ms) through the attention window the engine uses.
    pub decode_step_ms: Vec<(i64, f64)>,
    /// (batch, median step ms) attending over the whole capacity.
    pub decode_full_ms: Vec<(i64, f64)>,
    /// (tokens, median prefill ms): one whole-prompt call, and the chunk
    /// calls of the engine's plan.
    pub prefill_ms: Vec<(usize, f64)>,
    pub prefill_chunked_ms: Vec<(usize, f64)>,
    /// Peak resident memory of the process, without the probe's buffer.
    pub peak_rss_gib: f64,
    /// The host's streaming read measured before loading, or the figure
    /// given, in GB/s. Each decode floor has its own (`DecodeFloor::read_gb_s`).
    pub read_gb_s: Option<f64>,
    /// Where `read_gb_s` comes from: `host probe` or `given`.
    pub bandwidth_source: &'static str,
    /// Every timed decode step next to its memory floor.
    pub decode_floor: Vec<DecodeFloor>,
    /// Host-path against device-path sampling (with `sampling`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sampling: Vec<SamplingPaths>,
    /// Decode steps carrying a chunk against plain ones (with `carry`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub carried: Vec<carry::CarriedChunk>,
}

/// One decode measurement against the time its bytes take to read.
#[derive(Clone, Debug, serde::Serialize)]
pub struct DecodeFloor {
    pub batch: i64,
    /// Positions each row attends to.
    pub attends: i64,
    pub step_ms: f64,
    /// CPU time per step, all threads (mean over the timed steps), when the
    /// platform reports it.
    pub cpu_ms: Option<f64>,
    /// Weights plus every row's KV window, in bytes.
    pub bytes: u64,
    /// None on a device whose bandwidth is unknown (a GPU with no
    /// `--bandwidth-gbps`).
    pub floor_ms: Option<f64>,
    /// step_ms / floor_ms: 1.0 would be a step that only reads memory.
    pub ratio: Option<f64>,
    /// The bandwidth of the floor: the median of `probe_gb_s`, or the one given.
    pub read_gb_s: Option<f64>,
    /// The host probes taken before, between and after the step's segments.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub probe_gb_s: Vec<f64>,
    /// Each segment's median step over the floor at the mean of the two
    /// probes around it: how far the ratio moved with the host's phase.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub segment_ratios: Vec<f64>,
    /// The share of the machine's CPU time the hypervisor gave elsewhere
    /// during the timed steps (Linux `/proc/stat`): a step whose vCPUs were
    /// not running says little about its memory traffic.
    pub steal_share: Option<f64>,
    /// What the step's call asks of the device, where the compiler could
    /// count it: the step's fixed cost grows with its dispatches.
    pub schedule: Option<crate::compile::CallSchedule>,
}

/// Loads the graphs needed, then times prefill and decode.
pub fn graph_bench(
    dir: &std::path::Path,
    opts: &GraphBenchOptions,
    progress: &dyn LoadProgress,
    log: &mut dyn FnMut(&str),
) -> Result<GraphBenchReport, ModelError> {
    // Measured first, with the buffer kept resident: the floors below come
    // from the same probe run again between the timed steps, and the peak
    // resident memory is reported without it. The probe reads host memory,
    // which is what a CPU step reads; a GPU step reads device memory, whose
    // bandwidth must be given.
    let mut probe = None;
    let (bw, bandwidth_source) = match opts.bandwidth_gbps {
        Some(gbps) => {
            log(&format!(
                "memory bandwidth for the floors: {gbps:.1} GB/s (given)"
            ));
            (Some(bandwidth::Bandwidth::given(gbps)), "given")
        }
        None if opts.device.kind() == crate::types::DeviceKind::Cpu => {
            let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
            let p = bandwidth::Probe::new(bandwidth::PROBE_BYTES, threads);
            let bw = p.measure(paired::PROBE_PASSES);
            log(&format!(
                "streaming read of {:.1} GiB with {threads} threads: {:.1} GB/s (best of {}); \
                 measured again around each batch's steps for its floor",
                gib(bw.bytes as u64),
                bw.gb_per_s(),
                paired::PROBE_PASSES
            ));
            probe = Some(p);
            (Some(bw), "host probe")
        }
        None => {
            log("no floors: the host probe does not measure device memory; \
                 pass --bandwidth-gbps with the device's measured bandwidth");
            (None, "none")
        }
    };
    let plan = EmitPlan::new(opts.capacity, &opts.batches)?;
    if let Some(&len) = opts
        .prefill_lengths
        .iter()
        .find(|&&len| plan.bucket_for(len).is_none())
    {
        return Err(FitError::DoesNotFit {
            prompt: len,
            max_tokens: 0,
            capacity: opts.capacity as usize,
        }
        .into());
    }
    // Decode at the measured position through the window the engine would
    // pick, and through the whole capacity for comparison.
    let window = plan.window_for(opts.decode_position);
    let use_ = GraphUse::Timing {
        prefill_lengths: opts.prefill_lengths.clone(),
        batches: opts.batches.clone(),
        position: opts.decode_position,
    };
    let mut load_opts = LoadOptions::for_use(opts.device.clone(), plan, &use_);
    load_opts.device_weights = opts.weights;
    if opts.sampling {
        load_opts.graphs.extend(
            opts.batches
                .iter()
                .map(|&batch| crate::emit::GraphKind::Decode {
                    batch,
                    output: crate::emit::Output::Sample,
                    window,
                    spare: 0,
                }),
        );
    }
    // The steps carrying a chunk compile their graphs when first timed.
    load_opts.compile_on_demand |= !opts.carry.is_empty();
    let mut model = DeviceModel::load(&Instance::new()?, dir, &load_opts, progress)?;
    let stats = model.stats().clone();
    let plan = &model.manifest().plan;
    // A quantized file's matrices are uploaded as blocks; name them.
    let mut formats: Vec<String> = plan.blocks.values().map(|f| format!("{f:?}")).collect();
    formats.sort_unstable();
    formats.dedup();
    let kinds = if formats.is_empty() {
        plan.weights.name().to_string()
    } else {
        format!("{} blocks and {}", formats.join("/"), plan.weights.name())
    };
    log(&format!(
        "loaded {} graphs ({} compiled now) in {:.1}s, uploaded {:.2} GiB of {kinds} parameters in {:.1}s",
        stats.modules,
        stats.modules_compiled,
        stats.compile_time.as_secs_f64(),
        gib(stats.weight_bytes as u64),
        stats.upload_time.as_secs_f64()
    ));
    for (name, time, compiled) in &stats.graphs {
        if *compiled {
            log(&format!("  compiled {name} in {:.1}s", time.as_secs_f64()));
        }
    }
    // Which numeric form the figures below are of (IREE_LLM_KERNELS).
    let kernels = plan.kernels;
    log(&format!("kernels: {}", kernels.describe()));
    if plan.kv_cache != crate::DType::F32 {
        log(&format!(
            "KV cache: {:?} (IREE_LLM_KV_CACHE; keys and values rounded, not exact)",
            plan.kv_cache
        ));
    }

    let vocab = model.vocab() as u32;
    let token = |i: usize| TokenId((i as u32 * 2654435761 % (vocab - 300)) + 1);
    let mut prefill_ms = Vec::new();
    let mut prefill_chunked_ms = Vec::new();
    for &len in &opts.prefill_lengths {
        let tokens: Vec<TokenId> = (0..len).map(token).collect();
        let mut kv = model.new_kv()?;
        let max_chunk = crate::emit::DEFAULT_MAX_CHUNK;
        let chunked = |model: &mut DeviceModel, kv: &mut _| {
            model.prefill_chunked_logits_at(kv, 0, &tokens, max_chunk)
        };
        // Warm-up, then the whole-prompt and the chunked prefill alternately.
        model.prefill_logits(&mut kv, &tokens)?;
        chunked(&mut model, &mut kv)?;
        let (mut whole, mut chunks) = (Vec::new(), Vec::new());
        for _ in 0..opts.iterations {
            let t = Instant::now();
            model.prefill_logits(&mut kv, &tokens)?;
            whole.push(t.elapsed());
            let t = Instant::now();
            chunked(&mut model, &mut kv)?;
            chunks.push(t.elapsed());
        }
        let ms = median(whole).as_secs_f64() * 1e3;
        let chunked_ms = median(chunks).as_secs_f64() * 1e3;
        let sizes: Vec<String> = model
            .chunk_plan(len, max_chunk)?
            .iter()
            .map(|c| c.size.to_string())
            .collect();
        log(&format!(
            "prefill {len:>5} tokens: {ms:9.2} ms whole (bucket {}), {chunked_ms:9.2} ms chunked ({}) (medians of {})",
            plan_bucket(&model, len),
            sizes.join("+"),
            opts.iterations
        ));
        prefill_ms.push((len, ms));
        prefill_chunked_ms.push((len, chunked_ms));
    }

    let mut decode_step_ms = Vec::new();
    let mut decode_full_ms = Vec::new();
    let mut decode_floor = Vec::new();
    // One row's KV bytes per attended position: [layers, 2, kv_heads, _, head_dim] f32.
    let kv_shape = &model.manifest().kv_shape;
    let kv_elem = model.manifest().plan.kv_cache.size_bytes() as u64;
    let kv_bytes_per_position =
        (kv_shape[0] * kv_shape[1] * kv_shape[2] * kv_shape[4]) as u64 * kv_elem;
    let position = opts.decode_position.min(model.capacity() - 1);
    let shape = crate::emit::LlamaShape::from(model.config());
    let cached_only =
        crate::emit::kernels::takes_decode_attention(kernels, shape.group(), shape.head_dim);
    for &batch in &opts.batches {
        let b = batch as usize;
        let mut kv = model.new_kv_slots(b)?;
        let tokens: Vec<TokenId> = (0..b).map(token).collect();
        let positions = vec![position; b];
        let mut logits = Vec::new();
        // The window the engine would use, then (if different) the whole capacity.
        let windows: Vec<Option<i64>> = if window.is_some() {
            vec![window, None]
        } else {
            vec![None]
        };
        for w in windows {
            let mut step = |model: &mut DeviceModel| {
                let t = Instant::now();
                model
                    .decode_logits_in_window(&mut kv, &tokens, &positions, w, &mut logits)
                    .map(|_| t.elapsed())
            };
            let paired = paired::time_steps(
                &mut model,
                opts.iterations,
                probe.as_ref(),
                |m| m.host_times(),
                &mut step,
            )?;
            let cpu_ms = paired
                .cpu
                .map(|c| c.as_secs_f64() * 1e3 / opts.iterations as f64);
            let ms = paired.median_ms();
            let steal_share = paired.steal.and_then(|t| t.share());
            // The attention kernel reads a row's cached positions below its
            // own; the StableHLO form reads the whole window, masked.
            let window_positions = w.unwrap_or(opts.capacity);
            let attends = if cached_only {
                window_positions.min(position as i64)
            } else {
                window_positions
            };
            let bytes = bandwidth::decode_step_bytes(
                model.manifest().weight_bytes_read(batch),
                kv_bytes_per_position * attends as u64,
                batch as u64,
            );
            // Probed around these steps where there is a probe, else given.
            let step_bw = paired.median_bandwidth().or(bw);
            let floor_ms = step_bw.map(|bw| bw.floor_s(bytes) * 1e3);
            let segment_ratios = paired.segment_ratios(bytes);
            let floor = match (floor_ms, step_bw) {
                (Some(f), Some(b)) => format!(
                    "floor {f:.3} ms for {:.3} GB at {:.1} GB/s{}, {:.2}x the floor{}",
                    bytes as f64 / 1e9,
                    b.gb_per_s(),
                    probe_range(&paired.probes),
                    ms / f,
                    ratio_range(&segment_ratios),
                ),
                _ => format!("{:.3} GB read, no floor", bytes as f64 / 1e9),
            };
            log(&format!(
                "decode B={batch} at position {position}, attending to {attends:>5} positions: {ms:9.2} ms per step \
                 (median of {}, CPU {}{}), {:.1} tokens/s; {floor}",
                opts.iterations,
                cpu_ms.map_or("n/a".to_string(), |c| format!("{c:.1} ms")),
                steal_share.map_or(String::new(), |s| format!(", host steal {:.0}%", s * 1e2)),
                batch as f64 * 1e3 / ms,
            ));
            // Where the host waited: on a GPU, a step's fixed cost against its kernels.
            log(&format!(
                "  host waits per step (means): {}",
                paired.host.per_step_summary(opts.iterations)
            ));
            let kind = crate::emit::GraphKind::Decode {
                batch,
                output: crate::emit::Output::Logits,
                window: w,
                spare: kv.spare() as i64,
            };
            let schedule = match model.call_schedule(kind) {
                Ok(s) => {
                    log(&format!("  a step's call: {s}"));
                    Some(s)
                }
                Err(e) => {
                    log(&format!("  a step's call: not counted ({e})"));
                    None
                }
            };
            decode_floor.push(DecodeFloor {
                batch,
                attends,
                step_ms: ms,
                cpu_ms,
                bytes,
                floor_ms,
                ratio: floor_ms.map(|f| ms / f),
                read_gb_s: step_bw.map(|b| b.gb_per_s()),
                probe_gb_s: paired.probes.iter().map(|b| b.gb_per_s()).collect(),
                segment_ratios,
                steal_share,
                schedule,
            });
            if w == window {
                decode_step_ms.push((batch, ms));
            }
            if w.is_none() {
                decode_full_ms.push((batch, ms));
            }
        }
    }
    let mut sampling = Vec::new();
    if opts.sampling {
        for &batch in &opts.batches {
            let s = sampling::compare(&mut model, batch, position, opts.iterations, token)?;
            log(&format!(
                "sampling B={batch} at position {position}: host path {:.2} ms per step \
                 (host sampler {:.2} ms), {} bytes read back; device path {:.2} ms, {} bytes read back",
                s.host_step_ms,
                s.host_sampler_ms,
                s.host_bytes_read,
                s.device_step_ms,
                s.device_bytes_read
            ));
            sampling.push(s);
        }
    }
    let mut carried = Vec::new();
    for &batch in &opts.batches {
        for &tokens in &opts.carry {
            let c = carry::compare(&mut model, batch, position, tokens, opts.iterations, token)?;
            log(&format!(
                "decode B={batch} carrying a chunk of {} tokens at position {}: {:.2} ms per step \
                 against {:.2} ms plain (medians of {}, interleaved): {:.2} ms a chunk token",
                c.tokens,
                carry::CHUNK_START,
                c.carrying_ms,
                c.plain_ms,
                opts.iterations,
                c.ms_per_token()
            ));
            carried.push(c);
        }
    }
    // The probe's buffer was resident throughout, every page written.
    let probe_bytes = probe.as_ref().map_or(0, |p| p.bytes() as u64);
    let peak = peak_rss_bytes().unwrap_or(0).saturating_sub(probe_bytes);
    drop(probe);
    Ok(GraphBenchReport {
        device: opts.device.to_string(),
        capacity: opts.capacity,
        kernels,
        modules: stats.modules,
        modules_compiled: stats.modules_compiled,
        compile_s: stats.compile_time.as_secs_f64(),
        upload_s: stats.upload_time.as_secs_f64(),
        weight_gib: gib(stats.weight_bytes as u64),
        decode_step_ms,
        decode_full_ms,
        prefill_ms,
        prefill_chunked_ms,
        peak_rss_gib: gib(peak),
        read_gb_s: bw.map(|bw| bw.gb_per_s()),
        bandwidth_source,
        decode_floor,
        sampling,
        carried,
    })
}

// ---- engine benchmark: greedy parity and speed ---------------------------------

use std::collections::BTreeMap;

use crate::engine::{
    BatchEngine, BatchOptions, Engine, Event, FinishReason, Request, SingleEngine, SubmitError,
};
use crate::types::RequestId;

/// Why a benchmark could not finish.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(transparent)]
    Emit(#[from] crate::emit::EmitError),
    #[error(transparent)]
    Runtime(#[from] crate::runtime::RuntimeError),
    #[error("a benchmark request was refused: {0}")]
    Submit(#[from] SubmitError),
    #[error("benchmark request {id} failed: {message}")]
    RequestFailed { id: RequestId, message: String },
    #[error("no device given; pass --device or --devices")]
    NoDevice,
}

/// What `iree-llm bench` runs.
#[derive(Clone, Debug)]
pub struct EngineBenchOptions {
    pub devices: Vec<DeviceUri>,
    pub weights: crate::model::DeviceWeights,
    pub batch: usize,
    pub requests: usize,
    pub max_tokens: usize,
    pub capacity: i64,
    /// Also run every request through the single-sequence argmax engine and
    /// compare token streams.
    pub single_parity: bool,
    /// The engine's largest prefill chunk ([`BatchOptions::max_chunk`]).
    pub max_chunk: usize,
    /// [`BatchOptions::decode_chunks`].
    pub decode_chunks: bool,
    /// [`BatchOptions::carried_chunk`].
    pub carried_chunk: usize,
    /// [`BatchOptions::spare_slot`].
    pub spare_slot: bool,
    /// [`BatchEngine::set_prefix_reuse`].
    pub prefix_reuse: bool,
    /// Tokens every prompt starts with ([`bench_requests`]).
    pub shared_prefix: usize,
}

/// The deterministic greedy requests of the benchmark: prompt lengths and
/// caps vary with the request index so slots start and finish at different
/// times. Each prompt starts with the same `shared_prefix` tokens (as a
/// chat template's system prompt does; 0 for none), then its own.
pub fn bench_requests(
    n: usize,
    max_tokens: usize,
    capacity: usize,
    vocab: usize,
    shared_prefix: usize,
) -> Vec<Request> {
    let max_prompt = capacity.saturating_sub(max_tokens).max(1);
    let prefix: Vec<TokenId> = (0..shared_prefix)
        .map(|j| TokenId(((j * 15_485_863 + 17) % (vocab - 300) + 1) as u32))
        .collect();
    (0..n)
        .map(|i| {
            let len = (4 + (i * 37) % 60).min(max_prompt);
            let own =
                (0..len).map(|j| TokenId(((i * 7919 + j * 104729) % (vocab - 300) + 1) as u32));
            let prompt = prefix.iter().copied().chain(own).take(max_prompt).collect();
            let cap = (max_tokens - (i % 4) * max_tokens / 8).max(1);
            Request::greedy(prompt, cap)
        })
        .collect()
}

/// One request's result in a run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    pub tokens: Vec<TokenId>,
    pub reason: FinishReason,
    pub ttft: Duration,
}

/// Timing of one engine run.
#[derive(Clone, Debug)]
pub struct RunSummary {
    pub results: Vec<RunResult>,
    pub wall: Duration,
    pub tokens: usize,
    pub decode_steps: u64,
    pub decode_time: Duration,
    pub prefills: u64,
    pub prefill_chunks: u64,
    pub prefill_time: Duration,
    /// Active rows summed over the decode steps ([`crate::engine::EngineStats::decode_rows`]).
    pub decode_rows: u64,
    /// Time inside the engine's steps ([`crate::engine::EngineStats::step_time`]).
    pub step_time: Duration,
    /// Decode steps that carried a prefill chunk, and their time
    /// ([`crate::engine::EngineStats::mixed_steps`]); not in `decode_*` or `prefill_time`.
    pub mixed_steps: u64,
    pub mixed_time: Duration,
    /// Prompts prefilled into the spare slot, and the time spent moving
    /// their caches to a row ([`crate::engine::EngineStats::spare_prefills`]).
    pub spare_prefills: u64,
    pub spare_move_time: Duration,
    /// Prompts that started past a prefix their slot held, and the prompt
    /// tokens thus not prefilled ([`crate::engine::EngineStats::reused_tokens`]).
    pub reused_prompts: u64,
    pub reused_tokens: u64,
    /// Of those, prompts whose prefix came from another slot's cache.
    pub prefix_copies: u64,
    /// Every wait between two consecutive tokens of one request, as the
    /// caller saw it (tokens of one step arrive together).
    pub gaps: Vec<Duration>,
    /// From submission until the last request's first token: while some
    /// requests were still queued or being admitted, the part of the run
    /// that has more requests than slots (after it the batch drains).
    pub saturated: Duration,
    /// Tokens delivered within `saturated`.
    pub saturated_tokens: usize,
    /// Within `saturated`, from the first token of the request that filled
    /// the last slot (the `batch`-th first token) on: the queued part of
    /// the run without its start, when the slots fill from empty. `None`
    /// when no request was queued past the slots.
    pub steady_from: Option<Duration>,
    /// Tokens delivered after `steady_from`, up to `saturated`.
    pub steady_tokens: usize,
}

impl RunSummary {
    /// The `p`-th percentile (0..=100, nearest rank) of the waits between
    /// two tokens of a request: what admission costs running requests.
    pub fn gap_percentile_ms(&self, p: f64) -> f64 {
        let mut xs: Vec<f64> = self.gaps.iter().map(|g| g.as_secs_f64() * 1e3).collect();
        if xs.is_empty() {
            return 0.0;
        }
        xs.sort_by(f64::total_cmp);
        let rank = ((p / 100.0) * xs.len() as f64).ceil() as usize;
        xs[rank.clamp(1, xs.len()) - 1]
    }
    pub fn tok_s(&self) -> f64 {
        self.tokens as f64 / self.wall.as_secs_f64()
    }
    pub fn step_ms(&self) -> f64 {
        if self.decode_steps == 0 {
            return 0.0;
        }
        self.decode_time.as_secs_f64() * 1e3 / self.decode_steps as f64
    }
    /// The `p`-th percentile (0..=100, nearest rank) of time to first token.
    pub fn ttft_percentile_ms(&self, p: f64) -> f64 {
        let mut xs: Vec<f64> = self
            .results
            .iter()
            .map(|r| r.ttft.as_secs_f64() * 1e3)
            .collect();
        if xs.is_empty() {
            return 0.0;
        }
        xs.sort_by(f64::total_cmp);
        let rank = ((p / 100.0) * xs.len() as f64).ceil() as usize;
        xs[rank.clamp(1, xs.len()) - 1]
    }
    /// Tokens/s if every one of `batch` slots produced a token each decode step.
    pub fn raw_decode_tok_s(&self, batch: usize) -> f64 {
        let ms = self.step_ms();
        if ms == 0.0 {
            return 0.0;
        }
        batch as f64 * 1e3 / ms
    }
    /// Delivered tokens/s as a share of the raw decode rate: what admission,
    /// prefill and partly empty batches cost.
    pub fn decode_share(&self, batch: usize) -> f64 {
        let raw = self.raw_decode_tok_s(batch);
        if raw == 0.0 {
            return 0.0;
        }
        self.tok_s() / raw
    }
    /// The same share while the run had more requests than slots (until
    /// the last request's first token), leaving out the drain at the end,
    /// when fewer requests than slots remain.
    pub fn saturated_share(&self, batch: usize) -> f64 {
        let raw = self.raw_decode_tok_s(batch);
        let secs = self.saturated.as_secs_f64();
        if raw == 0.0 || secs == 0.0 {
            return 0.0;
        }
        self.saturated_tokens as f64 / secs / raw
    }
    /// The same share once every slot has had a request
    /// ([`steady_from`](Self::steady_from)): what the engine sustains with
    /// more requests than slots, leaving out how fast it filled the slots
    /// from empty at the start. `None` without such a window.
    pub fn steady_share(&self, batch: usize) -> Option<f64> {
        let raw = self.raw_decode_tok_s(batch);
        let from = self.steady_from?;
        let secs = self.saturated.checked_sub(from)?.as_secs_f64();
        (raw > 0.0 && secs > 0.0).then(|| self.steady_tokens as f64 / secs / raw)
    }
    /// Where the wall time of the run went, as shares of it.
    pub fn time_shares(&self, batch: usize) -> TimeShares {
        let wall = self.wall.as_secs_f64().max(f64::MIN_POSITIVE);
        let row_steps = (self.decode_steps * batch as u64).max(1) as f64;
        let empty = (self.decode_steps * batch as u64).saturating_sub(self.decode_rows) as f64;
        let decode = self.decode_time.as_secs_f64() / wall;
        let in_step = self.step_time.as_secs_f64() / wall;
        let prefill = self.prefill_time.as_secs_f64() / wall;
        let mixed = self.mixed_time.as_secs_f64() / wall;
        TimeShares {
            decode_with_chunk: mixed,
            decode_full: decode * (1.0 - empty / row_steps),
            decode_empty: decode * empty / row_steps,
            prefill,
            host_in_step: (in_step - decode - prefill - mixed).max(0.0),
            outside_steps: (1.0 - in_step).max(0.0),
        }
    }
    /// Mean prefill time of a prompt: its chunk calls, and for a chunk
    /// carried by a decode step the time that step took beyond a plain
    /// decode step.
    pub fn mean_prefill_ms(&self) -> f64 {
        let carried =
            self.mixed_time.as_secs_f64() * 1e3 - self.mixed_steps as f64 * self.step_ms();
        (self.prefill_time.as_secs_f64() * 1e3 + carried.max(0.0)) / self.prefills.max(1) as f64
    }
    pub fn mean_ttft_ms(&self) -> f64 {
        let n = self.results.len().max(1) as f64;
        self.results
            .iter()
            .map(|r| r.ttft.as_secs_f64())
            .sum::<f64>()
            * 1e3
            / n
    }
}

/// Shares of a run's wall time (they sum to 1 up to clock granularity).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct TimeShares {
    /// Decode steps, the part of their rows that carried a request.
    pub decode_full: f64,
    /// Decode steps, the part of their rows that ran empty (free slots,
    /// slots whose prompt is being prefilled, the end of the run): what the
    /// raw decode rate counts and the run did not deliver.
    pub decode_empty: f64,
    /// Decode steps that carried a prefill chunk (one call for both).
    pub decode_with_chunk: f64,
    /// Prefill chunk calls of their own.
    pub prefill: f64,
    /// The rest of the engine's steps: sampling, stop checks, uploads,
    /// bookkeeping.
    pub host_in_step: f64,
    /// Between steps, in the caller (here: the benchmark's event handling).
    pub outside_steps: f64,
}

/// Submits every request at once and steps the engine until idle. TTFT is
/// measured from submission, so it includes time spent queued.
pub fn run_engine(engine: &mut dyn Engine, requests: &[Request]) -> Result<RunSummary, BenchError> {
    let start = Instant::now();
    let before = engine.stats();
    let ids = requests
        .iter()
        .map(|r| engine.submit(r.clone()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut tokens: BTreeMap<_, Vec<TokenId>> = BTreeMap::new();
    let mut first: BTreeMap<_, Duration> = BTreeMap::new();
    let mut last: BTreeMap<_, Duration> = BTreeMap::new();
    let mut gaps = Vec::new();
    let mut token_times = Vec::new();
    let mut done = BTreeMap::new();
    while !engine.is_idle() {
        for event in engine.step() {
            match event {
                Event::Prefilled { .. } => {}
                Event::Token { id, token, .. } => {
                    let now = start.elapsed();
                    token_times.push(now);
                    first.entry(id).or_insert(now);
                    if let Some(prev) = last.insert(id, now) {
                        gaps.push(now - prev);
                    }
                    tokens.entry(id).or_default().push(token);
                }
                Event::Finished {
                    id,
                    reason,
                    message,
                    ..
                } => {
                    if reason == FinishReason::Error {
                        return Err(BenchError::RequestFailed {
                            id,
                            message: message.unwrap_or_default(),
                        });
                    }
                    let ttft = first.get(&id).copied().unwrap_or_else(|| start.elapsed());
                    done.insert(id, (reason, ttft));
                }
            }
        }
    }
    let wall = start.elapsed();
    let saturated = first.values().copied().max().unwrap_or_default();
    let saturated_tokens = token_times.iter().filter(|&&t| t <= saturated).count();
    let (steady_from, steady_tokens) =
        steady_window(&first, &token_times, saturated, engine.status().slots);
    let after = engine.stats();
    let results: Vec<RunResult> = ids
        .iter()
        .map(|id| {
            let (reason, ttft) = done[id];
            RunResult {
                tokens: tokens.remove(id).unwrap_or_default(),
                reason,
                ttft,
            }
        })
        .collect();
    Ok(RunSummary {
        tokens: results.iter().map(|r| r.tokens.len()).sum(),
        results,
        wall,
        decode_steps: after.decode_steps - before.decode_steps,
        decode_time: after.decode_time - before.decode_time,
        prefills: after.prefills - before.prefills,
        prefill_chunks: after.prefill_chunks - before.prefill_chunks,
        prefill_time: after.prefill_time - before.prefill_time,
        decode_rows: after.decode_rows - before.decode_rows,
        step_time: after.step_time - before.step_time,
        mixed_steps: after.mixed_steps - before.mixed_steps,
        mixed_time: after.mixed_time - before.mixed_time,
        spare_prefills: after.spare_prefills - before.spare_prefills,
        spare_move_time: after.spare_move_time - before.spare_move_time,
        reused_prompts: after.reused_prompts - before.reused_prompts,
        reused_tokens: after.reused_tokens - before.reused_tokens,
        prefix_copies: after.prefix_copies - before.prefix_copies,
        gaps,
        saturated,
        saturated_tokens,
        steady_from,
        steady_tokens,
    })
}

/// The steady part of the queued window ([`RunSummary::steady_from`]):
/// from the `slots`-th first token (a request past the slots exists) to
/// `saturated`, and the tokens delivered after its start.
fn steady_window(
    first: &BTreeMap<RequestId, Duration>,
    token_times: &[Duration],
    saturated: Duration,
    slots: usize,
) -> (Option<Duration>, usize) {
    let mut firsts: Vec<Duration> = first.values().copied().collect();
    firsts.sort_unstable();
    if slots == 0 || firsts.len() <= slots {
        return (None, 0);
    }
    let from = firsts[slots - 1];
    let tokens = token_times
        .iter()
        .filter(|&&t| from < t && t <= saturated)
        .count();
    (Some(from), tokens)
}

/// Where two token streams first differ.
pub fn first_divergence(a: &[TokenId], b: &[TokenId]) -> Option<usize> {
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    (common < a.len().max(b.len())).then_some(common)
}

/// Top-1 minus top-2 logit after `tokens` (prompt plus generated prefix),
/// recomputed by a prefill on the engine's device.
pub fn top2_margin(
    engine: &mut BatchEngine,
    tokens: &[TokenId],
) -> Result<(TokenId, TokenId, f32), ModelError> {
    // The engine's prefill graphs write a cache of its slot count, so the
    // scratch cache has as many slots (the engine's own cache is untouched).
    let slots = engine.batch();
    let model = engine.model_mut();
    let mut kv = model.new_kv_slots(slots)?;
    let logits =
        model.prefill_chunked_logits_at(&mut kv, 0, tokens, crate::emit::DEFAULT_MAX_CHUNK)?;
    let mut order: Vec<usize> = (0..logits.len()).collect();
    order.select_nth_unstable_by(1, |&a, &b| logits[b].total_cmp(&logits[a]).then(a.cmp(&b)));
    let (i, j) = if logits[order[0]] >= logits[order[1]] {
        (order[0], order[1])
    } else {
        (order[1], order[0])
    };
    Ok((TokenId(i as u32), TokenId(j as u32), logits[i] - logits[j]))
}

/// The JSON line `bench` ends with.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchLine {
    pub device: String,
    pub batch: usize,
    pub requests: usize,
    pub parity_ok: usize,
    pub parity_total: usize,
    pub tok_s: f64,
    pub step_ms: f64,
    pub ttft_ms: f64,
    pub ttft_p50_ms: f64,
    pub ttft_p99_ms: f64,
    /// Raw decode rate: batch tokens per decode step.
    pub raw_decode_tok_s: f64,
    /// tok_s / raw_decode_tok_s.
    pub decode_share: f64,
    /// The share while requests were queued ([`RunSummary::saturated_share`]).
    pub saturated_share: f64,
    /// The same without filling the empty slots at the start
    /// ([`RunSummary::steady_share`]).
    pub steady_share: Option<f64>,
    pub prefill_ms: f64,
    /// Waits between two tokens of a request: p99 and the longest.
    pub gap_p99_ms: f64,
    pub gap_max_ms: f64,
    /// Prompts that started past a prefix their slot held, and the prompt
    /// tokens not prefilled for it (0 with prefix reuse off).
    pub reused_prompts: u64,
    pub reused_tokens: u64,
    /// Where the run's wall time went.
    pub time_shares: TimeShares,
    pub tokens: usize,
    pub wall_s: f64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cross_device: Vec<CrossDevice>,
}

/// Agreement of one device's token streams with the first device's.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CrossDevice {
    pub device: String,
    pub identical: usize,
    pub total: usize,
}

/// Runs the greedy parity and speed benchmark. Text lines go to `log`; the
/// returned line summarises the first device.
pub fn engine_bench(
    dir: &std::path::Path,
    opts: &EngineBenchOptions,
    progress: &dyn LoadProgress,
    log: &mut dyn FnMut(&str),
) -> Result<BenchLine, BenchError> {
    let mut baseline: Option<(BatchEngine, RunSummary)> = None;
    let mut line: Option<BenchLine> = None;
    for device in &opts.devices {
        let batch_opts = BatchOptions {
            batch: opts.batch,
            max_queue: opts.requests.max(1),
            max_chunk: opts.max_chunk,
            decode_chunks: opts.decode_chunks,
            carried_chunk: opts.carried_chunk,
            spare_slot: opts.spare_slot,
        };
        let plan = EmitPlan::new(opts.capacity, &[opts.batch as i64])?;
        let mut load = LoadOptions::batched(device.clone(), plan, opts.batch as i64);
        load.device_weights = opts.weights;
        let mut engine = BatchEngine::load_with(dir, &load, batch_opts, progress)?;
        let requests = bench_requests(
            opts.requests,
            opts.max_tokens,
            engine.capacity(),
            engine.model().vocab(),
            opts.shared_prefix,
        );
        // The chunk graphs of every prompt compiled before timing (the
        // engine compiles a rare one on first use), then a short warm-up, so
        // first-call costs do not land in the figures.
        for r in &requests {
            let model = engine.model_mut();
            for call in model.chunk_plan(r.prompt.len(), opts.max_chunk)? {
                model.ensure_graph(crate::emit::GraphKind::Chunk {
                    slots: opts.batch as i64,
                    tokens: call.size,
                    window: call.window,
                    output: crate::emit::Output::Logits,
                })?;
            }
        }
        run_engine(&mut engine, &requests[..1.min(requests.len())])?;
        // The timed run reuses no prefix the warm-up left in a slot.
        engine.forget_prefixes();
        engine.set_prefix_reuse(opts.prefix_reuse);
        let run = run_engine(&mut engine, &requests)?;
        log(&format!(
            "{device}: batch engine B={}: {} requests, {} tokens in {:.2}s = {:.1} tok/s; decode step {:.2} ms; \
             mean TTFT {:.1} ms (from submission, queueing included); mean prefill {:.1} ms",
            opts.batch,
            requests.len(),
            run.tokens,
            run.wall.as_secs_f64(),
            run.tok_s(),
            run.step_ms(),
            run.mean_ttft_ms(),
            run.mean_prefill_ms(),
        ));
        log(&format!(
            "{device}: at saturation ({} requests for {} slots): {:.1} tok/s = {:.0}% of the raw decode rate \
             ({:.1} tok/s); TTFT p50 {:.1} ms, p99 {:.1} ms",
            requests.len(),
            opts.batch,
            run.tok_s(),
            run.decode_share(opts.batch) * 100.0,
            run.raw_decode_tok_s(opts.batch),
            run.ttft_percentile_ms(50.0),
            run.ttft_percentile_ms(99.0),
        ));
        log(&format!(
            "{device}: while requests were queued (the first {:.2}s, until the last request's first token): \
             {:.1} tok/s = {:.0}% of the raw decode rate; the rest is the drain, fewer requests than slots",
            run.saturated.as_secs_f64(),
            run.saturated_tokens as f64 / run.saturated.as_secs_f64().max(f64::MIN_POSITIVE),
            run.saturated_share(opts.batch) * 100.0,
        ));
        if let (Some(from), Some(share)) = (run.steady_from, run.steady_share(opts.batch)) {
            let secs = (run.saturated - from).as_secs_f64();
            log(&format!(
                "{device}: once every slot had had a request (from {:.2}s to {:.2}s, the queued part \
                 without filling the empty slots at the start): {:.1} tok/s = {:.0}% of the raw decode rate",
                from.as_secs_f64(),
                run.saturated.as_secs_f64(),
                run.steady_tokens as f64 / secs.max(f64::MIN_POSITIVE),
                share * 100.0,
            ));
        }
        log(&format!(
            "{device}: wait between two tokens of a request: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms \
             (largest prefill chunk {} tokens)",
            run.gap_percentile_ms(50.0),
            run.gap_percentile_ms(99.0),
            run.gap_percentile_ms(100.0),
            opts.max_chunk,
        ));

        let shares = run.time_shares(opts.batch);
        log(&format!(
            "{device}: where the time went: decode {:.1}% (rows with a request {:.1}%, empty rows {:.1}%: \
             {} of {} row-steps), decode steps carrying a chunk {:.1}%, prefill calls {:.1}%, \
             host work in steps {:.1}%, outside steps {:.1}%",
            (shares.decode_full + shares.decode_empty) * 100.0,
            shares.decode_full * 100.0,
            shares.decode_empty * 100.0,
            (run.decode_steps * opts.batch as u64).saturating_sub(run.decode_rows),
            run.decode_steps * opts.batch as u64,
            shares.decode_with_chunk * 100.0,
            shares.prefill * 100.0,
            shares.host_in_step * 100.0,
            shares.outside_steps * 100.0,
        ));
        let alone = run.prefill_chunks - run.mixed_steps;
        log(&format!(
            "{device}: {} prefill chunks: {} carried by a decode step (mean step {:.1} ms, a plain decode step {:.1} ms), \
             {} alone (mean {:.1} ms)",
            run.prefill_chunks,
            run.mixed_steps,
            run.mixed_time.as_secs_f64() * 1e3 / run.mixed_steps.max(1) as f64,
            run.step_ms(),
            alone,
            run.prefill_time.as_secs_f64() * 1e3 / alone.max(1) as f64,
        ));
        if opts.decode_chunks && opts.spare_slot {
            log(&format!(
                "{device}: {} prompts prefilled into the spare slot while every slot generated \
                 (moving their caches to a slot took {:.2} ms each)",
                run.spare_prefills,
                run.spare_move_time.as_secs_f64() * 1e3 / run.spare_prefills.max(1) as f64,
            ));
        }

        let prompt_tokens: usize = requests.iter().map(|r| r.prompt.len()).sum();
        log(&format!(
            "{device}: prefix reuse {}: {} of {} prompts started past a prefix a slot's cache held ({} of them copied from another slot; {} tokens every prompt shares); {} of {prompt_tokens} prompt tokens not prefilled",
            if opts.prefix_reuse { "on" } else { "off" },
            run.reused_prompts,
            requests.len(),
            run.prefix_copies,
            opts.shared_prefix,
            run.reused_tokens,
        ));

        let mut parity_ok = 0;
        if opts.single_parity {
            let plan = EmitPlan::new(opts.capacity, &[])?;
            let mut load = LoadOptions::single_argmax(device.clone(), plan);
            load.device_weights = opts.weights;
            let model = DeviceModel::load(&Instance::new()?, dir, &load, progress)?;
            let mut single = SingleEngine::new(model)?;
            let reference = run_engine(&mut single, &requests)?;
            for (i, (b, s)) in run.results.iter().zip(&reference.results).enumerate() {
                let same = b.tokens == s.tokens && b.reason == s.reason;
                parity_ok += usize::from(same);
                let status = if same { "ok" } else { "MISMATCH" };
                let detail = match first_divergence(&b.tokens, &s.tokens) {
                    Some(k) if !same => format!(", first difference at token {k}"),
                    _ => String::new(),
                };
                log(&format!(
                    "  request {i:>3}: prompt {:>3}, {:>3} tokens ({}), single-sequence argmax parity {status}{detail}",
                    requests[i].prompt.len(),
                    b.tokens.len(),
                    b.reason.as_str(),
                ));
            }
            log(&format!(
                "{device}: greedy parity batch vs single-sequence argmax: {parity_ok}/{} requests token-exact \
                 (single engine {:.1} tok/s, decode step {:.2} ms)",
                requests.len(),
                reference.tok_s(),
                reference.step_ms()
            ));
        }

        match baseline.as_mut() {
            None => {
                line = Some(BenchLine {
                    device: device.to_string(),
                    batch: opts.batch,
                    requests: requests.len(),
                    parity_ok,
                    parity_total: if opts.single_parity {
                        requests.len()
                    } else {
                        0
                    },
                    tok_s: run.tok_s(),
                    step_ms: run.step_ms(),
                    ttft_ms: run.mean_ttft_ms(),
                    ttft_p50_ms: run.ttft_percentile_ms(50.0),
                    ttft_p99_ms: run.ttft_percentile_ms(99.0),
                    raw_decode_tok_s: run.raw_decode_tok_s(opts.batch),
                    decode_share: run.decode_share(opts.batch),
                    saturated_share: run.saturated_share(opts.batch),
                    steady_share: run.steady_share(opts.batch),
                    prefill_ms: run.mean_prefill_ms(),
                    gap_p99_ms: run.gap_percentile_ms(99.0),
                    gap_max_ms: run.gap_percentile_ms(100.0),
                    reused_prompts: run.reused_prompts,
                    reused_tokens: run.reused_tokens,
                    time_shares: run.time_shares(opts.batch),
                    tokens: run.tokens,
                    wall_s: run.wall.as_secs_f64(),
                    cross_device: Vec::new(),
                });
                baseline = Some((engine, run));
            }
            Some((base_engine, base_run)) => {
                let mut identical = 0;
                for (i, (a, b)) in base_run.results.iter().zip(&run.results).enumerate() {
                    match first_divergence(&a.tokens, &b.tokens) {
                        None => identical += 1,
                        Some(k) => {
                            let mut prefix = requests[i].prompt.clone();
                            prefix.extend_from_slice(&a.tokens[..k]);
                            let margin = match top2_margin(base_engine, &prefix) {
                                Ok((t1, t2, m)) => format!(
                                    "top-2 on {}: {t1} vs {t2}, margin {m:.3e}",
                                    opts.devices[0]
                                ),
                                Err(e) => format!("margin unavailable: {e}"),
                            };
                            log(&format!(
                                "  request {i}: {} and {device} diverge at token {k} ({:?} vs {:?}); {margin}",
                                opts.devices[0],
                                a.tokens.get(k),
                                b.tokens.get(k)
                            ));
                        }
                    }
                }
                log(&format!(
                    "cross-device: {device} matches {} token for token on {identical}/{} requests",
                    opts.devices[0],
                    requests.len()
                ));
                if let Some(l) = line.as_mut() {
                    l.cross_device.push(CrossDevice {
                        device: device.to_string(),
                        identical,
                        total: requests.len(),
                    });
                }
            }
        }
    }
    line.ok_or(BenchError::NoDevice)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_is_the_least_and_greatest_figure_and_nothing_of_nothing() {
        assert_eq!(span([2.0, 0.5, 3.0].into_iter()), Some((0.5, 3.0)));
        assert_eq!(span(std::iter::empty()), None);
        assert_eq!(ratio_range(&[]), "");
        assert_eq!(ratio_range(&[1.5, 1.25]), " (segments 1.25-1.50x)");
    }

    fn summary(
        ttfts_ms: &[u64],
        tokens: usize,
        wall_ms: u64,
        steps: u64,
        step_ms: u64,
    ) -> RunSummary {
        RunSummary {
            results: ttfts_ms
                .iter()
                .map(|&ms| RunResult {
                    tokens: Vec::new(),
                    reason: FinishReason::Length,
                    ttft: Duration::from_millis(ms),
                })
                .collect(),
            wall: Duration::from_millis(wall_ms),
            tokens,
            decode_steps: steps,
            decode_time: Duration::from_millis(steps * step_ms),
            prefills: 0,
            prefill_chunks: 0,
            prefill_time: Duration::ZERO,
            decode_rows: steps * 4,
            step_time: Duration::from_millis(steps * step_ms),
            mixed_steps: 0,
            mixed_time: Duration::ZERO,
            spare_prefills: 0,
            spare_move_time: Duration::ZERO,
            reused_prompts: 0,
            reused_tokens: 0,
            prefix_copies: 0,
            gaps: Vec::new(),
            saturated: Duration::from_millis(wall_ms),
            saturated_tokens: tokens,
            steady_from: None,
            steady_tokens: 0,
        }
    }

    #[test]
    fn ttft_percentiles_use_the_nearest_rank() {
        let ttfts: Vec<u64> = (1..=100).collect();
        let run = summary(&ttfts, 0, 1, 0, 0);
        assert_eq!(run.ttft_percentile_ms(50.0), 50.0);
        assert_eq!(run.ttft_percentile_ms(99.0), 99.0);
        assert_eq!(run.ttft_percentile_ms(100.0), 100.0);
        assert_eq!(summary(&[7], 0, 1, 0, 0).ttft_percentile_ms(99.0), 7.0);
    }

    #[test]
    fn the_decode_share_compares_delivered_tokens_with_full_batches_every_step() {
        // 10 steps of 10 ms with 4 slots could deliver 400 tok/s; 200 tokens
        // in 1 s is half of that.
        let run = summary(&[1], 200, 1000, 10, 10);
        assert!((run.raw_decode_tok_s(4) - 400.0).abs() < 1e-9);
        assert!((run.decode_share(4) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn the_saturated_share_counts_only_tokens_before_the_queue_emptied() {
        // 10 ms steps with 4 slots: 400 tok/s raw. 150 tokens in the first
        // 0.5 s (300 tok/s) is 75%, whatever the drain after it delivered.
        let mut run = summary(&[1], 200, 1000, 10, 10);
        run.saturated = Duration::from_millis(500);
        run.saturated_tokens = 150;
        assert!((run.saturated_share(4) - 0.75).abs() < 1e-9);
        assert!((run.decode_share(4) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn the_steady_window_starts_when_the_last_slot_gets_its_first_request() {
        let ms = Duration::from_millis;
        // Two slots, three requests: first tokens at 10, 30 and 50 ms. The
        // window opens at the second (30 ms) and counts the tokens after it
        // up to the last first token.
        let first: BTreeMap<RequestId, Duration> = [
            (RequestId(1), ms(10)),
            (RequestId(2), ms(30)),
            (RequestId(3), ms(50)),
        ]
        .into();
        let times: Vec<Duration> = [10, 20, 30, 30, 40, 40, 50, 50, 60].map(ms).to_vec();
        assert_eq!(steady_window(&first, &times, ms(50), 2), (Some(ms(30)), 4));
        // No request waited past the slots: no window.
        assert_eq!(steady_window(&first, &times, ms(50), 3), (None, 0));
        // 10 ms steps with 4 slots (400 tok/s raw): 60 tokens in the
        // window's 0.2 s is 75%.
        let mut run = summary(&[1], 200, 1000, 10, 10);
        run.saturated = ms(500);
        run.steady_from = Some(ms(300));
        run.steady_tokens = 60;
        assert!((run.steady_share(4).unwrap() - 0.75).abs() < 1e-9);
        run.steady_from = None;
        assert_eq!(run.steady_share(4), None);
    }
}

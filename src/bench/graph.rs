//! `iree-llm graph-bench`: the graphs of one model on one device timed
//! call by call (compile, upload, prefill, decode steps, peak memory), each
//! decode step beside the floor its bytes set at the probed read bandwidth.

use std::time::Instant;

use super::{SamplingPaths, carry, gib, median, paired, peak_rss_bytes, sampling};

use crate::bandwidth;
use crate::emit::{EmitPlan, GraphUse};
use crate::fit::FitError;
use crate::model::{DeviceModel, LoadOptions, LoadProgress, ModelError};
use crate::runtime::Instance;
use crate::types::{DeviceUri, TokenId};

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
}

//! `iree-llm bench`: the batch engine against the single-sequence argmax
//! path on the same requests (greedy parity), its tokens/s at saturation,
//! TTFT percentiles and share of its raw decode rate, and optionally the
//! same across devices.

use std::time::{Duration, Instant};

use crate::emit::EmitPlan;
use crate::model::{DeviceModel, LoadOptions, LoadProgress, ModelError};
use crate::runtime::Instance;
use crate::types::{DeviceUri, TokenId};
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
    /// [`BatchOptions::choose_carry`].
    pub choose_carry: bool,
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
    /// Prompts admitted while rows generated, carried and alone
    /// ([`crate::engine::EngineStats::carried_prompts`]).
    pub carried_prompts: u64,
    pub alone_prompts: u64,
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
        carried_prompts: after.carried_prompts - before.carried_prompts,
        alone_prompts: after.alone_prompts - before.alone_prompts,
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
            choose_carry: opts.choose_carry,
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
        if opts.choose_carry {
            let costs: Vec<String> = engine
                .carry_costs()
                .into_iter()
                .map(|(way, cost)| {
                    let way = way.map_or("alone".to_string(), |n| format!("carried up to {n}"));
                    let cost = cost.map_or("not measured".to_string(), |c| format!("{c:.2} ms"));
                    format!("{way} {cost}")
                })
                .collect();
            log(&format!(
                "{device}: the engine chose each prompt's way ({} prompts carried, {} alone while \
                 slots generated); a prompt token's running cost to the running slots at the end: {}",
                run.carried_prompts,
                run.alone_prompts,
                costs.join(", "),
            ));
        }
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
            carried_prompts: 0,
            alone_prompts: 0,
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

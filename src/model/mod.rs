//! A model resident on one device: its weights and RoPE tables uploaded once,
//! the graphs it calls (a [`GraphSet`], which emits, compiles and loads them),
//! and typed calls for prefill and decode over a KV cache of several slots
//! (one device tensor, so decode attends over all rows at once) that stays
//! on the device. Every bound is checked on the host before
//! any device work, because `dynamic_update_slice` clamps out-of-range
//! positions silently.

mod chunked;
mod device_sampling;
mod graphs;
mod mixed;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

pub use device_sampling::RowDraw;
pub use graphs::GraphSet;
pub use mixed::ChunkOutcome;

use crate::compile::{CompileError, Compiler, ModuleCache, Target};
use crate::config::{ConfigError, ModelConfig};
pub use crate::emit::DeviceWeights;
use crate::emit::{
    BlockFormat, EmitError, EmitPlan, GraphKind, GraphUse, Kernels, LlamaShape, Manifest, Output,
    ParamSpec,
};
use crate::fit::{self, FitError};
use crate::runtime::{Buffer, Function, Instance, RuntimeError, Session};
use crate::types::{DType, DeviceKind, DeviceUri, TokenId};
use crate::weights::{Weights, WeightsError};

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Weights(#[from] WeightsError),
    #[error(transparent)]
    Emit(#[from] EmitError),
    #[error(transparent)]
    Compile(#[from] CompileError),
    #[error(transparent)]
    Runtime(#[from] RuntimeError),
    #[error(transparent)]
    Fit(#[from] FitError),
    #[error("graph {0} is not loaded on this device; load the model with it")]
    GraphNotLoaded(String),
    #[error("{0}")]
    InvalidCall(String),
}

pub type Result<T> = std::result::Result<T, ModelError>;

/// Observer of slow loading steps (compiling, uploading), e.g. progress bars.
pub trait LoadProgress {
    fn begin(&self, stage: &str, total: u64);
    fn advance(&self, n: u64);
    fn end(&self);
}

/// A [`LoadProgress`] that shows nothing.
pub struct Quiet;

impl LoadProgress for Quiet {
    fn begin(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn end(&self) {}
}

/// How long loading took, and whether the compiler had to run.
#[derive(Clone, Debug, Default)]
pub struct LoadStats {
    pub modules: usize,
    pub modules_compiled: usize,
    pub compile_time: Duration,
    /// Per graph: name, time to compile (or find in the cache) and load, and
    /// whether the compiler ran.
    pub graphs: Vec<(String, Duration, bool)>,
    pub upload_time: Duration,
    pub weight_bytes: usize,
}

/// What to load.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    pub device: DeviceUri,
    pub plan: EmitPlan,
    /// The graphs to compile and load, besides those of `uses`.
    pub graphs: Vec<GraphKind>,
    /// What the model is for: [`EmitPlan::graphs_for`] decides their graphs
    /// at load, once the plan knows the weights and kernels (a prompt's
    /// chunk plan depends on them, [`EmitPlan::chunk_padding`]).
    pub uses: Vec<GraphUse>,
    pub cache: ModuleCache,
    pub target: Target,
    /// Compile and load a graph the first time a call needs it, instead of
    /// failing with [`ModelError::GraphNotLoaded`]. Keeps the first run of a
    /// one-off prompt from compiling every prefill bucket.
    pub compile_on_demand: bool,
    /// How weights live on the device; decides `plan.weights` at load time.
    pub device_weights: DeviceWeights,
    /// The CPU kernels to call, if not this host's default
    /// ([`Kernels::for_host_cpu`], which `IREE_LLM_KERNELS` steers).
    pub kernels: Option<Kernels>,
    /// The KV cache's element type (f32 or f16), if not the one
    /// `IREE_LLM_KV_CACHE` asks for ([`crate::emit::kv_cache_from_env`]).
    pub kv_cache: Option<DType>,
    /// How products of a few rows are written, if not the target's default
    /// ([`crate::emit::NarrowRows::for_target`]).
    pub narrow: Option<crate::emit::NarrowRows>,
    /// How products of more rows are written, if not the target's default
    /// ([`crate::emit::WideRows::for_target`]).
    pub wide: Option<crate::emit::WideRows>,
    /// How a decode step's attention meets the cache, if not the target's
    /// default ([`crate::emit::GroupedQueries::for_target`]).
    pub attention: Option<crate::emit::GroupedQueries>,
}

impl LoadOptions {
    /// The graphs `use_` needs, decided by [`EmitPlan::graphs_for`] at
    /// load (see [`LoadOptions::uses`]).
    pub fn for_use(device: DeviceUri, plan: EmitPlan, use_: &GraphUse) -> Self {
        let mut opts = Self::with_graphs(device, plan, Vec::new());
        opts.uses.push(use_.clone());
        opts
    }

    /// [`for_use`](Self::for_use) for the batched engine at `batch` slots.
    /// Chunk graphs it does not load up front (a long prompt's last chunk
    /// at a later position, chunks of another largest size) compile on
    /// their first use.
    pub fn batched(device: DeviceUri, plan: EmitPlan, batch: i64) -> Self {
        let mut opts = Self::for_use(device, plan, &GraphUse::Batched { batch, spare: 0 });
        opts.compile_on_demand = true;
        opts
    }

    /// [`for_use`](Self::for_use) for the single-sequence greedy path.
    pub fn single_argmax(device: DeviceUri, plan: EmitPlan) -> Self {
        Self::for_use(device, plan, &GraphUse::SingleArgmax)
    }

    pub fn with_graphs(device: DeviceUri, plan: EmitPlan, graphs: Vec<GraphKind>) -> Self {
        let target = Target::new(device.kind());
        LoadOptions {
            device,
            plan,
            graphs,
            uses: Vec::new(),
            cache: ModuleCache::default_location(),
            target,
            compile_on_demand: false,
            device_weights: DeviceWeights::Native,
            kernels: None,
            narrow: None,
            wide: None,
            attention: None,
            kv_cache: None,
        }
    }
}

/// The KV caches of a fixed number of slots, resident on the device as one
/// tensor: prefill fills one slot, decode steps every slot at once.
pub struct KvCache {
    buffer: Buffer,
    slots: usize,
    rows: usize,
}

impl KvCache {
    /// Number of slots (sequences) this cache holds.
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Number of rows a decode step over this cache has: its first slots.
    /// The rest are spare ([`DeviceModel::new_kv_with_spare`]).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Slots past the decode rows.
    pub fn spare(&self) -> usize {
        self.slots - self.rows
    }

    /// Identity of the device allocation (stable across in-place updates).
    pub fn storage_id(&self) -> u64 {
        self.buffer.storage_id()
    }

    pub fn buffer(&self) -> &Buffer {
        &self.buffer
    }
}

/// A model loaded on a device.
pub struct DeviceModel {
    session: Session,
    config: ModelConfig,
    manifest: Manifest,
    params: Vec<Buffer>,
    graphs: GraphSet,
    stats: LoadStats,
}

impl DeviceModel {
    /// Loads the model in `dir` onto `opts.device`: compiles (or finds in the
    /// cache) each requested graph, uploads weights and RoPE tables.
    pub fn load(
        instance: &Instance,
        dir: &Path,
        opts: &LoadOptions,
        progress: &dyn LoadProgress,
    ) -> Result<Self> {
        let config = ModelConfig::from_dir(dir)?;
        opts.plan.check(&config)?;
        let weights = Weights::open(dir, &config)?;
        let mut opts = opts.clone();
        opts.plan.weights = opts.device_weights.dtype(weights.dtype());
        opts.plan.blocks = match opts.device_weights {
            DeviceWeights::Native => weights.block_formats(),
            DeviceWeights::F32 => Default::default(),
        };
        // Block and bf16 matrices on a CPU take the hand-written kernels
        // where this host can run them (the modules are compiled for this
        // host anyway).
        let has_kernel_weights = !opts.plan.blocks.is_empty() || opts.plan.weights == DType::BF16;
        opts.plan.kernels = if has_kernel_weights && opts.target.kind == DeviceKind::Cpu {
            opts.kernels.unwrap_or_else(Kernels::for_host_cpu)
        } else {
            Kernels::Portable
        };
        // Products and attention take the forms the target's code generator
        // does best with, unless the caller named others.
        let forms = opts.plan.clone().with_forms_for(opts.target.kind);
        opts.plan.narrow = opts.narrow.unwrap_or(forms.narrow);
        opts.plan.wide = opts.wide.unwrap_or(forms.wide);
        opts.plan.attention = opts.attention.unwrap_or(forms.attention);
        opts.plan.kv_cache = match opts.kv_cache.unwrap_or_else(crate::emit::kv_cache_from_env) {
            cache @ (DType::F32 | DType::F16) => cache,
            other => {
                return Err(ModelError::InvalidCall(format!(
                    "a KV cache of {other:?} is not supported; use f32 or f16"
                )));
            }
        };
        let shape = LlamaShape::from(&config);
        let manifest = Manifest::new(&shape, &opts.plan);
        let session = instance.open(&opts.device)?;
        let graphs = GraphSet::new(
            shape,
            opts.plan.graph_config(),
            Compiler::locate()?,
            opts.cache.clone(),
            opts.target.clone(),
            opts.compile_on_demand,
        );
        let mut model = DeviceModel {
            session,
            config,
            manifest,
            params: Vec::new(),
            graphs,
            stats: LoadStats::default(),
        };

        // Graphs: emitted in memory from the config, compiled through the cache.
        let mut kinds: Vec<GraphKind> = opts
            .uses
            .iter()
            .flat_map(|u| opts.plan.graphs_for(u))
            .collect();
        kinds.extend(opts.graphs.iter().copied());
        let mut seen = std::collections::HashSet::new();
        kinds.retain(|k| seen.insert(*k));
        let start = Instant::now();
        progress.begin("compiling graphs", kinds.len() as u64);
        model
            .graphs
            .load_all(&mut model.session, &kinds, &mut model.stats, progress)?;
        progress.end();
        model.stats.compile_time = start.elapsed();
        model.upload_params(&weights, progress)?;
        Ok(model)
    }

    /// Makes sure `kind` is loaded, compiling it now if the model was loaded
    /// with `compile_on_demand`.
    pub fn ensure_graph(&mut self, kind: GraphKind) -> Result<()> {
        self.graphs.ensure(&mut self.session, kind, &mut self.stats)
    }

    /// Starts compiling `kinds` on a thread of its own, to be loaded by
    /// [`Self::install_compiled`] when done: graphs that would make a call
    /// cheaper but are not worth compiling while a request waits. Nothing
    /// happens unless the model compiles on demand.
    pub fn compile_in_background(&mut self, kinds: &[GraphKind]) {
        self.graphs.compile_in_background(kinds);
    }

    /// Loads the graphs compiled in the background since the last call;
    /// returns how many.
    pub fn install_compiled(&mut self) -> usize {
        self.graphs
            .install_compiled(&mut self.session, &mut self.stats)
    }

    /// Graphs compiling in the background, or compiled and not loaded yet.
    pub fn compiling(&self) -> usize {
        self.graphs.compiling()
    }

    /// What one call of graph `kind` asks of the device: its dispatches,
    /// copies and fills ([`crate::compile::CallSchedule`]), counted by the
    /// compiler once per graph (the graph need not be loaded).
    pub fn call_schedule(&self, kind: GraphKind) -> Result<crate::compile::CallSchedule> {
        self.graphs.call_schedule(kind)
    }

    /// Uploads the parameters in the manifest's order: weights as stored, or
    /// widened to f32 when the graphs take f32, a block matrix's parts
    /// (`NAME.q`, `.d`, `.m`) as the GGUF reader made them, and the RoPE tables.
    fn upload_params(&mut self, weights: &Weights, progress: &dyn LoadProgress) -> Result<()> {
        let start = Instant::now();
        let (cos, sin) = self.config.rope_tables(self.capacity());
        let total: u64 = self
            .manifest
            .params
            .iter()
            .map(|p| p.shape.iter().product::<i64>() as u64 * p.dtype.size_bytes() as u64)
            .sum();
        progress.begin("uploading weights", total);
        let mut params = Vec::with_capacity(self.manifest.params.len());
        for spec in &self.manifest.params {
            let buffer = match spec.name.as_str() {
                "rope.cos" => self.session.upload(&spec.shape, &cos)?,
                "rope.sin" => self.session.upload(&spec.shape, &sin)?,
                _ => {
                    let blocks = &self.manifest.plan.blocks;
                    let bytes = param_bytes(spec, blocks, weights)?;
                    self.session.upload_bytes(spec.dtype, &spec.shape, &bytes)?
                }
            };
            self.stats.weight_bytes += buffer.byte_length();
            progress.advance(buffer.byte_length() as u64);
            params.push(buffer);
        }
        progress.end();
        self.stats.upload_time = start.elapsed();
        self.params = params;
        Ok(())
    }

    pub fn config(&self) -> &ModelConfig {
        &self.config
    }

    /// How long the device session's operations have held this thread, by
    /// kind (see [`crate::runtime::HostTimes`]).
    pub fn host_times(&self) -> crate::runtime::HostTimes {
        self.session.host_times()
    }

    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    pub fn device(&self) -> &DeviceUri {
        self.session.device()
    }

    pub fn stats(&self) -> &LoadStats {
        &self.stats
    }

    /// Tokens per slot: prompt plus generated tokens must fit.
    pub fn capacity(&self) -> usize {
        self.manifest.plan.capacity as usize
    }

    pub fn vocab(&self) -> usize {
        self.config.vocab_size
    }

    /// A fresh zero-filled KV cache for one slot.
    pub fn new_kv(&self) -> Result<KvCache> {
        self.new_kv_slots(1)
    }

    /// A fresh zero-filled KV cache for `slots` slots (at least 1): the
    /// cache of a decode batch of `slots` rows.
    pub fn new_kv_slots(&self, slots: usize) -> Result<KvCache> {
        self.new_kv_with_spare(slots, 0)
    }

    /// A fresh zero-filled KV cache for a decode batch of `rows` rows (at
    /// least 1) and `spare` more slots, which decode steps leave alone: a
    /// prompt is prefilled into one while every row decodes, then its
    /// cache is copied to the slot of a row that has ended.
    pub fn new_kv_with_spare(&self, rows: usize, spare: usize) -> Result<KvCache> {
        if rows == 0 {
            return Err(ModelError::InvalidCall(
                "a KV cache needs at least one slot".into(),
            ));
        }
        let slots = rows + spare;
        // [layers, 2, slots * kv_heads, capacity, head_dim]
        let mut shape = self.manifest.kv_shape.clone();
        shape[2] *= slots as i64;
        Ok(KvCache {
            buffer: self.session.zeros(self.manifest.plan.kv_cache, &shape)?,
            slots,
            rows,
        })
    }

    /// Copies slot `from`'s cache over slot `to`'s in the same cache, on the
    /// device (never through the host): the prompt of several choices is
    /// prefilled once. A slot is `2 * layers` runs of `kv_heads * capacity *
    /// head_dim` values in the `[layers, 2, slots * kv_heads, capacity,
    /// head_dim]` layout, so it takes one transfer per run.
    pub fn copy_kv_slot(&self, kv: &mut KvCache, from: usize, to: usize) -> Result<()> {
        self.copy_kv_positions(kv, from, to, self.capacity())
    }

    /// [`copy_kv_slot`](Self::copy_kv_slot) of the first `positions`
    /// positions only: a prompt's cache moved to another slot. Below the
    /// capacity each head's positions are a run of their own, so it takes
    /// `2 * layers * kv_heads` transfers.
    pub fn copy_kv_positions(
        &self,
        kv: &mut KvCache,
        from: usize,
        to: usize,
        positions: usize,
    ) -> Result<()> {
        let slots = kv.slots();
        if from >= slots || to >= slots {
            return Err(ModelError::InvalidCall(format!(
                "slot copy {from} -> {to} in a cache of {slots} slots"
            )));
        }
        if from == to {
            return Ok(());
        }
        let shape: Vec<usize> = kv.buffer.shape().iter().map(|&n| n as usize).collect();
        let [layers, two, rows, capacity, head_dim] = shape[..] else {
            return Err(ModelError::InvalidCall(format!(
                "a cache of shape {shape:?} is not [layers, 2, slots * kv_heads, capacity, head_dim]"
            )));
        };
        if positions > capacity {
            return Err(ModelError::InvalidCall(format!(
                "a copy of {positions} positions of a cache of {capacity}"
            )));
        }
        let heads = rows / slots;
        let run = heads * capacity * head_dim;
        for layer_kv in 0..layers * two {
            let base = layer_kv * slots * run;
            let (from, to) = (base + from * run, base + to * run);
            if positions == capacity {
                self.session.copy_within(&mut kv.buffer, from, to, run)?;
                continue;
            }
            for h in 0..heads {
                let head = h * capacity * head_dim;
                self.session.copy_within(
                    &mut kv.buffer,
                    from + head,
                    to + head,
                    positions * head_dim,
                )?;
            }
        }
        Ok(())
    }

    /// Copies a cache to the host (for tests and debugging), laid out as
    /// `[layers, 2, slots * kv_heads, capacity, head_dim]`, widened to f32
    /// where the cache holds f16.
    pub fn read_kv(&self, kv: &KvCache) -> Result<Vec<f32>> {
        if kv.buffer().dtype() == DType::F16 {
            let halves = self.session.read::<half::f16>(kv.buffer())?;
            return Ok(halves.into_iter().map(f32::from).collect());
        }
        Ok(self.session.read::<f32>(kv.buffer())?)
    }

    /// Refuses a request that cannot fit ([`fit::check_fits`]): a non-empty
    /// prompt plus `max_new` tokens must fit the capacity.
    pub fn check_fits(&self, prompt: usize, max_new: usize) -> Result<()> {
        Ok(fit::check_fits(prompt, max_new, self.capacity())?)
    }

    fn check_tokens(&self, tokens: &[TokenId]) -> Result<()> {
        Ok(fit::check_tokens(tokens, self.vocab())?)
    }

    /// The rows of a decode call: known token ids at positions inside the
    /// cache.
    fn check_decode_rows(&self, tokens: &[TokenId], positions: &[usize]) -> Result<()> {
        self.check_tokens(tokens)?;
        if let Some(&p) = positions.iter().find(|&&p| p >= self.capacity()) {
            return Err(FitError::DoesNotFit {
                prompt: p + 1,
                max_tokens: 0,
                capacity: self.capacity(),
            }
            .into());
        }
        Ok(())
    }

    /// Runs a prompt from position 0 in slot 0 of `kv`, writing its K/V
    /// on the device. Returns the logits `[vocab]` of the last token.
    pub fn prefill_logits(&mut self, kv: &mut KvCache, tokens: &[TokenId]) -> Result<Vec<f32>> {
        self.prefill_logits_at(kv, 0, tokens)
    }

    /// [`prefill_logits`](Self::prefill_logits) into slot `slot` of `kv`;
    /// the other slots are left as they are.
    pub fn prefill_logits_at(
        &mut self,
        kv: &mut KvCache,
        slot: usize,
        tokens: &[TokenId],
    ) -> Result<Vec<f32>> {
        let out = self.prefill(kv, slot, tokens, Output::Logits)?;
        Ok(self.session.read::<f32>(&out)?)
    }

    /// Like [`prefill_logits`](Self::prefill_logits) but returns the last
    /// token's argmax (lowest id on ties), computed on the device.
    pub fn prefill_argmax(&mut self, kv: &mut KvCache, tokens: &[TokenId]) -> Result<TokenId> {
        let out = self.prefill(kv, 0, tokens, Output::Argmax)?;
        Ok(TokenId(self.session.read::<i32>(&out)?[0] as u32))
    }

    fn prefill(
        &mut self,
        kv: &mut KvCache,
        slot: usize,
        tokens: &[TokenId],
        output: Output,
    ) -> Result<Buffer> {
        if slot >= kv.slots() {
            return Err(ModelError::InvalidCall(format!(
                "slot {slot} of a cache of {} slots",
                kv.slots()
            )));
        }
        self.check_fits(tokens.len(), 0)?;
        self.check_tokens(tokens)?;
        let bucket = self
            .manifest
            .plan
            .bucket_for(tokens.len())
            .ok_or(FitError::DoesNotFit {
                prompt: tokens.len(),
                max_tokens: 0,
                capacity: self.capacity(),
            })?;
        let kind = GraphKind::Prefill {
            slots: kv.slots() as i64,
            tokens: bucket,
            output,
        };
        self.ensure_graph(kind)?;
        let function = self.graphs.function(kind)?;
        let mut padded: Vec<i32> = tokens.iter().map(|t| t.0 as i32).collect();
        padded.resize(bucket as usize, 0);
        let ids = self.session.upload(&[bucket], &padded)?;
        let len = self.session.upload(&[], &[tokens.len() as i32])?;
        let slot = self.session.upload(&[], &[slot as i32])?;
        let mut outputs = self.call_with_kv(function, kv, &[&ids, &len, &slot])?;
        Ok(outputs.remove(0))
    }

    /// One decode step over the `kv.rows()` rows of `kv` (the batch of a
    /// loaded decode graph; spare slots are left alone): row i feeds
    /// `tokens[i]` at `positions[i]` of slot i. Logits `[batch, vocab]` are written to `logits` (resized as
    /// needed).
    pub fn decode_logits(
        &mut self,
        kv: &mut KvCache,
        tokens: &[TokenId],
        positions: &[usize],
        logits: &mut Vec<f32>,
    ) -> Result<()> {
        let window = self.auto_window(positions);
        self.decode_logits_in_window(kv, tokens, positions, window, logits)
    }

    /// [`decode_logits`](Self::decode_logits) with an explicit attention
    /// window (`None`: the whole capacity); every position must be inside it.
    pub fn decode_logits_in_window(
        &mut self,
        kv: &mut KvCache,
        tokens: &[TokenId],
        positions: &[usize],
        window: Option<i64>,
        logits: &mut Vec<f32>,
    ) -> Result<()> {
        let out = self.decode(kv, tokens, positions, Output::Logits, window, &[])?;
        logits.resize(kv.rows() * self.vocab(), 0.0);
        self.session.read_into(&out, 0, logits)?;
        Ok(())
    }

    /// Like [`decode_logits`](Self::decode_logits) but returns each row's
    /// argmax token (lowest id on ties), computed on the device.
    pub fn decode_argmax(
        &mut self,
        kv: &mut KvCache,
        tokens: &[TokenId],
        positions: &[usize],
    ) -> Result<Vec<TokenId>> {
        let window = self.auto_window(positions);
        let out = self.decode(kv, tokens, positions, Output::Argmax, window, &[])?;
        Ok(self
            .session
            .read::<i32>(&out)?
            .into_iter()
            .map(|t| TokenId(t as u32))
            .collect())
    }

    fn decode(
        &mut self,
        kv: &mut KvCache,
        tokens: &[TokenId],
        positions: &[usize],
        output: Output,
        window: Option<i64>,
        extra: &[&Buffer],
    ) -> Result<Buffer> {
        Ok(self
            .decode_all(kv, tokens, positions, output, window, extra)?
            .remove(0))
    }

    /// One decode call with `extra` inputs after the positions; returns
    /// every result that is not a cache (the output, then any trailing ones).
    fn decode_all(
        &mut self,
        kv: &mut KvCache,
        tokens: &[TokenId],
        positions: &[usize],
        output: Output,
        window: Option<i64>,
        extra: &[&Buffer],
    ) -> Result<Vec<Buffer>> {
        let batch = kv.rows();
        if tokens.len() != batch || positions.len() != batch {
            return Err(ModelError::InvalidCall(format!(
                "decode of {batch} slots got {} tokens and {} positions",
                tokens.len(),
                positions.len()
            )));
        }
        self.check_decode_rows(tokens, positions)?;
        if let Some(w) = window
            && let Some(&p) = positions.iter().find(|&&p| p as i64 >= w)
        {
            return Err(ModelError::InvalidCall(format!(
                "position {p} is outside the attention window of {w}"
            )));
        }
        let kind = GraphKind::Decode {
            batch: batch as i64,
            output,
            window,
            spare: kv.spare() as i64,
        };
        self.ensure_graph(kind)?;
        let function = self.graphs.function(kind)?;
        let ids: Vec<i32> = tokens.iter().map(|t| t.0 as i32).collect();
        let pos: Vec<i32> = positions.iter().map(|&p| p as i32).collect();
        let ids = self.session.upload(&[batch as i64], &ids)?;
        let pos = self.session.upload(&[batch as i64], &pos)?;
        let mut rest = vec![&ids, &pos];
        rest.extend_from_slice(extra);
        self.call_with_kv(function, kv, &rest)
    }

    /// The smallest attention window holding every row: the furthest row
    /// decides how much of the caches attention reads.
    fn auto_window(&self, positions: &[usize]) -> Option<i64> {
        let furthest = positions.iter().copied().max().unwrap_or(0);
        self.manifest.plan.window_for(furthest)
    }

    /// Calls `function` with the parameters, the cache and `rest`; the
    /// aliased cache result (the second) replaces the cache's buffer.
    /// Returns the other results: the first, then any after the cache.
    fn call_with_kv(
        &self,
        function: &Function,
        kv: &mut KvCache,
        rest: &[&Buffer],
    ) -> Result<Vec<Buffer>> {
        let mut args: Vec<&Buffer> = self.params.iter().collect();
        args.push(kv.buffer());
        args.extend_from_slice(rest);
        let mut outputs = self.session.call(function, &args)?;
        if outputs.len() < 2 {
            return Err(ModelError::InvalidCall(format!(
                "{} returned {} results, expected at least 2",
                function.name(),
                outputs.len(),
            )));
        }
        kv.buffer = outputs.remove(1);
        Ok(outputs)
    }
}

/// A parameter's bytes in its element type: a checkpoint tensor as stored
/// (or widened to f32), a block matrix's part (`NAME.q`, `.d`, `.m`) as the
/// GGUF reader made it, and for a stacked matrix its parts' rows one after
/// the other.
fn param_bytes<'w>(
    spec: &ParamSpec,
    blocks: &BTreeMap<String, BlockFormat>,
    weights: &'w Weights,
) -> Result<Cow<'w, [u8]>> {
    let sources = spec.sources(blocks);
    let group = crate::emit::vnni_layout::GROUP;
    let one = |name: &str| -> Result<Cow<'w, [u8]>> {
        match spec.block_part(blocks) {
            Some(part) => {
                // q's last dimension says packed or widened nibbles (for 16
                // rows side by side in the VNNI layout).
                let mut q_bytes = *spec.shape.last().expect("a block part has a shape") as usize;
                if spec.vnni_layout {
                    q_bytes /= group;
                }
                let unknown = || WeightsError::UnknownTensor(format!("{name}.{part}"));
                Ok(weights
                    .blocks(name)
                    .and_then(|b| b.part(part, q_bytes))
                    .ok_or_else(unknown)?)
            }
            None => {
                let view = weights.tensor(name)?;
                if view.dtype == spec.dtype {
                    Ok(Cow::Borrowed(view.data))
                } else {
                    let values = view.to_f32();
                    Ok(Cow::Owned(bytemuck::cast_slice(&values).to_vec()))
                }
            }
        }
    };
    let bytes = if let [name] = sources[..] {
        one(name)?
    } else {
        let mut stacked = Vec::new();
        for name in sources {
            stacked.extend_from_slice(&one(name)?);
        }
        Cow::Owned(stacked)
    };
    if spec.bf16_panels {
        // The whole (stacked) matrix, permuted into panels.
        let panel = crate::emit::panels::PANEL;
        let (rows, cols) = (spec.shape[0] as usize * panel, spec.shape[1] as usize * 2);
        return Ok(Cow::Owned(crate::emit::panels::relayout(
            &bytes, rows, cols,
        )));
    }
    if !spec.vnni_layout {
        return Ok(bytes);
    }
    // The whole (stacked) matrix, permuted into the VNNI kernel's layout.
    let part = spec
        .block_part(blocks)
        .expect("only block parts are laid out");
    let matrix = spec.stacks.first().map_or_else(
        || spec.name.rsplit_once('.').expect("a block part").0,
        String::as_str,
    );
    let format = blocks[matrix];
    let (rows, per_row) = (spec.shape[0] as usize * group, spec.shape[1] as usize);
    let q_bytes = spec.shape[2] as usize / group;
    Ok(Cow::Owned(crate::emit::vnni_layout::relayout(
        part, format, &bytes, rows, per_row, q_bytes,
    )))
}

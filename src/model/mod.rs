//! A model resident on one device: its weights and RoPE tables uploaded once,
//! the graphs it calls (a [`GraphSet`], which emits, compiles and loads them),
//! and typed calls for prefill and decode over per-slot KV caches that stay
//! on the device. Every bound is checked on the host before
//! any device work, because `dynamic_update_slice` clamps out-of-range
//! positions silently.

mod device_sampling;
mod graphs;

use std::path::Path;
use std::time::{Duration, Instant};

pub use device_sampling::RowDraw;
pub use graphs::GraphSet;

use crate::compile::{CompileError, Compiler, ModuleCache, Target};
use crate::config::{ConfigError, ModelConfig};
pub use crate::emit::DeviceWeights;
use crate::emit::{EmitError, EmitPlan, GraphKind, GraphUse, LlamaShape, Manifest, Output};
use crate::fit::{self, FitError};
use crate::runtime::{Buffer, Function, Instance, RuntimeError, Session};
use crate::types::{DType, DeviceUri, TokenId};
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
    /// The graphs to compile and load.
    pub graphs: Vec<GraphKind>,
    pub cache: ModuleCache,
    pub target: Target,
    /// Compile and load a graph the first time a call needs it, instead of
    /// failing with [`ModelError::GraphNotLoaded`]. Keeps the first run of a
    /// one-off prompt from compiling every prefill bucket.
    pub compile_on_demand: bool,
    /// How weights live on the device; decides `plan.weights` at load time.
    pub device_weights: DeviceWeights,
}

impl LoadOptions {
    /// The graphs `use_` needs (decided by [`EmitPlan::graphs_for`]).
    pub fn for_use(device: DeviceUri, plan: EmitPlan, use_: &GraphUse) -> Self {
        let graphs = plan.graphs_for(use_);
        Self::with_graphs(device, plan, graphs)
    }

    /// [`for_use`](Self::for_use) for the batched engine at `batch` slots.
    pub fn batched(device: DeviceUri, plan: EmitPlan, batch: i64) -> Self {
        Self::for_use(device, plan, &GraphUse::Batched { batch })
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
            cache: ModuleCache::default_location(),
            target,
            compile_on_demand: false,
            device_weights: DeviceWeights::Native,
        }
    }
}

/// One slot's KV cache, resident on the device.
pub struct KvCache {
    buffer: Buffer,
}

impl KvCache {
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
        let start = Instant::now();
        progress.begin("compiling graphs", opts.graphs.len() as u64);
        for &kind in &opts.graphs {
            model
                .graphs
                .load(&mut model.session, kind, &mut model.stats)?;
            progress.advance(1);
        }
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

    /// Uploads the parameters in the manifest's order: weights as stored, or
    /// widened to f32 when the graphs take f32, and the RoPE tables.
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
                name => {
                    let view = weights.tensor(name)?;
                    if view.dtype == spec.dtype {
                        self.session
                            .upload_bytes(spec.dtype, &spec.shape, view.data)?
                    } else {
                        self.session.upload(&spec.shape, &view.to_f32())?
                    }
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
        Ok(KvCache {
            buffer: self.session.zeros(DType::F32, &self.manifest.kv_shape)?,
        })
    }

    /// Copies the cache of one slot into another's on the device (never
    /// through the host): the prompt of several choices is prefilled once.
    pub fn copy_kv(&self, from: &KvCache, to: &mut KvCache) -> Result<()> {
        Ok(self.session.copy(&from.buffer, &mut to.buffer)?)
    }

    /// Copies a slot's cache to the host (for tests and debugging).
    pub fn read_kv(&self, kv: &KvCache) -> Result<Vec<f32>> {
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

    /// Runs the prompt of one slot from position 0, writing its K/V into
    /// `kv` on the device. Returns the logits `[vocab]` of the last token.
    pub fn prefill_logits(&mut self, kv: &mut KvCache, tokens: &[TokenId]) -> Result<Vec<f32>> {
        let out = self.prefill(kv, tokens, Output::Logits)?;
        Ok(self.session.read::<f32>(&out)?)
    }

    /// Like [`prefill_logits`](Self::prefill_logits) but returns the last
    /// token's argmax (lowest id on ties), computed on the device.
    pub fn prefill_argmax(&mut self, kv: &mut KvCache, tokens: &[TokenId]) -> Result<TokenId> {
        let out = self.prefill(kv, tokens, Output::Argmax)?;
        Ok(TokenId(self.session.read::<i32>(&out)?[0] as u32))
    }

    fn prefill(&mut self, kv: &mut KvCache, tokens: &[TokenId], output: Output) -> Result<Buffer> {
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
            tokens: bucket,
            output,
        };
        self.ensure_graph(kind)?;
        let function = self.graphs.function(kind)?;
        let mut padded: Vec<i32> = tokens.iter().map(|t| t.0 as i32).collect();
        padded.resize(bucket as usize, 0);
        let ids = self.session.upload(&[bucket], &padded)?;
        let len = self.session.upload(&[], &[tokens.len() as i32])?;
        let mut outputs = self.call_with_kv(function, std::slice::from_mut(kv), &[&ids, &len])?;
        Ok(outputs.remove(0))
    }

    /// One decode step over `kvs.len()` slots (the batch of a loaded decode
    /// graph): row i feeds `tokens[i]` at `positions[i]` of cache i. Logits
    /// `[batch, vocab]` are written to `logits` (resized as needed).
    pub fn decode_logits(
        &mut self,
        kvs: &mut [KvCache],
        tokens: &[TokenId],
        positions: &[usize],
        logits: &mut Vec<f32>,
    ) -> Result<()> {
        let window = self.auto_window(positions);
        self.decode_logits_in_window(kvs, tokens, positions, window, logits)
    }

    /// [`decode_logits`](Self::decode_logits) with an explicit attention
    /// window (`None`: the whole capacity); every position must be inside it.
    pub fn decode_logits_in_window(
        &mut self,
        kvs: &mut [KvCache],
        tokens: &[TokenId],
        positions: &[usize],
        window: Option<i64>,
        logits: &mut Vec<f32>,
    ) -> Result<()> {
        let out = self.decode(kvs, tokens, positions, Output::Logits, window, &[])?;
        logits.resize(kvs.len() * self.vocab(), 0.0);
        self.session.read_into(&out, 0, logits)?;
        Ok(())
    }

    /// Like [`decode_logits`](Self::decode_logits) but returns each row's
    /// argmax token (lowest id on ties), computed on the device.
    pub fn decode_argmax(
        &mut self,
        kvs: &mut [KvCache],
        tokens: &[TokenId],
        positions: &[usize],
    ) -> Result<Vec<TokenId>> {
        let window = self.auto_window(positions);
        let out = self.decode(kvs, tokens, positions, Output::Argmax, window, &[])?;
        Ok(self
            .session
            .read::<i32>(&out)?
            .into_iter()
            .map(|t| TokenId(t as u32))
            .collect())
    }

    fn decode(
        &mut self,
        kvs: &mut [KvCache],
        tokens: &[TokenId],
        positions: &[usize],
        output: Output,
        window: Option<i64>,
        extra: &[&Buffer],
    ) -> Result<Buffer> {
        Ok(self
            .decode_all(kvs, tokens, positions, output, window, extra)?
            .remove(0))
    }

    /// One decode call with `extra` inputs after the positions; returns
    /// every result that is not a cache (the output, then any trailing ones).
    fn decode_all(
        &mut self,
        kvs: &mut [KvCache],
        tokens: &[TokenId],
        positions: &[usize],
        output: Output,
        window: Option<i64>,
        extra: &[&Buffer],
    ) -> Result<Vec<Buffer>> {
        let batch = kvs.len();
        if tokens.len() != batch || positions.len() != batch {
            return Err(ModelError::InvalidCall(format!(
                "decode of {batch} slots got {} tokens and {} positions",
                tokens.len(),
                positions.len()
            )));
        }
        self.check_tokens(tokens)?;
        if let Some(&p) = positions.iter().find(|&&p| p >= self.capacity()) {
            return Err(FitError::DoesNotFit {
                prompt: p + 1,
                max_tokens: 0,
                capacity: self.capacity(),
            }
            .into());
        }
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
        };
        self.ensure_graph(kind)?;
        let function = self.graphs.function(kind)?;
        let ids: Vec<i32> = tokens.iter().map(|t| t.0 as i32).collect();
        let pos: Vec<i32> = positions.iter().map(|&p| p as i32).collect();
        let ids = self.session.upload(&[batch as i64], &ids)?;
        let pos = self.session.upload(&[batch as i64], &pos)?;
        let mut rest = vec![&ids, &pos];
        rest.extend_from_slice(extra);
        self.call_with_kv(function, kvs, &rest)
    }

    /// The smallest attention window holding every row: the furthest row
    /// decides how much of the caches attention reads.
    fn auto_window(&self, positions: &[usize]) -> Option<i64> {
        let furthest = positions.iter().copied().max().unwrap_or(0);
        self.manifest.plan.window_for(furthest)
    }

    /// Calls `function` with the parameters, the caches and `rest`; the
    /// aliased cache results (the 2nd to the (1 + caches)th) replace the
    /// caches' buffers. Returns the remaining results: the first, then any
    /// after the caches.
    fn call_with_kv(
        &self,
        function: &Function,
        kvs: &mut [KvCache],
        rest: &[&Buffer],
    ) -> Result<Vec<Buffer>> {
        let mut args: Vec<&Buffer> = self.params.iter().collect();
        args.extend(kvs.iter().map(|kv| kv.buffer()));
        args.extend_from_slice(rest);
        let mut outputs = self.session.call(function, &args)?;
        if outputs.len() < 1 + kvs.len() {
            return Err(ModelError::InvalidCall(format!(
                "{} returned {} results, expected at least {}",
                function.name(),
                outputs.len(),
                1 + kvs.len()
            )));
        }
        let new_kvs: Vec<Buffer> = outputs.drain(1..1 + kvs.len()).collect();
        for (kv, buffer) in kvs.iter_mut().zip(new_kvs) {
            kv.buffer = buffer;
        }
        Ok(outputs)
    }
}

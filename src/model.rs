//! A model resident on one device: the graphs it needs compiled (through the
//! module cache) and loaded into a session, its weights and RoPE tables
//! uploaded once, and typed calls for prefill and decode over per-slot KV
//! caches that stay on the device. Every bound is checked on the host before
//! any device work, because `dynamic_update_slice` clamps out-of-range
//! positions silently.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::compile::{CompileError, Compiler, ModuleCache, Target};
use crate::config::{ConfigError, ModelConfig};
use crate::emit::{self, Elem, EmitError, EmitPlan, GraphKind, LlamaShape, Manifest, Output};
use crate::fit::{self, FitError};
use crate::runtime::{Buffer, DType, Function, Instance, RuntimeError, Session};
use crate::types::{DeviceUri, TokenId};
use crate::weights::{DType as WeightDType, Weights, WeightsError};

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

/// How weights live on the device.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeviceWeights {
    /// In the checkpoint's own dtype (f32, bf16 or f16), widened to f32
    /// inside the graphs: half the memory and memory traffic of f32 for
    /// 16-bit checkpoints.
    #[default]
    Native,
    /// Widened to f32 once, when uploaded.
    F32,
}

impl std::str::FromStr for DeviceWeights {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "native" => Ok(DeviceWeights::Native),
            "f32" => Ok(DeviceWeights::F32),
            _ => Err(format!(
                "'{s}' is not a weight placement; use native or f32"
            )),
        }
    }
}

/// The graph element type of a checkpoint dtype.
pub fn weight_elem(dtype: WeightDType) -> Elem {
    match dtype {
        WeightDType::F32 => Elem::F32,
        WeightDType::F16 => Elem::F16,
        WeightDType::BF16 => Elem::BF16,
    }
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
    /// Graphs of the batched engine: logits prefill buckets and the ragged
    /// decode of `batch` slots for every attention window.
    pub fn batched(device: DeviceUri, plan: EmitPlan, batch: i64) -> Self {
        let mut graphs = plan.prefill_kinds(Output::Logits);
        graphs.extend(plan.decode_kinds(batch, Output::Logits));
        Self::with_graphs(device, plan, graphs)
    }

    /// Graphs of the single-sequence greedy path: argmax prefill buckets and
    /// argmax decode of one slot for every attention window.
    pub fn single_argmax(device: DeviceUri, plan: EmitPlan) -> Self {
        let mut graphs = plan.prefill_kinds(Output::Argmax);
        graphs.extend(plan.decode_kinds(1, Output::Argmax));
        Self::with_graphs(device, plan, graphs)
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

fn elem_size(e: Elem) -> u64 {
    match e {
        Elem::F32 | Elem::I32 => 4,
        Elem::F16 | Elem::BF16 => 2,
        Elem::I1 => 1,
    }
}

/// One slot's KV cache, resident on the device.
pub struct KvCache {
    buffer: Option<Buffer>,
}

impl KvCache {
    /// Identity of the device allocation (stable across in-place updates).
    pub fn storage_id(&self) -> u64 {
        self.buffer.as_ref().map(|b| b.storage_id()).unwrap_or(0)
    }

    pub fn buffer(&self) -> &Buffer {
        self.buffer
            .as_ref()
            .expect("KV buffer present between calls")
    }
}

/// Output of a prefill.
#[derive(Clone, Debug, PartialEq)]
pub enum PrefillOut {
    Logits(Vec<f32>),
    Token(TokenId),
}

/// A model loaded on a device.
pub struct DeviceModel {
    session: Session,
    config: ModelConfig,
    shape: LlamaShape,
    manifest: Manifest,
    params: Vec<Buffer>,
    functions: HashMap<GraphKind, Function>,
    compiler: Compiler,
    options: LoadOptions,
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
        opts.plan.weights = match opts.device_weights {
            DeviceWeights::Native => weight_elem(weights.dtype()),
            DeviceWeights::F32 => Elem::F32,
        };
        let shape = LlamaShape::from(&config);
        let manifest = Manifest::new(&shape, &opts.plan);
        let session = instance.open(&opts.device)?;
        let compiler = Compiler::locate()?;
        let mut model = DeviceModel {
            session,
            config,
            shape,
            manifest,
            params: Vec::new(),
            functions: HashMap::new(),
            compiler,
            options: opts.clone(),
            stats: LoadStats::default(),
        };

        // Graphs: emitted in memory from the config, compiled through the cache.
        let start = Instant::now();
        progress.begin("compiling graphs", opts.graphs.len() as u64);
        for &kind in &opts.graphs {
            model.load_graph(kind)?;
            progress.advance(1);
        }
        progress.end();
        model.stats.compile_time = start.elapsed();
        model.upload_params(&weights, progress)?;
        Ok(model)
    }

    /// Emits, compiles (or finds in the cache) and loads one graph.
    fn load_graph(&mut self, kind: GraphKind) -> Result<()> {
        if self.functions.contains_key(&kind) {
            return Ok(());
        }
        let start = Instant::now();
        let graph = emit::emit_graph(&self.shape, &self.options.plan.graph_config(), kind);
        let opts = &self.options;
        let module =
            opts.cache
                .get_or_compile(&self.compiler, &opts.target, &graph.name(), &graph.mlir)?;
        self.session.load_module(&module.path)?;
        self.functions
            .insert(kind, self.session.function(&graph.entry())?);
        self.stats.modules += 1;
        self.stats.modules_compiled += usize::from(!module.hit);
        self.stats
            .graphs
            .push((graph.name(), start.elapsed(), !module.hit));
        Ok(())
    }

    /// Makes sure `kind` is loaded, compiling it now if the model was loaded
    /// with `compile_on_demand`.
    pub fn ensure_graph(&mut self, kind: GraphKind) -> Result<()> {
        if self.functions.contains_key(&kind) {
            return Ok(());
        }
        if !self.options.compile_on_demand {
            return Err(ModelError::GraphNotLoaded(kind.name()));
        }
        self.load_graph(kind)
    }

    /// Uploads the parameters in the manifest's order: weights as stored, or
    /// widened to f32 when the graphs take f32, and the RoPE tables.
    fn upload_params(&mut self, weights: &Weights, progress: &dyn LoadProgress) -> Result<()> {
        let start = Instant::now();
        let capacity = self.options.plan.capacity as usize;
        let (cos, sin) = emit::llama::rope_tables(&self.config.rope_inv_freq(), capacity);
        let total: u64 = self
            .manifest
            .params
            .iter()
            .map(|p| p.shape.iter().product::<i64>() as u64 * elem_size(p.dtype))
            .sum();
        progress.begin("uploading weights", total);
        let mut params = Vec::with_capacity(self.manifest.params.len());
        for spec in &self.manifest.params {
            let buffer = match spec.name.as_str() {
                "rope.cos" => self.session.upload(&spec.shape, &cos)?,
                "rope.sin" => self.session.upload(&spec.shape, &sin)?,
                name => {
                    let view = weights.tensor(name)?;
                    if weight_elem(view.dtype) == spec.dtype {
                        let dtype = match view.dtype {
                            WeightDType::F32 => DType::F32,
                            WeightDType::F16 => DType::F16,
                            WeightDType::BF16 => DType::BF16,
                        };
                        self.session.upload_bytes(dtype, &spec.shape, view.data)?
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

    /// Whether a graph is loaded.
    pub fn has(&self, kind: GraphKind) -> bool {
        self.functions.contains_key(&kind)
    }

    /// A fresh zero-filled KV cache for one slot.
    pub fn new_kv(&self) -> Result<KvCache> {
        Ok(KvCache {
            buffer: Some(self.session.zeros(DType::F32, &self.manifest.kv_shape)?),
        })
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

    fn function(&self, kind: GraphKind) -> Result<&Function> {
        self.functions
            .get(&kind)
            .ok_or_else(|| ModelError::GraphNotLoaded(kind.name()))
    }

    /// Runs the prompt of one slot from position 0, writing its K/V into
    /// `kv` on the device. Returns the logits or argmax of the last token.
    pub fn prefill(
        &mut self,
        kv: &mut KvCache,
        tokens: &[TokenId],
        output: Output,
    ) -> Result<PrefillOut> {
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
        let function = self.function(kind)?;
        let mut padded: Vec<i32> = tokens.iter().map(|t| t.0 as i32).collect();
        padded.resize(bucket as usize, 0);
        let ids = self.session.upload(&[bucket], &padded)?;
        let len = self.session.upload(&[], &[tokens.len() as i32])?;
        let mut outputs = self.call_with_kv(function, std::slice::from_mut(kv), &[&ids, &len])?;
        let out = outputs.remove(0);
        Ok(match output {
            Output::Logits => PrefillOut::Logits(self.session.read::<f32>(&out)?),
            Output::Argmax => PrefillOut::Token(TokenId(self.session.read::<i32>(&out)?[0] as u32)),
        })
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
        let out = self.decode(kvs, tokens, positions, Output::Logits, window)?;
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
        let out = self.decode(kvs, tokens, positions, Output::Argmax, window)?;
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
    ) -> Result<Buffer> {
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
        let function = self.function(kind)?;
        let ids: Vec<i32> = tokens.iter().map(|t| t.0 as i32).collect();
        let pos: Vec<i32> = positions.iter().map(|&p| p as i32).collect();
        let ids = self.session.upload(&[batch as i64], &ids)?;
        let pos = self.session.upload(&[batch as i64], &pos)?;
        let mut outputs = self.call_with_kv(function, kvs, &[&ids, &pos])?;
        Ok(outputs.remove(0))
    }

    /// The smallest attention window holding every row: the furthest row
    /// decides how much of the caches attention reads.
    fn auto_window(&self, positions: &[usize]) -> Option<i64> {
        let furthest = positions.iter().copied().max().unwrap_or(0);
        self.manifest.plan.window_for(furthest)
    }

    /// Calls `function` with the parameters, the caches and `rest`; the
    /// aliased cache results replace the caches' buffers. Returns the
    /// remaining (non-cache) results.
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
        if outputs.len() != 1 + kvs.len() {
            return Err(ModelError::InvalidCall(format!(
                "{} returned {} results, expected {}",
                function.name(),
                outputs.len(),
                1 + kvs.len()
            )));
        }
        let new_kvs = outputs.split_off(1);
        for (kv, buffer) in kvs.iter_mut().zip(new_kvs) {
            kv.buffer = Some(buffer);
        }
        Ok(outputs)
    }
}

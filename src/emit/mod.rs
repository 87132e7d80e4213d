//! From a model config to StableHLO: which graphs a model needs (an
//! [`EmitPlan`]), their text (built with the typed [`builder`] by [`llama`]),
//! and the [`Manifest`] that tells the runtime each function's arguments,
//! shapes and dtypes. Emission is pure text generation: deterministic, no
//! compiler or device involved, so `iree-llm emit` works offline anywhere.
//!
//! Prefill cost follows the prompt through **length buckets**: one prefill
//! graph per power-of-two token count from 16 up to the context capacity; a
//! prompt is padded to the smallest bucket that holds it. Decode attention
//! cost follows the context in use through **attention windows**: decode
//! graphs that read only the first 64, 256, 1024, ... positions of each cache
//! (growing by 4x, plus the whole capacity); a step uses the smallest window
//! beyond its furthest row.
//!
//! The batched engine prefills through **chunks** instead ([`chunks`]): a
//! prompt runs as a few chunk graphs (`chunk_logits_t24_w0_s4`: 24 tokens at
//! a runtime position, reading the first `w` positions of the slot's cache)
//! whose sizes follow its length, so its cost grows with the prompt and a
//! running slot waits for at most one chunk between two tokens.

pub mod builder;
pub mod chunks;
pub mod cuda_attention;
pub mod cuda_rows;
pub mod kernels;
pub mod llama;
pub mod panels;
#[cfg(test)]
mod ptxas;
pub mod sample;
pub mod vnni_layout;

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

pub use chunks::{
    ChunkCall, DEFAULT_CARRIED_CHUNK, DEFAULT_MAX_CHUNK, Padding, chunk_plan, chunk_plan_from,
    loaded_plan_from, plan_cost,
};
pub use kernels::Kernels;
pub use llama::{
    BLOCK, BlockFormat, GraphConfig, GroupedQueries, LlamaShape, NarrowRows, Output, ParamSpec,
    WideRows,
};

use crate::config::ModelConfig;
use crate::types::DType;

/// Version of the graph conventions; bump when the argument layout changes.
pub const MANIFEST_FORMAT: u32 = 4;

/// The smallest prefill bucket.
pub const MIN_PREFILL_BUCKET: i64 = 16;

/// The smallest decode attention window; windows grow by [`WINDOW_GROWTH`].
pub const MIN_DECODE_WINDOW: i64 = 64;
pub const WINDOW_GROWTH: i64 = 4;

#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    #[error("context capacity must be at least 1 token, got {0}")]
    Capacity(i64),
    #[error(
        "context capacity {capacity} exceeds the model's max_position_embeddings \
         {max}; pass a smaller --context"
    )]
    CapacityAboveModel { capacity: i64, max: i64 },
    #[error("batch size must be at least 1, got {0}")]
    Batch(i64),
    #[error("cannot write {}: {source}", path.display())]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

impl From<&ModelConfig> for LlamaShape {
    fn from(c: &ModelConfig) -> Self {
        LlamaShape {
            vocab: c.vocab_size as i64,
            hidden: c.hidden_size as i64,
            intermediate: c.intermediate_size as i64,
            layers: c.num_hidden_layers as i64,
            heads: c.num_attention_heads as i64,
            kv_heads: c.num_key_value_heads as i64,
            head_dim: c.head_dim as i64,
            rms_eps: c.rms_norm_eps,
            tied_embeddings: c.tie_word_embeddings,
        }
    }
}

/// Which graphs to emit for one model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EmitPlan {
    /// KV capacity of each slot in tokens (prompt plus generated tokens).
    pub capacity: i64,
    /// Batch sizes of the ragged logits decode graphs (e.g. 4 and 8).
    pub batches: Vec<i64>,
    /// Prefill length buckets, ascending; the last equals `capacity`.
    pub prefill_buckets: Vec<i64>,
    /// Decode attention windows below the capacity, ascending (the whole
    /// capacity is always available as well).
    pub decode_windows: Vec<i64>,
    /// Element type of the weight arguments: f32, or a checkpoint's bf16 or
    /// f16 kept as is on the device (widened inside the graphs).
    #[serde(default = "default_weights")]
    pub weights: DType,
    /// Matrices kept in 32-element blocks on the device (from a quantized
    /// GGUF), by Hugging Face name; every other weight is in `weights`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub blocks: BTreeMap<String, BlockFormat>,
    /// Hand-written kernels the graphs call for block matrices
    /// (`kernels::Kernels`); portable graphs lower for every target.
    #[serde(default, skip_serializing_if = "Kernels::is_portable")]
    pub kernels: Kernels,
    /// Element type of the KV cache: f32, or f16 (an opt-in form with half
    /// the cache's bytes; keys and values rounded to f16 when written).
    #[serde(default = "default_kv_cache", skip_serializing_if = "is_f32")]
    pub kv_cache: DType,
    /// How products of a few rows (decode) are written for IREE's code
    /// generator: padded to 8 rows for the CPU, as they are for a GPU.
    #[serde(default, skip_serializing_if = "NarrowRows::is_padded")]
    pub narrow: NarrowRows,
    /// How products of more rows (prompts) are written: f32 for the CPU,
    /// three bf16 terms for CUDA's matrix units.
    #[serde(default, skip_serializing_if = "WideRows::is_f32")]
    pub wide: WideRows,
    /// How a decode step's attention multiplies each key/value head's
    /// queries with the cache: stacked for the CPU, CUDA's own kernel
    /// (broadcast or split where it does not take the shape) for CUDA.
    #[serde(default, skip_serializing_if = "GroupedQueries::is_stacked")]
    pub attention: GroupedQueries,
}

fn default_kv_cache() -> DType {
    DType::F32
}

fn is_f32(d: &DType) -> bool {
    *d == DType::F32
}

/// The KV cache's element type that `IREE_LLM_KV_CACHE` asks for: `f32`
/// (the default; exact) or `f16` (half the cache's bytes and memory; keys
/// and values rounded to f16, so not exact: docs/performance.md gives the
/// measured error). Anything else warns and keeps f32.
pub fn kv_cache_from_env() -> DType {
    match std::env::var("IREE_LLM_KV_CACHE").as_deref() {
        Err(_) | Ok("") | Ok("f32") => DType::F32,
        Ok("f16") => DType::F16,
        Ok(other) => {
            tracing::warn!("IREE_LLM_KV_CACHE={other}: use f32 or f16; keeping f32");
            DType::F32
        }
    }
}

impl EmitPlan {
    pub fn new(capacity: i64, batches: &[i64]) -> Result<Self, EmitError> {
        if capacity < 1 {
            return Err(EmitError::Capacity(capacity));
        }
        if let Some(&b) = batches.iter().find(|&&b| b < 1) {
            return Err(EmitError::Batch(b));
        }
        let mut batches = batches.to_vec();
        batches.sort_unstable();
        batches.dedup();
        Ok(EmitPlan {
            capacity,
            batches,
            prefill_buckets: prefill_buckets(capacity),
            decode_windows: decode_windows(capacity),
            weights: DType::F32,
            blocks: BTreeMap::new(),
            kernels: Kernels::Portable,
            kv_cache: DType::F32,
            narrow: NarrowRows::default(),
            attention: GroupedQueries::default(),
            wide: WideRows::default(),
        })
    }

    /// Checks the plan against the model (capacity within its positions).
    pub fn check(&self, config: &ModelConfig) -> Result<(), EmitError> {
        let max = config.max_position_embeddings as i64;
        if self.capacity > max {
            return Err(EmitError::CapacityAboveModel {
                capacity: self.capacity,
                max,
            });
        }
        Ok(())
    }

    /// The smallest prefill bucket holding `tokens` tokens.
    pub fn bucket_for(&self, tokens: usize) -> Option<i64> {
        self.prefill_buckets
            .iter()
            .copied()
            .find(|&b| b >= tokens as i64)
    }

    /// The decode window for a step whose furthest row is at `max_position`:
    /// the smallest window beyond it, or `None` for the whole capacity.
    pub fn window_for(&self, max_position: usize) -> Option<i64> {
        self.decode_windows
            .iter()
            .copied()
            .find(|&w| w > max_position as i64)
    }

    /// Every prefill graph (one per length bucket) into a cache of `slots`
    /// slots, returning `output`.
    pub fn prefill_kinds(&self, slots: i64, output: Output) -> Vec<GraphKind> {
        self.prefill_buckets
            .iter()
            .map(|&tokens| GraphKind::Prefill {
                slots,
                tokens,
                output,
            })
            .collect()
    }

    /// Every decode graph of `batch` slots: one per window, then the one
    /// over the whole capacity.
    pub fn decode_kinds(&self, batch: i64, output: Output) -> Vec<GraphKind> {
        self.decode_kinds_with_spare(batch, 0, output)
    }

    /// [`decode_kinds`](Self::decode_kinds) over a cache of `spare` more
    /// slots than rows.
    pub fn decode_kinds_with_spare(
        &self,
        batch: i64,
        spare: i64,
        output: Output,
    ) -> Vec<GraphKind> {
        self.decode_windows
            .iter()
            .map(|&w| Some(w))
            .chain([None])
            .map(|window| GraphKind::Decode {
                batch,
                output,
                window,
                spare,
            })
            .collect()
    }

    /// The decode+chunk graphs of `batch` rows over a cache with `spare`
    /// more slots: every size of a carried chunk up to `carried` tokens,
    /// with every decode window.
    pub fn decode_chunk_kinds(&self, batch: i64, spare: i64, carried: usize) -> Vec<GraphKind> {
        let sizes = chunks::chunk_sizes(self.capacity, carried);
        self.decode_windows
            .iter()
            .map(|&w| Some(w))
            .chain([None])
            .flat_map(|window| {
                sizes.iter().map(move |&tokens| GraphKind::DecodeChunk {
                    batch,
                    window,
                    tokens,
                    spare,
                })
            })
            .collect()
    }
}

fn default_weights() -> DType {
    DType::F32
}

fn one_slot() -> i64 {
    1
}

impl EmitPlan {
    /// The same plan with weights of element type `weights`.
    pub fn with_weights(mut self, weights: DType) -> Self {
        self.weights = weights;
        self
    }

    /// The same plan with the forms of products and attention that graphs
    /// compiled for `kind` take (each form's `for_target`, which its
    /// `$IREE_LLM_GPU_*` variable can override on a GPU): what the runtime
    /// compiles for such a device, so graphs emitted offline for it match.
    pub fn with_forms_for(mut self, kind: crate::types::DeviceKind) -> Self {
        self.narrow = NarrowRows::for_target(kind);
        self.wide = WideRows::for_target(kind);
        self.attention = GroupedQueries::for_target(kind);
        self
    }

    /// What every graph of this plan shares.
    pub fn graph_config(&self) -> GraphConfig {
        GraphConfig {
            capacity: self.capacity,
            weights: self.weights,
            blocks: std::sync::Arc::new(self.blocks.clone()),
            kernels: self.kernels,
            kv_cache: self.kv_cache,
            narrow: self.narrow,
            wide: self.wide,
            attention: self.attention,
        }
    }
}

/// Windows [`MIN_DECODE_WINDOW`] x [`WINDOW_GROWTH`]^k below `capacity`.
pub fn decode_windows(capacity: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut w = MIN_DECODE_WINDOW;
    while w < capacity {
        out.push(w);
        w *= WINDOW_GROWTH;
    }
    out
}

/// Powers of two from [`MIN_PREFILL_BUCKET`] below `capacity`, then `capacity`.
pub fn prefill_buckets(capacity: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut b = MIN_PREFILL_BUCKET;
    while b < capacity {
        out.push(b);
        b *= 2;
    }
    out.push(capacity);
    out
}

/// What a graph computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum GraphKind {
    /// One slot's prompt, padded to `tokens`, into a cache of `slots` slots.
    Prefill {
        #[serde(default = "one_slot")]
        slots: i64,
        tokens: i64,
        output: Output,
    },
    /// A prefill chunk of `tokens` tokens (padded) of one slot of a
    /// `slots`-slot cache at a runtime position, attending to the first
    /// `window` positions of that slot's cache (0: the first chunk).
    Chunk {
        slots: i64,
        tokens: i64,
        window: i64,
        output: Output,
    },
    /// One token for each of the first `batch` slots of a `batch +
    /// spare`-slot cache, attending to the first `window` positions of
    /// each slot (`None`: the whole capacity). The `spare` slots past the
    /// rows are left as they are (a prompt is prefilled there while every
    /// row decodes).
    Decode {
        batch: i64,
        output: Output,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<i64>,
        #[serde(default, skip_serializing_if = "is_zero")]
        spare: i64,
    },
    /// A sampling decode step of the first `batch` slots of a `batch +
    /// spare`-slot cache (attention through `window` positions, `None`: the
    /// whole capacity) and one prefill chunk of `tokens` tokens of any
    /// slot, at any position below the window, in one call
    /// ([`llama::decode_with_chunk`]).
    DecodeChunk {
        batch: i64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        window: Option<i64>,
        tokens: i64,
        #[serde(default, skip_serializing_if = "is_zero")]
        spare: i64,
    },
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// The name suffix of a decode cache with spare slots: `_s9` for the 9
/// slots of 8 rows and one spare, as a prefill names its cache's slots.
fn spare_suffix(batch: i64, spare: i64) -> String {
    match spare {
        0 => String::new(),
        s => format!("_s{}", batch + s),
    }
}

impl GraphKind {
    /// The function (and module) name, e.g. `prefill_logits_t64` (a
    /// one-slot cache), `prefill_logits_t64_s8` (slot of an 8-slot cache),
    /// `decode_ragged_logits_b8`, `decode_ragged_logits_b8_w256` (a window),
    /// `decode_argmax_b1`, `decode_sample_b8` (sampling in the graph).
    pub fn name(&self) -> String {
        match *self {
            GraphKind::Prefill {
                slots,
                tokens,
                output,
            } => match slots {
                1 => format!("prefill_{}_t{tokens}", output.name()),
                s => format!("prefill_{}_t{tokens}_s{s}", output.name()),
            },
            GraphKind::Chunk {
                slots,
                tokens,
                window,
                output,
            } => format!("chunk_{}_t{tokens}_w{window}_s{slots}", output.name()),
            GraphKind::Decode {
                batch,
                output,
                window,
                spare,
            } => {
                let base = match output {
                    Output::Logits => format!("decode_ragged_logits_b{batch}"),
                    Output::Argmax => format!("decode_argmax_b{batch}"),
                    Output::Sample => format!("decode_sample_b{batch}"),
                };
                let w = window.map_or(String::new(), |w| format!("_w{w}"));
                format!("{base}{w}{}", spare_suffix(batch, spare))
            }
            GraphKind::DecodeChunk {
                batch,
                window,
                tokens,
                spare,
            } => {
                let w = window.map_or(String::new(), |w| format!("_w{w}"));
                let s = spare_suffix(batch, spare);
                format!("decode_chunk_b{batch}{w}_t{tokens}{s}")
            }
        }
    }

    /// Number of KV cache arguments (and aliased results): one tensor
    /// holds every slot.
    pub fn kv_count(&self) -> usize {
        1
    }

    /// Slots of the KV cache the graph takes.
    pub fn slots(&self) -> i64 {
        match *self {
            GraphKind::Prefill { slots, .. } | GraphKind::Chunk { slots, .. } => slots,
            GraphKind::Decode { batch, spare, .. }
            | GraphKind::DecodeChunk { batch, spare, .. } => batch + spare,
        }
    }
}

/// One emitted graph: a module named after its function.
#[derive(Clone, Debug)]
pub struct Graph {
    pub kind: GraphKind,
    pub mlir: String,
}

impl Graph {
    pub fn name(&self) -> String {
        self.kind.name()
    }

    /// The runtime name of the entry point: `module.function`.
    pub fn entry(&self) -> String {
        let n = self.name();
        format!("{n}.{n}")
    }
}

/// All graphs of `plan` for model `m`.
pub fn emit_graphs(m: &LlamaShape, plan: &EmitPlan) -> Vec<Graph> {
    plan_kinds(plan)
        .into_iter()
        .map(|kind| emit_graph(m, &plan.graph_config(), kind))
        .collect()
}

/// The graph kinds `plan` calls for, in a stable order.
pub fn plan_kinds(plan: &EmitPlan) -> Vec<GraphKind> {
    plan.graphs_for(&GraphUse::Everything)
}

/// What a loaded model is for; [`EmitPlan::graphs_for`] turns it into the
/// graphs to compile. The one place that decides which graphs a use needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GraphUse {
    /// Every graph of the plan: what `iree-llm emit` writes.
    Everything,
    /// The batched engine at `batch` slots: the logits prefill chunks it
    /// uses most ([`EmitPlan::chunk_kinds`], chunks of at most
    /// [`DEFAULT_MAX_CHUNK`]) and the sampling decode of `batch` rows for
    /// every window (it returns the logits too, for steps sampled on the
    /// host). Other chunk graphs load on their first use. With `spare`
    /// slots, the cache has that many more slots than rows, which prompts
    /// are prefilled into while every row decodes.
    Batched { batch: i64, spare: i64 },
    /// The single-sequence greedy path: the argmax prefill buckets and the
    /// argmax decode of one slot for every window.
    SingleArgmax,
    /// One prompt of `prompt` tokens followed by up to `max_new` more through
    /// the batched engine at `batch`: the prompt's prefill chunks and the
    /// decode windows its positions pass through (others load on demand).
    Prompt {
        batch: i64,
        prompt: usize,
        max_new: usize,
    },
    /// Timing runs: logits prefill for each of `prefill_lengths` (the
    /// whole-prompt bucket and the chunks of its plan), and for
    /// each of `batches` the decode through the window of `position` and
    /// through the whole capacity.
    Timing {
        prefill_lengths: Vec<usize>,
        batches: Vec<i64>,
        position: usize,
    },
}

/// Where the weights live on the device, and so the element type of the
/// graphs' weight arguments.
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

impl DeviceWeights {
    /// The element type of the weights on the device for a checkpoint
    /// stored as `stored`: the one place that decides it.
    pub fn dtype(self, stored: DType) -> DType {
        match self {
            DeviceWeights::Native => stored,
            DeviceWeights::F32 => DType::F32,
        }
    }
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

impl EmitPlan {
    /// The graphs `use_` needs, in a stable order without repeats. A prefill
    /// length beyond the capacity gets no graph (the call will refuse it).
    pub fn graphs_for(&self, use_: &GraphUse) -> Vec<GraphKind> {
        let mut kinds = Vec::new();
        match use_ {
            GraphUse::Everything => {
                kinds = self.prefill_kinds(1, Output::Logits);
                for &batch in &self.batches {
                    kinds.extend(self.prefill_kinds(batch, Output::Logits));
                    kinds.extend(self.decode_kinds(batch, Output::Logits));
                }
                for &batch in &self.batches {
                    kinds.extend(self.chunk_kinds(batch, DEFAULT_MAX_CHUNK, Output::Logits));
                }
                for &batch in &self.batches {
                    kinds.extend(self.decode_kinds(batch, Output::Sample));
                }
                kinds.extend(self.graphs_for(&GraphUse::SingleArgmax));
                if !self.batches.contains(&1) {
                    kinds.extend(self.decode_kinds(1, Output::Logits));
                }
            }
            &GraphUse::Batched { batch, spare } => {
                kinds = self.chunk_kinds(batch + spare, DEFAULT_MAX_CHUNK, Output::Logits);
                kinds.extend(self.decode_kinds_with_spare(batch, spare, Output::Sample));
            }
            GraphUse::SingleArgmax => {
                kinds = self.prefill_kinds(1, Output::Argmax);
                kinds.extend(self.decode_kinds(1, Output::Argmax));
            }
            &GraphUse::Prompt {
                batch,
                prompt,
                max_new,
            } => {
                let size = |w: Option<i64>| w.unwrap_or(self.capacity);
                let last = (prompt + max_new)
                    .min(self.capacity as usize)
                    .saturating_sub(1);
                let (lo, hi) = (size(self.window_for(prompt)), size(self.window_for(last)));
                kinds.extend(self.prompt_chunk_kinds(batch, prompt, DEFAULT_MAX_CHUNK));
                kinds.extend(
                    self.decode_kinds(batch, Output::Sample)
                        .into_iter()
                        .filter(|k| match *k {
                            GraphKind::Decode { window, .. } => (lo..=hi).contains(&size(window)),
                            GraphKind::Prefill { .. }
                            | GraphKind::Chunk { .. }
                            | GraphKind::DecodeChunk { .. } => false,
                        }),
                );
            }
            GraphUse::Timing {
                prefill_lengths,
                batches,
                position,
            } => {
                kinds.extend(
                    prefill_lengths
                        .iter()
                        .filter_map(|&len| self.prefill_kind(1, len, Output::Logits)),
                );
                for &len in prefill_lengths {
                    kinds.extend(self.prompt_chunk_kinds(1, len, DEFAULT_MAX_CHUNK));
                }
                let window = self.window_for(*position);
                for &batch in batches {
                    for window in [window, None] {
                        kinds.push(GraphKind::Decode {
                            batch,
                            output: Output::Logits,
                            window,
                            spare: 0,
                        });
                    }
                }
            }
        }
        let mut seen = std::collections::HashSet::new();
        kinds.retain(|k| seen.insert(*k));
        kinds
    }

    /// The logits chunk graphs the batched engine at `slots` slots loads up
    /// front for chunks of at most `max_chunk` tokens: every size at
    /// position 0 (a prompt up to `max_chunk` tokens is one of these) and at
    /// the smallest decode window (the rest of a prompt resumed past a short
    /// prefix a slot still holds, such as a system prompt), and the largest
    /// size at each window a later chunk starts in. A prompt's last chunk
    /// past position 0 may need another; it loads on first use.
    pub fn chunk_kinds(&self, slots: i64, max_chunk: usize, output: Output) -> Vec<GraphKind> {
        let sizes = chunks::chunk_sizes(self.capacity, max_chunk);
        let largest = *sizes.last().expect("at least one size");
        let first_window = decode_windows(self.capacity).first().copied();
        let mut kinds: Vec<GraphKind> = [Some(0), first_window]
            .into_iter()
            .flatten()
            .flat_map(|window| {
                sizes.iter().map(move |&tokens| GraphKind::Chunk {
                    slots,
                    tokens,
                    window,
                    output,
                })
            })
            .collect();
        let mut start = largest;
        while start + largest <= self.capacity {
            let window = chunks::chunk_window(self.capacity, start as usize);
            let kind = GraphKind::Chunk {
                slots,
                tokens: largest,
                window,
                output,
            };
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
            start += largest;
        }
        kinds
    }

    /// What a prompt chunk's padding rows cost these graphs: little where
    /// every layer product is a panel kernel, which multiplies only the
    /// chunk's real rows (bf16 weights with the AVX-512 kernels), or where
    /// the matrices are in blocks for the 8-bit form's packed products,
    /// which do too (a GGUF file's matrices); as much as real tokens
    /// otherwise.
    pub fn chunk_padding(&self) -> Padding {
        let panels = llama::skips_padding(self.kernels, self.weights) && self.blocks.is_empty();
        let blocks = llama::skips_block_padding(self.kernels) && !self.blocks.is_empty();
        if panels || blocks {
            Padding::Skipped
        } else {
            Padding::Multiplied
        }
    }

    /// The logits chunk graphs of the plan of a prompt of `prompt` tokens
    /// (none if it does not fit the capacity).
    pub fn prompt_chunk_kinds(
        &self,
        slots: i64,
        prompt: usize,
        max_chunk: usize,
    ) -> Vec<GraphKind> {
        if prompt == 0 || prompt as i64 > self.capacity {
            return Vec::new();
        }
        chunk_plan(prompt, self.capacity, max_chunk, self.chunk_padding())
            .into_iter()
            .map(|c| GraphKind::Chunk {
                slots,
                tokens: c.size,
                window: c.window,
                output: Output::Logits,
            })
            .collect()
    }

    /// The prefill graph of a prompt of `tokens` tokens into a cache of
    /// `slots` slots, if a bucket holds it.
    pub fn prefill_kind(&self, slots: i64, tokens: usize, output: Output) -> Option<GraphKind> {
        self.bucket_for(tokens).map(|tokens| GraphKind::Prefill {
            slots,
            tokens,
            output,
        })
    }
}

/// Emits one graph as a complete MLIR module.
pub fn emit_graph(m: &LlamaShape, cfg: &GraphConfig, kind: GraphKind) -> Graph {
    let name = kind.name();
    let capacity = cfg.capacity;
    let func = match kind {
        GraphKind::Prefill {
            slots,
            tokens,
            output,
        } => llama::prefill(m, cfg, slots, tokens, output, &name),
        GraphKind::Chunk {
            slots,
            tokens,
            window,
            output,
        } => llama::prefill_chunk(m, cfg, slots, tokens, window, output, &name),
        GraphKind::Decode {
            batch,
            output,
            window,
            spare,
        } => llama::decode(
            m,
            cfg,
            batch,
            spare,
            output,
            window.unwrap_or(capacity),
            &name,
        ),
        GraphKind::DecodeChunk {
            batch,
            window,
            tokens,
            spare,
        } => llama::decode_with_chunk(
            m,
            cfg,
            (batch, spare),
            window.unwrap_or(capacity),
            tokens,
            &name,
        ),
    };
    let mut weights = match cfg.weights {
        DType::F32 => String::new(),
        other => format!(", {} weights", other.name()),
    };
    if !cfg.blocks.is_empty() {
        weights.push_str(&format!(", {} matrices in blocks", cfg.blocks.len()));
    }
    let header = format!(
        "{name}: emitted by iree-llm {} (graph format {MANIFEST_FORMAT}).\n\
         Llama: vocab {}, hidden {}, layers {}, heads {}/{} kv, head_dim {}, context {capacity}{weights}.",
        env!("CARGO_PKG_VERSION"),
        m.vocab,
        m.hidden,
        m.layers,
        m.heads,
        m.kv_heads,
        m.head_dim
    );
    Graph {
        kind,
        mlir: if kernels::called_by(&func) {
            builder::module(&name, &header, &[kernels::declarations(&func), func])
        } else {
            builder::module(&name, &header, &[func])
        },
    }
}

/// A tensor argument or result in the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TensorSpec {
    pub name: String,
    pub shape: Vec<i64>,
    pub dtype: DType,
    /// For an argument: the index of the result written into its buffer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aliased_result: Option<usize>,
}

/// One function of the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FunctionSpec {
    pub name: String,
    /// MLIR file, relative to the manifest.
    pub file: String,
    /// `module.function` to call at run time.
    pub entry: String,
    #[serde(flatten)]
    pub kind: GraphKind,
    /// Arguments after the shared parameters, in order.
    pub inputs: Vec<TensorSpec>,
    pub results: Vec<TensorSpec>,
}

/// Everything the runtime needs to call the emitted graphs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub model: LlamaShape,
    pub plan: EmitPlan,
    /// Shape of a one-slot KV cache (of `plan.kv_cache`): `[layers, 2,
    /// kv_heads, capacity, head_dim]`; a cache of S slots has S times the
    /// heads.
    pub kv_shape: Vec<i64>,
    /// Leading arguments of every function, in order, with their dtypes.
    pub params: Vec<ParamSpec>,
    pub functions: Vec<FunctionSpec>,
}

fn t(name: &str, shape: Vec<i64>, dtype: DType) -> TensorSpec {
    TensorSpec {
        name: name.to_string(),
        shape,
        dtype,
        aliased_result: None,
    }
}

/// The per-row inputs of a sampling graph of `b` rows ([`sample`]).
fn sample_inputs(b: i64) -> [TensorSpec; 2] {
    [
        t("temperature", vec![b], DType::F32),
        t("draw_keys", vec![b, 2], DType::I32),
    ]
}

impl Manifest {
    pub fn new(m: &LlamaShape, plan: &EmitPlan) -> Self {
        let functions = plan_kinds(plan)
            .into_iter()
            .map(|kind| {
                let name = kind.name();
                let kv_shape = m.kv_shape(kind.slots(), plan.capacity);
                let kv_in = TensorSpec {
                    aliased_result: Some(1),
                    ..t("kv", kv_shape.clone(), plan.kv_cache)
                };
                let kv_out = t("kv", kv_shape, plan.kv_cache);
                let (inputs, results) = match kind {
                    GraphKind::Prefill { tokens, output, .. }
                    | GraphKind::Chunk { tokens, output, .. } => {
                        let out = match output {
                            Output::Logits => t("logits", vec![m.vocab], DType::F32),
                            Output::Argmax | Output::Sample => t("token", vec![], DType::I32),
                        };
                        let mut inputs = vec![
                            kv_in,
                            t("tokens", vec![tokens], DType::I32),
                            t("length", vec![], DType::I32),
                            t("slot", vec![], DType::I32),
                        ];
                        if matches!(kind, GraphKind::Chunk { .. }) {
                            inputs.push(t("start", vec![], DType::I32));
                        }
                        let mut results = vec![out, kv_out];
                        if output == Output::Sample {
                            inputs.extend(sample_inputs(1));
                            results.push(t("logits", vec![m.vocab], DType::F32));
                        }
                        (inputs, results)
                    }
                    GraphKind::Decode { batch, output, .. } => {
                        let logits = t("logits", vec![batch, m.vocab], DType::F32);
                        let out = match output {
                            Output::Logits => logits.clone(),
                            Output::Argmax | Output::Sample => t("tokens", vec![batch], DType::I32),
                        };
                        let mut inputs = vec![
                            kv_in,
                            t("tokens", vec![batch], DType::I32),
                            t("positions", vec![batch], DType::I32),
                        ];
                        let mut results = vec![out, kv_out];
                        if output == Output::Sample {
                            inputs.extend(sample_inputs(batch));
                            results.push(logits);
                        }
                        (inputs, results)
                    }
                    GraphKind::DecodeChunk { batch, tokens, .. } => {
                        let mut inputs = vec![
                            kv_in,
                            t("tokens", vec![batch], DType::I32),
                            t("positions", vec![batch], DType::I32),
                        ];
                        inputs.extend(sample_inputs(batch));
                        inputs.extend([
                            t("chunk_tokens", vec![tokens], DType::I32),
                            t("chunk_length", vec![], DType::I32),
                            t("chunk_slot", vec![], DType::I32),
                            t("chunk_start", vec![], DType::I32),
                            t("chunk_logits_wanted", vec![], DType::I32),
                        ]);
                        let results = vec![
                            t("tokens", vec![batch], DType::I32),
                            kv_out,
                            t("logits", vec![batch, m.vocab], DType::F32),
                            t("chunk_logits", vec![m.vocab], DType::F32),
                        ];
                        (inputs, results)
                    }
                };
                FunctionSpec {
                    file: format!("{name}.mlir"),
                    entry: format!("{name}.{name}"),
                    name,
                    kind,
                    inputs,
                    results,
                }
            })
            .collect();
        Manifest {
            format: MANIFEST_FORMAT,
            model: m.clone(),
            plan: plan.clone(),
            kv_shape: m.kv_shape(1, plan.capacity),
            params: llama::param_specs(m, &plan.graph_config()),
            functions,
        }
    }

    /// Bytes of parameters a call over `rows` rows reads: a block matrix's
    /// blocks for one row (for any number with the kernels), its dense copy
    /// for more (see `llama::linear`).
    pub fn weight_bytes_read(&self, rows: i64) -> u64 {
        let blocks = &self.plan.blocks;
        let reads_blocks = rows == 1 || !self.plan.kernels.is_portable();
        self.params
            .iter()
            .filter(|p| {
                if p.block_part(blocks).is_some() {
                    reads_blocks
                } else {
                    // A block matrix's dense copy, or a dense tensor.
                    !(blocks.contains_key(p.sources(blocks)[0]) && reads_blocks)
                }
            })
            .map(|p| p.shape.iter().product::<i64>() as u64 * p.dtype.size_bytes() as u64)
            .sum()
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("manifest serializes");
        s.push('\n');
        s
    }
}

/// Writes every graph of `plan` and `manifest.json` into `out`.
pub fn write_dir(m: &LlamaShape, plan: &EmitPlan, out: &Path) -> Result<Manifest, EmitError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EmitError::Io { path, source }
    };
    std::fs::create_dir_all(out).map_err(io(out))?;
    let manifest = Manifest::new(m, plan);
    for graph in emit_graphs(m, plan) {
        let path = out.join(format!("{}.mlir", graph.name()));
        std::fs::write(&path, &graph.mlir).map_err(io(&path))?;
        // The graphs name the kernel object by file name; next to them is
        // where `iree-compile --iree-hal-executable-object-search-path=OUT`
        // (and iree-llm's own compiles) find it.
        if kernels::called_by(&graph.mlir) {
            kernels::write_objects(out).map_err(io(out))?;
        }
    }
    let path = out.join("manifest.json");
    std::fs::write(&path, manifest.to_json()).map_err(io(&path))?;
    Ok(manifest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_double_from_16_and_end_at_capacity() {
        assert_eq!(prefill_buckets(256), vec![16, 32, 64, 128, 256]);
        assert_eq!(prefill_buckets(100), vec![16, 32, 64, 100]);
        assert_eq!(prefill_buckets(8), vec![8]);
        let plan = EmitPlan::new(100, &[4]).unwrap();
        assert_eq!(plan.bucket_for(1), Some(16));
        assert_eq!(plan.bucket_for(17), Some(32));
        assert_eq!(plan.bucket_for(100), Some(100));
        assert_eq!(plan.bucket_for(101), None);
    }

    #[test]
    fn graph_names_follow_the_design() {
        let n = |k: GraphKind| k.name();
        assert_eq!(
            n(GraphKind::Prefill {
                slots: 1,
                tokens: 64,
                output: Output::Logits
            }),
            "prefill_logits_t64"
        );
        assert_eq!(
            n(GraphKind::Prefill {
                slots: 8,
                tokens: 64,
                output: Output::Logits
            }),
            "prefill_logits_t64_s8"
        );
        let decode = |batch, output, window| GraphKind::Decode {
            batch,
            output,
            window,
            spare: 0,
        };
        assert_eq!(
            n(decode(8, Output::Logits, None)),
            "decode_ragged_logits_b8"
        );
        assert_eq!(
            n(decode(8, Output::Logits, Some(256))),
            "decode_ragged_logits_b8_w256"
        );
        assert_eq!(n(decode(1, Output::Argmax, None)), "decode_argmax_b1");
        assert_eq!(
            n(decode(8, Output::Sample, Some(64))),
            "decode_sample_b8_w64"
        );
        // A cache with a spare slot names its slots, as a prefill does.
        let spare = GraphKind::Decode {
            batch: 8,
            output: Output::Sample,
            window: Some(64),
            spare: 1,
        };
        assert_eq!(n(spare), "decode_sample_b8_w64_s9");
        assert_eq!(spare.slots(), 9);
        let carrying = GraphKind::DecodeChunk {
            batch: 8,
            window: None,
            tokens: 16,
            spare: 1,
        };
        assert_eq!(n(carrying), "decode_chunk_b8_t16_s9");
        // Without spare slots a manifest reads as it did before them.
        let json = serde_json::to_string(&decode(4, Output::Logits, None)).unwrap();
        assert!(!json.contains("spare"), "{json}");
        let back: GraphKind = serde_json::from_str(&json).unwrap();
        assert_eq!(back, decode(4, Output::Logits, None));
        let json = serde_json::to_string(&spare).unwrap();
        assert_eq!(serde_json::from_str::<GraphKind>(&json).unwrap(), spare);
    }

    #[test]
    fn decode_windows_grow_by_four_from_64_below_the_capacity() {
        assert_eq!(decode_windows(2048), vec![64, 256, 1024]);
        assert_eq!(decode_windows(256), vec![64]);
        assert_eq!(decode_windows(64), Vec::<i64>::new());
        let plan = EmitPlan::new(2048, &[4]).unwrap();
        assert_eq!(plan.window_for(0), Some(64));
        assert_eq!(plan.window_for(63), Some(64));
        assert_eq!(plan.window_for(64), Some(256));
        assert_eq!(plan.window_for(1023), Some(1024));
        assert_eq!(plan.window_for(1024), None);
        assert_eq!(plan.decode_kinds(4, Output::Logits).len(), 4);
    }

    #[test]
    fn each_use_gets_the_graphs_it_calls_and_no_others() {
        let plan = EmitPlan::new(2048, &[4]).unwrap();
        let batched = plan.graphs_for(&GraphUse::Batched { batch: 4, spare: 0 });
        // 8 chunk sizes at position 0 and at window 64, 128-token chunks
        // reading windows 256, 1024 and 2048, and 4 decode windows.
        assert_eq!(batched.len(), 8 + 8 + 3 + 4);
        assert!(batched.iter().all(|k| match *k {
            GraphKind::Chunk { slots, output, .. } => slots == 4 && output == Output::Logits,
            GraphKind::Prefill { .. } => false,
            GraphKind::Decode { batch, output, .. } => batch == 4 && output == Output::Sample,
            GraphKind::DecodeChunk { .. } => false,
        }));
        let single = plan.graphs_for(&GraphUse::SingleArgmax);
        assert!(single.iter().all(|k| match *k {
            GraphKind::Prefill { slots, output, .. } => slots == 1 && output == Output::Argmax,
            GraphKind::Chunk { .. } => false,
            GraphKind::Decode { batch, output, .. } => batch == 1 && output == Output::Argmax,
            GraphKind::DecodeChunk { .. } => false,
        }));
        // A 20-token prompt generating 100 more runs positions 20..119: the
        // 24-token chunk and the windows 64 and 256.
        let prompt = plan.graphs_for(&GraphUse::Prompt {
            batch: 4,
            prompt: 20,
            max_new: 100,
        });
        let names: Vec<String> = prompt.iter().map(GraphKind::name).collect();
        assert_eq!(
            names,
            [
                "chunk_logits_t24_w0_s4",
                "decode_sample_b4_w64",
                "decode_sample_b4_w256"
            ]
        );
        let timing = plan.graphs_for(&GraphUse::Timing {
            prefill_lengths: vec![16, 10],
            batches: vec![4],
            position: 128,
        });
        let names: Vec<String> = timing.iter().map(GraphKind::name).collect();
        assert_eq!(
            names,
            [
                "prefill_logits_t16",
                "chunk_logits_t16_w0_s1",
                "decode_ragged_logits_b4_w256",
                "decode_ragged_logits_b4"
            ]
        );
    }

    #[test]
    fn decode_chunk_graphs_are_every_carried_chunk_size_at_every_decode_window() {
        let plan = EmitPlan::new(256, &[8]).unwrap();
        let kinds = plan.decode_chunk_kinds(8, 0, 32);
        let names: Vec<String> = kinds.iter().map(GraphKind::name).collect();
        assert_eq!(
            names,
            [
                "decode_chunk_b8_w64_t8",
                "decode_chunk_b8_w64_t16",
                "decode_chunk_b8_w64_t24",
                "decode_chunk_b8_w64_t32",
                "decode_chunk_b8_t8",
                "decode_chunk_b8_t16",
                "decode_chunk_b8_t24",
                "decode_chunk_b8_t32",
            ]
        );
        assert!(kinds.iter().all(|k| k.slots() == 8));
        // The function takes the decode inputs, then the chunk's (tokens,
        // length, slot, start, whether its logits are wanted), and
        // returns the ids, the caches, the decode logits and the chunk's.
        let shape = LlamaShape {
            vocab: 64,
            hidden: 16,
            intermediate: 32,
            layers: 1,
            heads: 2,
            kv_heads: 1,
            head_dim: 8,
            rms_eps: 1e-5,
            tied_embeddings: true,
        };
        let graph = emit_graph(&shape, &plan.graph_config(), kinds[5]);
        let signature = graph
            .mlir
            .lines()
            .find(|l| l.contains("func.func @decode_chunk_b8_t16("))
            .expect("the function");
        let args = signature.split("%arg").count() - 1;
        let params = llama::param_specs(&shape, &plan.graph_config()).len();
        assert_eq!(args, params + 10, "{signature}");
        assert!(
            signature.ends_with(
                "-> (tensor<8xi32>, tensor<1x2x8x256x8xf32>, tensor<8x64xf32>, tensor<64xf32>) {"
            ),
            "{signature}"
        );
    }

    #[test]
    fn native_weights_keep_the_checkpoint_dtype_and_f32_widens() {
        assert_eq!(DeviceWeights::Native.dtype(DType::BF16), DType::BF16);
        assert_eq!(DeviceWeights::F32.dtype(DType::BF16), DType::F32);
    }

    #[test]
    fn bad_plans_are_refused() {
        assert!(matches!(
            EmitPlan::new(0, &[4]),
            Err(EmitError::Capacity(0))
        ));
        assert!(matches!(EmitPlan::new(64, &[0]), Err(EmitError::Batch(0))));
    }
}

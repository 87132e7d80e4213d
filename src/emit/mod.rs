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
mod manifest;
pub mod panels;
mod plan;
#[cfg(test)]
mod ptxas;
pub mod sample;
pub mod vnni_layout;

use std::path::Path;

use serde::{Deserialize, Serialize};

pub use chunks::{
    ChunkCall, DEFAULT_CARRIED_CHUNK, DEFAULT_MAX_CHUNK, Padding, carried_plan_from, chunk_plan,
    chunk_plan_from, loaded_plan_from, plan_cost,
};
pub use kernels::Kernels;
pub use llama::{
    BLOCK, BlockFormat, GraphConfig, GroupedQueries, LlamaShape, NarrowRows, Output, ParamSpec,
    WideRows,
};
pub use manifest::{FunctionSpec, MANIFEST_FORMAT, Manifest, TensorSpec};
pub use plan::{
    DeviceWeights, EmitPlan, GraphUse, MIN_DECODE_WINDOW, MIN_PREFILL_BUCKET, WINDOW_GROWTH,
    decode_windows, kv_cache_from_env, plan_kinds, prefill_buckets,
};

use crate::config::ModelConfig;
use crate::types::DType;

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

fn one_slot() -> i64 {
    1
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
}

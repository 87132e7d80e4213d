//! Which graphs a model needs: the [`EmitPlan`] (context capacity, batch
//! sizes, prefill length buckets, decode attention windows, and what every
//! graph shares: weight and cache element types, kernels, forms of the
//! products), its defaults, where the weights live ([`DeviceWeights`]), and
//! what a loaded model is for ([`GraphUse`]), which
//! [`EmitPlan::graphs_for`] turns into the graph kinds to compile.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::chunks::{self, DEFAULT_MAX_CHUNK, Padding, chunk_plan};
use super::kernels::Kernels;
use super::llama::{self, BlockFormat, GraphConfig, GroupedQueries, NarrowRows, Output, WideRows};
use super::{EmitError, GraphKind};
use crate::config::ModelConfig;
use crate::types::DType;

/// The smallest prefill bucket.
pub const MIN_PREFILL_BUCKET: i64 = 16;

/// The smallest decode attention window; windows grow by [`WINDOW_GROWTH`].
pub const MIN_DECODE_WINDOW: i64 = 64;
pub const WINDOW_GROWTH: i64 = 4;

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

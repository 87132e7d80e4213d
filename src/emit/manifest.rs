//! The [`Manifest`] written next to the emitted graphs as `manifest.json`:
//! everything the runtime needs to call them. For each function its file,
//! entry point, graph kind, and the names, shapes and dtypes of its
//! arguments and results ([`FunctionSpec`], [`TensorSpec`]), after the
//! parameters every function shares.

use serde::{Deserialize, Serialize};

use super::llama::{self, LlamaShape, Output, ParamSpec};
use super::{EmitPlan, GraphKind, plan_kinds};
use crate::types::DType;

/// Version of the graph conventions; bump when the argument layout changes.
pub const MANIFEST_FORMAT: u32 = 4;

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

/// The per-row inputs of a sampling graph of `b` rows ([`sample`](super::sample)).
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

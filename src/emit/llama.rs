//! The Llama forward pass as StableHLO graphs: prefill of one slot's prompt
//! and ragged batched decode, each returning logits or an argmax token.
//!
//! Conventions shared by every graph (the manifest records them too):
//! - Arguments start with the parameters in [`param_specs`] order: the
//!   weights by their Hugging Face names, then the RoPE tables `rope.cos` and
//!   `rope.sin` ([capacity, head_dim/2], computed on the host in f64 by
//!   `ModelConfig::rope_tables`).
//! - Weights are passed in the element type of [`GraphConfig::weights`] (f32,
//!   or a checkpoint's bf16/f16 kept as is on the device) and widened to f32
//!   where they are used; all arithmetic is f32. A matrix named in
//!   [`GraphConfig::blocks`] is passed also as 32-element blocks
//!   ([`BlockFormat`]): arguments `NAME.q` (i8 `[rows, cols/32, 32]`, or
//!   16 bytes of packed nibbles per block in graphs that call the CPU
//!   kernel),
//!   `NAME.d` (f16 scales `[rows, cols/32]`) and, with an offset, `NAME.m`,
//!   after `NAME` itself; a single row reads the blocks, dequantized inside
//!   its contraction, more rows read `NAME` (see `linear`).
//! - The KV caches of all slots are one tensor `[layers, 2, slots *
//!   kv_heads, capacity, head_dim]` (index 1 = 0 for keys, 1 for values;
//!   slot s owns heads `s * kv_heads ..`), so decode attends over every row
//!   with one batched contraction per layer instead of a few small
//!   dispatches per row and layer. Slots and heads share one dimension so
//!   that a window of the cache is a single-batch-dimension operand, which
//!   IREE reads in place (two batch dimensions over a strided window made
//!   it copy the keys). It is passed in and
//!   returned with `tf.aliasing_output`, so IREE writes it in place.
//! - Attention reads only positions `<= pos` of its own slot; positions after
//!   that may hold stale values from earlier requests and are never seen.
//! - RoPE follows Hugging Face's `rotate_half` layout (first half, second half).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::builder::{Cmp, FuncBuilder, TensorType, Value};
use super::kernels::{self, Kernels, RmsNorm};
use super::sample;
use crate::checkpoint::TensorLayout;
use crate::types::DType;

mod chunk;
mod decode_attention;
mod mixed;
pub use chunk::prefill_chunk;
use decode_attention::DecodeAttention;
pub use decode_attention::GroupedQueries;
pub use mixed::decode_with_chunk;

/// The dimensions of a Llama-family model that shape the graphs.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LlamaShape {
    pub vocab: i64,
    pub hidden: i64,
    pub intermediate: i64,
    pub layers: i64,
    pub heads: i64,
    pub kv_heads: i64,
    pub head_dim: i64,
    pub rms_eps: f64,
    pub tied_embeddings: bool,
}

impl LlamaShape {
    pub fn group(&self) -> i64 {
        self.heads / self.kv_heads
    }

    /// The checkpoint tensors these dimensions imply.
    pub fn tensor_layout(&self) -> TensorLayout {
        TensorLayout {
            vocab: self.vocab as usize,
            hidden: self.hidden as usize,
            intermediate: self.intermediate as usize,
            layers: self.layers as usize,
            heads: self.heads as usize,
            kv_heads: self.kv_heads as usize,
            head_dim: self.head_dim as usize,
            tied_embeddings: self.tied_embeddings,
        }
    }

    /// Shape of the KV caches of `slots` slots for a given capacity:
    /// `[layers, 2, slots * kv_heads, capacity, head_dim]`.
    pub fn kv_shape(&self, slots: i64, capacity: i64) -> Vec<i64> {
        vec![
            self.layers,
            2,
            slots * self.kv_heads,
            capacity,
            self.head_dim,
        ]
    }
}

/// What a graph returns besides the updated caches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Output {
    /// f32 logits: `[vocab]` for prefill, `[batch, vocab]` for decode.
    Logits,
    /// i32 token ids, the lowest id winning ties: `[]` for prefill, `[batch]` for decode.
    Argmax,
    /// i32 token ids drawn in the graph by Gumbel-max ([`sample`]) at each
    /// row's temperature and draw key (extra inputs after the positions or
    /// the length); the logits come back too, as the last result, for the
    /// host to read only when it needs them.
    Sample,
}

impl Output {
    pub fn name(self) -> &'static str {
        match self {
            Output::Logits => "logits",
            Output::Argmax => "argmax",
            Output::Sample => "sample",
        }
    }
}

/// Settings shared by every graph of one model on one device.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphConfig {
    /// Tokens per slot cache.
    pub capacity: i64,
    /// Element type of the weight arguments (f32, bf16 or f16).
    pub weights: DType,
    /// Matrices kept in 32-element blocks on the device, by Hugging Face name.
    pub blocks: Arc<BTreeMap<String, BlockFormat>>,
    /// Hand-written kernels the graphs call for block matrices (see `linear`).
    pub kernels: Kernels,
    /// Element type of the KV cache (f32 or f16): values are converted to
    /// it where a graph writes the cache and back to f32 where it reads it.
    pub kv_cache: DType,
    /// How products of a few rows are written (see [`NarrowRows`]).
    pub narrow: NarrowRows,
    /// How products of more rows are written (see [`WideRows`]).
    pub wide: WideRows,
    /// How a decode step's attention multiplies each key/value head's
    /// queries with the cache (see [`GroupedQueries`]).
    pub attention: GroupedQueries,
}

/// How `x @ w^T` is written when `x` has at most 8 rows (every decode step):
/// the shape decides which of IREE's code-generation pipelines takes the
/// product, and the best one differs between CPU and GPU.
///
/// Measured on an H200 (CUDA, sm_80 PTX; 1B preset, bf16 weights, context
/// 256, median ms per decode step of B = 1 / 4 / 8, one run, forms side by
/// side; docs/performance.md): padded 24.6 / 25.1 / 25.5, plain 40.4 / 12.7
/// / 25.1, transposed 11.4 / 12.1 / 36.4, reduce 11.6 / 12.5 / 16.7. IREE
/// 3.13 gives an 8-row contraction 64-thread workgroups of 8x8 outputs,
/// which read the weights far below the GPU's bandwidth; the reduction form
/// becomes one reduction over k per output instead, still far below it, so
/// CUDA graphs call a hand-written kernel (`CudaKernel`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum NarrowRows {
    /// Fewer than 8 rows padded with zero rows to 8: IREE 3.13's CPU code
    /// for narrow contractions is slow (see `linear_dense`).
    #[default]
    PadTo8,
    /// The rows as they are: one row is a matrix-vector product.
    Plain,
    /// `w @ x^T`, transposed back: the weight's rows are the product's
    /// leading (parallel) dimension.
    Transposed,
    /// `sum_k x[m, k] * w[n, k]` written as a multiply and a reduction
    /// (IREE fuses the two, and the widening of bf16 weights, into one
    /// dispatch): the fastest of IREE's own forms on CUDA at every batch
    /// measured.
    Reduce,
    /// A bf16 weight times f32 rows through the hand-written CUDA kernel
    /// ([`super::cuda_rows`]), CUDA's default; other weights take the
    /// `Reduce` form. Only graphs for CUDA may use it. On an H100 the 1B
    /// preset's decode graph took 11.9 / 16.0 ms a call at B = 1 / 8
    /// (`iree-benchmark-module`) against 14.1 / 17.1 with the kernel's
    /// first version, which itself beat `Reduce` (graph-bench at context
    /// 256, B = 1 / 4 / 8: 9.9 / 11.1 / 12.5 ms against 10.1 / 13.0 / 16.2;
    /// docs/performance.md).
    CudaKernel,
}

impl NarrowRows {
    pub fn is_padded(&self) -> bool {
        *self == NarrowRows::PadTo8
    }

    /// The form for graphs compiled for `kind`: padded on the CPU, the
    /// kernel on CUDA, padded on Metal (not measured there: no Mac).
    /// `$IREE_LLM_GPU_NARROW_ROWS` (pad-to8, plain, transposed, reduce or,
    /// on CUDA, cuda-kernel) overrides it for a GPU, for measuring.
    pub fn for_target(kind: crate::types::DeviceKind) -> Self {
        use crate::types::DeviceKind;
        let measured = match kind {
            DeviceKind::Cpu => return NarrowRows::PadTo8,
            DeviceKind::Cuda => NarrowRows::CudaKernel,
            DeviceKind::Metal => NarrowRows::PadTo8,
        };
        let mut forms = vec![
            ("pad-to8", NarrowRows::PadTo8),
            ("plain", NarrowRows::Plain),
            ("transposed", NarrowRows::Transposed),
            ("reduce", NarrowRows::Reduce),
        ];
        if kind == DeviceKind::Cuda {
            forms.push(("cuda-kernel", NarrowRows::CudaKernel));
        }
        gpu_form_from_env("IREE_LLM_GPU_NARROW_ROWS", measured, &forms)
    }
}

/// The form `$var` names among `forms`, else `measured` (see [`pick_form`]).
pub(super) fn gpu_form_from_env<T: Copy + std::fmt::Debug>(
    var: &str,
    measured: T,
    forms: &[(&str, T)],
) -> T {
    pick_form(var, std::env::var(var).ok().as_deref(), measured, forms)
}

/// The form `name` (the value of `$var`) names among `forms`; `measured`
/// when it is unset, or when it names none of them (with a warning).
fn pick_form<T: Copy + std::fmt::Debug>(
    var: &str,
    name: Option<&str>,
    measured: T,
    forms: &[(&str, T)],
) -> T {
    let Some(name) = name else {
        return measured;
    };
    match forms.iter().find(|(n, _)| *n == name) {
        Some(&(_, form)) => form,
        None => {
            let names: Vec<&str> = forms.iter().map(|(n, _)| *n).collect();
            tracing::warn!(
                "{var}={name} is not one of {}; using {measured:?}",
                names.join(", ")
            );
            measured
        }
    }
}

/// How `x @ w^T` is written for a bf16 weight when `x` has more than 8 rows
/// (prompts and chunks).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum WideRows {
    /// One f32 contraction of the widened weight (the CPU's; its own
    /// kernels take over where it has them).
    #[default]
    F32,
    /// Three contractions of bf16 operands stacked into one, as exact as
    /// f32 (see `bf16_terms_product`): IREE 3.13 runs bf16 contractions on
    /// CUDA's matrix units and f32 ones without them.
    Bf16Terms,
    /// The rows rounded to bf16 (to nearest, ties to even) and one bf16
    /// contraction accumulated in f32: PyTorch's precision for a bf16
    /// model, a third of the terms' work, not exact. Opt-in on a GPU
    /// (`IREE_LLM_GPU_WIDE_ROWS=bf16`); docs/performance.md gives its
    /// measured error.
    Bf16,
}

impl WideRows {
    pub fn is_f32(&self) -> bool {
        *self == WideRows::F32
    }

    /// The form for graphs compiled for `kind`: three bf16 terms on CUDA,
    /// f32 elsewhere. `$IREE_LLM_GPU_WIDE_ROWS` (f32, bf16-terms or bf16)
    /// overrides it for a GPU: bf16 to trade exactness for speed, the
    /// others for measuring.
    pub fn for_target(kind: crate::types::DeviceKind) -> Self {
        use crate::types::DeviceKind;
        let measured = match kind {
            DeviceKind::Cpu => return WideRows::F32,
            DeviceKind::Cuda => WideRows::Bf16Terms,
            DeviceKind::Metal => WideRows::F32,
        };
        gpu_form_from_env(
            "IREE_LLM_GPU_WIDE_ROWS",
            measured,
            &[
                ("f32", WideRows::F32),
                ("bf16-terms", WideRows::Bf16Terms),
                ("bf16", WideRows::Bf16),
            ],
        )
    }
}

pub use crate::types::{BLOCK, BlockFormat};

/// A named parameter tensor passed to every graph.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParamSpec {
    pub name: String,
    pub shape: Vec<i64>,
    pub dtype: DType,
    /// For a stacked matrix ([`crate::checkpoint::STACKS`]) or one of its
    /// block parts: the checkpoint matrices whose rows it holds, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stacks: Vec<String>,
    /// A block part laid out for the VNNI kernel
    /// ([`crate::emit::vnni_layout`]); the loader's layout otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub vnni_layout: bool,
    /// A dense bf16 matrix laid out in panels for the exact AVX-512 kernel
    /// ([`crate::emit::panels`]); row by row otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bf16_panels: bool,
}

impl ParamSpec {
    /// The block part (`q`, `d` or `m`) of a block matrix this parameter
    /// is, if it is one.
    pub fn block_part(&self, blocks: &BTreeMap<String, BlockFormat>) -> Option<&str> {
        let (base, part) = self.name.rsplit_once('.')?;
        let matrix = self.stacks.first().map_or(base, String::as_str);
        blocks.contains_key(matrix).then_some(part)
    }

    /// The checkpoint tensors whose values this parameter holds, rows
    /// stacked in order (the whole matrices, for a block part).
    pub fn sources(&self, blocks: &BTreeMap<String, BlockFormat>) -> Vec<&str> {
        if !self.stacks.is_empty() {
            return self.stacks.iter().map(String::as_str).collect();
        }
        match self.block_part(blocks) {
            Some(_) => vec![self.name.rsplit_once('.').expect("a block part").0],
            None => vec![self.name.as_str()],
        }
    }
}

/// A matrix or vector the graphs take: a checkpoint tensor, or a stack of
/// matrices (`stacks` names them; empty for one tensor).
struct GraphTensor {
    name: String,
    shape: Vec<i64>,
    stacks: Vec<String>,
    blocks: Option<BlockFormat>,
    /// Its blocks are laid out for the VNNI kernel ([`vnni_layout`]).
    vnni_layout: bool,
    /// A dense bf16 matrix laid out in panels ([`bf16_panels`]).
    bf16_panels: bool,
}

/// Whether a dense matrix of `shape` is laid out in panels
/// ([`crate::emit::panels`]): bf16 weights, with kernels that read that
/// layout for every product ([`kernels::packs_bf16_panels`]), the
/// embedding table too (its rows are gathered from that layout,
/// [`embed_rows`]), so a tied output head takes the same kernel.
fn bf16_panels(cfg: &GraphConfig, shape: &[i64], blocks: Option<BlockFormat>) -> bool {
    blocks.is_none()
        && cfg.weights == DType::BF16
        && kernels::packs_bf16_panels(cfg.kernels)
        && shape.len() == 2
        && super::panels::fits(shape[0] as usize, shape[1] as usize)
}

/// Whether a block matrix of `rows` rows is laid out for the VNNI kernel:
/// in the 8-bit form on a CPU with VNNI, every block matrix in whole groups
/// of 16 rows, the embedding table too (its rows are gathered from that
/// layout, [`embed_rows`]), so a tied output head takes the fast product.
fn vnni_layout(cfg: &GraphConfig, rows: i64, blocks: Option<BlockFormat>) -> bool {
    blocks.is_some()
        && kernels::packs_for_vnni(cfg.kernels)
        && rows % super::vnni_layout::GROUP as i64 == 0
}

/// The checkpoint's tensors in its order, each layer's q/k/v and gate/up
/// projections stacked into one matrix ([`crate::checkpoint::STACKS`])
/// where they are kept alike on the device (the same block format, or all
/// dense); a file with different formats among them keeps them apart.
fn graph_tensors(m: &LlamaShape, cfg: &GraphConfig) -> Vec<GraphTensor> {
    let tensors: Vec<(String, Vec<i64>)> = m
        .tensor_layout()
        .tensors()
        .into_iter()
        .map(|(n, shape)| (n, shape.into_iter().map(|d| d as i64).collect()))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < tensors.len() {
        let (name, shape) = &tensors[i];
        let blocks = cfg.blocks.get(name).copied();
        if let Some((stacked, parts)) = crate::checkpoint::stack_starting_at(name) {
            let alike = parts.iter().all(|p| cfg.blocks.get(p).copied() == blocks);
            if alike {
                let rows = tensors[i..i + parts.len()].iter().map(|(_, s)| s[0]).sum();
                out.push(GraphTensor {
                    vnni_layout: vnni_layout(cfg, rows, blocks),
                    bf16_panels: bf16_panels(cfg, &[rows, shape[1]], blocks),
                    name: stacked,
                    shape: vec![rows, shape[1]],
                    stacks: parts.clone(),
                    blocks,
                });
                i += parts.len();
                continue;
            }
        }
        out.push(GraphTensor {
            name: name.clone(),
            shape: shape.clone(),
            stacks: Vec::new(),
            blocks,
            vnni_layout: vnni_layout(cfg, shape[0], blocks),
            bf16_panels: bf16_panels(cfg, shape, blocks),
        });
        i += 1;
    }
    out
}

/// The parameters every graph takes, in argument order: the checkpoint's
/// tensors in its canonical order (a block matrix as its parts, see
/// [`BlockFormat::parts`]), then the RoPE tables.
pub fn param_specs(m: &LlamaShape, cfg: &GraphConfig) -> Vec<ParamSpec> {
    let mut v = Vec::new();
    for GraphTensor {
        name,
        shape,
        stacks,
        blocks,
        vnni_layout,
        bf16_panels,
    } in graph_tensors(m, cfg)
    {
        match blocks {
            None => v.push(ParamSpec {
                name,
                shape: if bf16_panels {
                    super::panels::shape(shape[0], shape[1])
                } else {
                    shape
                },
                dtype: cfg.weights,
                stacks,
                vnni_layout: false,
                bf16_panels,
            }),
            Some(format) => {
                let (rows, blocks) = (shape[0], shape[1] / BLOCK);
                if keeps_dense_copy(cfg) {
                    v.push(ParamSpec {
                        name: name.clone(),
                        shape: shape.clone(),
                        dtype: cfg.weights,
                        stacks: stacks.clone(),
                        vnni_layout: false,
                        bf16_panels: false,
                    });
                }
                let q_bytes = format.q_bytes(!cfg.kernels.is_portable());
                let group = super::vnni_layout::GROUP as i64;
                for &(part, dtype) in format.parts() {
                    let shape = match (part, vnni_layout) {
                        ("q", false) => vec![rows, blocks, q_bytes],
                        ("q", true) => vec![rows / group, blocks, group * q_bytes],
                        (_, false) => vec![rows, blocks],
                        (_, true) => vec![rows / group, blocks, group],
                    };
                    v.push(ParamSpec {
                        name: format!("{name}.{part}"),
                        shape,
                        dtype,
                        stacks: stacks.clone(),
                        vnni_layout,
                        bf16_panels: false,
                    });
                }
            }
        }
    }
    for name in ["rope.cos", "rope.sin"] {
        v.push(ParamSpec {
            name: name.into(),
            shape: vec![cfg.capacity, m.head_dim / 2],
            dtype: DType::F32,
            stacks: Vec::new(),
            vnni_layout: false,
            bf16_panels: false,
        });
    }
    v
}

/// Whether the graphs of `cfg` take block matrices also as dense values.
///
/// Portable graphs multiply more than one row by the dense copy (IREE's
/// matmul beat every fused block form there, docs/performance.md) and
/// gather several tokens' embeddings from it. With the kernels every
/// product reads the blocks and the embedding rows are gathered from them,
/// so the device holds each matrix once, as its blocks.
fn keeps_dense_copy(cfg: &GraphConfig) -> bool {
    cfg.kernels.is_portable()
}

/// How a graph multiplies rows by a weight (see `linear`).
#[derive(Clone)]
struct Rows {
    /// Whether a few rows call a hand-written kernel.
    kernels: Kernels,
    /// Rows before this index are multiplied apart from the rest, exactly as
    /// a graph of that many rows would (the decode rows of a decode step
    /// that carries a chunk, so that they get the same arithmetic as a plain
    /// decode step).
    split: Option<i64>,
    /// How a product of at most 8 rows is written.
    narrow: NarrowRows,
    /// How a product of more rows is written.
    wide: WideRows,
    /// How many leading rows are real, where the graph knows it only when
    /// called (a chunk padded to its graph's size: its decode rows and real
    /// tokens): an i32 [1] that the panel kernels take, computing only those
    /// rows and writing zeros for the rest. `None`: every row is real.
    live: Option<Value>,
}

/// A weight matrix as the graph receives it.
#[derive(Clone)]
enum Weight {
    /// Dense values (a bf16 weight times one row may take a kernel).
    Dense(Value, Rows),
    /// A dense bf16 matrix laid out in panels ([`crate::emit::panels`]),
    /// [n/16, k/2, 16, 2]: every product takes the panel kernel.
    Panels(Value, Rows),
    /// Values `q` [rows, cols/32, 32 or 16 (packed nibbles)] i8, scales `d`
    /// [rows, cols/32] f16 and optional offsets `m` like `d`, and the same
    /// values `dense` where a graph reads them (see [`keeps_dense_copy`]).
    Blocks {
        format: BlockFormat,
        dense: Option<Value>,
        q: Value,
        d: Value,
        m: Option<Value>,
        rows: Rows,
        /// Laid out for the VNNI kernel ([`crate::emit::vnni_layout`]),
        /// which then takes every product with it.
        vnni_layout: bool,
    },
}

impl Weight {
    fn rows(&self) -> Rows {
        match self {
            Weight::Dense(_, rows) | Weight::Panels(_, rows) | Weight::Blocks { rows, .. } => {
                rows.clone()
            }
        }
    }

    /// Whether every product of this weight gives each row the same bits
    /// whatever rows share the call: the panel kernels' and the VNNI
    /// layout's 8-bit product, which take each row through the same
    /// instructions, and read the weights once for all of them.
    fn sums_rows_alike(&self) -> bool {
        matches!(
            self,
            Weight::Panels(..)
                | Weight::Blocks {
                    vnni_layout: true,
                    ..
                }
        )
    }

    /// The same weight with rows before `split` multiplied on their own,
    /// where which rows share a product would change their sums.
    fn split_at(mut self, split: i64) -> Self {
        if self.sums_rows_alike() {
            return self;
        }
        match &mut self {
            Weight::Dense(_, rows) | Weight::Panels(_, rows) | Weight::Blocks { rows, .. } => {
                rows.split = Some(split)
            }
        }
        self
    }

    /// The same weight multiplying only the first `live` rows where its
    /// kernel can (see [`Rows::live`]).
    fn with_live(self, live: &Value) -> Self {
        self.live_as(Some(live.clone()))
    }

    /// The same weight with every row counted as real.
    fn without_live(self) -> Self {
        self.live_as(None)
    }

    /// The same weight with `live` as its live rows ([`Rows::live`]).
    fn live_as(mut self, live: Option<Value>) -> Self {
        match &mut self {
            Weight::Dense(_, rows) | Weight::Panels(_, rows) | Weight::Blocks { rows, .. } => {
                rows.live = live
            }
        }
        self
    }

    /// A tensor that is never block-quantized (the norms).
    fn dense(self) -> Value {
        match self {
            Weight::Dense(v, _) => v,
            Weight::Panels(..) | Weight::Blocks { .. } => {
                panic!("only matrices are block-quantized or in panels")
            }
        }
    }
}

/// Matrices that multiply the same rows: stacked by rows into one (one
/// product, its result sliced), or apart (see [`graph_tensors`]).
#[derive(Clone)]
enum Stacked {
    One(Box<Weight>),
    Parts(Vec<Weight>),
}

impl Stacked {
    fn split_at(self, split: i64) -> Self {
        match self {
            Stacked::One(w) => Stacked::One(Box::new(w.split_at(split))),
            Stacked::Parts(ws) => {
                Stacked::Parts(ws.into_iter().map(|w| w.split_at(split)).collect())
            }
        }
    }

    fn with_live(self, live: &Value) -> Self {
        match self {
            Stacked::One(w) => Stacked::One(Box::new(w.with_live(live))),
            Stacked::Parts(ws) => {
                Stacked::Parts(ws.into_iter().map(|w| w.with_live(live)).collect())
            }
        }
    }

    /// `rms_norm(x)` [N, in] times each part, whose outputs are `widths`
    /// wide: a stacked matrix normalizes in its product where it can
    /// ([`linear_fused`]), parts share one norm.
    fn apply_normed(
        &self,
        f: &mut FuncBuilder,
        x: &Value,
        norm: &RmsNorm,
        widths: &[i64],
    ) -> Vec<Value> {
        match self {
            Stacked::Parts(ws) => {
                let h = rms_norm(f, x, &norm.weight, norm.eps);
                ws.iter().map(|w| linear(f, &h, w)).collect()
            }
            Stacked::One(w) => {
                let y = linear_fused(f, x, Some(norm), w, None);
                let n = x.shape()[0];
                let mut start = 0;
                widths
                    .iter()
                    .map(|&width| {
                        let part = f.slice(&y, &[0, start], &[n, start + width]);
                        start += width;
                        part
                    })
                    .collect()
            }
        }
    }
}

struct Layer {
    in_norm: Value,
    /// q, k and v.
    qkv: Stacked,
    wo: Weight,
    post_norm: Value,
    /// gate and up.
    gate_up: Stacked,
    down: Weight,
}

struct Params {
    embed: Weight,
    layers: Vec<Layer>,
    norm: Value,
    lm_head: Weight,
    cos: Value,
    sin: Value,
}

impl Params {
    /// The same parameters with the first `split` rows of every product
    /// multiplied on their own (see [`Rows::split`]).
    fn split_rows_at(self, split: i64) -> Self {
        let split_layer = |w: Layer| Layer {
            qkv: w.qkv.split_at(split),
            wo: w.wo.split_at(split),
            gate_up: w.gate_up.split_at(split),
            down: w.down.split_at(split),
            ..w
        };
        Params {
            layers: self.layers.into_iter().map(split_layer).collect(),
            lm_head: self.lm_head.split_at(split),
            ..self
        }
    }

    /// The same parameters with every layer's products computing only the
    /// first `live` rows (an i32 [1], see [`Rows::live`]): the graph's rows
    /// past its real ones are padding. The head is left as it is (it takes
    /// only real rows).
    fn with_live_rows(self, live: &Value) -> Self {
        let live_layer = |w: Layer| Layer {
            qkv: w.qkv.with_live(live),
            wo: w.wo.with_live(live),
            gate_up: w.gate_up.with_live(live),
            down: w.down.with_live(live),
            ..w
        };
        Params {
            layers: self.layers.into_iter().map(live_layer).collect(),
            ..self
        }
    }
}

/// Whether graphs of `kernels` over dense `weights` multiply only a
/// prompt's real rows: bf16 matrices in panels, whose kernels take the live
/// rows ([`Rows::live`]).
pub(crate) fn skips_padding(kernels: Kernels, weights: DType) -> bool {
    weights == DType::BF16 && kernels::packs_bf16_panels(kernels)
}

/// Whether graphs of `kernels` multiply only a prompt's real rows of block
/// matrices: the 8-bit form's packed products, laid out for VNNI, take the
/// live rows too ([`kernels::blocks_vnni_packed`]).
pub(crate) fn skips_block_padding(kernels: Kernels) -> bool {
    kernels::packs_for_vnni(kernels)
}

/// The graph's count of real rows `rows` (an i32 []) as the products' live
/// rows binding ([`Rows::live`]), where the kernels take one (the panel
/// kernels, the 8-bit form's packed products); `None` otherwise, so that
/// other graphs stay as they were.
fn live_count(f: &mut FuncBuilder, cfg: &GraphConfig, rows: &Value) -> Option<Value> {
    (skips_padding(cfg.kernels, cfg.weights) || skips_block_padding(cfg.kernels))
        .then(|| f.reshape(rows, &[1]))
}

/// `p` computing only the first `rows` rows of each layer's products where
/// its kernels can ([`live_count`]).
fn live_rows_only(f: &mut FuncBuilder, cfg: &GraphConfig, p: Params, rows: &Value) -> Params {
    match live_count(f, cfg, rows) {
        Some(live) => p.with_live_rows(&live),
        None => p,
    }
}

/// `p` with its output head computing only the first `rows` rows where its
/// kernel can ([`live_count`]).
fn head_live_rows_only(f: &mut FuncBuilder, cfg: &GraphConfig, p: Params, rows: &Value) -> Params {
    match live_count(f, cfg, rows) {
        Some(live) => Params {
            lm_head: p.lm_head.with_live(&live),
            ..p
        },
        None => p,
    }
}

/// Hands out a graph's parameter arguments as the weights they are, in
/// [`graph_tensors`] order.
struct ParamReader<I: Iterator<Item = Value>> {
    args: I,
    tensors: std::collections::VecDeque<GraphTensor>,
    rows: Rows,
    dense_copy: bool,
}

impl<I: Iterator<Item = Value>> ParamReader<I> {
    fn arg(&mut self) -> Value {
        self.args.next().expect("parameter list")
    }

    /// The next graph tensor, as one argument or as its block parts.
    fn weight(&mut self) -> Weight {
        let t = self.tensors.pop_front().expect("tensor list");
        match t.blocks {
            None if t.bf16_panels => Weight::Panels(self.arg(), self.rows.clone()),
            None => Weight::Dense(self.arg(), self.rows.clone()),
            Some(format) => Weight::Blocks {
                format,
                dense: self.dense_copy.then(|| self.arg()),
                q: self.arg(),
                d: self.arg(),
                m: format.has_offset().then(|| self.arg()),
                rows: self.rows.clone(),
                vnni_layout: t.vnni_layout,
            },
        }
    }

    /// The next `parts` matrices of a stack: one graph tensor when stacked,
    /// `parts` when kept apart.
    fn stacked(&mut self, parts: usize) -> Stacked {
        let is_stack = !self.tensors.front().expect("tensor list").stacks.is_empty();
        if is_stack {
            Stacked::One(Box::new(self.weight()))
        } else {
            Stacked::Parts((0..parts).map(|_| self.weight()).collect())
        }
    }
}

fn declare_params(f: &mut FuncBuilder, m: &LlamaShape, cfg: &GraphConfig) -> Params {
    let args: Vec<Value> = param_specs(m, cfg)
        .into_iter()
        .map(|p| f.arg(TensorType::new(&p.shape, p.dtype), None))
        .collect();
    let mut r = ParamReader {
        args: args.into_iter(),
        tensors: graph_tensors(m, cfg).into(),
        rows: Rows {
            kernels: cfg.kernels,
            split: None,
            narrow: cfg.narrow,
            wide: cfg.wide,
            live: None,
        },
        dense_copy: keeps_dense_copy(cfg),
    };
    let embed = r.weight();
    let layers = (0..m.layers)
        .map(|_| Layer {
            in_norm: r.weight().dense(),
            qkv: r.stacked(3),
            wo: r.weight(),
            post_norm: r.weight().dense(),
            gate_up: r.stacked(2),
            down: r.weight(),
        })
        .collect();
    let norm = r.weight().dense();
    let lm_head = if m.tied_embeddings {
        embed.clone()
    } else {
        r.weight()
    };
    let cos = r.arg();
    let sin = r.arg();
    Params {
        embed,
        layers,
        norm,
        lm_head,
        cos,
        sin,
    }
}

/// `x * rsqrt(mean(x^2) + eps) * w` over the last dimension of `x` [N, H].
fn rms_norm(f: &mut FuncBuilder, x: &Value, w: &Value, eps: f64) -> Value {
    let (n, h) = (x.shape()[0], x.shape()[1]);
    let w = f.convert(w, DType::F32);
    let sq = f.mul(x, x);
    let sum = f.reduce_sum(&sq, &[1]);
    let count = f.splat_f(h as f64, &[n], DType::F32);
    let mean = f.div(&sum, &count);
    let eps = f.splat_f(eps, &[n], DType::F32);
    let var = f.add(&mean, &eps);
    let inv = f.rsqrt(&var);
    let inv = f.broadcast(&inv, &[n, h], &[0]);
    let y = f.mul(x, &inv);
    let w = f.broadcast(&w, &[n, h], &[1]);
    f.mul(&y, &w)
}

/// Fewer rows than this are padded with zero rows before a matmul.
const MIN_MATMUL_ROWS: i64 = 8;

/// `x @ w^T` for a Hugging Face linear weight `w` [out, in].
///
/// Fewer than 8 rows are padded with zero rows up to 8 and the result sliced
/// back: IREE 3.13's CPU code for narrow contractions is slow (measured on
/// 32768x2048: one f32 row 133 ms against 14 ms for eight; with bf16 weights
/// four rows cost more CPU time than eight). This is the shape of every
/// batch-1 and batch-4 decode and of prefill's last-token output head; the
/// weights, not the extra rows, decide the cost.
fn linear_dense(f: &mut FuncBuilder, x: &Value, w: &Value, form: &Rows) -> Value {
    let rows = x.shape()[0];
    if w.elem() == DType::BF16 && rows > MIN_MATMUL_ROWS {
        match form.wide {
            WideRows::Bf16Terms => return bf16_terms_product(f, x, w),
            WideRows::Bf16 => {
                let x = f.convert(x, DType::BF16);
                return f.dot_general_as(&x, w, (&[], &[]), (&[1], &[1]), DType::F32);
            }
            WideRows::F32 => {}
        }
    }
    let narrow = match form.narrow {
        NarrowRows::CudaKernel if super::cuda_rows::takes(x, w) => {
            return super::cuda_rows::rows_bf16(f, x, w);
        }
        NarrowRows::CudaKernel => NarrowRows::Reduce,
        other => other,
    };
    // Narrow weights are widened inside the matmul's dispatch (IREE fuses
    // the conversion into it), so only the narrow bytes are read.
    let w = &f.convert(w, DType::F32);
    let cols = x.shape()[1];
    let out = w.shape()[0];
    match narrow {
        NarrowRows::PadTo8 if rows < MIN_MATMUL_ROWS => {
            let zeros = f.splat_f(0.0, &[MIN_MATMUL_ROWS - rows, cols], DType::F32);
            let padded = f.concatenate(&[x.clone(), zeros], 0);
            let y = f.dot_general(&padded, w, (&[], &[]), (&[1], &[1]));
            f.slice(&y, &[0, 0], &[rows, out])
        }
        NarrowRows::Transposed if rows <= MIN_MATMUL_ROWS => {
            let yt = f.dot_general(w, x, (&[], &[]), (&[1], &[1]));
            f.transpose(&yt, &[1, 0])
        }
        NarrowRows::Reduce if rows <= MIN_MATMUL_ROWS => {
            let shape = [rows, out, cols];
            let xb = f.broadcast(x, &shape, &[0, 2]);
            let wb = f.broadcast(w, &shape, &[1, 2]);
            let p = f.mul(&xb, &wb);
            f.reduce_sum(&p, &[2])
        }
        _ => f.dot_general(x, w, (&[], &[]), (&[1], &[1])),
    }
}

/// `x @ w^T` for f32 rows `x` and a bf16 weight `w` as products of bf16
/// operands, so that a GPU multiplies them on its matrix units (IREE 3.13
/// gives a bf16 x bf16 -> f32 contraction tensor-core tiles on CUDA, an f32
/// one none), still as exact as the f32 product: `x` is split into three
/// bf16 terms, `x = hi + mid + lo` exactly (`hi` is `x` cut to its top 8
/// significant bits, `mid` the same of what is left, `lo` the rest, at most
/// 8 bits), and each term times a bf16 weight is exact in f32. The terms
/// are stacked as rows of one contraction, so the weight is read once, and
/// their products summed smallest first.
///
/// The cuts are bit masks, not roundings to bf16 and back: IREE folds a
/// widening of a narrowing within one dispatch into nothing (measured on
/// the CPU: the second term's remainder came out 0).
fn bf16_terms_product(f: &mut FuncBuilder, x: &Value, w: &Value) -> Value {
    let rows = x.shape()[0];
    let out = w.shape()[0];
    let top_bits = f.splat_int(-65536, x.shape(), DType::I32);
    let cut = |f: &mut FuncBuilder, v: &Value| {
        let bits = f.bitcast_convert(v, DType::I32);
        let bits = f.and(&bits, &top_bits);
        f.bitcast_convert(&bits, DType::F32)
    };
    let hi = cut(f, x);
    let rest = f.sub(x, &hi);
    let mid = cut(f, &rest);
    let lo = f.sub(&rest, &mid);
    let terms: Vec<Value> = [hi, mid, lo]
        .iter()
        .map(|t| f.convert(t, DType::BF16))
        .collect();
    let terms = f.concatenate(&terms, 0);
    let y = f.dot_general_as(&terms, w, (&[], &[]), (&[1], &[1]), DType::F32);
    let part = |f: &mut FuncBuilder, i: i64| f.slice(&y, &[i * rows, 0], &[(i + 1) * rows, out]);
    let (y_hi, y_mid, y_lo) = (part(f, 0), part(f, 1), part(f, 2));
    let small = f.add(&y_lo, &y_mid);
    f.add(&small, &y_hi)
}

/// `x @ w^T` for a weight `w` [out, in], dense or in blocks.
///
/// With the x86-64 kernels (`GraphConfig::kernels`), a block weight times
/// any number of rows, and a bf16 weight times one row, call a
/// hand-written kernel; with `x86-64-bf16` a bf16 weight times any number
/// of rows, and a block weight times several, call the AVX512-BF16 kernels
/// on rows rounded to bf16. Otherwise a block weight times one row is one
/// contraction over (block, value)
/// whose operand is the dequantization `d * q (+ m)`: IREE fuses it into the
/// contraction's dispatch (on CPU with the aggressive fusion of the CPU flags,
/// `compile::Target`; tests/lowering.rs checks it), so a step reads the
/// blocks, not f32 weights. For more rows both the fused form and dequantizing first
/// ran slower than the dense matmul here (IREE 3.13 on AVX2,
/// docs/performance.md), so those read the dense copy.
fn linear(f: &mut FuncBuilder, x: &Value, w: &Weight) -> Value {
    linear_fused(f, x, None, w, None)
}

/// `residual + linear(rms_norm(x), w)`, either part optional. The 8-bit
/// form's products ([`kernels::blocks_vnni_packed`]) normalize the rows as
/// they round them and add the residual to their sums, and so do the exact
/// products of block weights where their rows fit
/// ([`kernels::blocks_matmul_fused`]), sparing a step the norm's two
/// dispatches and the add's one (per layer: two norms, two residuals);
/// other products have them as operations of their own.
fn linear_fused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    w: &Weight,
    residual: Option<&Value>,
) -> Value {
    let Weight::Blocks {
        format,
        q,
        d,
        m,
        vnni_layout,
        rows,
        ..
    } = w
    else {
        return unfused(f, x, norm, w, residual, linear_plain);
    };
    let kernels = rows.kernels;
    if !*vnni_layout && kernels.is_portable() {
        return unfused(f, x, norm, w, residual, linear_plain);
    }
    let (n, cols) = (x.shape()[0], x.shape()[1]);
    let product = |f: &mut FuncBuilder, x: &Value, r: Option<&Value>, live: Option<&Value>| {
        if *vnni_layout {
            kernels::blocks_vnni_packed(f, x, norm, *format, q, d, m.as_ref(), r, live)
        } else if kernels::takes_blocks_matmul_fused(kernels, x, norm.is_some()) {
            kernels::blocks_matmul_fused(f, x, norm, *format, q, d, m.as_ref(), r)
        } else {
            unfused(f, x, norm, w, r, linear_rows)
        }
    };
    match rows.split {
        // Rows before `split` (a decode step's, carrying a chunk) in a
        // product of their own, as `linear_plain` splits them.
        Some(split) if 0 < split && split < n => {
            let top = f.slice(x, &[0, 0], &[split, cols]);
            let bottom = f.slice(x, &[split, 0], &[n, cols]);
            let (r_top, r_bottom) = match residual {
                Some(r) => {
                    let width = r.shape()[1];
                    let t = f.slice(r, &[0, 0], &[split, width]);
                    let b = f.slice(r, &[split, 0], &[n, width]);
                    (Some(t), Some(b))
                }
                None => (None, None),
            };
            let live = bottom_live(f, rows, split);
            let top = product(f, &top, r_top.as_ref(), None);
            let bottom = product(f, &bottom, r_bottom.as_ref(), live.as_ref());
            f.concatenate(&[top, bottom], 0)
        }
        _ => product(f, x, residual, rows.live.as_ref()),
    }
}

/// `residual + linear(rms_norm(x), w)` with the norm and the add as
/// operations of their own, the product by `linear` (`linear_plain`, or
/// `linear_rows` for rows already split off).
fn unfused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    w: &Weight,
    residual: Option<&Value>,
    linear: fn(&mut FuncBuilder, &Value, &Weight) -> Value,
) -> Value {
    let h = match norm {
        Some(n) => rms_norm(f, x, &n.weight, n.eps),
        None => x.clone(),
    };
    let y = linear(f, &h, w);
    match residual {
        Some(r) => f.add(r, &y),
        None => y,
    }
}

/// `linear` of a weight that takes no norm or residual into its product.
fn linear_plain(f: &mut FuncBuilder, x: &Value, w: &Weight) -> Value {
    let (n, cols) = (x.shape()[0], x.shape()[1]);
    match w.rows().split {
        Some(split) if 0 < split && split < n => {
            let top = f.slice(x, &[0, 0], &[split, cols]);
            let bottom = f.slice(x, &[split, 0], &[n, cols]);
            let live = bottom_live(f, &w.rows(), split);
            let top = linear_rows(f, &top, &w.clone().without_live());
            let bottom = linear_rows(f, &bottom, &w.clone().live_as(live));
            f.concatenate(&[top, bottom], 0)
        }
        _ => linear_rows(f, x, w),
    }
}

/// The live count (see [`Rows::live`]) of the rows from `split` on, when
/// the rows before it are multiplied apart: they are all real (a decode
/// step's rows), so the count less `split`.
fn bottom_live(f: &mut FuncBuilder, rows: &Rows, split: i64) -> Option<Value> {
    rows.live.as_ref().map(|live| {
        let top_rows = f.splat_i32(split as i32, &[1]);
        f.sub(live, &top_rows)
    })
}

/// `linear` of all rows of `x` as one product.
fn linear_rows(f: &mut FuncBuilder, x: &Value, w: &Weight) -> Value {
    let kernels = w.rows().kernels;
    match w {
        Weight::Panels(w, rows) if kernels.bf16_activations() => {
            kernels::bf16_panels_bf16(f, x, w, rows.live.as_ref())
        }
        Weight::Panels(w, rows) => kernels::bf16_panels(f, x, w, rows.live.as_ref()),
        Weight::Dense(w, _) if kernels.bf16_activations() && w.elem() == DType::BF16 => {
            kernels::bf16_matmul(f, x, w)
        }
        Weight::Dense(w, _) if !kernels.is_portable() && kernels::takes_bf16(x, w) => {
            kernels::bf16_matvec(f, x, w)
        }
        Weight::Dense(w, _) if !kernels.is_portable() && kernels::takes_bf16_rows(x, w) => {
            kernels::bf16_rows(f, x, w)
        }
        Weight::Dense(w, rows) => linear_dense(f, x, w, rows),
        Weight::Blocks {
            format,
            q,
            d,
            m,
            vnni_layout: true,
            rows,
            ..
        } => kernels::blocks_vnni_packed(
            f,
            x,
            None,
            *format,
            q,
            d,
            m.as_ref(),
            None,
            rows.live.as_ref(),
        ),
        Weight::Blocks {
            format, q, d, m, ..
        } if !kernels.is_portable() => {
            kernels::blocks_matmul(f, kernels, x, *format, q, d, m.as_ref())
        }
        Weight::Blocks {
            format, q, d, m, ..
        } if x.shape()[0] == 1 => {
            // w is [n, blocks, ...values of a block]; x takes the same
            // shape per row, and the contraction runs over all but n.
            let w = dequantize(f, *format, q, d, m.as_ref());
            let mut shape = vec![1];
            shape.extend_from_slice(w.shape());
            let rank = shape.len() as i64;
            let inner: Vec<i64> = (2..rank).collect();
            let xr = f.reshape(x, &[&[1], &shape[2..]].concat());
            let xb = f.broadcast(&xr, &shape, &[&[0], &inner[..]].concat());
            let wb = f.broadcast(&w, &shape, &(1..rank).collect::<Vec<_>>());
            let p = f.mul(&xb, &wb);
            f.reduce_sum(&p, &inner)
        }
        Weight::Blocks { dense, rows, .. } => {
            let dense = dense.as_ref().expect("portable graphs keep the dense copy");
            linear_dense(f, x, dense, rows)
        }
    }
}

/// The f32 values `d * q (+ m)` of block weights: [rows, blocks, 32] for a
/// byte per value, [rows, blocks, 2, 16] for packed nibbles, which are
/// unpacked first (low nibbles are values 0..16 of a block, high nibbles
/// 16..32; Q4_0's are less 8). Both read as [rows, blocks * 32] in order.
fn dequantize(
    f: &mut FuncBuilder,
    format: BlockFormat,
    q: &Value,
    d: &Value,
    m: Option<&Value>,
) -> Value {
    // One byte per value (Q8_0, or widened nibbles), or packed nibbles.
    let q = if q.shape()[2] == BLOCK {
        q.clone()
    } else {
        unpack_nibbles(f, format, q)
    };
    let shape = q.shape().to_vec();
    let qf = f.convert(&q, DType::F32);
    let df = f.convert(d, DType::F32);
    let db = f.broadcast(&df, &shape, &[0, 1]);
    let w = f.mul(&qf, &db);
    match m {
        None => w,
        Some(m) => {
            let mf = f.convert(m, DType::F32);
            let mb = f.broadcast(&mf, &shape, &[0, 1]);
            f.add(&w, &mb)
        }
    }
}

/// Packed nibbles `q` [n, g, 16] as their values [n, g, 2, 16] in i8 (Q4_0's
/// less 8).
fn unpack_nibbles(f: &mut FuncBuilder, format: BlockFormat, q: &Value) -> Value {
    debug_assert!(format.is_4bit(), "only 4-bit formats pack nibbles");
    // Each byte twice along a new axis, shifted right by 0 and by 4
    // and masked: [n, g, 2, 16] is the block's values in order. Only
    // elementwise ops and a broadcast, so IREE fuses the unpacking
    // into the contraction (a concatenation measured as extra
    // dispatches and copies).
    let (n, g, half) = (q.shape()[0], q.shape()[1], q.shape()[2]);
    let wide = [n, g, 2, half];
    let twice = f.broadcast(q, &wide, &[0, 1, 3]);
    let which = f.iota(&wide, 2);
    let which = f.convert(&which, DType::I8);
    let four = f.splat_int(4, &wide, DType::I8);
    let shifts = f.mul(&which, &four);
    let shifted = f.shift_right_logical(&twice, &shifts);
    let low_bits = f.splat_int(0x0F, &wide, DType::I8);
    let values = f.and(&shifted, &low_bits);
    if format == BlockFormat::Q4_0 {
        let eight = f.splat_int(8, &wide, DType::I8);
        f.sub(&values, &eight)
    } else {
        values
    }
}

/// The f32 embedding rows of `ids` [M]: a dense table's rows, or the block
/// rows gathered and only those dequantized.
fn embed_rows(f: &mut FuncBuilder, table: &Weight, ids: &Value) -> Value {
    match table {
        Weight::Dense(t, _) => {
            let x = f.gather_rows(t, ids);
            f.convert(&x, DType::F32)
        }
        Weight::Panels(t, _) => {
            let x = f.gather_panel_rows(t, ids);
            f.convert(&x, DType::F32)
        }
        Weight::Blocks {
            dense: Some(dense), ..
        } if ids.shape()[0] > 1 => {
            let x = f.gather_rows(dense, ids);
            f.convert(&x, DType::F32)
        }
        Weight::Blocks {
            format,
            q,
            d,
            m,
            vnni_layout: true,
            ..
        } => {
            let (g, rows) = (q.shape()[1], ids.shape()[0]);
            let (qr, dr, mr) = gather_vnni_rows(f, q, d, m.as_ref(), ids);
            let x = dequantize(f, *format, &qr, &dr, mr.as_ref());
            f.reshape(&x, &[rows, g * BLOCK])
        }
        Weight::Blocks {
            format, q, d, m, ..
        } => {
            let (v, g, rows) = (q.shape()[0], q.shape()[1], ids.shape()[0]);
            let bytes = q.shape()[2];
            let q2 = f.reshape(q, &[v, g * bytes]);
            let qr = f.gather_rows(&q2, ids);
            let qr = f.reshape(&qr, &[rows, g, bytes]);
            let dr = f.gather_rows(d, ids);
            let mr = m.as_ref().map(|m| f.gather_rows(m, ids));
            let x = dequantize(f, *format, &qr, &dr, mr.as_ref());
            f.reshape(&x, &[rows, g * BLOCK])
        }
    }
}

/// The block rows `ids` [M] of a matrix in the VNNI layout
/// ([`crate::emit::vnni_layout`]) in the loader's layout: `q` [M, blocks,
/// bytes] (Q8_0's values signed again), `d` and `m` [M, blocks]. Each id's
/// group of 16 rows is gathered and its lane picked out (a mask and a sum
/// over the lanes, exact: one value and zeros), so the table is held once,
/// in the layout its products read.
fn gather_vnni_rows(
    f: &mut FuncBuilder,
    q: &Value,
    d: &Value,
    m: Option<&Value>,
    ids: &Value,
) -> (Value, Value, Option<Value>) {
    let group = super::vnni_layout::GROUP as i64;
    let (groups, blocks, group_bytes) = (q.shape()[0], q.shape()[1], q.shape()[2]);
    let rows = ids.shape()[0];
    let words = group_bytes / (group * 4);
    let sixteen = f.splat_int(group, &[rows], DType::I32);
    let which_group = f.div(ids, &sixteen);
    let fifteen = f.splat_int(group - 1, &[rows], DType::I32);
    let lane = f.and(ids, &fifteen);
    // [M, ...] with the lanes on axis `axis`: keep lane `lane[i]` of row i.
    let pick_lane = |f: &mut FuncBuilder, x: &Value, axis: i64| -> Value {
        let shape = x.shape().to_vec();
        let lanes = f.iota(&shape, axis);
        let want = f.broadcast(&lane, &shape, &[0]);
        let keep = f.compare(Cmp::Eq, &lanes, &want);
        let values = f.convert(x, DType::F32);
        let zeros = f.splat_f(0.0, &shape, DType::F32);
        let kept = f.select(&keep, &values, &zeros);
        f.reduce_sum(&kept, &[axis])
    };
    let q2 = f.reshape(q, &[groups, blocks * group_bytes]);
    let qg = f.gather_rows(&q2, &which_group);
    let qg = f.reshape(&qg, &[rows, blocks, words, group, 4]);
    let qr = pick_lane(f, &qg, 3);
    let qr = f.convert(&qr, DType::I8);
    let mut qr = f.reshape(&qr, &[rows, blocks, words * 4]);
    if words * 4 == BLOCK {
        // Q8_0 is stored unsigned (+128): flip the sign bit back.
        let flip = f.splat_int(-128, qr.shape(), DType::I8);
        qr = f.xor(&qr, &flip);
    }
    let scales = |f: &mut FuncBuilder, s: &Value| -> Value {
        let s2 = f.reshape(s, &[groups, blocks * group]);
        let sg = f.gather_rows(&s2, &which_group);
        let sg = f.reshape(&sg, &[rows, blocks, group]);
        pick_lane(f, &sg, 2)
    };
    let dr = scales(f, d);
    let mr = m.map(|m| scales(f, m));
    (qr, dr, mr)
}

/// Rotates `x` [N, heads, D] by per-row angles with `cos`/`sin` [N, D/2]:
/// `(x1 c - x2 s, x2 c + x1 s)` for the halves `x1`, `x2` of each head.
///
/// Written as `x * c + reverse_halves(x) * (-s, s)` over `[N, heads, 2,
/// D/2]`: elementwise ops and a reverse, which IREE fuses into one
/// dispatch. (Slicing the halves and concatenating the results cost four
/// dispatches, two of them copies, per rotation: about 240 of a SmolLM2
/// decode step's 757.)
fn rope(f: &mut FuncBuilder, x: &Value, cos: &Value, sin: &Value) -> Value {
    let (n, heads, d) = (x.shape()[0], x.shape()[1], x.shape()[2]);
    let half = d / 2;
    let halves = [n, heads, 2, half];
    let x4 = f.reshape(x, &halves);
    let swapped = f.reverse(&x4, &[2]);
    let c = f.broadcast(cos, &halves, &[0, 3]);
    let s = f.broadcast(sin, &halves, &[0, 3]);
    // -1 for the first half, +1 for the second: 2 * index - 1.
    let which = f.iota(&halves, 2);
    let which = f.convert(&which, DType::F32);
    let two = f.splat_f(2.0, &halves, DType::F32);
    let one = f.splat_f(1.0, &halves, DType::F32);
    let sign = f.mul(&which, &two);
    let sign = f.sub(&sign, &one);
    let s = f.mul(&s, &sign);
    let a = f.mul(&x4, &c);
    let b = f.mul(&swapped, &s);
    let r = f.add(&a, &b);
    f.reshape(&r, &[n, heads, d])
}

/// Softmax over the last dimension of `scores`, with `mask` (same shape,
/// i1; true = visible) applied first. Every row has a visible entry.
fn masked_softmax(f: &mut FuncBuilder, scores: &Value, mask: &Value) -> Value {
    let shape = scores.shape().to_vec();
    let rank = shape.len() as i64;
    let ninf = f.splat_f(f64::NEG_INFINITY, &shape, DType::F32);
    let s = f.select(mask, scores, &ninf);
    let m = f.reduce_max(&s, &[rank - 1]);
    let keep: Vec<i64> = (0..rank - 1).collect();
    let m = f.broadcast(&m, &shape, &keep);
    let z = f.sub(&s, &m);
    let e = f.exp(&z);
    let sum = f.reduce_sum(&e, &[rank - 1]);
    let sum = f.broadcast(&sum, &shape, &keep);
    f.div(&e, &sum)
}

/// SiLU-gated MLP and its residual: `x + down(silu(gate(h)) * up(h))`.
fn mlp_block(f: &mut FuncBuilder, m: &LlamaShape, x: &Value, w: &Layer) -> Value {
    let norm = RmsNorm {
        weight: w.post_norm.clone(),
        eps: m.rms_eps,
    };
    let it = m.intermediate;
    let act = match gated_in_one_pass(f, x, &norm, w) {
        Some(act) => act,
        None => {
            let [g, u]: [Value; 2] = w
                .gate_up
                .apply_normed(f, x, &norm, &[it, it])
                .try_into()
                .expect("gate and up");
            let sig = f.logistic(&g);
            let act = f.mul(&g, &sig);
            f.mul(&act, &u)
        }
    };
    linear_fused(f, &act, None, &w.down, Some(x))
}

/// `silu(gate(h)) * up(h)` in one pass of a gated panel kernel, where gate
/// and up are one stacked matrix in panels: exactly in f32
/// ([`kernels::bf16_panels_silu`]), or with bf16 activations rounded to bf16
/// ([`kernels::bf16_panels_silu_bf16`]) where the down projection is in
/// panels too (it takes those values as its rounded input); `None` where
/// that is not so. Rows split off (`Rows::split`) share the call: the
/// kernels sum each row alike whatever rows share it.
fn gated_in_one_pass(f: &mut FuncBuilder, x: &Value, norm: &RmsNorm, w: &Layer) -> Option<Value> {
    let Stacked::One(gate_up) = &w.gate_up else {
        return None;
    };
    let Weight::Panels(wv, rows) = gate_up.as_ref() else {
        return None;
    };
    // Whole panels in each half.
    if wv.shape()[0] % 2 != 0 {
        return None;
    }
    let bf16 = rows.kernels.bf16_activations();
    if bf16 && !matches!(w.down, Weight::Panels(..)) {
        return None;
    }
    let live = rows.live.as_ref();
    let h = &rms_norm(f, x, &norm.weight, norm.eps);
    Some(if bf16 {
        kernels::bf16_panels_silu_bf16(f, h, wv, live)
    } else {
        kernels::bf16_panels_silu(f, h, wv, live)
    })
}

fn scalar_i32(f: &mut FuncBuilder, v: i64) -> Value {
    f.splat_i32(v as i32, &[])
}

/// `v` (f32) as a KV cache of element type `cache` holds it: rounded to f16
/// and back for an f16 cache, unchanged for f32. Attention takes a step's
/// own keys and values this way, so that a position reads the same values
/// in the call that writes it as in every later one.
pub(super) fn as_cached(f: &mut FuncBuilder, v: &Value, cache: DType) -> Value {
    if cache == DType::F32 {
        return v.clone();
    }
    let c = f.convert(v, cache);
    f.convert(&c, DType::F32)
}

/// `v` (f32) in the cache's element type, to be written into it.
pub(super) fn to_cache(f: &mut FuncBuilder, v: &Value, cache: DType) -> Value {
    if cache == DType::F32 {
        v.clone()
    } else {
        f.convert(v, cache)
    }
}

/// A slice read from the cache, as f32.
pub(super) fn from_cache(f: &mut FuncBuilder, v: &Value) -> Value {
    if v.elem() == DType::F32 {
        v.clone()
    } else {
        f.convert(v, DType::F32)
    }
}

/// Start indices into the caches `[layers, 2, slots * kv_heads, capacity,
/// head_dim]`: `layer`, keys or values (`which`: 0 or 1), the slot's first
/// head `head`, `position`.
fn cache_start(
    layer: &Value,
    which: &Value,
    head: &Value,
    position: &Value,
    zero: &Value,
) -> [Value; 5] {
    [
        layer.clone(),
        which.clone(),
        head.clone(),
        position.clone(),
        zero.clone(),
    ]
}

/// A layer's rotated queries [N, heads, D], keys and values [N, kv_heads,
/// D], and, where asked for and the projections are stacked, the tensor
/// they are slices of: `rows` [N, heads + 2 kv_heads, D], for a kernel that
/// reads them in place.
pub(super) struct Qkv {
    pub q: Value,
    pub k: Value,
    pub v: Value,
    pub rows: Option<kernels::RowsInPlace>,
}

impl Qkv {
    /// Queries, keys and values as tensors of their own (no tensor to read
    /// them from in place).
    pub fn apart(q: Value, k: Value, v: Value) -> Self {
        Qkv {
            q,
            k,
            v,
            rows: None,
        }
    }

    /// `count` rows from the `first`-th for a kernel that reads them in
    /// place (`rows`, which this must have): a step's decode rows or the
    /// chunk it carries. `q`, `k` and `v` stay every row's slices, which
    /// only forms that do not read in place take.
    pub fn rows_part(&self, first: i64, count: i64) -> Self {
        let rows = self.rows.as_ref().expect("rows read in place");
        Qkv {
            q: self.q.clone(),
            k: self.k.clone(),
            v: self.v.clone(),
            rows: Some(rows.part(first, count)),
        }
    }
}

/// The rows of `x` [N, H] projected to queries [N, heads, D] and keys and
/// values [N, kv_heads, D], queries and keys rotated by `cos`/`sin` [N, D/2].
/// Stacked projections rotate queries and keys together, in one dispatch;
/// with `in_place` the rotation's result holds the values too (`Qkv::rows`).
fn qkv(
    f: &mut FuncBuilder,
    m: &LlamaShape,
    x: &Value,
    w: &Layer,
    (cos, sin): (&Value, &Value),
    in_place: bool,
) -> Qkv {
    let (n, d, hq, hkv) = (x.shape()[0], m.head_dim, m.heads, m.kv_heads);
    let norm = RmsNorm {
        weight: w.in_norm.clone(),
        eps: m.rms_eps,
    };
    match &w.qkv {
        Stacked::One(wqkv) => {
            let y = linear_fused(f, x, Some(&norm), wqkv, None);
            let y = f.reshape(&y, &[n, hq + 2 * hkv, d]);
            // With `in_place` every head goes through the rotation, the
            // values' passed on unchanged (selected, not rotated by angle
            // 0): one tensor to slice from and to hand over.
            let (qk, vs, rows) = if in_place {
                let all = rope(f, &y, cos, sin);
                let heads = f.iota(&[n, hq + 2 * hkv, d], 1);
                let values = f.splat_i32((hq + hkv) as i32, &[n, hq + 2 * hkv, d]);
                let rotated = f.compare(Cmp::Lt, &heads, &values);
                let rows = f.select(&rotated, &all, &y);
                let in_place = kernels::RowsInPlace::all(rows.clone());
                (rows.clone(), rows, Some(in_place))
            } else {
                let qk = f.slice(&y, &[0, 0, 0], &[n, hq + hkv, d]);
                (rope(f, &qk, cos, sin), y, None)
            };
            Qkv {
                q: f.slice(&qk, &[0, 0, 0], &[n, hq, d]),
                k: f.slice(&qk, &[0, hq, 0], &[n, hq + hkv, d]),
                v: f.slice(&vs, &[0, hq + hkv, 0], &[n, hq + 2 * hkv, d]),
                rows,
            }
        }
        parts => {
            let [q, k, v]: [Value; 3] = parts
                .apply_normed(f, x, &norm, &[hq * d, hkv * d, hkv * d])
                .try_into()
                .expect("q, k and v");
            let q = f.reshape(&q, &[n, hq, d]);
            let q = rope(f, &q, cos, sin);
            let k = f.reshape(&k, &[n, hkv, d]);
            let k = rope(f, &k, cos, sin);
            let v = f.reshape(&v, &[n, hkv, d]);
            Qkv::apart(q, k, v)
        }
    }
}

/// One decoder layer over the rows of `x`: attention (whose core, from the
/// rotated q, k, v to the heads' outputs `[N, heads * D]`, is `attend`;
/// `in_place`: it reads [`Qkv::rows`] where there is one) with its
/// residual, then the MLP with its residual.
#[allow(clippy::too_many_arguments)]
fn layer(
    f: &mut FuncBuilder,
    m: &LlamaShape,
    l: usize,
    x: &Value,
    w: &Layer,
    rope_tables: (&Value, &Value),
    heading: &str,
    in_place: bool,
    attend: impl FnOnce(&mut FuncBuilder, Qkv) -> Value,
) -> Value {
    f.comment(heading);
    let qkv = qkv(f, m, x, w, rope_tables, in_place);
    let attn = attend(f, qkv);
    let x = linear_fused(f, &attn, None, &w.wo, Some(x));
    f.comment(&format!("layer {l}: MLP"));
    mlp_block(f, m, &x, w)
}

/// The final norm and the output head: logits [N, V] of the rows of `x`.
fn head(f: &mut FuncBuilder, m: &LlamaShape, p: &Params, x: &Value) -> Value {
    let norm = RmsNorm {
        weight: p.norm.clone(),
        eps: m.rms_eps,
    };
    linear_fused(f, x, Some(&norm), &p.lm_head, None)
}

/// Prefill of one slot of a `slots`-slot cache: tokens `[t]` (padded; the
/// first `len` are real) at positions `0..t`, writing that slot's K/V at
/// `[0, t)`. Returns the logits (or argmax) of the last real token and the
/// updated caches.
pub fn prefill(
    m: &LlamaShape,
    cfg: &GraphConfig,
    slots: i64,
    t: i64,
    output: Output,
    name: &str,
) -> String {
    let capacity = cfg.capacity;
    assert!(
        t <= capacity,
        "prefill bucket {t} exceeds capacity {capacity}"
    );
    let (hq, hkv, g, d) = (m.heads, m.kv_heads, m.group(), m.head_dim);
    let mut f = FuncBuilder::new(name);
    let p = declare_params(&mut f, m, cfg);
    let kv_ty = TensorType::new(&m.kv_shape(slots, capacity), cfg.kv_cache);
    let mut kv = f.arg(kv_ty, Some("tf.aliasing_output = 1 : i32".into()));
    let tokens = f.arg(TensorType::new(&[t], DType::I32), None);
    let len = f.arg(TensorType::new(&[], DType::I32), None);
    let slot = f.arg(TensorType::new(&[], DType::I32), None);
    let draw = (output == Output::Sample).then(|| sample::declare_inputs(&mut f, 1));
    // Rows past the prompt's `len` tokens are the bucket's padding.
    let p = live_rows_only(&mut f, cfg, p, &len);

    f.comment("embeddings and the rotary angles of positions 0..t");
    let mut x = embed_rows(&mut f, &p.embed, &tokens);
    let cos = f.slice(&p.cos, &[0, 0], &[t, d / 2]);
    let sin = f.slice(&p.sin, &[0, 0], &[t, d / 2]);
    f.comment("causal mask: query i sees keys j <= i");
    let qi = f.iota(&[t, t], 0);
    let kj = f.iota(&[t, t], 1);
    let causal = f.compare(Cmp::Ge, &qi, &kj);
    let mask = f.broadcast(&causal, &[hkv, g, t, t], &[2, 3]);
    let scale = f.splat_f(1.0 / (d as f64).sqrt(), &[hkv, g, t, t], DType::F32);
    let zero = scalar_i32(&mut f, 0);
    let one = scalar_i32(&mut f, 1);
    let heads = scalar_i32(&mut f, hkv);
    let first_head = f.mul(&slot, &heads);
    // With the x86-64 kernels, the decode attention kernel's body takes the
    // prompt's rows too (each at its own position, reading the cache just
    // written): IREE's form computes all t x t scores and masks half.
    // That is a chunk of the whole prompt at position 0 (`chunk.rs`).
    let kernel_att = kernels::takes_decode_attention(cfg.kernels, g, d)
        .then(|| chunk::ChunkAttention::new(&mut f, m, cfg, t, 0, &zero, &slot, [&zero, &one]));

    for (l, w) in p.layers.iter().enumerate() {
        let heading = format!("layer {l}: attention");
        x = layer(
            &mut f,
            m,
            l,
            &x,
            w,
            (&cos, &sin),
            &heading,
            kernel_att.as_ref().is_some_and(|a| a.reads_rows_in_place()),
            |f, qkv| {
                if let Some(att) = &kernel_att {
                    // It writes the prompt's keys as it goes: none left to write.
                    let mut written = Vec::new();
                    return att.attend(f, l, &mut kv, &qkv, &mut written);
                }
                let Qkv { q, k, v, .. } = qkv;
                f.comment(&format!(
                    "layer {l}: write K/V of positions 0..t into the slot's cache"
                ));
                let cache = kv.elem();
                let kt = f.transpose(&k, &[1, 0, 2]);
                let kt = as_cached(f, &kt, cache);
                let vt = f.transpose(&v, &[1, 0, 2]);
                let vt = as_cached(f, &vt, cache);
                let li = scalar_i32(f, l as i64);
                let k5 = f.reshape(&kt, &[1, 1, hkv, t, d]);
                let k5 = to_cache(f, &k5, cache);
                kv = f.dynamic_update_slice(
                    &kv,
                    &k5,
                    &cache_start(&li, &zero, &first_head, &zero, &zero),
                );
                let v5 = f.reshape(&vt, &[1, 1, hkv, t, d]);
                let v5 = to_cache(f, &v5, cache);
                kv = f.dynamic_update_slice(
                    &kv,
                    &v5,
                    &cache_start(&li, &one, &first_head, &zero, &zero),
                );

                f.comment(&format!(
                    "layer {l}: grouped-query attention over the prompt"
                ));
                let q4 = f.reshape(&q, &[t, hkv, g, d]);
                let q4 = f.transpose(&q4, &[1, 2, 0, 3]);
                let q3 = f.reshape(&q4, &[hkv, g * t, d]);
                let s = f.dot_general(&q3, &kt, (&[0], &[0]), (&[2], &[2]));
                let s = f.reshape(&s, &[hkv, g, t, t]);
                let s = f.mul(&s, &scale);
                let probs = masked_softmax(f, &s, &mask);
                let probs = f.reshape(&probs, &[hkv, g * t, t]);
                let o = f.dot_general(&probs, &vt, (&[0], &[0]), (&[2], &[1]));
                let o = f.reshape(&o, &[hkv, g, t, d]);
                let o = f.transpose(&o, &[2, 0, 1, 3]);
                f.reshape(&o, &[t, hq * d])
            },
        );
    }

    finish_prompt(f, m, &p, &x, [&len, &zero, &one], output, draw.as_ref(), kv)
}

/// The end of a prompt graph (whole prefill or chunk): the head on the last
/// real row of `x` (row `len - 1`), returned as the graph's output form
/// beside the updated cache `kv`. `zero` and `one` are the graph's i32
/// scalars.
#[allow(clippy::too_many_arguments)]
fn finish_prompt(
    mut f: FuncBuilder,
    m: &LlamaShape,
    p: &Params,
    x: &Value,
    [len, zero, one]: [&Value; 3],
    output: Output,
    draw: Option<&sample::SampleInputs>,
    kv: Value,
) -> String {
    f.comment("the last real token: row len - 1");
    let last_index = f.sub(len, one);
    let last = f.dynamic_slice(x, &[last_index, zero.clone()], &[1, m.hidden]);
    let logits = head(&mut f, m, p, &last);
    let (out, tail) = match output {
        Output::Logits => (f.reshape(&logits, &[m.vocab]), None),
        Output::Argmax => {
            let logits = f.reshape(&logits, &[m.vocab]);
            (f.argmax_last(&logits), None)
        }
        Output::Sample => {
            let draw = draw.expect("declared for Sample");
            let id = sample::gumbel_max(&mut f, &logits, draw);
            let logits = f.reshape(&logits, &[m.vocab]);
            (f.reshape(&id, &[]), Some(logits))
        }
    };
    let mut results = vec![out, kv];
    results.extend(tail);
    f.ret(&results);
    f.finish()
}

/// Ragged decode over the `b` slots of a `b`-slot cache: one token per slot
/// at that slot's own position `pos[i]`. Row i attends to positions
/// `0..=pos[i]` of slot i only and writes its K/V at `pos[i]` of slot i.
/// Returns logits `[b, V]` (or argmax `[b]`) and the updated caches.
///
/// Every row shares each layer's dispatches: attention is one batched
/// contraction over rows (each row masked to its own positions), so the
/// number of dispatches per step does not grow with `b`. Attention takes the
/// current token's key and value straight from the projections (the cache
/// supplies positions `< pos[i]`), which lets the K/V of every layer be
/// written once, at the end of the step, with one write per row.
///
/// Attention reads only the first `window` positions of each cache, so its
/// cost follows the context actually in use rather than the capacity; every
/// `pos[i]` must be below `window` (the caller picks the graph).
///
/// Inactive rows are run with token 0 at position 0 of their own (free) slot:
/// they cannot affect other rows, and the next prefill of that slot
/// overwrites what they wrote.
pub fn decode(
    m: &LlamaShape,
    cfg: &GraphConfig,
    b: i64,
    spare: i64,
    output: Output,
    window: i64,
    name: &str,
) -> String {
    let capacity = cfg.capacity;
    assert!(
        0 < window && window <= capacity,
        "window {window} of capacity {capacity}"
    );
    let mut f = FuncBuilder::new(name);
    let p = declare_params(&mut f, m, cfg);
    let kv_ty = TensorType::new(&m.kv_shape(b + spare, capacity), cfg.kv_cache);
    let mut kv = f.arg(kv_ty, Some("tf.aliasing_output = 1 : i32".into()));
    let tokens = f.arg(TensorType::new(&[b], DType::I32), None);
    let pos = f.arg(TensorType::new(&[b], DType::I32), None);
    let draw = (output == Output::Sample).then(|| sample::declare_inputs(&mut f, b));

    f.comment("embeddings and each row's rotary angles at its own position");
    let mut x = embed_rows(&mut f, &p.embed, &tokens);
    let cos = f.gather_rows(&p.cos, &pos);
    let sin = f.gather_rows(&p.sin, &pos);
    let att = DecodeAttention::new(&mut f, m, cfg, (b, spare), window, &pos).writing_in_layers();
    let mut new_kv = Vec::new();

    for (l, w) in p.layers.iter().enumerate() {
        let heading = format!("layer {l}: projections for all rows");
        x = layer(
            &mut f,
            m,
            l,
            &x,
            w,
            (&cos, &sin),
            &heading,
            att.in_place(),
            |f, qkv| att.attend(f, l, &mut kv, &qkv, &mut new_kv),
        );
    }

    kv = att.write(&mut f, m, kv, &new_kv, &pos);

    let logits = head(&mut f, m, &p, &x);
    // The sampling tail is appended after the head; the logits then come
    // last, after the caches, so the caches' aliased result indices stay put.
    let (out, tail) = match output {
        Output::Logits => (logits, None),
        Output::Argmax => (f.argmax_last(&logits), None),
        Output::Sample => {
            let draw = draw.expect("declared for Sample");
            (sample::gumbel_max(&mut f, &logits, &draw), Some(logits))
        }
    };
    let mut results = vec![out, kv];
    results.extend(tail);
    f.ret(&results);
    f.finish()
}

#[cfg(test)]
mod form_tests {
    use super::*;

    #[test]
    fn a_gpu_form_override_names_one_of_the_forms_or_keeps_the_measured_one() {
        let forms = [("f32", WideRows::F32), ("bf16-terms", WideRows::Bf16Terms)];
        let pick = |name| pick_form("VAR", name, WideRows::Bf16Terms, &forms);
        assert_eq!(pick(None), WideRows::Bf16Terms);
        assert_eq!(pick(Some("f32")), WideRows::F32);
        assert_eq!(pick(Some("bf16-terms")), WideRows::Bf16Terms);
        assert_eq!(pick(Some("F32")), WideRows::Bf16Terms);
        assert_eq!(pick(Some("")), WideRows::Bf16Terms);
    }
}

//! The graphs' parameters: which tensors they take and in what order
//! ([`param_specs`], stacked and laid out as the device holds them), and
//! their declaration in a graph as the weights the model reads ([`Params`]),
//! with the live-row bindings of a padded prompt.

use std::collections::BTreeMap;

use super::linear::{Rows, Stacked, Weight};
use super::{
    BLOCK, BlockFormat, DType, FuncBuilder, GraphConfig, Kernels, LlamaShape, TensorType, Value,
    kernels,
};

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
///
/// [`embed_rows`]: super::embed_rows
fn bf16_panels(cfg: &GraphConfig, shape: &[i64], blocks: Option<BlockFormat>) -> bool {
    blocks.is_none()
        && cfg.weights == DType::BF16
        && kernels::packs_bf16_panels(cfg.kernels)
        && shape.len() == 2
        && crate::emit::panels::fits(shape[0] as usize, shape[1] as usize)
}

/// Whether a block matrix of `rows` rows is laid out for the VNNI kernel:
/// in the 8-bit form on a CPU with VNNI, every block matrix in whole groups
/// of 16 rows, the embedding table too (its rows are gathered from that
/// layout, [`embed_rows`]), so a tied output head takes the fast product.
///
/// [`embed_rows`]: super::embed_rows
fn vnni_layout(cfg: &GraphConfig, rows: i64, blocks: Option<BlockFormat>) -> bool {
    blocks.is_some()
        && kernels::packs_for_vnni(cfg.kernels)
        && rows % crate::emit::vnni_layout::GROUP as i64 == 0
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
                    crate::emit::panels::shape(shape[0], shape[1])
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
                let group = crate::emit::vnni_layout::GROUP as i64;
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

pub(super) struct Layer {
    pub(super) in_norm: Value,
    /// q, k and v.
    pub(super) qkv: Stacked,
    pub(super) wo: Weight,
    pub(super) post_norm: Value,
    /// gate and up.
    pub(super) gate_up: Stacked,
    pub(super) down: Weight,
}

pub(super) struct Params {
    pub(super) embed: Weight,
    pub(super) layers: Vec<Layer>,
    pub(super) norm: Value,
    pub(super) lm_head: Weight,
    pub(super) cos: Value,
    pub(super) sin: Value,
}

impl Params {
    /// The same parameters with the first `split` rows of every product
    /// multiplied on their own (see [`Rows::split`]).
    pub(super) fn split_rows_at(self, split: i64) -> Self {
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
pub(super) fn live_rows_only(
    f: &mut FuncBuilder,
    cfg: &GraphConfig,
    p: Params,
    rows: &Value,
) -> Params {
    match live_count(f, cfg, rows) {
        Some(live) => p.with_live_rows(&live),
        None => p,
    }
}

/// `p` with its output head computing only the first `rows` rows where its
/// kernel can ([`live_count`]).
pub(super) fn head_live_rows_only(
    f: &mut FuncBuilder,
    cfg: &GraphConfig,
    p: Params,
    rows: &Value,
) -> Params {
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

pub(super) fn declare_params(f: &mut FuncBuilder, m: &LlamaShape, cfg: &GraphConfig) -> Params {
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

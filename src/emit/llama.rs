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
mod embed;
mod forms;
mod linear;
mod mixed;
mod params;
pub use chunk::prefill_chunk;
use decode_attention::DecodeAttention;
pub use decode_attention::GroupedQueries;
use embed::embed_rows;
pub(super) use forms::gpu_form_from_env;
pub use forms::{NarrowRows, WideRows};
use linear::{Stacked, Weight, linear_fused};
pub use mixed::decode_with_chunk;
use params::{Layer, Params, declare_params, head_live_rows_only, live_rows_only};
pub use params::{ParamSpec, param_specs};
pub(crate) use params::{skips_block_padding, skips_padding};

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

pub use crate::types::{BLOCK, BlockFormat};

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
/// that is not so. A decode step's rows in the exact form take the norm
/// into the kernel ([`linear::gated_panels_fused`]); otherwise rows split
/// off (`Rows::split`) share the call: the kernels sum each row alike
/// whatever rows share it.
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
    if !bf16 && let Some(act) = linear::gated_panels_fused(f, x, norm, gate_up) {
        return Some(act);
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
///
/// With `only` (an i32 row index) just that row leaves the layer, [1,
/// hidden]: every row's keys and values still reach the cache, but the
/// output projection and the MLP run for that row alone. A prompt's last
/// layer needs no more, since only its last real row goes on to the head:
/// on the 1B preset that skips a sixteenth of a prompt's multiplies.
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
    only: Option<&Value>,
    attend: impl FnOnce(&mut FuncBuilder, Qkv) -> Value,
) -> Value {
    f.comment(heading);
    let qkv = qkv(f, m, x, w, rope_tables, in_place);
    let mut attn = attend(f, qkv);
    let mut x = x.clone();
    if let Some(row) = only {
        f.comment(&format!("layer {l}: one row goes on to o and the MLP"));
        let zero = scalar_i32(f, 0);
        let width = attn.shape()[1];
        attn = f.dynamic_slice(&attn, &[row.clone(), zero.clone()], &[1, width]);
        x = f.dynamic_slice(&x, &[row.clone(), zero], &[1, m.hidden]);
    }
    let x = linear_fused(f, &attn, None, &w.wo, Some(&x));
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

    f.comment("the last real token: row len - 1");
    let last = f.sub(&len, &one);

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
            last_layer_row(l, p.layers.len(), &last),
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

    finish_prompt(f, m, &p, &x, output, draw.as_ref(), kv)
}

/// The row a prompt graph's layer `l` of `layers` hands on alone
/// ([`layer`]'s `only`): the last real one, `last`, from the last layer;
/// every row from the others.
fn last_layer_row(l: usize, layers: usize, last: &Value) -> Option<&Value> {
    (l + 1 == layers).then_some(last)
}

/// The end of a prompt graph (whole prefill or chunk): the head on `last`,
/// the last real row [1, hidden] as the last layer left it
/// ([`last_layer_row`]), returned as the graph's output form beside the
/// updated cache `kv`.
fn finish_prompt(
    mut f: FuncBuilder,
    m: &LlamaShape,
    p: &Params,
    last: &Value,
    output: Output,
    draw: Option<&sample::SampleInputs>,
    kv: Value,
) -> String {
    let logits = head(&mut f, m, p, last);
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
            None,
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

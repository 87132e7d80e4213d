//! A decode step's attention: every row's query heads against its slot's
//! cached keys and values (through the hand-written CPU or CUDA kernel, or
//! in StableHLO over the window, masked), and the write of the rows' new
//! keys and values into the caches.

use super::{
    FuncBuilder, GraphConfig, LlamaShape, Qkv, Value, as_cached, from_cache, gpu_form_from_env,
    to_cache,
};
use crate::emit::builder::Cmp;
use crate::emit::cuda_attention::{self, AttentionShape};
use crate::emit::kernels::{self, StepRows};
use crate::types::DType;

/// How the StableHLO form of a decode step's attention multiplies the
/// `g` query heads that share a key/value head with that head's cached
/// rows: the shapes decide which of IREE's code-generation pipelines takes
/// the two products (scores, and the weighted sum of values).
///
/// On an H200 (CUDA, sm_80 PTX; 1B preset, context 256, graph-bench under
/// Nsight Compute, docs/performance.md) the stacked form's two products
/// took 272 and 79 us per layer at B = 1 (4.35 + 1.26 ms of a 6.8 ms step,
/// the weight products 0.75 ms): IREE 3.13 gives a contraction of 4 rows
/// its `TileAndFuse` pipeline with one thread per 128 outputs. A product
/// of one row (a matrix-vector product) goes to its `VectorDistribute`
/// pipeline, a warp per output. Whole steps, same H200, forms alternating
/// (graph-bench, two rounds, ms at B = 1 / 8): stacked 6.03, 5.94 / 9.46,
/// 9.27; broadcast 2.02, 2.03 / 5.18, 5.22; split 2.77, 2.96 / 5.10, 4.95.
/// The broadcast copy grows with the window: on an H100 at context 2048
/// (eighteenth session, docs/performance.md) B = 8 over the whole
/// 2048-position window took 18.83, 18.87 ms broadcast against 13.93,
/// 14.00 split, while over 256 positions broadcast held its lead or tied
/// (B = 8: 5.62, 5.77 against 5.73, 5.96), hence [`GroupedQueries::ByWindow`].
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum GroupedQueries {
    /// One product per layer with the group's `g` queries as its rows
    /// (the CPU's; its kernel takes over where it has one).
    #[default]
    Stacked,
    /// The keys and values broadcast to every query head, so that each
    /// product has one row per head: `g` times the cache rows' bytes are
    /// written and read once more, in exchange for IREE's matrix-vector code.
    Broadcast,
    /// One product per query of the group, concatenated: matrix-vector
    /// products with no broadcast copy, but `2 g` products per layer and a
    /// copy of each into the concatenation.
    Split,
    /// `Broadcast` for windows of up to [`BROADCAST_UP_TO`] positions,
    /// `Split` for longer ones.
    ByWindow,
    /// CUDA's default: the hand-written kernel
    /// ([`crate::emit::cuda_attention`]), which reads only each row's cached
    /// positions below its own; `ByWindow` where it does not take the
    /// shape (an f16 cache, a window whose scores overflow shared memory).
    Kernel,
}

/// The longest window [`GroupedQueries::ByWindow`] gives the broadcast form:
/// the longest measured where broadcast was not slower (256; split won at
/// 2048, and 1024 was not measured).
pub const BROADCAST_UP_TO: i64 = 256;

impl GroupedQueries {
    pub fn is_stacked(&self) -> bool {
        *self == GroupedQueries::Stacked
    }

    /// The form for graphs compiled for `kind`: stacked on the CPU and on
    /// Metal (not measured there), the kernel on CUDA.
    /// `$IREE_LLM_GPU_ATTENTION` (stacked, broadcast, split, by-window or,
    /// on CUDA, kernel) overrides it for a GPU, for measuring.
    pub fn for_target(kind: crate::types::DeviceKind) -> Self {
        use crate::types::DeviceKind;
        let measured = match kind {
            DeviceKind::Cpu => return GroupedQueries::Stacked,
            DeviceKind::Cuda => GroupedQueries::Kernel,
            DeviceKind::Metal => GroupedQueries::Stacked,
        };
        gpu_form_from_env("IREE_LLM_GPU_ATTENTION", measured, &Self::named_for(kind))
    }

    /// The forms `$IREE_LLM_GPU_ATTENTION` may name for graphs compiled for
    /// `kind`: the kernel is PTX, so only CUDA's graphs can call it.
    fn named_for(kind: crate::types::DeviceKind) -> Vec<(&'static str, Self)> {
        let mut forms = vec![
            ("stacked", GroupedQueries::Stacked),
            ("broadcast", GroupedQueries::Broadcast),
            ("split", GroupedQueries::Split),
            ("by-window", GroupedQueries::ByWindow),
        ];
        if kind == crate::types::DeviceKind::Cuda {
            forms.push(("kernel", GroupedQueries::Kernel));
        }
        forms
    }

    /// The StableHLO form a graph whose attention reads `window` cached
    /// positions takes: [`ByWindow`](GroupedQueries::ByWindow) resolved (and
    /// [`Kernel`](GroupedQueries::Kernel) as `ByWindow`, where the kernel
    /// does not take the shape), the others as they are.
    pub fn for_window(self, window: i64) -> Self {
        match self {
            GroupedQueries::Kernel => GroupedQueries::ByWindow.for_window(window),
            GroupedQueries::ByWindow if window <= BROADCAST_UP_TO => GroupedQueries::Broadcast,
            GroupedQueries::ByWindow => GroupedQueries::Split,
            form => form,
        }
    }
}

/// The attention of ragged decode rows ([`decode`]): row i of `b` sees the
/// cached positions `< pos[i]` of slot i through the first `window`
/// positions of the cache, and its own key and value from the projections.
/// Slots past the rows (spare ones) are neither read nor written.
pub(super) struct DecodeAttention {
    b: i64,
    window: i64,
    form: DecodeForm,
    groups: GroupedQueries,
    hq: i64,
    hkv: i64,
    g: i64,
    d: i64,
    /// Whether [`attend`](Self::attend) writes the rows' keys and values
    /// into the caches itself, layer by layer ([`Self::writing_in_layers`]).
    writes: bool,
}

/// How a decode step's attention is computed.
enum DecodeForm {
    /// The CPU's decode attention kernel ([`kernels::decode_attention`]),
    /// which reads each row's cached positions below `pos`.
    Kernel { pos: Value },
    /// CUDA's ([`cuda_attention::decode_attention`]), the same call.
    CudaKernel { pos: Value },
    /// StableHLO over the whole window, positions at or past `pos` masked:
    /// the mask, its fill and the scores' scale, shared by every layer.
    Masked {
        mask: Value,
        ninf: Value,
        scale_old: Value,
        scale_new: Value,
    },
}

impl DecodeAttention {
    pub(super) fn new(
        f: &mut FuncBuilder,
        m: &LlamaShape,
        cfg: &GraphConfig,
        (b, spare): (i64, i64),
        window: i64,
        pos: &Value,
    ) -> Self {
        let (hq, hkv, g, d) = (m.heads, m.kv_heads, m.group(), m.head_dim);
        let cuda = AttentionShape {
            slots: b * hkv,
            kv_heads: hkv,
            group: g,
            head_dim: d,
            capacity: cfg.capacity,
            window,
        };
        let form = if kernels::takes_decode_attention(cfg.kernels, g, d) {
            DecodeForm::Kernel { pos: pos.clone() }
        } else if cfg.attention == GroupedQueries::Kernel
            // CUDA's kernel takes one cache slot per row.
            && spare == 0
            && cuda_attention::takes(&cuda, cfg.kv_cache)
        {
            DecodeForm::CudaKernel { pos: pos.clone() }
        } else {
            f.comment("each row sees the cached keys before its position: s < pos[i]");
            let bh = b * hkv;
            let key_index = f.iota(&[b, window], 1);
            let pos_b = f.broadcast(pos, &[b, window], &[0]);
            let visible = f.compare(Cmp::Lt, &key_index, &pos_b);
            let mask = f.broadcast(&visible, &[b, hkv, g, window], &[0, 3]);
            let mask = f.reshape(&mask, &[bh, g, window]);
            let ninf = f.splat_f(f64::NEG_INFINITY, &[bh, g, window], DType::F32);
            let scale_old = f.splat_f(1.0 / (d as f64).sqrt(), &[bh, g, window], DType::F32);
            let scale_new = f.splat_f(1.0 / (d as f64).sqrt(), &[bh, g], DType::F32);
            DecodeForm::Masked {
                mask,
                ninf,
                scale_old,
                scale_new,
            }
        };
        DecodeAttention {
            b,
            window,
            form,
            groups: cfg.attention.for_window(window),
            hq,
            hkv,
            g,
            d,
            writes: false,
        }
    }

    /// This attention, writing the rows' keys and values into the caches in
    /// each layer's kernel call where the CPU kernel takes it (instead of
    /// one scatter after the last layer): a decode step's own graph. A
    /// mixed step keeps the scatter, which its chunk's writes are ordered
    /// around.
    pub(super) fn writing_in_layers(mut self) -> Self {
        self.writes = matches!(self.form, DecodeForm::Kernel { .. });
        self
    }

    /// Whether the layers should give [`Qkv::rows`]: the CPU kernel reads
    /// the rows' queries, keys and values in place. Not for one row, whose
    /// slices need no copies (SmolLM2 B=1: 30 dispatches more in place).
    pub(super) fn in_place(&self) -> bool {
        matches!(self.form, DecodeForm::Kernel { .. }) && self.b > 1
    }

    /// Layer `l`'s attention of the rows' rotated `q` [b, heads, D], `k` and
    /// `v` [b, kv_heads, D] over the caches `kv`: the heads' outputs
    /// [b, heads * D]. Where the kernel writes the caches itself
    /// ([`Self::writing_in_layers`]) `kv` becomes the written caches;
    /// otherwise the rows' K and V go to `new_kv` for [`write`](Self::write).
    pub(super) fn attend(
        &self,
        f: &mut FuncBuilder,
        l: usize,
        kv: &mut Value,
        qkv: &Qkv,
        new_kv: &mut Vec<Value>,
    ) -> Value {
        let Qkv { q, k, v, rows } = qkv;
        let (b, bh, d) = (self.b, self.b * self.hkv, self.d);
        f.comment(&format!(
            "layer {l}: every row attends to its cached positions and its own K/V"
        ));
        // Both forms give [b * kv_heads, g, D].
        let o = match &self.form {
            DecodeForm::Kernel { pos } => {
                let step = match rows {
                    Some(rows) => StepRows::Packed {
                        rows,
                        kv_heads: self.hkv,
                    },
                    None => StepRows::Apart { q, k, v },
                };
                kernels::decode_attention(f, step, kv, pos, l as i64, self.window, self.writes)
            }
            DecodeForm::CudaKernel { pos } => {
                cuda_attention::decode_attention(f, q, kv, k, v, pos, l as i64, self.window)
            }
            DecodeForm::Masked { .. } => self.masked(f, l, kv, [q, k, v]),
        };
        if !self.writes {
            // Rows read in place are written in place too (`k` and `v` may
            // be more rows' than the step's).
            assert!(rows.is_none(), "rows read in place are written in place");
            new_kv.push(f.reshape(k, &[1, 1, bh, d]));
            new_kv.push(f.reshape(v, &[1, 1, bh, d]));
        }
        f.reshape(&o, &[b, self.hq * d])
    }

    /// The StableHLO form of [`attend`](Self::attend) for the rows' `q`, `k`
    /// and `v`: the heads' outputs [b * kv_heads, g, D].
    fn masked(&self, f: &mut FuncBuilder, l: usize, kv: &Value, [q, k, v]: [&Value; 3]) -> Value {
        let DecodeForm::Masked {
            mask,
            ninf,
            scale_old,
            scale_new,
        } = &self.form
        else {
            unreachable!("masked() is the Masked form's")
        };
        let DecodeAttention {
            b,
            window,
            hkv,
            g,
            d,
            ..
        } = *self;
        let bh = b * hkv;
        let l64 = l as i64;
        let keys = f.slice(kv, &[l64, 0, 0, 0, 0], &[l64 + 1, 1, bh, window, d]);
        let keys = from_cache(f, &keys);
        let keys = f.reshape(&keys, &[bh, window, d]);
        let vals = f.slice(kv, &[l64, 1, 0, 0, 0], &[l64 + 1, 2, bh, window, d]);
        let vals = from_cache(f, &vals);
        let vals = f.reshape(&vals, &[bh, window, d]);
        let q3 = f.reshape(q, &[bh, g, d]);
        let k2 = f.reshape(k, &[bh, d]);
        let k2 = as_cached(f, &k2, kv.elem());
        let v2 = f.reshape(v, &[bh, d]);
        let v2 = as_cached(f, &v2, kv.elem());
        let s_old = self.per_query(f, &q3, &keys, false);
        let s_old = f.mul(&s_old, scale_old);
        let s_old = f.select(mask, &s_old, ninf);
        let s_new = f.dot_general(&q3, &k2, (&[0], &[0]), (&[2], &[1]));
        let s_new = f.mul(&s_new, scale_new);
        let top = f.reduce_max(&s_old, &[2]);
        let top = f.max(&top, &s_new);
        let top_b = f.broadcast(&top, &[bh, g, window], &[0, 1]);
        let z_old = f.sub(&s_old, &top_b);
        let e_old = f.exp(&z_old);
        let z_new = f.sub(&s_new, &top);
        let e_new = f.exp(&z_new);
        let sum = f.reduce_sum(&e_old, &[2]);
        let sum = f.add(&sum, &e_new);
        let o = self.per_query(f, &e_old, &vals, true);
        let e_new = f.broadcast(&e_new, &[bh, g, d], &[0, 1]);
        let v_b = f.broadcast(&v2, &[bh, g, d], &[0, 2]);
        let o_new = f.mul(&e_new, &v_b);
        let o = f.add(&o, &o_new);
        let sum = f.broadcast(&sum, &[bh, g, d], &[0, 1]);
        f.div(&o, &sum)
    }

    /// The product of `rows` [bh, g, n] (each head's g queries, or their
    /// weights) with each head's cached `cache` [bh, window, d]: contracted
    /// over d (`rows` are queries, n = d; the scores [bh, g, window]) or
    /// over positions (`weights`, n = window; the values' sum [bh, g, d]),
    /// in the form [`GroupedQueries`] says.
    fn per_query(&self, f: &mut FuncBuilder, rows: &Value, cache: &Value, weights: bool) -> Value {
        let (bh, g, window, d) = (self.b * self.hkv, self.g, self.window, self.d);
        let n = rows.shape()[2];
        // Contracting dimension of `cache`: its positions for weights, else d.
        let cache_k: &[i64] = if weights { &[1] } else { &[2] };
        let out = if weights { d } else { window };
        match self.groups {
            GroupedQueries::Stacked => f.dot_general(rows, cache, (&[0], &[0]), (&[2], cache_k)),
            GroupedQueries::Broadcast => {
                let each = f.broadcast(cache, &[bh, g, window, d], &[0, 2, 3]);
                let each = f.reshape(&each, &[bh * g, window, d]);
                let one = f.reshape(rows, &[bh * g, 1, n]);
                let p = f.dot_general(&one, &each, (&[0], &[0]), (&[2], cache_k));
                f.reshape(&p, &[bh, g, out])
            }
            GroupedQueries::ByWindow | GroupedQueries::Kernel => {
                unreachable!("resolved by for_window in new()")
            }
            GroupedQueries::Split => {
                let parts: Vec<Value> = (0..g)
                    .map(|j| {
                        let one = f.slice(rows, &[0, j, 0], &[bh, j + 1, n]);
                        f.dot_general(&one, cache, (&[0], &[0]), (&[2], cache_k))
                    })
                    .collect();
                f.concatenate(&parts, 1)
            }
        }
    }

    /// Writes every layer's K/V of row i (`new_kv`, as [`attend`](Self::attend)
    /// pushed them) at `pos[i]` of slot i; returns the updated caches (`kv`
    /// as it is where the kernel wrote them layer by layer).
    ///
    /// One scatter of rows of head_dim values whose indices the device
    /// computes from `pos`: a dynamic_update_slice per row made IREE read
    /// each position back to the host mid-step (a wait and a second
    /// submission per step on every backend).
    pub(super) fn write(
        &self,
        f: &mut FuncBuilder,
        m: &LlamaShape,
        kv: Value,
        new_kv: &[Value],
        pos: &Value,
    ) -> Value {
        if self.writes {
            // The kernel wrote them, layer by layer.
            return kv;
        }
        let (b, hkv, d) = (self.b, self.hkv, self.d);
        let (layers, bh) = (m.layers, b * hkv);
        f.comment("write every layer's K/V of row i at pos[i] of slot i");
        let all = f.concatenate(new_kv, 0);
        let all = to_cache(f, &all, kv.elem());
        let rows = f.reshape(&all, &[layers * 2 * bh, d]);
        // Each row's index into the caches: (layer, K or V, head, position);
        // row i's heads are i * kv_heads.., the slot's. Picked column by
        // column with selects over one shape, so that it is one elementwise
        // dispatch (a concatenation of the columns took eight).
        let shape = [layers, 2, bh, 4];
        let column = f.iota(&shape, 3);
        let at = f.broadcast(pos, &[layers, 2, b, hkv, 4], &[2]);
        let mut idx = f.reshape(&at, &shape);
        for dim in (0..3).rev() {
            let this = f.splat_i32(dim as i32, &shape);
            let is = f.compare(Cmp::Eq, &column, &this);
            let value = f.iota(&shape, dim);
            idx = f.select(&is, &value, &idx);
        }
        let idx = f.reshape(&idx, &[layers * 2 * bh, 4]);
        // Computed in a dispatch of its own, as it already is for an f32
        // cache: fused into the scatter with an f16 cache's conversion, the
        // indices were built on the stack (32 KB on the 1B preset at B=8, over
        // IREE's 32 KB limit for a CPU dispatch, so the graph did not compile).
        let idx = f.optimization_barrier(&idx);
        f.scatter_rows(&kv, &idx, &rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::DeviceKind;

    #[test]
    fn only_cuda_graphs_may_name_the_attention_kernel() {
        let names = |kind| -> Vec<&str> {
            GroupedQueries::named_for(kind)
                .iter()
                .map(|(n, _)| *n)
                .collect()
        };
        assert!(names(DeviceKind::Cuda).contains(&"kernel"));
        assert!(!names(DeviceKind::Metal).contains(&"kernel"));
        assert!(names(DeviceKind::Metal).contains(&"by-window"));
    }

    #[test]
    fn where_the_kernel_does_not_take_a_shape_the_window_decides_the_form() {
        assert_eq!(
            GroupedQueries::Kernel.for_window(256),
            GroupedQueries::Broadcast
        );
        assert_eq!(
            GroupedQueries::Kernel.for_window(2048),
            GroupedQueries::Split
        );
    }
}

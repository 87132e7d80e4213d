//! The prefill chunk graph: `t` prompt tokens of one slot at a runtime
//! position `start`, attending to that slot's cached keys before `start`
//! and causally to each other, so a prompt is prefilled as a few chunks
//! whose sizes follow its length (see [`crate::emit::chunks`]).

use super::{
    Cmp, DType, FuncBuilder, LlamaShape, Output, Qkv, TensorType, Value, as_cached, declare_params,
    embed_rows, finish_prompt, from_cache, kernels, last_layer_row, layer, live_rows_only,
    masked_softmax, sample, scalar_i32, to_cache,
};
use crate::emit::GraphConfig;

/// A prefill chunk into one slot of a `slots`-slot cache: tokens `[t]`
/// (padded; the first `len` are real) at positions `start..start + t`,
/// writing that slot's K/V there. Queries see the slot's cached keys at
/// positions `< start`, read from the first `window` positions of the cache
/// (`window >= start`; a first chunk, at `start` 0, has window 0 and reads
/// no cache; with the attention kernel the graph reads each row's own
/// positions whatever the window), and the chunk's own keys up to their own
/// position. Returns the logits (or argmax, or sampled id) of the chunk's
/// last real token and the updated caches.
///
/// The caller keeps `start + t <= capacity` (the cache write would be
/// clamped otherwise): a last chunk that would pass the capacity starts
/// earlier instead and recomputes a few positions.
///
/// Padded rows (`len..t`) write K/V at positions after the prompt's last
/// one; nothing reads them before a later chunk or decode step overwrites
/// them (attention never looks past a row's own position).
#[allow(clippy::too_many_arguments)]
pub fn prefill_chunk(
    m: &LlamaShape,
    cfg: &GraphConfig,
    slots: i64,
    t: i64,
    window: i64,
    output: Output,
    name: &str,
) -> String {
    let capacity = cfg.capacity;
    assert!(
        0 < t && t <= capacity && 0 <= window && window <= capacity,
        "chunk of {t} tokens, window {window}, capacity {capacity}"
    );
    let d = m.head_dim;
    let mut f = FuncBuilder::new(name);
    let p = declare_params(&mut f, m, cfg);
    let kv_ty = TensorType::new(&m.kv_shape(slots, capacity), cfg.kv_cache);
    let mut kv = f.arg(kv_ty, Some("tf.aliasing_output = 1 : i32".into()));
    let tokens = f.arg(TensorType::new(&[t], DType::I32), None);
    let len = f.arg(TensorType::new(&[], DType::I32), None);
    let slot = f.arg(TensorType::new(&[], DType::I32), None);
    let start = f.arg(TensorType::new(&[], DType::I32), None);
    let draw = (output == Output::Sample).then(|| sample::declare_inputs(&mut f, 1));
    // Rows past the chunk's `len` tokens are padding.
    let p = live_rows_only(&mut f, cfg, p, &len);

    f.comment("embeddings and the rotary angles of positions start..start + t");
    let mut x = embed_rows(&mut f, &p.embed, &tokens);
    let zero = scalar_i32(&mut f, 0);
    let one = scalar_i32(&mut f, 1);
    let cos = f.dynamic_slice(&p.cos, &[start.clone(), zero.clone()], &[t, d / 2]);
    let sin = f.dynamic_slice(&p.sin, &[start.clone(), zero.clone()], &[t, d / 2]);

    let att = ChunkAttention::new(&mut f, m, cfg, t, window, &start, &slot, [&zero, &one]);
    let mut new_kv = Vec::new();
    f.comment("the last real token: row len - 1");
    let last = f.sub(&len, &one);

    for (l, wl) in p.layers.iter().enumerate() {
        let heading = format!("layer {l}: attention of the chunk");
        x = layer(
            &mut f,
            m,
            l,
            &x,
            wl,
            (&cos, &sin),
            &heading,
            att.reads_rows_in_place(),
            last_layer_row(l, p.layers.len(), &last),
            |f, qkv| att.attend(f, l, &mut kv, &qkv, &mut new_kv),
        );
    }

    if !att.writes_in_layers() {
        kv = att.write(&mut f, m, kv, &new_kv);
    }

    finish_prompt(f, m, &p, &x, output, draw.as_ref(), kv)
}

/// The attention of a chunk's `t` rows ([`prefill_chunk`]): query i sees
/// the slot's cached keys before `start` and the chunk's own keys up to its
/// own position.
pub(super) struct ChunkAttention {
    t: i64,
    form: Form,
    slot: Value,
    start: Value,
    first_head: Value,
    zero: Value,
    one: Value,
    hq: i64,
    hkv: i64,
    d: i64,
}

/// How a chunk's queries meet the keys.
enum Form {
    /// The decode attention kernel's prompt mode
    /// ([`kernels::prompt_attention`]): each layer writes the chunk's keys
    /// and values into the slot's cache first, and row i reads positions
    /// `0..=start + i` there, as a decode row at that position would. It
    /// reads no more of the cache than each row needs, so one graph serves
    /// a chunk at any start.
    Kernel,
    /// IREE's form: the `window` cached positions followed by the chunk's
    /// own keys, every score computed and the invisible ones masked.
    Masked {
        window: i64,
        mask: Value,
        scale: Value,
        g: i64,
    },
}

impl ChunkAttention {
    /// `zero` and `one` are the graph's i32 scalars. `window` (at least
    /// `start`; 0 for a chunk at position 0) bounds the cached positions
    /// IREE's form reads; the kernel's form, taken where the kernels take
    /// the attention ([`kernels::takes_decode_attention`]), needs none.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        f: &mut FuncBuilder,
        m: &LlamaShape,
        cfg: &GraphConfig,
        t: i64,
        window: i64,
        start: &Value,
        slot: &Value,
        [zero, one]: [&Value; 2],
    ) -> Self {
        let (hq, hkv, g, d) = (m.heads, m.kv_heads, m.group(), m.head_dim);
        let form = if kernels::takes_decode_attention(cfg.kernels, g, d) {
            Form::Kernel
        } else {
            // Keys are the `window` cached positions followed by the chunk's own t.
            let n = window + t;
            f.comment("query i sees cached keys j < start and chunk keys window + k, k <= i");
            let qi = f.iota(&[t, n], 0);
            let kj = f.iota(&[t, n], 1);
            let start_b = f.broadcast(start, &[t, n], &[]);
            let cached = f.compare(Cmp::Lt, &kj, &start_b);
            let w = f.splat_i32(window as i32, &[t, n]);
            let in_chunk = f.compare(Cmp::Ge, &kj, &w);
            let k_rel = f.sub(&kj, &w);
            let causal = f.compare(Cmp::Le, &k_rel, &qi);
            let own = f.and(&in_chunk, &causal);
            let visible = f.or(&cached, &own);
            let mask = f.broadcast(&visible, &[hkv, g, t, n], &[2, 3]);
            let scale = f.splat_f(1.0 / (d as f64).sqrt(), &[hkv, g, t, n], DType::F32);
            Form::Masked {
                window,
                mask,
                scale,
                g,
            }
        };
        let heads = scalar_i32(f, hkv);
        let first_head = f.mul(slot, &heads);
        ChunkAttention {
            t,
            form,
            slot: slot.clone(),
            start: start.clone(),
            first_head,
            zero: zero.clone(),
            one: one.clone(),
            hq,
            hkv,
            d,
        }
    }

    /// Whether [`attend`](Self::attend) reads the layer's projected rows in
    /// place ([`Qkv::rows`]) where they come as one tensor: the kernel's
    /// form, which then writes the chunk's keys and values from them in
    /// one dispatch and attends from them in another.
    pub(super) fn reads_rows_in_place(&self) -> bool {
        matches!(self.form, Form::Kernel)
    }

    /// Layer `l`'s attention of the chunk's rotated queries [t, heads, D],
    /// keys and values [t, kv_heads, D] (`qkv`) over the caches `kv` (which
    /// the kernel's form updates with the chunk's keys and values first):
    /// the heads' outputs [t, heads * D]. Pushes the chunk's K and V to
    /// `new_kv` for [`write`](Self::write), except where the kernel's form
    /// reads `qkv.rows` in place (a graph that leaves the keys where that
    /// form wrote them, [`writes_in_layers`](Self::writes_in_layers)).
    pub(super) fn attend(
        &self,
        f: &mut FuncBuilder,
        l: usize,
        kv: &mut Value,
        qkv: &Qkv,
        new_kv: &mut Vec<Value>,
    ) -> Value {
        let (t, hq, hkv, d) = (self.t, self.hq, self.hkv, self.d);
        if let (Form::Kernel, Some(rows)) = (&self.form, &qkv.rows) {
            f.comment(&format!(
                "layer {l}: the chunk's K/V into the slot's cache, then its rows as decode rows"
            ));
            let (slot, start, layer) = (&self.slot, &self.start, l as i64);
            kernels::prompt_kv_write(f, rows, hkv, kv, slot, start, layer);
            let step = kernels::StepRows::Packed {
                rows,
                kv_heads: hkv,
            };
            let o = kernels::prompt_attention(f, step, kv, slot, start, layer);
            return f.reshape(&o, &[t, hq * d]);
        }
        let Qkv { q, k, v, .. } = qkv;
        let kt = f.transpose(k, &[1, 0, 2]);
        let kt = as_cached(f, &kt, kv.elem());
        let vt = f.transpose(v, &[1, 0, 2]);
        let vt = as_cached(f, &vt, kv.elem());
        let Form::Masked {
            window,
            ref mask,
            ref scale,
            g,
        } = self.form
        else {
            let k5 = f.reshape(&kt, &[1, 1, hkv, t, d]);
            let v5 = f.reshape(&vt, &[1, 1, hkv, t, d]);
            new_kv.push(k5.clone());
            new_kv.push(v5.clone());
            let li = scalar_i32(f, l as i64);
            f.comment(&format!(
                "layer {l}: the chunk's K/V into the slot's cache, then its rows as decode rows"
            ));
            for (which, x) in [(&self.zero, &k5), (&self.one, &v5)] {
                let x = to_cache(f, x, kv.elem());
                let at = [
                    li.clone(),
                    which.clone(),
                    self.first_head.clone(),
                    self.start.clone(),
                    self.zero.clone(),
                ];
                *kv = f.dynamic_update_slice(kv, &x, &at);
            }
            let q3 = f.reshape(q, &[t, hq, d]);
            let step = kernels::StepRows::Apart { q: &q3, k, v };
            let o = kernels::prompt_attention(f, step, kv, &self.slot, &self.start, l as i64);
            return f.reshape(&o, &[t, hq * d]);
        };
        let n = window + t;
        let (keys, vals) = if window == 0 {
            (kt.clone(), vt.clone())
        } else {
            f.comment(&format!(
                "layer {l}: the slot's cached keys and values, then the chunk's"
            ));
            let li = scalar_i32(f, l as i64);
            let read = |f: &mut FuncBuilder, which: &Value| {
                let at = [
                    li.clone(),
                    which.clone(),
                    self.first_head.clone(),
                    self.zero.clone(),
                    self.zero.clone(),
                ];
                let c = f.dynamic_slice(kv, &at, &[1, 1, hkv, window, d]);
                let c = from_cache(f, &c);
                f.reshape(&c, &[hkv, window, d])
            };
            let ck = read(f, &self.zero);
            let cv = read(f, &self.one);
            (
                f.concatenate(&[ck, kt.clone()], 1),
                f.concatenate(&[cv, vt.clone()], 1),
            )
        };
        let q4 = f.reshape(q, &[t, hkv, g, d]);
        let q4 = f.transpose(&q4, &[1, 2, 0, 3]);
        let q3 = f.reshape(&q4, &[hkv, g * t, d]);
        let s = f.dot_general(&q3, &keys, (&[0], &[0]), (&[2], &[2]));
        let s = f.reshape(&s, &[hkv, g, t, n]);
        let s = f.mul(&s, scale);
        let probs = masked_softmax(f, &s, mask);
        let probs = f.reshape(&probs, &[hkv, g * t, n]);
        let o = f.dot_general(&probs, &vals, (&[0], &[0]), (&[2], &[1]));
        let o = f.reshape(&o, &[hkv, g, t, d]);
        let o = f.transpose(&o, &[2, 0, 1, 3]);
        new_kv.push(f.reshape(&kt, &[1, 1, hkv, t, d]));
        new_kv.push(f.reshape(&vt, &[1, 1, hkv, t, d]));
        f.reshape(&o, &[t, hq * d])
    }

    /// Whether [`attend`](Self::attend) writes the chunk's keys and values
    /// into the cache itself (the kernel's form).
    pub(super) fn writes_in_layers(&self) -> bool {
        matches!(self.form, Form::Kernel)
    }

    /// Writes every layer's K/V of the chunk (`new_kv`, as
    /// [`attend`](Self::attend) pushed them) at `start..` of the slot;
    /// returns the updated caches. (The kernel's form wrote them already; a
    /// decode step carrying the chunk writes its idle row over the chunk's
    /// first position after that, so the chunk's keys go in again last.)
    pub(super) fn write(
        &self,
        f: &mut FuncBuilder,
        m: &LlamaShape,
        kv: Value,
        new_kv: &[Value],
    ) -> Value {
        f.comment("write every layer's K/V of the chunk at start.. of the slot");
        let all = f.concatenate(new_kv, 0);
        let all = f.reshape(&all, &[m.layers, 2, self.hkv, self.t, self.d]);
        let all = to_cache(f, &all, kv.elem());
        let zero = &self.zero;
        f.dynamic_update_slice(
            &kv,
            &all,
            &[
                zero.clone(),
                zero.clone(),
                self.first_head.clone(),
                self.start.clone(),
                zero.clone(),
            ],
        )
    }
}

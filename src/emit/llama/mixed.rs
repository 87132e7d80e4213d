//! The decode+chunk graph: one decode step of every slot and one prefill
//! chunk of one slot in a single call. The decode rows and the chunk's rows
//! go through each layer's projections and MLP as one matrix of `b + t`
//! rows, so the step pays one call's fixed cost instead of two, and where
//! a product sums each row alike whatever rows share it, reads the weights
//! once for both; attention stays apart (each row set with its own mask,
//! [`DecodeAttention`] and [`ChunkAttention`]), reading both row sets in
//! place from one tensor where the CPU kernels take it.

use super::chunk::ChunkAttention;
use super::{
    DType, DecodeAttention, FuncBuilder, LlamaShape, Qkv, TensorType, declare_params, embed_rows,
    head, head_live_rows_only, layer, live_rows_only, sample, scalar_i32,
};
use crate::emit::GraphConfig;

/// Ragged decode over the first `b` slots of a `b + spare`-slot cache
/// ([`super::decode`], sampling form, attention through the first `window`
/// positions of each slot) together with a prefill chunk of `t` tokens of
/// any slot at any start below `window` ([`super::chunk::prefill_chunk`]:
/// the chunk reads the slot's cached positions before its start, a
/// prompt's first chunk none). A spare slot (index `b` and up) is one no
/// decode row touches: a prompt is prefilled there while every row decodes.
///
/// Arguments after the parameters and the cache: the decode rows' tokens
/// and positions `[b]`, their temperatures and draw keys, then the chunk's
/// tokens `[t]` (the first `len` real), `len`, its slot, its start, and
/// whether its logits are wanted (1 for a prompt's last chunk, else 0).
/// Results: the sampled ids `[b]`, the caches, the decode rows' logits
/// `[b, V]` and the chunk's last real token's logits `[V]` (where the
/// head's kernel takes a count of live rows, zeros unless wanted).
///
/// Both write the same cache, the decode rows first: a chunk's slot below
/// `b` runs an idle decode row, which the engine points at the chunk's
/// first position so that the chunk's write replaces it.
pub fn decode_with_chunk(
    m: &LlamaShape,
    cfg: &GraphConfig,
    (b, spare): (i64, i64),
    window: i64,
    t: i64,
    name: &str,
) -> String {
    let capacity = cfg.capacity;
    assert!(
        0 < window && window <= capacity,
        "window {window} of capacity {capacity}"
    );
    assert!(
        0 < t && t <= capacity,
        "chunk of {t} tokens, capacity {capacity}"
    );
    let (hq, hkv, d) = (m.heads, m.kv_heads, m.head_dim);
    let mut f = FuncBuilder::new(name);
    let p = declare_params(&mut f, m, cfg);
    // With the exact kernels the decode rows and the chunk's rows take
    // different paths (up to 8 rows share each block in registers, more
    // multiply a dequantized panel, summing in another order), so each
    // group is multiplied on its own, exactly as in a plain decode step and
    // a chunk graph: a request's tokens do not depend on whether a step
    // carried someone's chunk. Without kernels all rows share one product,
    // and so do products whose kernels sum each row alike whatever rows
    // share the call (weights in panels, `emit::panels`, and the 8-bit
    // form's VNNI layout): `Weight::split_at` leaves those whole.
    let p = if cfg.kernels.is_portable() {
        p
    } else {
        p.split_rows_at(b)
    };
    let kv_ty = TensorType::new(&m.kv_shape(b + spare, capacity), cfg.kv_cache);
    let mut kv = f.arg(kv_ty, Some("tf.aliasing_output = 1 : i32".into()));
    let tokens = f.arg(TensorType::new(&[b], DType::I32), None);
    let pos = f.arg(TensorType::new(&[b], DType::I32), None);
    let draw = sample::declare_inputs(&mut f, b);
    let chunk = f.arg(TensorType::new(&[t], DType::I32), None);
    let len = f.arg(TensorType::new(&[], DType::I32), None);
    let slot = f.arg(TensorType::new(&[], DType::I32), None);
    let start = f.arg(TensorType::new(&[], DType::I32), None);
    let wanted = f.arg(TensorType::new(&[], DType::I32), None);
    // Rows past the decode rows and the chunk's `len` tokens are padding.
    let real_rows = {
        let decode_rows = scalar_i32(&mut f, b);
        f.add(&len, &decode_rows)
    };
    let p = live_rows_only(&mut f, cfg, p, &real_rows);
    // The head multiplies the chunk's row only for a prompt's last chunk:
    // a pass over the whole vocabulary's weights for one row, whose logits
    // nobody reads otherwise.
    let head_rows = {
        let decode_rows = scalar_i32(&mut f, b);
        f.add(&wanted, &decode_rows)
    };
    let p = head_live_rows_only(&mut f, cfg, p, &head_rows);

    f.comment("rows 0..b: the decode rows; rows b..b + t: the chunk");
    let ids = f.concatenate(&[tokens, chunk], 0);
    let mut x = embed_rows(&mut f, &p.embed, &ids);
    let zero = scalar_i32(&mut f, 0);
    let one = scalar_i32(&mut f, 1);
    let decode_cos = f.gather_rows(&p.cos, &pos);
    let decode_sin = f.gather_rows(&p.sin, &pos);
    let chunk_cos = f.dynamic_slice(&p.cos, &[start.clone(), zero.clone()], &[t, d / 2]);
    let chunk_sin = f.dynamic_slice(&p.sin, &[start.clone(), zero.clone()], &[t, d / 2]);
    let cos = f.concatenate(&[decode_cos, chunk_cos], 0);
    let sin = f.concatenate(&[decode_sin, chunk_sin], 0);
    let decode_att = DecodeAttention::new(&mut f, m, cfg, (b, spare), window, &pos);
    // The engine picks a window that holds every position before the
    // chunk's start (its slot's idle decode row, if it has one, sits there).
    let chunk_att = ChunkAttention::new(&mut f, m, cfg, t, window, &start, &slot, [&zero, &one]);
    // Where both kernels read the rows in place, each writes its keys and
    // values in its layer's call, as in a plain step and a chunk graph, the
    // decode rows first: a chunk's slot below `b` has an idle decode row
    // at the chunk's start, whose write the chunk's then replaces before
    // its attention reads the cache. (Slicing the rows apart and writing
    // the keys after the last layer cost a step carrying 16 tokens 585
    // dispatches more than a plain step.)
    let in_place = decode_att.in_place() && chunk_att.reads_rows_in_place();
    let decode_att = if in_place {
        decode_att.writing_in_layers()
    } else {
        decode_att
    };
    let mut decode_kv = Vec::new();
    let mut chunk_kv = Vec::new();

    for (l, w) in p.layers.iter().enumerate() {
        let heading = format!("layer {l}: projections for the decode rows and the chunk");
        x = layer(
            &mut f,
            m,
            l,
            &x,
            w,
            (&cos, &sin),
            &heading,
            in_place,
            None,
            |f, qkv| {
                if in_place {
                    let step = qkv.rows_part(0, b);
                    let od = decode_att.attend(f, l, &mut kv, &step, &mut decode_kv);
                    let chunk = qkv.rows_part(b, t);
                    let oc = chunk_att.attend(f, l, &mut kv, &chunk, &mut chunk_kv);
                    return f.concatenate(&[od, oc], 0);
                }
                let Qkv { q, k, v, .. } = qkv;
                let rows = |f: &mut FuncBuilder, x: &super::Value, heads: i64| {
                    let top = f.slice(x, &[0, 0, 0], &[b, heads, d]);
                    let bottom = f.slice(x, &[b, 0, 0], &[b + t, heads, d]);
                    (top, bottom)
                };
                let (qd, qc) = rows(f, &q, hq);
                let (kd, kc) = rows(f, &k, hkv);
                let (vd, vc) = rows(f, &v, hkv);
                // The chunk first: its kernel form writes the chunk's keys into
                // the chunk's slot, which no other decode row reads.
                let chunk = Qkv::apart(qc, kc, vc);
                let oc = chunk_att.attend(f, l, &mut kv, &chunk, &mut chunk_kv);
                let step = Qkv::apart(qd, kd, vd);
                let od = decode_att.attend(f, l, &mut kv, &step, &mut decode_kv);
                f.concatenate(&[od, oc], 0)
            },
        );
    }

    kv = decode_att.write(&mut f, m, kv, &decode_kv, &pos);
    if !in_place {
        kv = chunk_att.write(&mut f, m, kv, &chunk_kv);
    }

    f.comment("the head on the decode rows and the chunk's last real row, b + len - 1");
    let decode_rows = f.slice(&x, &[0, 0], &[b, m.hidden]);
    let rows_before = scalar_i32(&mut f, b);
    let last_index = f.add(&len, &rows_before);
    let last_index = f.sub(&last_index, &one);
    let last = f.dynamic_slice(&x, &[last_index, zero.clone()], &[1, m.hidden]);
    let h = f.concatenate(&[decode_rows, last], 0);
    let logits = head(&mut f, m, &p, &h);
    let decode_logits = f.slice(&logits, &[0, 0], &[b, m.vocab]);
    let chunk_logits = f.slice(&logits, &[b, 0], &[b + 1, m.vocab]);
    let chunk_logits = f.reshape(&chunk_logits, &[m.vocab]);
    let sampled = sample::gumbel_max(&mut f, &decode_logits, &draw);
    f.ret(&[sampled, kv, decode_logits, chunk_logits]);
    f.finish()
}

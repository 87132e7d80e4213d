//! The embedding rows of a graph's tokens, gathered from the table in the
//! layout the device holds it in (dense, panels, blocks or the VNNI layout),
//! so that a table shared with the output head is held once.

use super::linear::{Weight, dequantize};
use super::{BLOCK, Cmp, DType, FuncBuilder, Value};

/// The f32 embedding rows of `ids` [M]: a dense table's rows, or the block
/// rows gathered and only those dequantized.
pub(super) fn embed_rows(f: &mut FuncBuilder, table: &Weight, ids: &Value) -> Value {
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
    let group = crate::emit::vnni_layout::GROUP as i64;
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

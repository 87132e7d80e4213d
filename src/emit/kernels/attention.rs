//! Attention through the kernels: one call per layer for a decode step's
//! rows (reading the cache only below each row's position) or for a
//! prompt's chunk, and the chunk's keys and values written into the cache.

use super::exports::{EXPORTS, Source};
use super::*;

/// The most query heads per key/value head times head_dim the attention
/// kernel holds (`MAX_GD` in csrc/kernels/x86_64_attention.c).
const ATTENTION_MAX_GD: i64 = 2048;

/// Whether graphs with `kernels` call the decode attention kernel for heads
/// of `head_dim` with `group` query heads per key/value head.
pub fn takes_decode_attention(kernels: Kernels, group: i64, head_dim: i64) -> bool {
    !kernels.is_portable() && head_dim % 16 == 0 && group * head_dim <= ATTENTION_MAX_GD
}

/// One decode step's attention of layer `layer` ([`takes_decode_attention`]):
/// `q` [b, heads, d] (rotated), the caches `kv` [layers, 2, b * kv_heads,
/// capacity, d] (f32 or f16), the rows' own `k`, `v` [b, kv_heads, d] and positions `pos`
/// [b]; row i attends to its cached positions below `pos[i]` (and below
/// `window`) and to its own key. Returns the heads' outputs [b * kv_heads,
/// group, d] (query head h * group + j of row i at [i * kv_heads + h, j]).
///
/// With `writes` the call also writes row i's own key and value into the
/// caches at `pos[i]` of slot i (where a graph's scatter of every layer's
/// keys and values would write them; a position outside the caches is
/// skipped, as the scatter skips it), and `kv` becomes the written caches:
/// the call's second result, tied to the same buffer. Why: that scatter was
/// one of IREE's dispatches storing a float at a time, and feeding it took
/// two copies of the rows' keys and values a layer (docs/performance.md,
/// forty-sixth session).
#[allow(clippy::too_many_arguments)]
pub fn decode_attention(
    f: &mut FuncBuilder,
    step: StepRows,
    kv: &mut Value,
    pos: &Value,
    layer: i64,
    window: i64,
    writes: bool,
) -> Value {
    let (b, d) = (step.count(), step.q().shape()[2]);
    let (heads, hkv) = step.heads();
    let (slots, capacity) = (kv.shape()[2], kv.shape()[3]);
    let group = heads / hkv;
    // Row i's heads are the first cache slots; spare slots may follow.
    let rows = b * hkv;
    assert!(rows <= slots, "a cache slot per row and key/value head");
    assert_eq!(kv.shape()[4], d, "cache and queries share head_dim");
    // Slots a workgroup, one after the other (x86_64_attention.c).
    let per = balanced_units(rows, 1, host_threads());
    let export = match (kv.elem(), writes) {
        (DType::F32, false) => &EXPORTS[4],
        (DType::F16, false) => &EXPORTS[5],
        (DType::F32, true) => &EXPORTS[27],
        (DType::F16, true) => &EXPORTS[28],
        (other, _) => panic!("the attention kernel reads an f32 or f16 cache, not {other:?}"),
    };
    let ([q, k, v], [q_row, kv_row, q_at, k_at, v_at]) = step.layout();
    let operands = [q.clone(), kv.clone(), k.clone(), v.clone(), pos.clone()];
    let indices = [
        rows, layer, slots, hkv, group, capacity, window, d, q_row, kv_row, q_at, k_at, v_at, per,
    ];
    let out = TensorType::new(&[rows, group, d], DType::F32);
    if !writes {
        return f.dispatch_extern(&export.callee(), &[rows, per], &operands, &indices, out);
    }
    let (o, written) =
        f.dispatch_extern_tied(&export.callee(), &[rows, per], &operands, &indices, out, 1);
    *kv = written;
    o
}

/// Rows `first..first + count` of a layer's projected rows [N, heads + 2
/// kv_heads, d] (each row's rotated queries and keys, then its values),
/// which the attention kernels read in place: a decode step's rows, a
/// prompt's, or either part of a step that carries a prompt's chunk.
#[derive(Clone)]
pub struct RowsInPlace {
    pub tensor: Value,
    pub first: i64,
    pub count: i64,
}

impl RowsInPlace {
    /// Every row of `tensor`.
    pub fn all(tensor: Value) -> Self {
        let count = tensor.shape()[0];
        RowsInPlace {
            tensor,
            first: 0,
            count,
        }
    }

    /// `count` of these rows from the `first`-th on.
    pub fn part(&self, first: i64, count: i64) -> Self {
        assert!(
            0 <= first && 0 < count && first + count <= self.count,
            "rows {first}..{} of {}",
            first + count,
            self.count
        );
        RowsInPlace {
            tensor: self.tensor.clone(),
            first: self.first + first,
            count,
        }
    }
}

/// Where the attention kernels read the rows' (a decode step's or a
/// prompt's) rotated queries, keys and values.
#[derive(Clone, Copy)]
pub enum StepRows<'a> {
    /// `q` [b, heads, d], `k` and `v` [b, kv_heads, d], tensors of their own.
    Apart {
        q: &'a Value,
        k: &'a Value,
        v: &'a Value,
    },
    /// Rows of one tensor of each row's queries, keys and values, read in
    /// place: slicing them apart cost a step three copy dispatches a layer.
    Packed {
        rows: &'a RowsInPlace,
        kv_heads: i64,
    },
}

impl StepRows<'_> {
    /// A tensor whose first dimension is the rows (all of them, where only
    /// some are read) and whose last is head_dim.
    fn q(&self) -> &Value {
        match self {
            StepRows::Apart { q, .. } => q,
            StepRows::Packed { rows, .. } => &rows.tensor,
        }
    }

    /// The rows read.
    fn count(&self) -> i64 {
        match self {
            StepRows::Apart { q, .. } => q.shape()[0],
            StepRows::Packed { rows, .. } => rows.count,
        }
    }

    /// The tensors the kernels read queries, keys and values from, and
    /// where in them ([`ATTENTION_INDICES`]: q_row, kv_row, q_at, k_at,
    /// v_at).
    fn layout(&self) -> ([&Value; 3], [i64; 5]) {
        let (heads, hkv) = self.heads();
        match *self {
            StepRows::Apart { q, k, v } => {
                let d = q.shape()[2];
                ([q, k, v], [heads * d, hkv * d, 0, 0, 0])
            }
            StepRows::Packed { rows, .. } => {
                let t = &rows.tensor;
                let d = t.shape()[2];
                let row = t.shape()[1] * d;
                let at = rows.first * row;
                (
                    [t, t, t],
                    [row, row, at, at + heads * d, at + (heads + hkv) * d],
                )
            }
        }
    }

    /// Query heads and key/value heads.
    fn heads(&self) -> (i64, i64) {
        match *self {
            StepRows::Apart { q, k, .. } => (q.shape()[1], k.shape()[1]),
            StepRows::Packed { rows, kv_heads } => {
                (rows.tensor.shape()[1] - 2 * kv_heads, kv_heads)
            }
        }
    }
}

/// Lanes of the AVX-512 prompt attention's tiles (`PT_KEYS` and `VLEN` in
/// `csrc/kernels/x86_64_prompt_tiles.h`) and the largest head_dim it takes.
const PROMPT_TILE_LANES: i64 = 16;
const PROMPT_TILE_MAX_D: i64 = 128;

/// The attention of `t` prompt rows at positions `start..start + t` of
/// layer `layer` through the decode attention kernel's body
/// ([`takes_decode_attention`]): a whole prompt (`start` 0) or a chunk of
/// one. `rows`: the rotated queries [t, heads, d] and the rows' own keys
/// and values [t, kv_heads, d] in f32 ([`StepRows`]); the caches `kv`
/// [layers, 2, slots * kv_heads, capacity, d] (f32 or f16) with the slot's
/// keys and values already written at positions 0..start + t of cache slot
/// `slot` ([`prompt_kv_write`]; `slot` and `start` i32 scalars). Row i
/// attends to positions 0..=start + i. Returns the heads' outputs [t *
/// kv_heads, group, d], as [`decode_attention`].
pub fn prompt_attention(
    f: &mut FuncBuilder,
    rows: StepRows,
    kv: &Value,
    slot: &Value,
    start: &Value,
    layer: i64,
) -> Value {
    let (t, d) = (rows.count(), rows.q().shape()[2]);
    let (heads, hkv) = rows.heads();
    let (slots, capacity) = (kv.shape()[2], kv.shape()[3]);
    let group = heads / hkv;
    assert_eq!(kv.shape()[4], d, "cache and queries share head_dim");
    assert!(t <= capacity, "a prompt of {t} in a cache of {capacity}");
    let units = t * hkv;
    // The AVX-512 build takes the rows in tiles of 16 query heads' lanes
    // (x86_64_prompt_tiles.h, within its bounds); a workgroup is then whole
    // tiles of every key/value head. Otherwise units one at a time.
    let tiles = Source::Attention.object() == Object::Avx512Attention
        && group <= PROMPT_TILE_LANES
        && d <= PROMPT_TILE_MAX_D
        && d % PROMPT_TILE_LANES == 0;
    let per = if tiles {
        prompt_tile_rows(t, PROMPT_TILE_LANES / group, host_threads()) * hkv
    } else {
        balanced_units(units, 1, host_threads())
    };
    let export = match kv.elem() {
        DType::F32 => &EXPORTS[11],
        DType::F16 => &EXPORTS[12],
        other => panic!("the attention kernel reads an f32 or f16 cache, not {other:?}"),
    };
    let at = slot_and_start(f, slot, start);
    let ([q, k, v], [q_row, kv_row, q_at, k_at, v_at]) = rows.layout();
    f.dispatch_extern(
        &export.callee(),
        &[units, per],
        &[q.clone(), kv.clone(), k.clone(), v.clone(), at],
        &[
            units, layer, slots, hkv, group, capacity, capacity, d, q_row, kv_row, q_at, k_at,
            v_at, per,
        ],
        TensorType::new(&[units, group, d], DType::F32),
    )
}

/// Writes the keys and values of a prompt's (or a chunk's) `t` rows into
/// the caches `kv` (as [`prompt_attention`] takes them) at positions
/// `start..start + t` of cache slot `slot` of layer `layer`, before its
/// attention reads them there: `rows`, `t` of the layer's rows of rotated
/// queries and keys and values, read in place ([`RowsInPlace`]). The slot
/// and start are clamped as StableHLO's `dynamic_update_slice` clamps them.
/// Why: the same write in IREE's dispatches took seven of them a layer
/// (slices, transposes and updates).
pub fn prompt_kv_write(
    f: &mut FuncBuilder,
    rows: &RowsInPlace,
    kv_heads: i64,
    kv: &mut Value,
    slot: &Value,
    start: &Value,
    layer: i64,
) {
    let (t, d) = (rows.count, rows.tensor.shape()[2]);
    let (slots, capacity) = (kv.shape()[2], kv.shape()[3]);
    assert_eq!(kv.shape()[4], d, "cache and rows share head_dim");
    assert!(t <= capacity, "a prompt of {t} in a cache of {capacity}");
    let export = match kv.elem() {
        DType::F32 => &EXPORTS[29],
        DType::F16 => &EXPORTS[30],
        other => panic!("the cache is f32 or f16, not {other:?}"),
    };
    let (_, [_, kv_row, _, k_at, v_at]) = StepRows::Packed { rows, kv_heads }.layout();
    let units = t * kv_heads;
    let per = balanced_units(units, 1, host_threads());
    let at = slot_and_start(f, slot, start);
    *kv = f.dispatch_extern_in_place(
        &export.callee(),
        &[units, per],
        &[rows.tensor.clone(), kv.clone(), at],
        &[
            units, layer, slots, kv_heads, capacity, d, kv_row, k_at, v_at, per,
        ],
        1,
    );
}

/// A prompt's slot and first position (i32 scalars) as the attention
/// kernels' i32 [2] operand.
fn slot_and_start(f: &mut FuncBuilder, slot: &Value, start: &Value) -> Value {
    let slot = f.reshape(slot, &[1]);
    let start = f.reshape(start, &[1]);
    f.concatenate(&[slot, start], 0)
}

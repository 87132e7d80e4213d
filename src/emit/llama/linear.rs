//! `x @ w^T` in every form the graphs write it: a weight as the graph holds
//! it ([`Weight`]: dense, in panels or in blocks, and how its rows are
//! multiplied), the hand-written kernels or IREE's own forms, with an RMS
//! norm and a residual fused in where a kernel takes them.

use super::{
    BLOCK, BlockFormat, DType, FuncBuilder, Kernels, NarrowRows, RmsNorm, Value, WideRows, kernels,
    rms_norm,
};

/// How a graph multiplies rows by a weight (see `linear`).
#[derive(Clone)]
pub(super) struct Rows {
    /// Whether a few rows call a hand-written kernel.
    pub(super) kernels: Kernels,
    /// Rows before this index are multiplied apart from the rest, exactly as
    /// a graph of that many rows would (the decode rows of a decode step
    /// that carries a chunk, so that they get the same arithmetic as a plain
    /// decode step).
    pub(super) split: Option<i64>,
    /// How a product of at most 8 rows is written.
    pub(super) narrow: NarrowRows,
    /// How a product of more rows is written.
    pub(super) wide: WideRows,
    /// How many leading rows are real, where the graph knows it only when
    /// called (a chunk padded to its graph's size: its decode rows and real
    /// tokens): an i32 [1] that the panel kernels take, computing only those
    /// rows and writing zeros for the rest. `None`: every row is real.
    pub(super) live: Option<Value>,
}

/// A weight matrix as the graph receives it.
#[derive(Clone)]
pub(super) enum Weight {
    /// Dense values (a bf16 weight times one row may take a kernel).
    Dense(Value, Rows),
    /// A dense bf16 matrix laid out in panels ([`crate::emit::panels`]),
    /// [n/16, k/2, 16, 2]: every product takes the panel kernel.
    Panels(Value, Rows),
    /// Values `q` [rows, cols/32, 32 or 16 (packed nibbles)] i8, scales `d`
    /// [rows, cols/32] f16 and optional offsets `m` like `d`, and the same
    /// values `dense` where a graph reads them (see `keeps_dense_copy`).
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
    /// where which rows share a product would change their sums: a weight
    /// whose products sum rows alike only where its decode rows take the
    /// norm into their product and the other rows do not
    /// ([`panels_norm_fused`]).
    pub(super) fn split_at(mut self, split: i64) -> Self {
        if self.sums_rows_alike() && !panels_norm_fused(&self, split) {
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
    pub(super) fn with_live(self, live: &Value) -> Self {
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
    pub(super) fn dense(self) -> Value {
        match self {
            Weight::Dense(v, _) => v,
            Weight::Panels(..) | Weight::Blocks { .. } => {
                panic!("only matrices are block-quantized or in panels")
            }
        }
    }
}

/// Matrices that multiply the same rows: stacked by rows into one (one
/// product, its result sliced), or apart (see `graph_tensors`).
#[derive(Clone)]
pub(super) enum Stacked {
    One(Box<Weight>),
    Parts(Vec<Weight>),
}

impl Stacked {
    pub(super) fn split_at(self, split: i64) -> Self {
        match self {
            Stacked::One(w) => Stacked::One(Box::new(w.split_at(split))),
            Stacked::Parts(ws) => {
                Stacked::Parts(ws.into_iter().map(|w| w.split_at(split)).collect())
            }
        }
    }

    pub(super) fn with_live(self, live: &Value) -> Self {
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
    pub(super) fn apply_normed(
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
        NarrowRows::CudaKernel if crate::emit::cuda_rows::takes(x, w) => {
            return crate::emit::cuda_rows::rows_bf16(f, x, w);
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
/// dispatches and the add's one (per layer: two norms, two residuals), and
/// so do dense bf16 weights' decode rows, in rows or in panels, where their
/// fused kernel takes them (`dense_fused`); other products have them as
/// operations of their own.
pub(super) fn linear_fused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    w: &Weight,
    residual: Option<&Value>,
) -> Value {
    if let Some(y) = dense_fused(f, x, norm, w, residual) {
        return y;
    }
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
    let n = x.shape()[0];
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
            let (top, bottom) = rows_split_at(f, x, split);
            let (r_top, r_bottom) = residual_parts(f, residual, split);
            let live = bottom_live(f, rows, split);
            let top = product(f, &top, r_top.as_ref(), None);
            let bottom = product(f, &bottom, r_bottom.as_ref(), live.as_ref());
            f.concatenate(&[top, bottom], 0)
        }
        _ => product(f, x, residual, rows.live.as_ref()),
    }
}

/// Whether a decode step's `rows` rows take the norm before a product of
/// `w` into the exact panel kernel ([`kernels::bf16_panels_fused`]). The
/// kernel normalizes in another order than the graph's RMSNorm, so a step
/// carrying a chunk multiplies its decode rows apart from the chunk's
/// (`Rows::split`) to give them a plain step's bits.
fn panels_norm_fused(w: &Weight, rows: i64) -> bool {
    match w {
        Weight::Panels(v, form) => {
            kernels::takes_bf16_panels_fused(form.kernels, rows, v.shape()[1] * 2, true)
        }
        _ => false,
    }
}

/// [`linear_fused`] for a dense bf16 weight in one dispatch of
/// [`kernels::bf16_rows_fused`] where it takes the rows (a decode step's;
/// in panels, `panels_fused`), else `None`. With rows split off
/// (`Rows::split`: a step carrying a chunk), the split-off decode rows take
/// it as a plain step's do and the chunk's rows the unfused path.
fn dense_fused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    w: &Weight,
    residual: Option<&Value>,
) -> Option<Value> {
    if let Weight::Panels(..) = w {
        return panels_fused(f, x, norm, w, residual);
    }
    let Weight::Dense(wv, rows) = w else {
        return None;
    };
    if norm.is_none() && residual.is_none() {
        return None;
    }
    let n = x.shape()[0];
    let split = rows.split.filter(|&s| 0 < s && s < n);
    // A chunk's padded rows (live, no split) keep the unfused form.
    if split.is_none() && rows.live.is_some() {
        return None;
    }
    if !kernels::takes_bf16_rows_fused(rows.kernels, split.unwrap_or(n), wv) {
        return None;
    }
    let product = |f: &mut FuncBuilder, x: &Value, r: Option<&Value>| {
        kernels::bf16_rows_fused(f, x, norm, wv, r)
    };
    Some(match split {
        None => product(f, x, residual),
        Some(s) => decode_rows_apart(f, x, norm, w, residual, s, product),
    })
}

/// `residual + linear(rms_norm(x), w)` for a step carrying a chunk: the
/// rows before `split` (its decode rows) through `fused`, as a plain
/// step's rows, the chunk's rows through the unfused path.
fn decode_rows_apart(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    w: &Weight,
    residual: Option<&Value>,
    split: i64,
    fused: impl FnOnce(&mut FuncBuilder, &Value, Option<&Value>) -> Value,
) -> Value {
    let (top, bottom) = rows_split_at(f, x, split);
    let (r_top, r_bottom) = residual_parts(f, residual, split);
    let live = bottom_live(f, &w.rows(), split);
    let top = fused(f, &top, r_top.as_ref());
    let bottom = unfused(
        f,
        &bottom,
        norm,
        &w.clone().live_as(live),
        r_bottom.as_ref(),
        linear_rows,
    );
    f.concatenate(&[top, bottom], 0)
}

/// [`dense_fused`] for a weight in panels, through
/// [`kernels::bf16_panels_fused`]. A step carrying a chunk multiplies its
/// decode rows apart only where they take the norm (`panels_norm_fused`);
/// a residual alone is added as the graph adds it, so there all rows share
/// one unfused product.
fn panels_fused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    w: &Weight,
    residual: Option<&Value>,
) -> Option<Value> {
    let Weight::Panels(wv, rows) = w else {
        return None;
    };
    if norm.is_none() && residual.is_none() {
        return None;
    }
    let (n, k) = (x.shape()[0], x.shape()[1]);
    let product = |f: &mut FuncBuilder, x: &Value, r: Option<&Value>| {
        kernels::bf16_panels_fused(f, x, norm, wv, r)
    };
    match rows.split.filter(|&s| 0 < s && s < n) {
        None if rows.live.is_none()
            && kernels::takes_bf16_panels_fused(rows.kernels, n, k, norm.is_some()) =>
        {
            Some(product(f, x, residual))
        }
        Some(s) if norm.is_some() && panels_norm_fused(w, s) => {
            Some(decode_rows_apart(f, x, norm, w, residual, s, product))
        }
        _ => None,
    }
}

/// `silu(gate(h)) * up(h)` for `h = rms_norm(x)` and a stacked gate and
/// up matrix in panels, where a decode step's rows take the norm into the
/// exact gated kernel ([`kernels::bf16_panels_silu_fused`]; a step carrying
/// a chunk: its decode rows, the chunk's through the graph's norm), else
/// `None`.
pub(super) fn gated_panels_fused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: &RmsNorm,
    w: &Weight,
) -> Option<Value> {
    let Weight::Panels(wv, rows) = w else {
        return None;
    };
    let n = x.shape()[0];
    match rows.split.filter(|&s| 0 < s && s < n) {
        None if rows.live.is_none() && panels_norm_fused(w, n) => {
            Some(kernels::bf16_panels_silu_fused(f, x, norm, wv))
        }
        Some(s) if panels_norm_fused(w, s) => {
            let (top, bottom) = rows_split_at(f, x, s);
            let live = bottom_live(f, rows, s);
            let top = kernels::bf16_panels_silu_fused(f, &top, norm, wv);
            let h = rms_norm(f, &bottom, &norm.weight, norm.eps);
            let bottom = kernels::bf16_panels_silu(f, &h, wv, live.as_ref());
            Some(f.concatenate(&[top, bottom], 0))
        }
        _ => None,
    }
}

/// A residual's rows before `split` and from it on, for products that
/// split their rows there (`Rows::split`); `None`s without one.
fn residual_parts(
    f: &mut FuncBuilder,
    residual: Option<&Value>,
    split: i64,
) -> (Option<Value>, Option<Value>) {
    let Some(r) = residual else {
        return (None, None);
    };
    let (top, bottom) = rows_split_at(f, r, split);
    (Some(top), Some(bottom))
}

/// The rows of `v` [n, width] before `split` and from it on.
fn rows_split_at(f: &mut FuncBuilder, v: &Value, split: i64) -> (Value, Value) {
    let (n, width) = (v.shape()[0], v.shape()[1]);
    let top = f.slice(v, &[0, 0], &[split, width]);
    let bottom = f.slice(v, &[split, 0], &[n, width]);
    (top, bottom)
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
    let n = x.shape()[0];
    match w.rows().split {
        Some(split) if 0 < split && split < n && !w.sums_rows_alike() => {
            let (top, bottom) = rows_split_at(f, x, split);
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
pub(super) fn dequantize(
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

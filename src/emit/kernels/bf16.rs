//! Products of dense bf16 weights: one row, several rows, and on AVX-512
//! CPUs the panels of 16 weight rows, exact or with bf16 activations, the
//! SiLU gate fused where the gate and up products share x.

use super::blocks::{norm_operand, residual_operand};
use super::exports::{EXPORTS, Export};
use super::*;

/// `x . W^T` [1, n] for one row `x` [1, k] and a dense bf16 weight W
/// [n, k] (k a multiple of 16, see [`takes_bf16`]). The AVX2 build widens
/// W's values in pairs, so x goes to it in that order ([`pairs_split`]);
/// the AVX-512 build takes x as it is.
pub fn bf16_matvec(f: &mut FuncBuilder, x: &Value, w: &Value) -> Value {
    let (n, k) = (w.shape()[0], w.shape()[1]);
    assert!(
        takes_bf16(x, w),
        "bf16 kernel on x {:?}, weight {:?}",
        x.shape(),
        w.shape()
    );
    let x = if Object::exact_for_host() == Object::Avx2 {
        pairs_split(f, x, 16)
    } else {
        x.clone()
    };
    let per = rows_per_workgroup(1, n, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &EXPORTS[1].callee(),
        &[n, per],
        &[x, w.clone()],
        &[n, k, per],
        TensorType::new(&[1, n], DType::F32),
    )
}

/// Whether graphs with `kernels` keep dense bf16 matrices in panels
/// ([`crate::emit::panels`]): the exact kernels and the 8-bit form (whose dense
/// products are the exact kernels') in the AVX-512 build, where the panel
/// kernel replaces both the one-row and the several-row product, and the
/// bf16-activation form (AVX512-BF16 CPUs only), whose every product of a
/// dense bf16 weight takes its own panel kernel. The AVX2 build reads rows.
pub fn packs_bf16_panels(kernels: Kernels) -> bool {
    match kernels {
        Kernels::X86_64 | Kernels::X86_64Q8 => Object::exact_for_host() == Object::Avx512,
        Kernels::X86_64Bf16 => true,
        Kernels::Portable => false,
    }
}

/// `x . W^T` [rows, n] for rows `x` [rows, k] (any number) and a dense bf16
/// weight W [n, k] laid out in panels, `w` [n/16, k/2, 16, 2]
/// ([`crate::emit::panels`]), exactly, in the AVX-512 build's kernel.
///
/// With `live` (an i32 [1], see [`live_operands`]) only that many leading
/// rows are multiplied and the rest of the result is zero.
pub fn bf16_panels(f: &mut FuncBuilder, x: &Value, w: &Value, live: Option<&Value>) -> Value {
    let export = if live.is_some() {
        &EXPORTS[15]
    } else {
        &EXPORTS[9]
    };
    panels_product(f, export, x.clone(), w, live)
}

/// The same product with the rows of `x` rounded to bf16 here, through the
/// AVX512-BF16 panel kernel ([`Kernels::X86_64Bf16`]).
pub fn bf16_panels_bf16(f: &mut FuncBuilder, x: &Value, w: &Value, live: Option<&Value>) -> Value {
    let xb = f.convert(x, DType::BF16);
    if takes_tall(&xb) {
        let export = if live.is_some() {
            &EXPORTS[20]
        } else {
            &EXPORTS[19]
        };
        let xt = interleave_pairs(f, &xb);
        return panels_product_of(f, export, xt, xb.shape(), w, live);
    }
    let export = if live.is_some() {
        &EXPORTS[16]
    } else {
        &EXPORTS[10]
    };
    panels_product(f, export, xb, w, live)
}

/// The most rows of x the bf16 panel products take through their tall
/// tiles (csrc/kernels/x86_64_avx512_bf16_tall.h: one panel by up to 24
/// rows, each weight vector meeting every row as it streams in). A B=8
/// decode step carrying a chunk of 8 to 32 prompt tokens has 16 to 40 rows;
/// a prompt's larger chunks stay with the 8-row tiles, which keep x's span
/// in L1.
const TALL_ROWS: i64 = 48;

/// Whether a bf16 panel product of rows `x` [rows, k] goes through the tall
/// tiles: more rows than one 8-row tile, up to [`TALL_ROWS`], on CPUs
/// without AMX (its tiles take x as it is, 16 rows at a time, and meet each
/// weight tile with 16 or 32 rows at once already).
fn takes_tall(x: &Value) -> bool {
    (9..=TALL_ROWS).contains(&x.shape()[0]) && Object::bf16_for_host() != Object::AmxBf16
}

/// `x` [rows, k] bf16 as the tall tiles read it: [k/2, rows, 2], the rows'
/// pairs (x[r, 2j], x[r, 2j + 1]) for one j side by side.
fn interleave_pairs(f: &mut FuncBuilder, x: &Value) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    assert!(k % 2 == 0, "pairs of k: {k}");
    let pairs = f.reshape(x, &[rows, k / 2, 2]);
    f.transpose(&pairs, &[1, 0, 2])
}

/// The MLP's activation `silu(x . Wg^T) * (x . Wu^T)` [rows, m] in bf16
/// for rows `x` [rows, k] rounded to bf16 here and the stacked gate and up
/// matrix `w` in panels (gate rows 0..m, up rows m..2m; m a multiple of
/// 16), in one pass of the AVX512-BF16 panel kernel
/// ([`Kernels::X86_64Bf16`]): the two f32 products are never written out,
/// and the down projection takes the bf16 values as they are.
pub fn bf16_panels_silu_bf16(
    f: &mut FuncBuilder,
    x: &Value,
    w: &Value,
    live: Option<&Value>,
) -> Value {
    let xb = f.convert(x, DType::BF16);
    if takes_tall(&xb) {
        let export = if live.is_some() {
            &EXPORTS[22]
        } else {
            &EXPORTS[21]
        };
        let xt = interleave_pairs(f, &xb);
        return gated_product_of(f, export, xt, xb.shape(), w, DType::BF16, live);
    }
    let export = if live.is_some() {
        &EXPORTS[17]
    } else {
        &EXPORTS[13]
    };
    gated_product(f, export, xb, w, DType::BF16, live)
}

/// The same activation exactly, in f32, through the exact panel kernel
/// (the AVX-512 build's [`Kernels::X86_64`] and [`Kernels::X86_64Q8`]).
pub fn bf16_panels_silu(f: &mut FuncBuilder, x: &Value, w: &Value, live: Option<&Value>) -> Value {
    let export = if live.is_some() {
        &EXPORTS[18]
    } else {
        &EXPORTS[14]
    };
    gated_product(f, export, x.clone(), w, DType::F32, live)
}

/// A panel kernel's operands: `x`, `w`, then the live rows where given (an
/// i32 [1]: the rows of x that are real; the kernel computes only those).
fn live_operands(x: Value, w: &Value, live: Option<&Value>) -> Vec<Value> {
    let mut ops = vec![x, w.clone()];
    if let Some(live) = live {
        assert!(
            live.shape() == [1] && live.elem() == DType::I32,
            "live rows as an i32 [1], not {:?} {:?}",
            live.shape(),
            live.elem()
        );
        ops.push(live.clone());
    }
    ops
}

/// The activation through the gated panel kernel `export`, which takes x
/// as given and writes `out` values.
fn gated_product(
    f: &mut FuncBuilder,
    export: &Export,
    x: Value,
    w: &Value,
    out: DType,
    live: Option<&Value>,
) -> Value {
    let shape = x.shape().to_vec();
    gated_product_of(f, export, x, &shape, w, out, live)
}

/// [`gated_product`] of x laid out as the export reads it, `shape` its
/// [rows, k].
fn gated_product_of(
    f: &mut FuncBuilder,
    export: &Export,
    x: Value,
    shape: &[i64],
    w: &Value,
    out: DType,
    live: Option<&Value>,
) -> Value {
    let panel = crate::emit::panels::PANEL as i64;
    let (rows, k) = (shape[0], shape[1]);
    let m = w.shape()[0] * panel / 2;
    assert!(
        w.elem() == DType::BF16 && w.shape().len() == 4 && w.shape()[1] * 2 == k && m % panel == 0,
        "gated bf16 panels kernel on x {shape:?}, weight {:?}",
        w.shape()
    );
    let per = rows_per_workgroup(rows, m, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &export.callee(),
        &[m, per],
        &live_operands(x, w, live),
        &[rows, m, k, per],
        TensorType::new(&[rows, m], out),
    )
}

/// `x . W^T` through a panel kernel `export`, which takes x as given.
fn panels_product(
    f: &mut FuncBuilder,
    export: &Export,
    x: Value,
    w: &Value,
    live: Option<&Value>,
) -> Value {
    let shape = x.shape().to_vec();
    panels_product_of(f, export, x, &shape, w, live)
}

/// [`panels_product`] of x laid out as the export reads it, `shape` its
/// [rows, k].
fn panels_product_of(
    f: &mut FuncBuilder,
    export: &Export,
    x: Value,
    shape: &[i64],
    w: &Value,
    live: Option<&Value>,
) -> Value {
    let panel = crate::emit::panels::PANEL as i64;
    let (rows, k) = (shape[0], shape[1]);
    let n = w.shape()[0] * panel;
    assert!(
        w.elem() == DType::BF16 && w.shape().len() == 4 && w.shape()[1] * 2 == k,
        "bf16 panels kernel on x {shape:?}, weight {:?}",
        w.shape()
    );
    // Whole panels per workgroup: the unit is a multiple of the panel.
    const _: () = assert!(ROWS_PER_WORKGROUP % crate::emit::panels::PANEL as i64 == 0);
    let per = rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &export.callee(),
        &[n, per],
        &live_operands(x, w, live),
        &[rows, n, k, per],
        TensorType::new(&[rows, n], DType::F32),
    )
}

/// `x . W^T` [rows, n] for rows `x` [rows, k] rounded to bf16 here and a
/// dense bf16 weight W [n, k], through the AVX512-BF16 kernel
/// ([`Kernels::X86_64Bf16`]).
pub fn bf16_matmul(f: &mut FuncBuilder, x: &Value, w: &Value) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let n = w.shape()[0];
    assert!(
        w.elem() == DType::BF16 && w.shape()[1] == k,
        "bf16 kernel on x {:?}, weight {:?} {:?}",
        x.shape(),
        w.shape(),
        w.elem()
    );
    let xb = f.convert(x, DType::BF16);
    let per = rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &EXPORTS[2].callee(),
        &[n, per],
        &[xb, w.clone()],
        &[rows, n, k, per],
        TensorType::new(&[rows, n], DType::F32),
    )
}

/// Whether the bf16 kernel takes `x` [rows, k] times `w` [n, k]: one row,
/// bf16 weights, k in whole pairs of 8 ([`pairs_split`]). More rows go to
/// [`bf16_rows`] where it takes them, else to IREE's own code.
pub fn takes_bf16(x: &Value, w: &Value) -> bool {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    w.elem() == DType::BF16 && rows == 1 && k % 16 == 0 && w.shape()[1] == k
}

/// Whether [`bf16_rows`] takes `x` [rows, k] times `w` [n, k]: two rows or
/// more, bf16 weights, k in whole groups of 32. On the 1B preset (Zen 1,
/// docs/performance.md) the AVX2 build ran B=2 and B=4 steps 1.4x, B=8
/// steps 1.3x and prompts of 16 and 256 tokens 1.5x and 1.7x faster than
/// IREE 3.13's code; the AVX-512 build's figures are there too.
pub fn takes_bf16_rows(x: &Value, w: &Value) -> bool {
    rows_kernel_takes(x.shape()[0], x.shape()[1], w)
}

/// [`takes_bf16_rows`] for `rows` rows of `k` values.
fn rows_kernel_takes(rows: i64, k: i64, w: &Value) -> bool {
    w.elem() == DType::BF16 && rows >= 2 && k % 32 == 0 && w.shape()[1] == k
}

/// `x . W^T` [rows, n] for rows `x` [rows, k] and a dense bf16 weight W
/// [n, k] ([`takes_bf16_rows`]), exactly: `x86_64_bf16_rows.h` widens W's
/// values in pairs, so x goes to it in that order ([`pairs_split`]).
pub fn bf16_rows(f: &mut FuncBuilder, x: &Value, w: &Value) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let n = w.shape()[0];
    assert!(
        takes_bf16_rows(x, w),
        "bf16 rows kernel on x {:?}, weight {:?}",
        x.shape(),
        w.shape()
    );
    let x = pairs_split(f, x, pairs_group());
    let per = rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1);
    f.dispatch_extern(
        &EXPORTS[8].callee(),
        &[n, per],
        &[x, w.clone()],
        &[rows, n, k, per],
        TensorType::new(&[rows, n], DType::F32),
    )
}

/// The most values of x (rows times k) [`bf16_rows_fused`] takes
/// (`FUSED_ROWS_VALUES` in csrc/kernels/x86_64_bf16_rows.h: each workgroup
/// holds the rows, normalized and reordered, on its worker's stack).
const FUSED_ROWS_VALUES: i64 = 12288;

/// Whether [`bf16_rows_fused`] takes `rows` rows of x times `w` [n, k]
/// (x has k columns): as [`bf16_rows`] does, in the exact form, for a
/// decode step's rows (at most 8; prompts keep the unfused form) fitting a
/// workgroup's stack (8 rows up to k = 1536). By the count, so that a
/// caller splitting rows off asks before it slices them.
pub fn takes_bf16_rows_fused(kernels: Kernels, rows: i64, w: &Value) -> bool {
    let k = w.shape()[1];
    kernels == Kernels::X86_64
        && rows_kernel_takes(rows, k, w)
        && rows <= 8
        && rows * k <= FUSED_ROWS_VALUES
}

/// `residual + rms_norm(x) . W^T`, either part optional, for a few rows and
/// a dense bf16 W in one dispatch ([`takes_bf16_rows_fused`]), where the
/// unfused form takes three or four: the same products as [`bf16_rows`],
/// the norm summed in another order than the graph's RMSNorm (within f32
/// rounding of it, as [`blocks_matmul_fused`] sums it) and the residual
/// added as the graph adds it. x goes in its own order: each workgroup
/// reorders its copy.
pub fn bf16_rows_fused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    w: &Value,
    residual: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let n = w.shape()[0];
    assert!(
        k == w.shape()[1] && takes_bf16_rows_fused(Kernels::X86_64, rows, w),
        "fused bf16 rows kernel on x {:?}, weight {:?}",
        x.shape(),
        w.shape()
    );
    // Every workgroup prepares all of x, so one a thread (as the 8-bit
    // form's rows kernel): SmolLM2's gate and up product in 96 workgroups
    // made its B=8 step slower than the unfused one.
    let per = rows_per_thread(n, ROWS_PER_WORKGROUP, host_threads());
    fused_product(f, &EXPORTS[31], x, norm, w, residual, n, per)
}

/// A fused product's dispatch of `export`, whose operands are x, the
/// norm's weight, w and the residual, and whose indices are rows, n, k,
/// the norm's epsilon and whether there are a norm and a residual.
#[allow(clippy::too_many_arguments)]
fn fused_product(
    f: &mut FuncBuilder,
    export: &Export,
    x: &Value,
    norm: Option<&RmsNorm>,
    w: &Value,
    residual: Option<&Value>,
    n: i64,
    per: i64,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let (res, has_res) = residual_operand(x, residual, n);
    let (weight, eps, has_norm) = norm_operand(f, x, norm);
    f.dispatch_extern(
        &export.callee(),
        &[n, per],
        &[x.clone(), weight, w.clone(), res],
        &[rows, n, k, eps, has_norm, has_res, per],
        TensorType::new(&[rows, n], DType::F32),
    )
}

/// The most values of x (rows times k) the fused panel products normalize
/// (`FUSED_PANELS_VALUES` in csrc/kernels/x86_64_avx512_panels.h: each
/// workgroup holds the normalized rows on its worker's stack).
const FUSED_PANELS_VALUES: i64 = 12288;

/// Whether [`bf16_panels_fused`] (and, with a norm,
/// [`bf16_panels_silu_fused`]) take `rows` rows of `k` values: the exact
/// form in the AVX-512 build (which keeps dense bf16 weights in panels), a
/// decode step's rows (at most 8; prompts keep the unfused form) and, with
/// a norm, rows that fit a workgroup's stack (8 rows up to k = 1536, 4 up
/// to 3072). By the count, so that a caller splitting rows off asks before
/// it slices them.
pub fn takes_bf16_panels_fused(kernels: Kernels, rows: i64, k: i64, norm: bool) -> bool {
    kernels == Kernels::X86_64
        && packs_bf16_panels(kernels)
        && rows <= 8
        && k % 32 == 0
        && (!norm || rows * k <= FUSED_PANELS_VALUES)
}

/// `residual + rms_norm(x) . W^T`, either part optional, for a decode
/// step's rows and a dense bf16 W in panels, in one dispatch
/// ([`takes_bf16_panels_fused`]): the same products as [`bf16_panels`], the
/// norm summed as [`bf16_rows_fused`] sums it, the residual added as the
/// graph adds it.
pub fn bf16_panels_fused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    w: &Value,
    residual: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let n = w.shape()[0] * crate::emit::panels::PANEL as i64;
    assert!(
        w.elem() == DType::BF16
            && w.shape()[1] * 2 == k
            && takes_bf16_panels_fused(Kernels::X86_64, rows, k, norm.is_some()),
        "fused bf16 panels kernel on x {:?}, weight {:?}",
        x.shape(),
        w.shape()
    );
    let per = fused_panels_per(rows, n, norm.is_some());
    fused_product(f, &EXPORTS[32], x, norm, w, residual, n, per)
}

/// `silu(gate(h)) * up(h)` for `h = rms_norm(x)`, as [`bf16_panels_silu`]
/// over rows the kernel normalizes first (a decode step's,
/// [`takes_bf16_panels_fused`] with a norm), in one dispatch.
pub fn bf16_panels_silu_fused(f: &mut FuncBuilder, x: &Value, norm: &RmsNorm, w: &Value) -> Value {
    let panel = crate::emit::panels::PANEL as i64;
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let m = w.shape()[0] * panel / 2;
    assert!(
        w.elem() == DType::BF16
            && w.shape()[1] * 2 == k
            && m % panel == 0
            && takes_bf16_panels_fused(Kernels::X86_64, rows, k, true),
        "fused gated bf16 panels kernel on x {:?}, weight {:?}",
        x.shape(),
        w.shape()
    );
    let (weight, eps, _) = norm_operand(f, x, Some(norm));
    let per = fused_panels_per(rows, m, true);
    f.dispatch_extern(
        &EXPORTS[33].callee(),
        &[m, per],
        &[x.clone(), weight, w.clone()],
        &[rows, m, k, eps, per],
        TensorType::new(&[rows, m], DType::F32),
    )
}

/// Weight rows per workgroup of a fused panel product of `rows` rows of x
/// over `n` weight rows: one workgroup a thread where each normalizes all
/// of x (an earlier version normalizing in each of the plain product's
/// balanced workgroups made the 1B preset's B=8 step slower,
/// docs/performance.md), else the plain product's.
fn fused_panels_per(rows: i64, n: i64, has_norm: bool) -> i64 {
    if has_norm {
        rows_per_thread(n, ROWS_PER_WORKGROUP, host_threads())
    } else {
        rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1)
    }
}

/// Values of x [`bf16_rows`] splits into even and odd halves: a register
/// of weights, 16 of them in the AVX2 build and 32 in the AVX-512 one.
fn pairs_group() -> i64 {
    if Object::exact_for_host() == Object::Avx512 {
        32
    } else {
        16
    }
}

/// `x` [rows, k] (k a multiple of `group`) with every `group` values of a
/// row reordered: the half at even positions, then the half at odd ones,
/// the order in which the bf16 kernels meet them (a register of 32-bit
/// lanes of weights holds the pairs, widened by a shift and by a mask). A
/// permutation of the product's terms, so the sums are the same products
/// in another order. IREE fuses it into the norms and the SiLU product that
/// make most x's; the attention's output, a kernel's, takes a transpose of
/// its own (the 1B preset's B=8 step compiled to 282 dispatches, 200
/// before, all of it inside the step times of docs/performance.md).
fn pairs_split(f: &mut FuncBuilder, x: &Value, group: i64) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let pairs = f.reshape(x, &[rows, k / group, group / 2, 2]);
    let split = f.transpose(&pairs, &[0, 1, 3, 2]);
    f.reshape(&split, &[rows, k])
}

//! Products of block weights (Q8_0, Q4_0, Q4_1): the exact kernel's, with
//! the norm and residual fused where a single row allows, and the 8-bit
//! form's rows rounded to int8 and multiplied by weights packed for it.

use super::exports::EXPORTS;
use super::*;

/// The most values of x (rows times k) `blocks_matmul_fused` normalizes
/// (`FUSED_EXACT_VALUES` in csrc/kernels/x86_64_matmul.c: its workgroups
/// hold the normalized rows on a worker's stack).
const FUSED_EXACT_VALUES: i64 = 8192;

/// The most values of k `blocks_vnni_rows` rounds its rows for
/// (`FUSED_ROWS_K` in csrc/kernels/x86_64_q8_entries.h: the rounded rows live
/// on a worker's stack).
const FUSED_ROWS_K: i64 = 2048;

/// `x . W^T` [rows, n] for `x` [rows, k] and a block
/// weight W [n, k] in `format` given as its parts `q` [n, k/32,
/// format.q_bytes(true)] i8 (4-bit values packed), `d` [n, k/32] f16 and optional offsets `m` like
/// `d`; `kernels` says whether activations are rounded to 8 bits, or (for
/// several rows) to bf16 by the AVX512-BF16 kernel, which rounds the
/// weights to bf16 a panel at a time. One row stays exact under
/// [`Kernels::X86_64Bf16`]: the exact kernel reads a row's blocks at memory
/// speed, and dequantizing them to bf16 measured slower.
pub fn blocks_matmul(
    f: &mut FuncBuilder,
    kernels: Kernels,
    x: &Value,
    format: BlockFormat,
    q: &Value,
    d: &Value,
    m: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let (n, blocks) = (q.shape()[0], q.shape()[1]);
    assert_eq!(blocks * crate::emit::BLOCK, k, "weight columns match x");
    assert_eq!(
        q.shape()[2],
        format.q_bytes(true),
        "the kernel reads packed nibbles"
    );
    let m_or_d = m.unwrap_or(d);
    let result = TensorType::new(&[rows, n], DType::F32);
    if kernels.bf16_activations() && rows > 1 {
        let xb = f.convert(x, DType::BF16);
        let per = rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1);
        return f.dispatch_extern(
            &EXPORTS[3].callee(),
            &[n, per],
            &[xb, q.clone(), d.clone(), m_or_d.clone()],
            &[rows, n, k, format.kernel_code(), per],
            result,
        );
    }
    let q8 = kernels.q8_activations() && !single_rows_stay_exact();
    let per = if q8 && rows <= Q8_ROWS {
        rows_per_thread(n, ROWS_PER_WORKGROUP, host_threads())
    } else {
        rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1)
    };
    f.dispatch_extern(
        &EXPORTS[0].callee(),
        &[n, per],
        &[x.clone(), q.clone(), d.clone(), m_or_d.clone()],
        &[rows, n, k, format.kernel_code(), q8 as i64, per],
        result,
    )
}

/// Whether an exact product of block weights ([`blocks_matmul`]) of `x`
/// can take the norm before it and the residual after it into its own
/// workgroups ([`blocks_matmul_fused`]): a decode step's rows (up to 8) in
/// the exact form, one row in the bf16 form (whose single rows stay exact;
/// not the 8-bit form's rounded rows) and, with a norm, rows that fit the
/// workgroups' stack.
pub fn takes_blocks_matmul_fused(kernels: Kernels, x: &Value, norm: bool) -> bool {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let exact = match kernels {
        Kernels::X86_64 => rows <= 8,
        Kernels::X86_64Bf16 => rows == 1,
        _ => false,
    };
    exact && (!norm || rows * k <= FUSED_EXACT_VALUES)
}

/// `residual + rms_norm(x) . W^T`, either part optional, for a block weight
/// as [`blocks_matmul`] takes it, in one dispatch where
/// [`takes_blocks_matmul_fused`] holds: the same products, the norm summed
/// in another order than the graph's RMSNorm (within f32 rounding of it)
/// and the residual added as the graph adds it.
#[allow(clippy::too_many_arguments)]
pub fn blocks_matmul_fused(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    format: BlockFormat,
    q: &Value,
    d: &Value,
    m: Option<&Value>,
    residual: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let (n, blocks) = (q.shape()[0], q.shape()[1]);
    assert_eq!(blocks * crate::emit::BLOCK, k, "weight columns match x");
    assert!(
        norm.is_none() || rows * k <= FUSED_EXACT_VALUES,
        "the normalized rows fit a workgroup's stack"
    );
    let (res, has_res) = residual_operand(x, residual, n);
    let (weight, eps, has_norm) = norm_operand(f, x, norm);
    // Several rows in one workgroup a thread, as the rows kernels: every
    // workgroup normalizes all rows, and the usual balanced workgroups
    // made a B=4 step slower than the unfused one (docs/performance.md).
    let per = if rows == 1 {
        rows_per_workgroup(rows, n, ROWS_PER_WORKGROUP, 1)
    } else {
        rows_per_thread(n, ROWS_PER_WORKGROUP, host_threads())
    };
    let operands = [
        x.clone(),
        weight,
        q.clone(),
        d.clone(),
        m.unwrap_or(d).clone(),
        res,
    ];
    f.dispatch_extern(
        &EXPORTS[24].callee(),
        &[n, per],
        &operands,
        &[
            rows,
            n,
            k,
            format.kernel_code(),
            eps,
            has_norm,
            has_res,
            per,
        ],
        TensorType::new(&[rows, n], DType::F32),
    )
}

/// The most rows of x the AVX2 kernel takes through its 8-bit product
/// (`Q8_ROWS` in csrc/kernels/x86_64_matmul.c): each workgroup rounds them
/// all once, then reads each weight row once for all of them. More rows
/// take the exact panel product.
const Q8_ROWS: i64 = 7;

/// Rows of `x` [rows, k] rounded to int8 blocks for the packed 8-bit
/// product (VNNI or AVX2), in csrc/kernels/x86_64_q8_rows.h's layout: per
/// group of 8 rows and block, 8 x 32 int8 values and 3 x 8 four-byte values
/// (scales, exact sums and the int8 values' sums). With `norm`, each row
/// is normalized first ([`RmsNorm`]). With `live` (an i32 [1]) only that
/// many leading rows are rounded, for a product that takes the same count.
fn quantize_rows(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    live: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let groups = (rows + 7) / 8;
    let blocks = k / crate::emit::BLOCK;
    let packed = TensorType::new(&[groups * blocks * (8 * 32 + 8 * 12)], DType::I8);
    let (weight, eps, has_norm) = norm_operand(f, x, norm);
    let (export, operands) = match live {
        Some(live) => (&EXPORTS[25], vec![x.clone(), weight, live_binding(live)]),
        None => (&EXPORTS[6], vec![x.clone(), weight]),
    };
    // Whole groups of 8 rows a workgroup (a group's rows share cache lines
    // of the result), spread over the threads: with 32 rows a workgroup a
    // step carrying a 16-token chunk (24 rows) rounded on one thread while
    // the other waited (C harness, SmolLM2's 120 layer products at 24 rows,
    // 12 alternating rounds: median 12.37 -> 11.92 ms; docs/performance.md,
    // fifty-third session). The workgroups cover the last group whole, so
    // its rows past `rows` are written as zeros.
    let per = 8 * balanced_units(groups, 1, host_threads());
    f.dispatch_extern(
        &export.callee(),
        &[groups * 8, per],
        &operands,
        &[rows, k, eps, has_norm, per],
        packed,
    )
}

/// A live-rows count as the kernels bind it: an i32 [1].
fn live_binding(live: &Value) -> Value {
    assert!(
        live.shape() == [1] && live.elem() == DType::I32,
        "live rows as an i32 [1], not {:?} {:?}",
        live.shape(),
        live.elem()
    );
    live.clone()
}

/// An RMSNorm over the rows a product takes, done by the 8-bit form's
/// rounding of those rows instead of dispatches of its own: each row x
/// becomes `(x * rsqrt(mean(x^2) + eps)) * weight`.
pub struct RmsNorm {
    /// The norm's weight [k], any float type.
    pub weight: Value,
    pub eps: f64,
}

/// The norm's weight as f32, its epsilon as f32 bits and 1, or `x` (not
/// read), 0 and 0 without a norm.
pub(super) fn norm_operand(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
) -> (Value, i64, i64) {
    match norm {
        Some(n) => {
            assert_eq!(
                n.weight.shape(),
                &x.shape()[1..],
                "a norm weight per column of x"
            );
            let w = if n.weight.elem() == DType::F32 {
                n.weight.clone()
            } else {
                f.convert(&n.weight, DType::F32)
            };
            (w, i64::from((n.eps as f32).to_bits()), 1)
        }
        None => (x.clone(), 0, 0),
    }
}

/// The residual [rows, n] a fused product adds to its outputs and 1, or
/// `x` (not read) and 0 without one.
pub(super) fn residual_operand(x: &Value, residual: Option<&Value>, n: i64) -> (Value, i64) {
    match residual {
        Some(r) => {
            assert_eq!(r.shape(), &[x.shape()[0], n], "a residual per output");
            (r.clone(), 1)
        }
        None => (x.clone(), 0),
    }
}

/// Whether graphs with `kernels` keep block matrices in the VNNI kernel's
/// layout ([`crate::emit::vnni_layout`]): the 8-bit form on a CPU and build with
/// AVX512-VNNI, or with AVX2 and no AVX-512 (x86_64_avx2_q8.c reads the
/// same layout). Every product of such a matrix, one row or many, then
/// goes through [`blocks_vnni_packed`]. CPUs with AVX-512 but no VNNI keep
/// the row-major form, where single rows stay exact: the AVX2 product was
/// not measured against the AVX-512 exact kernels there.
pub fn packs_for_vnni(kernels: Kernels) -> bool {
    kernels.q8_activations() && (q8_rows_through_vnni() || Object::exact_for_host() == Object::Avx2)
}

/// `x . W^T` for `x` [rows, k] (any number of rows) and W in blocks laid
/// out for the VNNI kernel: `q` [n/16, k/32, 16 x bytes], `d` and `m`
/// [n/16, k/32, 16] ([`crate::emit::vnni_layout`]); rows rounded to int8 blocks
/// first ([`quantize_rows`]), or, for a decode step's 8 rows or fewer, by
/// the product's own workgroups (`blocks_vnni_rows`: the same sums, one
/// dispatch a product instead of two). With `norm` the rows are normalized
/// as they are rounded ([`RmsNorm`]); with `residual` [rows, n] the result
/// is `residual + x . W^T`, added by the product's workgroups. With `live`
/// (an i32 [1]) a product of more than 8 rows rounds and multiplies only
/// that many leading rows, and the result's other rows are zero (a chunk's
/// padding; the fused path of 8 rows or fewer takes every row).
#[allow(clippy::too_many_arguments)]
pub fn blocks_vnni_packed(
    f: &mut FuncBuilder,
    x: &Value,
    norm: Option<&RmsNorm>,
    format: BlockFormat,
    q: &Value,
    d: &Value,
    m: Option<&Value>,
    residual: Option<&Value>,
    live: Option<&Value>,
) -> Value {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let group = crate::emit::vnni_layout::GROUP as i64;
    let (n, blocks) = (q.shape()[0] * group, q.shape()[1]);
    assert_eq!(blocks * crate::emit::BLOCK, k, "weight columns match x");
    assert_eq!(
        q.shape()[2],
        group * format.q_bytes(true),
        "16 rows' packed values a block"
    );
    let (res, has_res) = residual_operand(x, residual, n);
    let result = TensorType::new(&[rows, n], DType::F32);
    let weights = [q.clone(), d.clone(), m.unwrap_or(d).clone()];
    // Every workgroup of the fused product rounds all of x: one a thread.
    // Otherwise whole pairs of groups of 16 rows where n allows: the
    // product takes a workgroup's groups two at a time, one from each half,
    // and an odd group alone costs a third more a group (SmolLM2's 960- and
    // 576-row products had one in every workgroup of 80 or 48 rows).
    if rows <= 8 && k <= FUSED_ROWS_K {
        let per = rows_per_thread(n, group, host_threads());
        let (weight, eps, has_norm) = norm_operand(f, x, norm);
        let operands = [&[x.clone(), weight][..], &weights, &[res]].concat();
        let indices = [
            rows,
            n,
            k,
            format.kernel_code(),
            eps,
            has_norm,
            has_res,
            per,
        ];
        f.dispatch_extern(
            &EXPORTS[23].callee(),
            &[n, per],
            &operands,
            &indices,
            result,
        )
    } else {
        let per = if n % (2 * group) == 0 {
            rows_per_workgroup(rows, n, 2 * group, 1)
        } else {
            rows_per_workgroup(rows, n, group, 2)
        };
        let xq = quantize_rows(f, x, norm, live);
        let indices = [rows, n, k, format.kernel_code(), has_res, per];
        let (export, operands) = match live {
            Some(live) => (
                &EXPORTS[26],
                [&[xq][..], &weights, &[live_binding(live), res]].concat(),
            ),
            None => (&EXPORTS[7], [&[xq][..], &weights, &[res]].concat()),
        };
        f.dispatch_extern(&export.callee(), &[n, per], &operands, &indices, result)
    }
}

/// Whether the 8-bit form leaves single rows exact on this CPU: where the
/// exact kernels are the AVX-512 build, the one-row 8-bit path (AVX2
/// `vpmaddubsw`) measured slower than the exact one-row product (Zen 5,
/// SmolLM2 Q4_1 B=1 step: 4.15-7.00 against 3.4-4.5 ms; the 1B preset as
/// Q4_1: 34.8-37.1 against 26.7-29.9 ms; docs/performance.md), so the faster
/// and exact product is taken.
pub fn single_rows_stay_exact() -> bool {
    Object::exact_for_host() == Object::Avx512
}

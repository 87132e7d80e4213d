//! Whole-vocabulary passes, written so the compiler vectorizes them: the row
//! scan (per-chunk maxima, NaN detection), the weight pass, masked mass
//! sums, candidate collection and the draws. Everything else in the sampler
//! works on the few candidates these passes leave.
//!
//! The vocabulary is cut into chunks of [`CHUNK`] tokens. Per-chunk maxima
//! let later passes skip whole chunks that cannot contain a wanted token, and
//! per-chunk sums make the inverse-CDF draw a walk over chunks first.
//!
//! Every loop accumulates into a fixed number of lanes in a fixed order and
//! uses only IEEE operations that Rust never fuses, so results are
//! bit-identical whatever vector width runs them. The hot passes are compiled
//! twice (baseline x86-64 and AVX2, chosen at run time) by [`multiversion!`].

// Kernels take the row and its derived scalars as separate arguments, and
// index lanes explicitly because that is the loop shape that vectorizes.
#![allow(clippy::too_many_arguments, clippy::needless_range_loop)]

use super::error::SampleError;

/// Tokens per chunk.
pub(crate) const CHUNK: usize = 64;
/// Independent accumulators per chunk (a multiple of every SIMD width used).
const LANES: usize = 16;

/// `z` below this gives weight 0: `exp(-87)` is about 1.6e-38, the bottom of
/// the normal f32 range, so such tokens are more than e^87 times less likely
/// than the most likely one.
pub(crate) const Z_UNDERFLOW: f32 = -87.0;

/// Defines `fn name(args) -> ret` whose body is compiled for the baseline
/// target and, on x86-64, also with AVX2 enabled; the AVX2 copy runs when the
/// CPU has it. Both copies execute the same IEEE operations in the same
/// order (no FMA is enabled), so they return identical results.
macro_rules! multiversion {
    ($(#[$m:meta])* $vis:vis fn $name:ident($($arg:ident : $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$m])*
        $vis fn $name($($arg: $ty),*) -> $ret {
            #[inline(always)]
            fn generic($($arg: $ty),*) -> $ret $body

            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                fn avx2($($arg: $ty),*) -> $ret {
                    generic($($arg),*)
                }
                if std::arch::is_x86_feature_detected!("avx2") && !baseline_forced() {
                    // SAFETY: the CPU supports AVX2, checked just above.
                    #[allow(unsafe_code)]
                    return unsafe { avx2($($arg),*) };
                }
            }
            generic($($arg),*)
        }
    };
}

#[cfg(test)]
thread_local! {
    /// Tests set this to run the baseline copies on an AVX2 machine.
    static FORCE_BASELINE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn baseline_forced() -> bool {
    FORCE_BASELINE.with(std::cell::Cell::get)
}

#[cfg(not(test))]
#[inline(always)]
fn baseline_forced() -> bool {
    false
}

/// `exp(z)` for `z <= 0` (including `-inf`), accurate to a few ulp, exactly
/// 1 at `z == 0`, and 0 for `z < Z_UNDERFLOW`. Branch-free so that loops over
/// it vectorize. Range reduction `z = n ln2 + r` with `|r| <= ln2 / 2`, a
/// degree-7 Taylor polynomial for `e^r` (truncation error < 6e-9) and `2^n`
/// built from its exponent bits.
#[inline(always)]
pub(crate) fn exp_nonpos(z: f32) -> f32 {
    let e = exp_clamped(z);
    if z < Z_UNDERFLOW { 0.0 } else { e }
}

/// [`exp_nonpos`] without the final underflow mask (callers mask anyway).
#[inline(always)]
fn exp_clamped(z: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    // ln 2 split so that n * LN2_HI is exact for |n| <= 127.
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // 1.5 * 2^23: adding it rounds to an integer held in the low mantissa bits.
    const SHIFTER: f32 = 12_582_912.0;
    let zc = if z < Z_UNDERFLOW { Z_UNDERFLOW } else { z };
    let t = zc * LOG2E + SHIFTER;
    let n = t - SHIFTER;
    let r = (zc - n * LN2_HI) - n * LN2_LO;
    let n_int = (t.to_bits() as i32).wrapping_sub(SHIFTER.to_bits() as i32);
    let scale = f32::from_bits(((n_int + 127) as u32) << 23);
    let p = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0
                    + r * (1.0 / 24.0
                        + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    p * scale
}

/// The scaled logit `z = (x - max) * inv_t`. Monotone non-decreasing in `x`
/// (IEEE subtraction and multiplication by a positive number are), so any
/// threshold on `z` is a threshold on rank.
#[inline(always)]
pub(crate) fn scaled(x: f32, max: f32, inv_t: f32) -> f32 {
    (x - max) * inv_t
}

/// Rank key of a token: larger key = higher rank. Orders by logit descending
/// (with -0.0 == +0.0) and then by token id ascending, so keys are unique and
/// the highest key is the greedy token.
#[inline(always)]
pub(crate) fn rank_key(x: f32, id: u32) -> u64 {
    let b = (x + 0.0).to_bits();
    let ord = if b >> 31 == 1 { !b } else { b | 0x8000_0000 };
    (u64::from(ord) << 32) | u64::from(u32::MAX - id)
}

/// Token id of a rank key.
#[inline(always)]
pub(crate) fn key_id(key: u64) -> u32 {
    u32::MAX - key as u32
}

/// Sums lanes in a fixed pairwise order.
#[inline(always)]
fn reduce_sum(mut l: [f32; LANES]) -> f32 {
    let mut w = LANES / 2;
    while w > 0 {
        for i in 0..w {
            l[i] += l[i + w];
        }
        w /= 2;
    }
    l[0]
}

/// All-ones if `b`, else 0. Kernels combine such masks with bit operations
/// on the data instead of branching or doing arithmetic on booleans, which
/// keeps their loops in the shape the compiler vectorizes.
#[inline(always)]
fn mask(b: bool) -> u32 {
    0u32.wrapping_sub(u32::from(b))
}

/// Result of [`scan_row`].
pub(crate) struct RowScan {
    /// Largest non-NaN logit (`-inf` if there is none).
    pub max: f32,
    pub has_nan: bool,
}

/// Largest non-NaN value of a full chunk and whether it holds a NaN.
#[inline(always)]
fn chunk_max_nan(c: &[f32; CHUNK]) -> (f32, bool) {
    let mut acc = [f32::NEG_INFINITY; LANES];
    let mut unord = [0u32; LANES];
    for b in 0..CHUNK / LANES {
        for j in 0..LANES {
            let v = c[b * LANES + j];
            acc[j] = if v > acc[j] { v } else { acc[j] };
            unord[j] |= u32::from(v.is_nan());
        }
    }
    let max = acc
        .iter()
        .fold(f32::NEG_INFINITY, |a, &v| if v > a { v } else { a });
    (max, unord.iter().fold(0, |a, &u| a | u) != 0)
}

/// The row's largest logit after [`scan_row`], or why the row cannot be
/// sampled nor normalised: a NaN, a +inf, or no finite logit at all.
pub(crate) fn finite_max(x: &[f32], chunk_max: &mut [f32]) -> Result<f32, SampleError> {
    let scan = scan_row(x, chunk_max);
    if scan.has_nan {
        let index = x.iter().position(|v| v.is_nan()).unwrap_or(0);
        return Err(SampleError::NanLogit { index });
    }
    if scan.max == f32::INFINITY {
        let index = x.iter().position(|&v| v == f32::INFINITY).unwrap_or(0);
        return Err(SampleError::InfiniteLogit { index });
    }
    if scan.max == f32::NEG_INFINITY {
        return Err(SampleError::NoFiniteLogit { len: x.len() });
    }
    Ok(scan.max)
}

/// Writes each chunk's largest non-NaN logit to `chunk_max` and returns
/// the row's maximum and whether any logit is NaN. (Not multiversioned: the
/// baseline build of this loop is the faster one.)
pub(crate) fn scan_row(x: &[f32], chunk_max: &mut [f32]) -> RowScan {
    {
        let mut max = f32::NEG_INFINITY;
        let mut nan = false;
        let (full, rest) = x.as_chunks::<CHUNK>();
        for (c, out) in full.iter().zip(chunk_max.iter_mut()) {
            let (cm, cn) = chunk_max_nan(c);
            *out = cm;
            nan |= cn;
            max = if cm > max { cm } else { max };
        }
        if !rest.is_empty() {
            let cm = rest
                .iter()
                .fold(f32::NEG_INFINITY, |a, &v| if v > a { v } else { a });
            chunk_max[full.len()] = cm;
            nan |= rest.iter().any(|v| v.is_nan());
            max = if cm > max { cm } else { max };
        }
        RowScan { max, has_nan: nan }
    }
}

/// Index of the first logit equal to `max` (`-0.0 == +0.0`): the argmax with
/// the lowest token id winning ties. `chunk_max` must come from [`scan_row`].
pub(crate) fn first_index_of_max(x: &[f32], chunk_max: &[f32], max: f32) -> usize {
    let c = chunk_max
        .iter()
        .position(|&m| m == max)
        .expect("max comes from chunk_max");
    let start = c * CHUNK;
    let end = (start + CHUNK).min(x.len());
    start
        + x[start..end]
            .iter()
            .position(|&v| v == max)
            .expect("chunk holds its max")
}

/// The `[start, end)` token range of chunk `c`.
#[inline(always)]
fn chunk_range(c: usize, len: usize) -> std::ops::Range<usize> {
    let start = c * CHUNK;
    start..(start + CHUNK).min(len)
}

/// Weights of one chunk (0 below `zmin` or `Z_UNDERFLOW`) and their
/// lane-ordered sum.
#[inline(always)]
fn exp_chunk(xc: &[f32], wc: &mut [f32], max: f32, inv_t: f32, zmin: f32) -> f32 {
    let floor = if zmin > Z_UNDERFLOW {
        zmin
    } else {
        Z_UNDERFLOW
    };
    let mut lanes = [0.0f32; LANES];
    if let (Ok(xa), Ok(wa)) = (
        <&[f32; CHUNK]>::try_from(xc),
        <&mut [f32; CHUNK]>::try_from(&mut *wc),
    ) {
        for b in 0..CHUNK / LANES {
            for j in 0..LANES {
                let i = b * LANES + j;
                let z = scaled(xa[i], max, inv_t);
                let e = f32::from_bits(exp_clamped(z).to_bits() & mask(z >= floor));
                wa[i] = e;
                lanes[j] += e;
            }
        }
    } else {
        for (j, (&xv, wv)) in xc.iter().zip(wc.iter_mut()).enumerate() {
            let z = scaled(xv, max, inv_t);
            let e = f32::from_bits(exp_clamped(z).to_bits() & mask(z >= floor));
            *wv = e;
            lanes[j % LANES] += e;
        }
    }
    reduce_sum(lanes)
}

multiversion! {
    /// Writes `w[i] = exp(z_i)` (0 where `z_i < zmin`) and each chunk's sum
    /// of weights; returns the total as f64 (chunk sums added in order).
    pub(crate) fn exp_pass(
        x: &[f32],
        max: f32,
        inv_t: f32,
        zmin: f32,
        w: &mut [f32],
        chunk_sum: &mut [f32],
    ) -> f64 {
        let mut total = 0.0f64;
        for ((xc, wc), s) in x
            .chunks(CHUNK)
            .zip(w.chunks_mut(CHUNK))
            .zip(chunk_sum.iter_mut())
        {
            *s = exp_chunk(xc, wc, max, inv_t, zmin);
            total += f64::from(*s);
        }
        total
    }
}

multiversion! {
    /// `sum_i exp(x_i - max)` over the row, in f64 (chunk sums in f32 lanes
    /// added in order): the normalizer of a log-softmax, with no weights
    /// written anywhere. `max` must be the row's maximum.
    pub(crate) fn exp_sum(x: &[f32], max: f32) -> f64 {
        let mut total = 0.0f64;
        for xc in x.chunks(CHUNK) {
            let mut lanes = [0.0f32; LANES];
            if let Ok(xa) = <&[f32; CHUNK]>::try_from(xc) {
                for b in 0..CHUNK / LANES {
                    for j in 0..LANES {
                        lanes[j] += exp_nonpos(xa[b * LANES + j] - max);
                    }
                }
            } else {
                for (j, &v) in xc.iter().enumerate() {
                    lanes[j % LANES] += exp_nonpos(v - max);
                }
            }
            total += f64::from(reduce_sum(lanes));
        }
        total
    }
}

/// Sum and count of one chunk's tokens whose logits pass `keep`, in the
/// lane order of [`exp_chunk`] (so a predicate true for every token
/// reproduces its sum). `keep` should be a single comparison: the masks are
/// applied with bit operations so the loop vectorizes.
#[inline(always)]
fn masked_chunk(xc: &[f32], wc: &[f32], keep: impl Fn(f32) -> bool) -> (f32, u32) {
    let mut lanes = [0.0f32; LANES];
    let mut counts = [0u32; LANES];
    if let (Ok(xa), Ok(wa)) = (<&[f32; CHUNK]>::try_from(xc), <&[f32; CHUNK]>::try_from(wc)) {
        for b in 0..CHUNK / LANES {
            for j in 0..LANES {
                let i = b * LANES + j;
                let m = mask(keep(xa[i]));
                lanes[j] += f32::from_bits(wa[i].to_bits() & m);
                counts[j] += m & 1;
            }
        }
    } else {
        for (j, (&xv, &wv)) in xc.iter().zip(wc).enumerate() {
            let m = mask(keep(xv));
            lanes[j % LANES] += f32::from_bits(wv.to_bits() & m);
            counts[j % LANES] += m & 1;
        }
    }
    (reduce_sum(lanes), counts.iter().sum())
}

multiversion! {
    /// Total weight and number of the tokens with `z >= zthr`,
    /// skipping chunks whose maximum is below the threshold.
    pub(crate) fn mass_count_at_or_above(
        x: &[f32],
        w: &[f32],
        chunk_max: &[f32],
        max: f32,
        inv_t: f32,
        zthr: f32,
    ) -> (f64, usize) {
        let mut total = 0.0f64;
        let mut count = 0usize;
        for (c, &cm) in chunk_max.iter().enumerate() {
            if scaled(cm, max, inv_t) < zthr {
                continue;
            }
            let r = chunk_range(c, x.len());
            // -inf logits (weight 0) count when zthr is -inf; only the band
            // size estimate sees that.
            let (s, n) = masked_chunk(&x[r.clone()], &w[r], |v| scaled(v, max, inv_t) >= zthr);
            total += f64::from(s);
            count += n as usize;
        }
        (total, count)
    }
}

/// A token that may survive the filters. `w` is its unnormalized
/// probability `exp(z)`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Cand {
    pub key: u64,
    pub x: f32,
    pub w: f32,
}

impl Cand {
    #[inline(always)]
    pub fn new(x: f32, id: usize, w: f32) -> Self {
        Self {
            key: rank_key(x, id as u32),
            x,
            w,
        }
    }

    #[inline(always)]
    pub fn id(&self) -> u32 {
        key_id(self.key)
    }
}

multiversion! {
    /// Writes to the front of `out`, in token id order, every finite token
    /// whose logit is `>= bound`, reading only chunks whose maximum reaches
    /// it and, within them, only blocks of 16 that a vectorized test finds a
    /// hit in; returns the count. `w` is left 0. `out` must be as long as
    /// the row.
    pub(crate) fn collect_at_or_above(
        x: &[f32],
        chunk_max: &[f32],
        bound: f32,
        out: &mut [Cand],
    ) -> usize {
        let mut n = 0;
        for (c, &cm) in chunk_max.iter().enumerate() {
            if cm < bound {
                continue;
            }
            let r = chunk_range(c, x.len());
            let mut start = r.start;
            while start < r.end {
                let end = (start + LANES).min(r.end);
                let block = &x[start..end];
                if block.iter().fold(0, |a, &v| a | mask(v >= bound)) != 0 {
                    for (i, &v) in (start..end).zip(block) {
                        // Written unconditionally, kept by advancing `n`.
                        out[n] = Cand::new(v, i, 0.0);
                        n += usize::from((v >= bound) & (v > f32::NEG_INFINITY));
                    }
                }
                start = end;
            }
        }
        n
    }
}

multiversion! {
    /// Number of tokens whose logit is `>= bound` (all of them for `-inf`),
    /// skipping chunks whose maximum is below it.
    pub(crate) fn count_at_or_above(x: &[f32], chunk_max: &[f32], bound: f32) -> usize {
        let mut total = 0usize;
        for (c, &cm) in chunk_max.iter().enumerate() {
            if cm < bound {
                continue;
            }
            let r = chunk_range(c, x.len());
            let mut counts = [0u32; LANES];
            let (blocks, tail) = x[r].as_chunks::<LANES>();
            for block in blocks {
                for j in 0..LANES {
                    counts[j] += mask(block[j] >= bound) & 1;
                }
            }
            for &v in tail {
                counts[0] += u32::from(v >= bound);
            }
            total += counts.iter().sum::<u32>() as usize;
        }
        total
    }
}

multiversion! {
    /// Writes to the front of `out`, in token id order and with their
    /// weights, the finite tokens with `lo <= z < hi`; returns the count.
    /// Meant for sparse bands: blocks of 16 tokens with none in the band are
    /// skipped after a vectorized test. `out` must be as long as the row.
    pub(crate) fn collect_band(
        x: &[f32],
        w: &[f32],
        chunk_max: &[f32],
        max: f32,
        inv_t: f32,
        lo: f32,
        hi: f32,
        out: &mut [Cand],
    ) -> usize {
        // Exact test for one token.
        let in_band = |v: f32| {
            let z = scaled(v, max, inv_t);
            z >= lo && z < hi && v > f32::NEG_INFINITY
        };
        // Block test, a superset of the exact one written as one comparison
        // per token so that it vectorizes: lo <= z <= hi.
        let near_band = |v: f32| {
            let z = scaled(v, max, inv_t);
            let (a, b) = (z - lo, hi - z);
            (if a < b { a } else { b }) >= 0.0
        };
        let mut n = 0;
        for (c, &cm) in chunk_max.iter().enumerate() {
            if scaled(cm, max, inv_t) < lo {
                continue;
            }
            let r = chunk_range(c, x.len());
            let mut start = r.start;
            while start < r.end {
                let end = (start + LANES).min(r.end);
                let block = &x[start..end];
                if block.iter().fold(0, |a, &v| a | mask(near_band(v))) != 0 {
                    for (i, &v) in (start..end).zip(block) {
                        if in_band(v) {
                            out[n] = Cand::new(v, i, w[i]);
                            n += 1;
                        }
                    }
                }
                start = end;
            }
        }
        n
    }
}

/// Which tokens a draw may return (always a prefix of the rank order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Keep {
    /// Tokens with `z >= bound` (every tie included).
    ZAtLeast(f32),
    /// Tokens ranked at or above the token `id` whose logit is `x`.
    RankAtLeast { x: f32, id: u32 },
}

impl Keep {
    #[inline(always)]
    fn test(self, v: f32, i: usize, max: f32, inv_t: f32) -> bool {
        match self {
            Keep::ZAtLeast(bound) => scaled(v, max, inv_t) >= bound,
            Keep::RankAtLeast { x, id } => v > x || (v == x && i <= id as usize),
        }
    }
}

multiversion! {
    /// Writes each chunk's kept weight to `chunk_kept` and returns the total.
    fn kept_masses(
        x: &[f32],
        w: &[f32],
        chunk_max: &[f32],
        max: f32,
        inv_t: f32,
        keep: Keep,
        chunk_kept: &mut [f32],
    ) -> f64 {
        let mut total = 0.0f64;
        for (c, (&cm, out)) in chunk_max.iter().zip(chunk_kept.iter_mut()).enumerate() {
            let r = chunk_range(c, x.len());
            let (xc, wc) = (&x[r.clone()], &w[r.clone()]);
            *out = match keep {
                Keep::ZAtLeast(bound) if scaled(cm, max, inv_t) < bound => 0.0,
                Keep::ZAtLeast(bound) => masked_chunk(xc, wc, |v| scaled(v, max, inv_t) >= bound).0,
                Keep::RankAtLeast { x: bx, .. } if cm < bx => 0.0,
                // Ties with the boundary token are kept up to its id, not after.
                Keep::RankAtLeast { x: bx, id } if r.end <= id as usize + 1 => {
                    masked_chunk(xc, wc, |v| v >= bx).0
                }
                Keep::RankAtLeast { x: bx, id } if r.start > id as usize => {
                    masked_chunk(xc, wc, |v| v > bx).0
                }
                Keep::RankAtLeast { .. } => {
                    let mut lanes = [0.0f32; LANES];
                    for (j, i) in r.enumerate() {
                        lanes[j % LANES] += if keep.test(x[i], i, max, inv_t) { w[i] } else { 0.0 };
                    }
                    reduce_sum(lanes)
                }
            };
            total += f64::from(*out);
        }
        total
    }
}

/// Inverse-CDF draw in token id order: the first token whose cumulative
/// weight exceeds `u * total`, walking `chunk_mass` (each chunk's share of
/// `total`) first and then one chunk's tokens, `weight(i)` being token `i`'s
/// weight (0 if it is not kept). Weight-0 tokens are never returned; `None`
/// only if no chunk has positive mass.
fn draw_chunks(
    chunk_mass: &[f32],
    len: usize,
    total: f64,
    u: f64,
    weight: impl Fn(usize) -> f32,
) -> Option<usize> {
    let scan = |c: usize, mut cum: f64, target: f64| {
        let mut last = None;
        for i in chunk_range(c, len) {
            let wi = weight(i);
            if wi > 0.0 {
                last = Some(i);
                cum += f64::from(wi);
                if cum > target {
                    break;
                }
            }
        }
        last
    };
    let target = u * total;
    let mut cum = 0.0f64;
    let mut last_chunk = None;
    for (c, &s) in chunk_mass.iter().enumerate() {
        if s <= 0.0 {
            continue;
        }
        if cum + f64::from(s) > target {
            // If rounding keeps the tokens' sum below the target, the
            // chunk's last token is taken.
            return scan(c, cum, target);
        }
        cum += f64::from(s);
        last_chunk = Some(c);
    }
    // Rounding put the target past the last chunk: take its last token.
    last_chunk.and_then(|c| scan(c, f64::NEG_INFINITY, f64::INFINITY))
}

/// Draw among the tokens `keep` accepts (see [`draw_chunks`]).
pub(crate) fn draw_kept(
    x: &[f32],
    w: &[f32],
    chunk_max: &[f32],
    max: f32,
    inv_t: f32,
    keep: Keep,
    chunk_kept: &mut [f32],
    u: f64,
) -> Option<usize> {
    let total = kept_masses(x, w, chunk_max, max, inv_t, keep, chunk_kept);
    draw_chunks(chunk_kept, x.len(), total, u, |i| {
        if keep.test(x[i], i, max, inv_t) {
            w[i]
        } else {
            0.0
        }
    })
}

/// Draw over the whole vocabulary with the weights and chunk sums of
/// [`exp_pass`] (see [`draw_chunks`]).
pub(crate) fn draw_full(w: &[f32], chunk_sum: &[f32], total: f64, u: f64) -> Option<usize> {
    draw_chunks(chunk_sum, w.len(), total, u, |i| w[i])
}

#[cfg(test)]
mod tests;

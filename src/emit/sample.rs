//! Sampling inside the graph: a tail stage that turns a graph's logits
//! `[B, V]` into one token id per row with Gumbel-max, so a decode step reads
//! back `B` ids instead of `B * V` logits.
//!
//! Row `i` draws `argmax_v(l[i, v] / T[i] + g[i, v])` with Gumbel noise
//! `g = -log(-log u)`, which picks `v` with probability `softmax(l[i] / T[i])_v`
//! exactly (the Gumbel-max trick). `T[i] == 0` gives the exact argmax of the
//! logits, the lowest id winning ties: the host sampler's greedy choice.
//!
//! **The noise is counter-based.** Each row brings a [`DrawKey`] of 64 bits
//! (the host derives it from the request's seed and token index); the
//! uniform for token `v` is [`noise_bits`]`(key, v)`, a keyed 32-bit
//! integer hash done with StableHLO integer ops. So a row's draw depends on
//! its logits, its temperature and its key alone: never on the other rows
//! of the batch or on its slot.
//!
//! Inputs per row: `temperature` f32 (finite, `>= 0`) and `draw_keys` i32
//! `[B, 2]` (the key's low and high 32 bits, as two's-complement i32).
//! A row whose logits hold NaN gets the id `V` (outside the vocabulary);
//! the engine fails that request, as the host sampler does.

use super::builder::{Cmp, FuncBuilder, TensorType, Value};
use crate::types::DType;

/// The 64-bit key of one row's draw: the graph hashes it with each
/// vocabulary index to get that token's uniform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawKey(pub u64);

impl DrawKey {
    /// The two i32 words the graph takes: low 32 bits, then high.
    pub fn words(self) -> [i32; 2] {
        [self.0 as u32 as i32, (self.0 >> 32) as u32 as i32]
    }
}

/// The two multipliers of the 32-bit finalizer [`mix32`] ("lowbias32",
/// published by C. Wellons; low bias over all 32-bit inputs).
const MIX_A: u32 = 0x7feb_352d;
const MIX_B: u32 = 0x846c_a68b;

/// A bijective 32-bit mixer: xorshift-multiply twice.
pub const fn mix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(MIX_A);
    x ^= x >> 15;
    x = x.wrapping_mul(MIX_B);
    x ^ (x >> 16)
}

/// The 32 random bits of vocabulary entry `v` under `key`: what the graph
/// computes, written out on the host for tests and documentation.
/// For a fixed key it is a permutation of `v` (xor, mix, add, mix).
pub const fn noise_bits(key: DrawKey, v: u32) -> u32 {
    let lo = key.0 as u32;
    let hi = (key.0 >> 32) as u32;
    mix32(mix32(v ^ lo).wrapping_add(hi))
}

/// Bits of the hash kept for the uniform: 23, so that `(m + 0.5) * 2^-23`
/// is exact in f32 and strictly inside (0, 1) (no `log(0)`, no `log(1)`).
const UNIFORM_BITS: u32 = 23;

/// The uniform in (0, 1) the graph derives from `bits`, exactly as in f32.
pub fn uniform_from_bits(bits: u32) -> f32 {
    let m = bits >> (32 - UNIFORM_BITS);
    (m as f32 + 0.5) * (1.0 / (1u32 << UNIFORM_BITS) as f32)
}

/// The per-row inputs of a sampling graph.
pub struct SampleInputs {
    /// `[B]` f32.
    pub temperature: Value,
    /// `[B, 2]` i32.
    pub draw_keys: Value,
}

/// Declares the per-row sampling arguments of a `b`-row graph, in order:
/// `temperature` `[b]` f32, `draw_keys` `[b, 2]` i32.
pub fn declare_inputs(f: &mut FuncBuilder, b: i64) -> SampleInputs {
    SampleInputs {
        temperature: f.arg(TensorType::new(&[b], DType::F32), None),
        draw_keys: f.arg(TensorType::new(&[b, 2], DType::I32), None),
    }
}

/// [`mix32`] on an i32 tensor (multiplication wraps in StableHLO, and the
/// logical shifts read the bits as unsigned).
fn mix32_graph(f: &mut FuncBuilder, x: &Value) -> Value {
    let shape = x.shape().to_vec();
    let s16 = f.splat_i32(16, &shape);
    let s15 = f.splat_i32(15, &shape);
    let a = f.splat_i32(MIX_A as i32, &shape);
    let b = f.splat_i32(MIX_B as i32, &shape);
    let t = f.shift_right_logical(x, &s16);
    let x = f.xor(x, &t);
    let x = f.mul(&x, &a);
    let t = f.shift_right_logical(&x, &s15);
    let x = f.xor(&x, &t);
    let x = f.mul(&x, &b);
    let t = f.shift_right_logical(&x, &s16);
    f.xor(&x, &t)
}

/// The Gumbel noise `[B, V]` of rows keyed by `draw_keys` `[B, 2]`.
fn gumbel_noise(f: &mut FuncBuilder, draw_keys: &Value, vocab: i64) -> Value {
    let b = draw_keys.shape()[0];
    let shape = [b, vocab];
    let key_word = |f: &mut FuncBuilder, w: i64| {
        let k = f.slice(draw_keys, &[0, w], &[b, w + 1]);
        let k = f.reshape(&k, &[b]);
        f.broadcast(&k, &shape, &[0])
    };
    let lo = key_word(f, 0);
    let hi = key_word(f, 1);
    let v = f.iota(&shape, 1);
    let x = f.xor(&v, &lo);
    let x = mix32_graph(f, &x);
    let x = f.add(&x, &hi);
    let bits = mix32_graph(f, &x);
    let drop = f.splat_i32((32 - UNIFORM_BITS) as i32, &shape);
    let m = f.shift_right_logical(&bits, &drop);
    let m = f.convert(&m, DType::F32);
    let half = f.splat_f(0.5, &shape, DType::F32);
    let scale = f.splat_f(1.0 / (1u32 << UNIFORM_BITS) as f64, &shape, DType::F32);
    let u = f.add(&m, &half);
    let u = f.mul(&u, &scale);
    let e = f.log(&u);
    let e = f.negate(&e);
    let g = f.log(&e);
    f.negate(&g)
}

/// The tail stage: one token id `[B]` (i32) per row of `logits` `[B, V]`,
/// drawn by Gumbel-max at each row's temperature, or the exact argmax
/// (lowest id on ties) for rows at temperature 0.
pub fn gumbel_max(f: &mut FuncBuilder, logits: &Value, inputs: &SampleInputs) -> Value {
    let (b, vocab) = (logits.shape()[0], logits.shape()[1]);
    assert_eq!(inputs.temperature.shape(), &[b], "one temperature per row");
    assert_eq!(inputs.draw_keys.shape(), &[b, 2], "one key per row");
    let shape = [b, vocab];
    f.comment("sampling: argmax(logits / T + Gumbel noise), or argmax(logits) where T = 0");
    let noise = gumbel_noise(f, &inputs.draw_keys, vocab);
    let t = &inputs.temperature;
    let zero = f.splat_f(0.0, &[b], DType::F32);
    let one = f.splat_f(1.0, &[b], DType::F32);
    let hot = f.compare(Cmp::Gt, t, &zero);
    // Greedy rows divide by 1 so that no 0/0 appears even in the unused branch.
    let safe_t = f.select(&hot, t, &one);
    let safe_t = f.broadcast(&safe_t, &shape, &[0]);
    let scaled = f.div(logits, &safe_t);
    let perturbed = f.add(&scaled, &noise);
    let hot = f.broadcast(&hot, &shape, &[0]);
    let score = f.select(&hot, &perturbed, logits);
    first_argmax(f, &score)
}

/// The index of each row's maximum of `score` `[B, V]`, the lowest index
/// winning ties, in two single-operand reductions: the row maximum, then the
/// lowest index holding it. Same result as the builder's two-operand
/// `argmax_last`, but IREE 3.13 fuses the noise computation into a
/// two-operand reduce as scalar code (83 ms against 13.5 ms for B=8 over a
/// 128256-token vocabulary on the CPU, iree-benchmark-module); here `score`
/// has two consumers, so it is computed once, vectorized, and both passes
/// read the same values. A row with no maximum (NaN) gets `V`, out of the
/// vocabulary, which the engine reports as an error.
fn first_argmax(f: &mut FuncBuilder, score: &Value) -> Value {
    let shape = score.shape().to_vec();
    let vocab = shape[1];
    // Indices travel as f32 (exact below 2^24): an i32 minimum reduce does
    // not lower for Metal in IREE 3.13, an f32 one does.
    assert!(vocab <= 1 << 24, "vocabulary of {vocab} tokens");
    let max = f.reduce_max(score, &[1]);
    let max = f.broadcast(&max, &shape, &[0]);
    let at_max = f.compare(Cmp::Eq, score, &max);
    let index = f.iota(&shape, 1);
    let index = f.convert(&index, DType::F32);
    let none = f.splat_f(vocab as f64, &shape, DType::F32);
    let candidates = f.select(&at_max, &index, &none);
    let first = f.reduce_min(&candidates, &[1]);
    f.convert(&first, DType::I32)
}

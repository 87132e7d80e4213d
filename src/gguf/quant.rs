//! Quantization of f32 rows into GGML's 32-element blocks (Q8_0, Q4_0,
//! Q4_1), the inverse of [`super::dequantize`] for those types. Block
//! layouts are llama.cpp's (`ggml-common.h`), so a file written with them
//! loads there; the scales are chosen as llama.cpp's reference quantizers
//! choose them (round to nearest for Q8_0 and Q4_1, the signed extreme mapped
//! to -8 for Q4_0), which keeps every value within half a step of its
//! original except Q4_0's opposite extreme, clamped to one step.

use half::f16;

use super::types::GgmlType;

/// Elements per block of every type here.
pub const BLOCK: usize = 32;

/// A block type `iree-llm synth --quant` can write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Quant {
    /// i8 values and one f16 scale per 32: 34 bytes per block.
    #[value(name = "q8_0")]
    Q8_0,
    /// 4-bit values offset by 8 and one f16 scale: 18 bytes per block.
    #[value(name = "q4_0")]
    Q4_0,
    /// 4-bit values, an f16 scale and an f16 minimum: 20 bytes per block.
    #[value(name = "q4_1")]
    Q4_1,
}

impl Quant {
    pub fn ggml_type(self) -> GgmlType {
        match self {
            Quant::Q8_0 => GgmlType::Q8_0,
            Quant::Q4_0 => GgmlType::Q4_0,
            Quant::Q4_1 => GgmlType::Q4_1,
        }
    }

    /// llama.cpp's `general.file_type` for a model mostly in this type.
    pub fn file_type(self) -> u32 {
        match self {
            Quant::Q4_0 => 2,
            Quant::Q4_1 => 3,
            Quant::Q8_0 => 7,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Quant::Q8_0 => "q8_0",
            Quant::Q4_0 => "q4_0",
            Quant::Q4_1 => "q4_1",
        }
    }
}

/// Why values could not be quantized.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum QuantError {
    #[error(
        "{elements} values are not a whole number of 32-element blocks; only tensors whose \
         rows are multiples of 32 can be quantized"
    )]
    PartialBlock { elements: usize },
}

/// Quantizes `values` (row-major, rows a multiple of 32 long) into `quant` blocks.
pub fn quantize(quant: Quant, values: &[f32]) -> Result<Vec<u8>, QuantError> {
    if !values.len().is_multiple_of(BLOCK) {
        return Err(QuantError::PartialBlock {
            elements: values.len(),
        });
    }
    let mut out = Vec::with_capacity(values.len() / BLOCK * 34);
    for x in values.chunks_exact(BLOCK) {
        match quant {
            Quant::Q8_0 => q8_0(x, &mut out),
            Quant::Q4_0 => q4_0(x, &mut out),
            Quant::Q4_1 => q4_1(x, &mut out),
        }
    }
    Ok(out)
}

/// The reciprocal used to scale into steps; zero for an all-zero block.
fn inverse(d: f32) -> f32 {
    if d != 0.0 { 1.0 / d } else { 0.0 }
}

/// `d = max|x| / 127`, `q = round(x / d)`.
fn q8_0(x: &[f32], out: &mut Vec<u8>) {
    let amax = x.iter().fold(0f32, |m, v| m.max(v.abs()));
    let d = amax / 127.0;
    let id = inverse(d);
    out.extend(f16::from_f32(d).to_le_bytes());
    out.extend(x.iter().map(|&v| (v * id).round() as i8 as u8));
}

/// The signed value of largest magnitude maps to -8: `d = max / -8`,
/// `q = min(15, trunc(x / d + 8.5))`; element `j` in the low nibble of byte
/// `j`, element `j + 16` in its high nibble.
fn q4_0(x: &[f32], out: &mut Vec<u8>) {
    let max = x
        .iter()
        .fold(0f32, |m, &v| if v.abs() > m.abs() { v } else { m });
    let d = max / -8.0;
    let id = inverse(d);
    out.extend(f16::from_f32(d).to_le_bytes());
    let q = |v: f32| ((v * id + 8.5) as i8).min(15) as u8;
    out.extend((0..16).map(|j| q(x[j]) | (q(x[j + 16]) << 4)));
}

/// `d = (max - min) / 15`, `m = min`, `q = min(15, trunc((x - min) / d + 0.5))`.
fn q4_1(x: &[f32], out: &mut Vec<u8>) {
    let (min, max) = x
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    let d = (max - min) / 15.0;
    let id = inverse(d);
    out.extend(f16::from_f32(d).to_le_bytes());
    out.extend(f16::from_f32(min).to_le_bytes());
    let q = |v: f32| (((v - min) * id + 0.5) as i8).min(15) as u8;
    out.extend((0..16).map(|j| q(x[j]) | (q(x[j + 16]) << 4)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gguf::dequantize;

    /// Deterministic values with a spread of magnitudes and signs per block.
    fn values(n: usize, seed: u64) -> Vec<f32> {
        let mut s = seed;
        (0..n)
            .map(|i| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let u = (s >> 40) as f32 / (1u64 << 24) as f32 - 0.5;
                u * (1.0 + (i / 32 % 7) as f32)
            })
            .collect()
    }

    fn step_and_min(quant: Quant, block: &[u8]) -> (f32, f32) {
        let d = f16::from_le_bytes([block[0], block[1]]).to_f32().abs();
        let m = match quant {
            Quant::Q4_1 => f16::from_le_bytes([block[2], block[3]]).to_f32(),
            _ => 0.0,
        };
        (d, m)
    }

    #[test]
    fn every_value_comes_back_within_half_a_step_of_its_block() {
        for quant in [Quant::Q8_0, Quant::Q4_0, Quant::Q4_1] {
            let x = values(32 * 64, 7);
            let bytes = quantize(quant, &x).unwrap();
            let ty = quant.ggml_type();
            let block_bytes = ty.layout().unwrap().bytes;
            assert_eq!(bytes.len(), 64 * block_bytes, "{quant:?} block size");
            let y = dequantize(ty, &bytes, x.len()).unwrap();
            for (n, (xs, ys)) in x.chunks(32).zip(y.chunks(32)).enumerate() {
                let block = &bytes[n * block_bytes..(n + 1) * block_bytes];
                let (d, m) = step_and_min(quant, block);
                // The scale (and Q4_1's minimum) are rounded to f16 after the
                // values were scaled: allow that rounding, times the largest
                // step count, on top of half a step.
                let steps = if quant == Quant::Q8_0 { 127.0 } else { 15.0 };
                let slack = (steps * d + m.abs()) / 1024.0 + 1e-6;
                for (j, (&a, &b)) in xs.iter().zip(ys).enumerate() {
                    let err = (a - b).abs();
                    let clamped = quant == Quant::Q4_0 && {
                        let q = if j < 16 {
                            block[2 + j] & 15
                        } else {
                            block[2 + j - 16] >> 4
                        };
                        q == 15
                    };
                    let bound = if clamped { d } else { d / 2.0 };
                    assert!(
                        err <= bound + slack,
                        "{quant:?} block {n} element {j}: {a} came back as {b} (step {d})"
                    );
                }
            }
        }
    }

    #[test]
    fn the_extreme_of_each_block_is_exact_up_to_the_f16_scale() {
        let x = values(32, 3);
        let amax = x.iter().fold(0f32, |m, v| m.max(v.abs()));
        let y = dequantize(GgmlType::Q8_0, &quantize(Quant::Q8_0, &x).unwrap(), 32).unwrap();
        let i = x.iter().position(|v| v.abs() == amax).unwrap();
        assert!((y[i] - x[i]).abs() <= amax * 1e-3, "{} vs {}", y[i], x[i]);
    }

    #[test]
    fn an_all_zero_block_quantizes_to_zeros() {
        for quant in [Quant::Q8_0, Quant::Q4_0, Quant::Q4_1] {
            let y =
                dequantize(quant.ggml_type(), &quantize(quant, &[0.0; 32]).unwrap(), 32).unwrap();
            assert!(y.iter().all(|&v| v == 0.0), "{quant:?}: {y:?}");
        }
    }

    #[test]
    fn nibbles_follow_ggml_order_low_half_then_high_half() {
        // Q4_1 of 0..32 with step 31/15: element j in the low nibble of byte
        // j, element j + 16 in the high nibble.
        let x: Vec<f32> = (0..32).map(|i| i as f32).collect();
        let b = quantize(Quant::Q4_1, &x).unwrap();
        assert_eq!(b.len(), 20);
        assert_eq!(b[4] & 15, 0, "element 0");
        assert_eq!(b[4] >> 4, 8, "element 16: round(16 * 15 / 31)");
        assert_eq!(b[19] >> 4, 15, "element 31");
    }

    #[test]
    fn a_partial_block_is_refused() {
        assert_eq!(
            quantize(Quant::Q8_0, &[1.0; 40]),
            Err(QuantError::PartialBlock { elements: 40 })
        );
    }
}

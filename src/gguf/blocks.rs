//! GGUF's Q8_0, Q4_0 and Q4_1 matrices in the form the device keeps them
//! ([`BlockFormat`]): per row, the blocks' values `q` (Q8_0's bytes, or the
//! 4-bit formats' nibble bytes as the file has them, which
//! [`BlockTensor::widened_q`] widens to a byte each), f16 scales and (Q4_1)
//! f16 offsets, one scale and offset per 32 values. Scales, offsets and
//! values are moved apart so that each part is one array on the device;
//! nothing is rounded, so the weights are the file's exactly.

use half::f16;

use super::names::unpermute_rows;
use super::types::GgmlType;
use crate::types::BlockFormat;

const BLOCK: usize = crate::types::BLOCK as usize;

/// One matrix `[rows, cols]` in device blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockTensor {
    pub format: BlockFormat,
    pub rows: usize,
    pub cols: usize,
    /// `rows * cols / 32 * format.q_bytes(true)` bytes: Q8_0's values, or
    /// the 4-bit formats' packed nibbles.
    pub q: Vec<u8>,
    /// `rows * cols / 32` little-endian f16 scales.
    pub d: Vec<u8>,
    /// Offsets like `d`, for [`BlockFormat::Q4_1`].
    pub m: Option<Vec<u8>>,
}

impl BlockTensor {
    /// The blocks of a GGML tensor of type `ty` (`data`: its bytes, `rows`
    /// rows of `cols`), or `None` for a type the device does not keep in
    /// blocks (it is then dequantized to a float type).
    pub fn from_ggml(ty: GgmlType, data: &[u8], rows: usize, cols: usize) -> Option<Self> {
        let (format, bytes) = match ty {
            GgmlType::Q8_0 => (BlockFormat::Q8_0, 34),
            GgmlType::Q4_0 => (BlockFormat::Q4_0, 18),
            GgmlType::Q4_1 => (BlockFormat::Q4_1, 20),
            _ => return None,
        };
        if !cols.is_multiple_of(BLOCK) || data.len() != rows * cols / BLOCK * bytes {
            return None;
        }
        let blocks = rows * cols / BLOCK;
        let mut q = Vec::with_capacity(blocks * format.q_bytes(true) as usize);
        let mut d = Vec::with_capacity(blocks * 2);
        let mut m = format.has_offset().then(|| Vec::with_capacity(blocks * 2));
        for b in data.chunks_exact(bytes) {
            d.extend_from_slice(&b[0..2]);
            match &mut m {
                Some(m) => {
                    m.extend_from_slice(&b[2..4]);
                    q.extend_from_slice(&b[4..]);
                }
                None => q.extend_from_slice(&b[2..]),
            }
        }
        Some(BlockTensor {
            format,
            rows,
            cols,
            q,
            d,
            m,
        })
    }

    /// The same matrix with its rows in Hugging Face rotary order (see
    /// [`unpermute_rows`]): rows move whole, blocks and all.
    pub fn unpermute_rows(self, heads: usize) -> Self {
        let per_row = |v: &[u8], width: usize| unpermute_rows(v, heads, width);
        let blocks = self.cols / BLOCK;
        BlockTensor {
            q: per_row(&self.q, blocks * self.format.q_bytes(true) as usize),
            d: per_row(&self.d, blocks * 2),
            m: self.m.as_ref().map(|m| per_row(m, blocks * 2)),
            ..self
        }
    }

    /// The bytes of part `q`, `d` or `m` ([`BlockFormat::parts`]), `q` with
    /// `q_bytes` bytes per block (packed or widened, see [`BlockFormat`]).
    pub fn part(&self, name: &str, q_bytes: usize) -> Option<std::borrow::Cow<'_, [u8]>> {
        use std::borrow::Cow;
        match name {
            "q" if q_bytes == self.format.q_bytes(true) as usize => Some(Cow::Borrowed(&self.q)),
            "q" if q_bytes == BLOCK => Some(Cow::Owned(self.widened_q())),
            "d" => Some(Cow::Borrowed(&self.d)),
            "m" => self.m.as_deref().map(Cow::Borrowed),
            _ => None,
        }
    }

    /// `q` with one byte per value: Q8_0's as they are, Q4_0's
    /// `nibble - 8` as i8, Q4_1's `nibble`.
    pub fn widened_q(&self) -> Vec<u8> {
        if !self.format.is_4bit() {
            return self.q.clone();
        }
        let bias = if self.format == BlockFormat::Q4_0 {
            8
        } else {
            0
        };
        self.q
            .chunks_exact(BLOCK / 2)
            .flat_map(|b| (0..BLOCK).map(move |j| (nibble(b, j) as i8 - bias) as u8))
            .collect()
    }

    /// The f32 values, computed as the device computes them: `d * q (+ m)`.
    pub fn to_f32(&self) -> Vec<f32> {
        let half = |v: &[u8], i: usize| f16::from_le_bytes([v[2 * i], v[2 * i + 1]]).to_f32();
        let per_block = self.format.q_bytes(true) as usize;
        (0..self.rows * self.cols)
            .map(|i| {
                let (b, j) = (i / BLOCK, i % BLOCK);
                let bytes = &self.q[b * per_block..(b + 1) * per_block];
                let q = match self.format {
                    BlockFormat::Q8_0 => bytes[j] as i8 as f32,
                    BlockFormat::Q4_0 => nibble(bytes, j) as f32 - 8.0,
                    BlockFormat::Q4_1 => nibble(bytes, j) as f32,
                };
                let w = q * half(&self.d, b);
                match &self.m {
                    Some(m) => w + half(m, b),
                    None => w,
                }
            })
            .collect()
    }
}

/// Value `j` (0..32) of a block's 16 GGML nibble bytes: the low nibble of
/// byte `j`, or for `j >= 16` the high nibble of byte `j - 16`.
fn nibble(bytes: &[u8], j: usize) -> u8 {
    if j < BLOCK / 2 {
        bytes[j] & 0x0F
    } else {
        bytes[j - BLOCK / 2] >> 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gguf::dequantize;

    /// Random blocks of `ty` with sane f16 scales.
    fn blocks(ty: GgmlType, n: usize, seed: u64) -> Vec<u8> {
        let size = ty.layout().unwrap().bytes;
        let mut s = seed;
        let mut out: Vec<u8> = (0..n * size)
            .map(|_| {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
                (s >> 56) as u8
            })
            .collect();
        let scales = if ty == GgmlType::Q4_1 { 2 } else { 1 };
        for (i, b) in out.chunks_exact_mut(size).enumerate() {
            for k in 0..scales {
                let v = f16::from_f32(0.01 * (i as f32 + 1.0) * if k == 0 { 1.0 } else { -0.7 });
                b[2 * k..2 * k + 2].copy_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    #[test]
    fn device_blocks_hold_exactly_the_values_the_dequantizer_gives() {
        for ty in [GgmlType::Q8_0, GgmlType::Q4_0, GgmlType::Q4_1] {
            let (rows, cols) = (6, 64);
            let data = blocks(ty, rows * cols / 32, 5);
            let t = BlockTensor::from_ggml(ty, &data, rows, cols).unwrap();
            let want = dequantize(ty, &data, rows * cols).unwrap();
            assert_eq!(t.to_f32(), want, "{ty}");
        }
    }

    #[test]
    fn widened_values_times_scales_are_the_dequantized_values() {
        let half = |v: &[u8], i: usize| f16::from_le_bytes([v[2 * i], v[2 * i + 1]]).to_f32();
        for ty in [GgmlType::Q8_0, GgmlType::Q4_0, GgmlType::Q4_1] {
            let (rows, cols) = (3, 64);
            let data = blocks(ty, rows * cols / 32, 7);
            let t = BlockTensor::from_ggml(ty, &data, rows, cols).unwrap();
            let widened = t.widened_q();
            assert_eq!(widened.len(), rows * cols, "{ty}");
            let values: Vec<f32> = widened
                .iter()
                .enumerate()
                .map(|(i, &q)| {
                    let w = q as i8 as f32 * half(&t.d, i / 32);
                    t.m.as_ref().map_or(w, |m| w + half(m, i / 32))
                })
                .collect();
            assert_eq!(values, dequantize(ty, &data, rows * cols).unwrap(), "{ty}");
            assert_eq!(t.part("q", 32).unwrap().as_ref(), &widened[..], "{ty}");
        }
    }

    #[test]
    fn rows_permute_whole_like_the_dequantized_rows() {
        let (rows, cols, heads) = (8, 64, 2);
        let data = blocks(GgmlType::Q4_1, rows * cols / 32, 9);
        let t = BlockTensor::from_ggml(GgmlType::Q4_1, &data, rows, cols).unwrap();
        let want = unpermute_rows(
            &dequantize(GgmlType::Q4_1, &data, rows * cols).unwrap(),
            heads,
            cols,
        );
        assert_eq!(t.unpermute_rows(heads).to_f32(), want);
    }

    #[test]
    fn other_types_are_not_kept_in_blocks() {
        assert!(BlockTensor::from_ggml(GgmlType::Q6_K, &[0; 210], 1, 256).is_none());
        assert!(BlockTensor::from_ggml(GgmlType::F16, &[0; 64], 1, 32).is_none());
    }
}

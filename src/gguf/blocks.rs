//! GGUF's Q8_0, Q4_0 and Q4_1 matrices in the form the device keeps them
//! ([`BlockFormat`]): per row, i8 values, f16 scales and (Q4_1) f16 offsets,
//! one scale and offset per 32 values. The weights are the file's exactly:
//! Q4_0's `(nibble - 8) * d` becomes `q * d` with `q = nibble - 8`; Q4_1's
//! `nibble * d + m` keeps its nibble as `q`.

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
    /// `rows * cols` signed bytes.
    pub q: Vec<u8>,
    /// `rows * cols / 32` little-endian f16 scales.
    pub d: Vec<u8>,
    /// Offsets like `d`, for [`BlockFormat::ScaledOffset`].
    pub m: Option<Vec<u8>>,
}

impl BlockTensor {
    /// The blocks of a GGML tensor of type `ty` (`data`: its bytes, `rows`
    /// rows of `cols`), or `None` for a type the device does not keep in
    /// blocks (it is then dequantized to a float type).
    pub fn from_ggml(ty: GgmlType, data: &[u8], rows: usize, cols: usize) -> Option<Self> {
        let (format, bytes) = match ty {
            GgmlType::Q8_0 => (BlockFormat::Scaled, 34),
            GgmlType::Q4_0 => (BlockFormat::Scaled, 18),
            GgmlType::Q4_1 => (BlockFormat::ScaledOffset, 20),
            _ => return None,
        };
        if !cols.is_multiple_of(BLOCK) || data.len() != rows * cols / BLOCK * bytes {
            return None;
        }
        let blocks = rows * cols / BLOCK;
        let mut q = Vec::with_capacity(rows * cols);
        let mut d = Vec::with_capacity(blocks * 2);
        let mut m = (format == BlockFormat::ScaledOffset).then(|| Vec::with_capacity(blocks * 2));
        for b in data.chunks_exact(bytes) {
            d.extend_from_slice(&b[0..2]);
            match ty {
                GgmlType::Q8_0 => q.extend_from_slice(&b[2..34]),
                GgmlType::Q4_0 => nibbles(&b[2..18], 8, &mut q),
                _ => {
                    m.as_mut()
                        .expect("Q4_1 has offsets")
                        .extend_from_slice(&b[2..4]);
                    nibbles(&b[4..20], 0, &mut q);
                }
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
            q: per_row(&self.q, self.cols),
            d: per_row(&self.d, blocks * 2),
            m: self.m.as_ref().map(|m| per_row(m, blocks * 2)),
            ..self
        }
    }

    /// The bytes of part `q`, `d` or `m` ([`BlockFormat::parts`]).
    pub fn part(&self, name: &str) -> Option<&[u8]> {
        match name {
            "q" => Some(&self.q),
            "d" => Some(&self.d),
            "m" => self.m.as_deref(),
            _ => None,
        }
    }

    /// The f32 values, computed as the device computes them: `d * q (+ m)`.
    pub fn to_f32(&self) -> Vec<f32> {
        let half = |v: &[u8], i: usize| f16::from_le_bytes([v[2 * i], v[2 * i + 1]]).to_f32();
        self.q
            .iter()
            .enumerate()
            .map(|(i, &q)| {
                let b = i / BLOCK;
                let w = q as i8 as f32 * half(&self.d, b);
                match &self.m {
                    Some(m) => w + half(m, b),
                    None => w,
                }
            })
            .collect()
    }
}

/// Appends the 32 values of 16 GGML nibble bytes (element `j` in the low
/// nibble of byte `j`, element `j + 16` in its high nibble) less `offset`.
fn nibbles(qs: &[u8], offset: i8, q: &mut Vec<u8>) {
    q.extend(qs.iter().map(|&b| ((b & 0x0F) as i8 - offset) as u8));
    q.extend(qs.iter().map(|&b| ((b >> 4) as i8 - offset) as u8));
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

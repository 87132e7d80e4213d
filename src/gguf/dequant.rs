//! Dequantization of GGML blocks to f32, following the block layouts and the
//! arithmetic of llama.cpp's reference (`ggml-quants.c`): every product is
//! formed in f32 in the same order, so results equal llama.cpp's and the
//! PyPI `gguf` package's numpy dequantizers (checked by tests/gguf.rs).

use half::{bf16, f16};

use super::types::GgmlType;

/// Why bytes could not be dequantized.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DequantError {
    #[error(
        "tensor type {0} cannot be dequantized by iree-llm (supported: F32, F16, BF16, Q8_0, \
         Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K); re-quantize the model to one of these"
    )]
    Unsupported(GgmlType),
    #[error("{elements} elements are not a whole number of {ty} blocks of {block}")]
    PartialBlock {
        ty: GgmlType,
        elements: usize,
        block: usize,
    },
    #[error("{ty} data of {elements} elements needs {needed} bytes, found {found}")]
    Length {
        ty: GgmlType,
        elements: usize,
        needed: usize,
        found: usize,
    },
}

/// Bytes that `elements` values of type `ty` occupy.
pub fn byte_len(ty: GgmlType, elements: usize) -> Result<usize, DequantError> {
    let l = ty.layout().ok_or(DequantError::Unsupported(ty))?;
    if !elements.is_multiple_of(l.elements) {
        return Err(DequantError::PartialBlock {
            ty,
            elements,
            block: l.elements,
        });
    }
    Ok(elements / l.elements * l.bytes)
}

/// Dequantizes `elements` values of type `ty` from `data` into f32.
pub fn dequantize(ty: GgmlType, data: &[u8], elements: usize) -> Result<Vec<f32>, DequantError> {
    let needed = byte_len(ty, elements)?;
    if data.len() != needed {
        return Err(DequantError::Length {
            ty,
            elements,
            needed,
            found: data.len(),
        });
    }
    let mut out = vec![0f32; elements];
    let l = ty.layout().expect("checked by byte_len");
    let blocks = data
        .chunks_exact(l.bytes)
        .zip(out.chunks_exact_mut(l.elements));
    match ty {
        GgmlType::F32 => {
            blocks.for_each(|(b, y)| y[0] = f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        }
        GgmlType::F16 => blocks.for_each(|(b, y)| y[0] = f16::from_le_bytes([b[0], b[1]]).to_f32()),
        GgmlType::BF16 => {
            blocks.for_each(|(b, y)| y[0] = bf16::from_le_bytes([b[0], b[1]]).to_f32())
        }
        GgmlType::Q4_0 => blocks.for_each(|(b, y)| q4_0(b, y)),
        GgmlType::Q4_1 => blocks.for_each(|(b, y)| q4_1(b, y)),
        GgmlType::Q5_0 => blocks.for_each(|(b, y)| q5_0(b, y)),
        GgmlType::Q5_1 => blocks.for_each(|(b, y)| q5_1(b, y)),
        GgmlType::Q8_0 => blocks.for_each(|(b, y)| q8_0(b, y)),
        GgmlType::Q4_K => blocks.for_each(|(b, y)| q4_k(b, y)),
        GgmlType::Q5_K => blocks.for_each(|(b, y)| q5_k(b, y)),
        GgmlType::Q6_K => blocks.for_each(|(b, y)| q6_k(b, y)),
        other => return Err(DequantError::Unsupported(other)),
    }
    Ok(out)
}

fn half_at(b: &[u8], at: usize) -> f32 {
    f16::from_le_bytes([b[at], b[at + 1]]).to_f32()
}

/// `d: f16, qs: [u8; 16]`: low nibbles are elements 0..16, high nibbles 16..32, offset 8.
fn q4_0(b: &[u8], y: &mut [f32]) {
    let d = half_at(b, 0);
    let qs = &b[2..18];
    for j in 0..16 {
        y[j] = ((qs[j] & 0x0F) as i32 - 8) as f32 * d;
        y[j + 16] = ((qs[j] >> 4) as i32 - 8) as f32 * d;
    }
}

/// `d: f16, m: f16, qs: [u8; 16]`: `q * d + m`.
fn q4_1(b: &[u8], y: &mut [f32]) {
    let (d, m) = (half_at(b, 0), half_at(b, 2));
    let qs = &b[4..20];
    for j in 0..16 {
        y[j] = (qs[j] & 0x0F) as f32 * d + m;
        y[j + 16] = (qs[j] >> 4) as f32 * d + m;
    }
}

/// The fifth bits of a Q5 block: bit `j` belongs to element `j`, bit `j + 16` to `j + 16`.
fn fifth_bits(qh: u32, j: usize) -> (u8, u8) {
    let lo = (((qh >> j) << 4) & 0x10) as u8;
    let hi = ((qh >> (j + 12)) & 0x10) as u8;
    (lo, hi)
}

/// `d: f16, qh: u32, qs: [u8; 16]`: 5-bit values offset 16.
fn q5_0(b: &[u8], y: &mut [f32]) {
    let d = half_at(b, 0);
    let qh = u32::from_le_bytes([b[2], b[3], b[4], b[5]]);
    let qs = &b[6..22];
    for j in 0..16 {
        let (lo, hi) = fifth_bits(qh, j);
        y[j] = (((qs[j] & 0x0F) | lo) as i32 - 16) as f32 * d;
        y[j + 16] = (((qs[j] >> 4) | hi) as i32 - 16) as f32 * d;
    }
}

/// `d: f16, m: f16, qh: u32, qs: [u8; 16]`: 5-bit values, `q * d + m`.
fn q5_1(b: &[u8], y: &mut [f32]) {
    let (d, m) = (half_at(b, 0), half_at(b, 2));
    let qh = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
    let qs = &b[8..24];
    for j in 0..16 {
        let (lo, hi) = fifth_bits(qh, j);
        y[j] = ((qs[j] & 0x0F) | lo) as f32 * d + m;
        y[j + 16] = ((qs[j] >> 4) | hi) as f32 * d + m;
    }
}

/// `d: f16, qs: [i8; 32]`.
fn q8_0(b: &[u8], y: &mut [f32]) {
    let d = half_at(b, 0);
    for (yi, &q) in y.iter_mut().zip(&b[2..34]) {
        *yi = q as i8 as f32 * d;
    }
}

/// The 6-bit scale and min of sub-block `j` (0..8) packed in a K-quant's 12 scale bytes.
fn scale_min_k4(j: usize, q: &[u8]) -> (u8, u8) {
    if j < 4 {
        (q[j] & 63, q[j + 4] & 63)
    } else {
        (
            (q[j + 4] & 0x0F) | ((q[j - 4] >> 6) << 4),
            (q[j + 4] >> 4) | ((q[j] >> 6) << 4),
        )
    }
}

/// `d: f16, dmin: f16, scales: [u8; 12], qs: [u8; 128]`: eight sub-blocks of
/// 32, each `d * scale * q - dmin * min`; sub-block pairs share 32 bytes of nibbles.
fn q4_k(b: &[u8], y: &mut [f32]) {
    let (d, dmin) = (half_at(b, 0), half_at(b, 2));
    let scales = &b[4..16];
    let qs = &b[16..144];
    for chunk in 0..4 {
        let q = &qs[chunk * 32..chunk * 32 + 32];
        let (sc1, m1) = scale_min_k4(2 * chunk, scales);
        let (sc2, m2) = scale_min_k4(2 * chunk + 1, scales);
        let (d1, m1) = (d * sc1 as f32, dmin * m1 as f32);
        let (d2, m2) = (d * sc2 as f32, dmin * m2 as f32);
        let out = &mut y[chunk * 64..chunk * 64 + 64];
        for l in 0..32 {
            out[l] = d1 * (q[l] & 0x0F) as f32 - m1;
            out[l + 32] = d2 * (q[l] >> 4) as f32 - m2;
        }
    }
}

/// `d: f16, dmin: f16, scales: [u8; 12], qh: [u8; 32], qs: [u8; 128]`: as Q4_K
/// with a fifth bit per element from `qh` (bit `2 * chunk` and `2 * chunk + 1`).
fn q5_k(b: &[u8], y: &mut [f32]) {
    let (d, dmin) = (half_at(b, 0), half_at(b, 2));
    let scales = &b[4..16];
    let qh = &b[16..48];
    let qs = &b[48..176];
    for chunk in 0..4 {
        let ql = &qs[chunk * 32..chunk * 32 + 32];
        let (u1, u2) = (1u8 << (2 * chunk), 1u8 << (2 * chunk + 1));
        let (sc1, m1) = scale_min_k4(2 * chunk, scales);
        let (sc2, m2) = scale_min_k4(2 * chunk + 1, scales);
        let (d1, m1) = (d * sc1 as f32, dmin * m1 as f32);
        let (d2, m2) = (d * sc2 as f32, dmin * m2 as f32);
        let out = &mut y[chunk * 64..chunk * 64 + 64];
        for l in 0..32 {
            let h1 = if qh[l] & u1 != 0 { 16 } else { 0 };
            let h2 = if qh[l] & u2 != 0 { 16 } else { 0 };
            out[l] = d1 * ((ql[l] & 0x0F) + h1) as f32 - m1;
            out[l + 32] = d2 * ((ql[l] >> 4) + h2) as f32 - m2;
        }
    }
}

/// `ql: [u8; 128], qh: [u8; 64], scales: [i8; 16], d: f16`: 6-bit values
/// offset 32, sixteen sub-blocks of 16 with signed 8-bit scales.
fn q6_k(b: &[u8], y: &mut [f32]) {
    let d = half_at(b, 208);
    for half in 0..2 {
        let ql = &b[half * 64..half * 64 + 64];
        let qh = &b[128 + half * 32..128 + half * 32 + 32];
        let sc = &b[192 + half * 8..192 + half * 8 + 8];
        let out = &mut y[half * 128..half * 128 + 128];
        for l in 0..32 {
            let is = l / 16;
            let q1 = ((ql[l] & 0x0F) | ((qh[l] & 3) << 4)) as i32 - 32;
            let q2 = ((ql[l + 32] & 0x0F) | (((qh[l] >> 2) & 3) << 4)) as i32 - 32;
            let q3 = ((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) as i32 - 32;
            let q4 = ((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) as i32 - 32;
            let s = |k: usize| d * (sc[k] as i8) as f32;
            out[l] = s(is) * q1 as f32;
            out[l + 32] = s(is + 2) * q2 as f32;
            out[l + 64] = s(is + 4) * q3 as f32;
            out[l + 96] = s(is + 6) * q4 as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_block_is_an_error_naming_the_type() {
        let e = dequantize(GgmlType::Q4_0, &[0; 18], 31).unwrap_err();
        assert!(e.to_string().contains("Q4_0"), "{e}");
    }

    #[test]
    fn an_unsupported_type_is_named_in_the_error() {
        let e = dequantize(GgmlType(16), &[], 0).unwrap_err();
        assert!(e.to_string().contains("IQ2_XXS"), "{e}");
    }

    #[test]
    fn q8_0_scales_signed_bytes() {
        let mut b = vec![0u8; 34];
        b[..2].copy_from_slice(&f16::from_f32(0.5).to_le_bytes());
        b[2] = 0xFE; // -2
        b[3] = 3;
        let y = dequantize(GgmlType::Q8_0, &b, 32).unwrap();
        assert_eq!(&y[..3], &[-1.0, 1.5, 0.0]);
    }
}

//! The logit element types a row may come in: `f32`, `half::f16`, `half::bf16`.

use half::slice::HalfFloatSliceExt;
use half::{bf16, f16};

/// An element type of a logits buffer. Half-precision rows are widened to
/// `f32` exactly (every f16 and bf16 value is an f32 value) into a scratch
/// buffer; `f32` rows are used in place.
pub trait Logit: Copy + Send + Sync + 'static + private::Sealed {
    /// Name of the type, for messages.
    const NAME: &'static str;

    /// `row` as `f32`: either `row` itself or `row` converted into the front
    /// of `scratch` (which must be at least as long as `row`).
    fn as_f32<'a>(row: &'a [Self], scratch: &'a mut [f32]) -> &'a [f32];

    /// Writes `row` as `f32` into `dst` (of the same length): one pass,
    /// for callers that change the row afterwards.
    fn widen_into(row: &[Self], dst: &mut [f32]);
}

impl Logit for f32 {
    const NAME: &'static str = "f32";

    #[inline]
    fn as_f32<'a>(row: &'a [f32], _scratch: &'a mut [f32]) -> &'a [f32] {
        row
    }

    fn widen_into(row: &[f32], dst: &mut [f32]) {
        dst.copy_from_slice(row);
    }
}

impl Logit for f16 {
    const NAME: &'static str = "f16";

    fn as_f32<'a>(row: &'a [f16], scratch: &'a mut [f32]) -> &'a [f32] {
        let dst = &mut scratch[..row.len()];
        row.convert_to_f32_slice(dst);
        dst
    }

    fn widen_into(row: &[f16], dst: &mut [f32]) {
        row.convert_to_f32_slice(dst);
    }
}

impl Logit for bf16 {
    const NAME: &'static str = "bf16";

    fn as_f32<'a>(row: &'a [bf16], scratch: &'a mut [f32]) -> &'a [f32] {
        let dst = &mut scratch[..row.len()];
        row.convert_to_f32_slice(dst);
        dst
    }

    fn widen_into(row: &[bf16], dst: &mut [f32]) {
        row.convert_to_f32_slice(dst);
    }
}

mod private {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for half::f16 {}
    impl Sealed for half::bf16 {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_types_widen_exactly_and_keep_special_values() {
        let src = [1.5f32, -0.0, f32::NEG_INFINITY, f32::NAN, 65504.0];
        let h: Vec<f16> = src.iter().map(|&v| f16::from_f32(v)).collect();
        let b: Vec<bf16> = src.iter().map(|&v| bf16::from_f32(v)).collect();
        let mut scratch = [0.0f32; 8];
        let hf = f16::as_f32(&h, &mut scratch).to_vec();
        let bf = bf16::as_f32(&b, &mut scratch).to_vec();
        for got in [hf, bf] {
            assert_eq!(got.len(), 5);
            assert_eq!(got[0], 1.5);
            assert!(got[1] == 0.0 && got[1].is_sign_negative());
            assert_eq!(got[2], f32::NEG_INFINITY);
            assert!(got[3].is_nan());
        }
    }

    #[test]
    fn f32_rows_are_borrowed_not_copied() {
        let row = [1.0f32, 2.0];
        let mut scratch = [0.0f32; 0];
        let got = f32::as_f32(&row, &mut scratch);
        assert!(std::ptr::eq(got, &row[..]));
    }
}

//! Constants and element-wise ops: arithmetic, conversions, comparisons and
//! `select`. None of them moves elements between positions, so they sit apart
//! from the shape and indexing ops.

use super::{Cmp, FuncBuilder, TensorType, Value, float_literal};
use crate::types::DType;

impl FuncBuilder {
    // ---- constants ---------------------------------------------------------------

    /// A tensor of `shape` filled with the float `v`.
    pub fn splat_f(&mut self, v: f64, shape: &[i64], elem: DType) -> Value {
        assert!(elem.is_float(), "splat_f of {elem:?}");
        let ty = TensorType::new(shape, elem);
        let lit = float_literal(v, elem);
        self.emit(
            ty.clone(),
            format!("stablehlo.constant dense<{lit}> : {ty}"),
        )
    }

    /// A tensor of `shape` filled with the integer `v`.
    pub fn splat_i32(&mut self, v: i32, shape: &[i64]) -> Value {
        self.splat_int(v.into(), shape, DType::I32)
    }

    /// A tensor of `shape` and integer type `elem` filled with `v`.
    pub fn splat_int(&mut self, v: i64, shape: &[i64], elem: DType) -> Value {
        assert!(!elem.is_float(), "splat_int of {elem:?}");
        let ty = TensorType::new(shape, elem);
        self.emit(ty.clone(), format!("stablehlo.constant dense<{v}> : {ty}"))
    }

    /// Negative infinity of a float type, as a scalar.
    pub fn neg_inf(&mut self, elem: DType) -> Value {
        self.splat_f(f64::NEG_INFINITY, &[], elem)
    }

    // ---- elementwise ---------------------------------------------------------------

    fn binary(&mut self, op: &str, a: &Value, b: &Value) -> Value {
        assert_eq!(a.ty, b.ty, "stablehlo.{op}: operand types differ");
        let ty = a.ty.clone();
        self.emit(
            ty.clone(),
            format!("stablehlo.{op} {}, {} : {ty}", a.name, b.name),
        )
    }

    pub fn add(&mut self, a: &Value, b: &Value) -> Value {
        self.binary("add", a, b)
    }
    pub fn sub(&mut self, a: &Value, b: &Value) -> Value {
        self.binary("subtract", a, b)
    }
    pub fn mul(&mut self, a: &Value, b: &Value) -> Value {
        self.binary("multiply", a, b)
    }
    pub fn div(&mut self, a: &Value, b: &Value) -> Value {
        self.binary("divide", a, b)
    }
    pub fn max(&mut self, a: &Value, b: &Value) -> Value {
        self.binary("maximum", a, b)
    }
    pub fn and(&mut self, a: &Value, b: &Value) -> Value {
        self.binary("and", a, b)
    }
    pub fn or(&mut self, a: &Value, b: &Value) -> Value {
        self.binary("or", a, b)
    }
    pub fn xor(&mut self, a: &Value, b: &Value) -> Value {
        self.binary("xor", a, b)
    }
    /// Integer `a >> b` filling with zeros (an i32 read as unsigned bits).
    pub fn shift_right_logical(&mut self, a: &Value, b: &Value) -> Value {
        self.binary("shift_right_logical", a, b)
    }

    fn unary(&mut self, op: &str, a: &Value) -> Value {
        let ty = a.ty.clone();
        self.emit(ty.clone(), format!("stablehlo.{op} {} : {ty}", a.name))
    }

    pub fn exp(&mut self, a: &Value) -> Value {
        self.unary("exponential", a)
    }
    pub fn log(&mut self, a: &Value) -> Value {
        self.unary("log", a)
    }
    pub fn rsqrt(&mut self, a: &Value) -> Value {
        self.unary("rsqrt", a)
    }
    pub fn logistic(&mut self, a: &Value) -> Value {
        self.unary("logistic", a)
    }
    pub fn negate(&mut self, a: &Value) -> Value {
        self.unary("negate", a)
    }

    pub fn convert(&mut self, a: &Value, elem: DType) -> Value {
        if a.elem() == elem {
            return a.clone();
        }
        let ty = a.ty.with_elem(elem);
        self.emit(
            ty.clone(),
            format!("stablehlo.convert {} : ({}) -> {ty}", a.name, a.ty),
        )
    }

    /// `stablehlo.bitcast_convert` to an element type of the same width.
    pub fn bitcast_convert(&mut self, a: &Value, elem: DType) -> Value {
        assert_eq!(
            a.elem().size_bytes(),
            elem.size_bytes(),
            "bitcast_convert widths"
        );
        let ty = a.ty.with_elem(elem);
        self.emit(
            ty.clone(),
            format!("stablehlo.bitcast_convert {} : ({}) -> {ty}", a.name, a.ty),
        )
    }

    pub fn compare(&mut self, dir: Cmp, a: &Value, b: &Value) -> Value {
        assert_eq!(a.ty, b.ty, "stablehlo.compare: operand types differ");
        let ty = a.ty.with_elem(DType::I1);
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.compare {}, {}, {} : ({}, {}) -> {ty}",
                dir.mlir(),
                a.name,
                b.name,
                a.ty,
                b.ty
            ),
        )
    }

    pub fn select(&mut self, pred: &Value, a: &Value, b: &Value) -> Value {
        assert_eq!(a.ty, b.ty, "stablehlo.select: branch types differ");
        assert_eq!(
            pred.elem(),
            DType::I1,
            "stablehlo.select: predicate is not i1"
        );
        assert!(
            pred.shape() == a.shape() || pred.shape().is_empty(),
            "stablehlo.select: predicate shape {:?} vs {:?}",
            pred.shape(),
            a.shape()
        );
        let ty = a.ty.clone();
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.select {}, {}, {} : {}, {ty}",
                pred.name, a.name, b.name, pred.ty
            ),
        )
    }
}

//! Contractions (`stablehlo.dot_general`) and reductions (`stablehlo.reduce`,
//! `argmax_last`): the ops that fold dimensions away, apart from the ops that
//! keep or merely rearrange their operands' elements.

use std::fmt::Write;

use super::{Cmp, FuncBuilder, TensorType, Value, list};
use crate::types::DType;

impl FuncBuilder {
    /// `stablehlo.dot_general`. The result dimensions are the batch
    /// dimensions, then `a`'s free dimensions, then `b`'s free dimensions.
    pub fn dot_general(
        &mut self,
        a: &Value,
        b: &Value,
        batch: (&[i64], &[i64]),
        contract: (&[i64], &[i64]),
    ) -> Value {
        self.dot_general_as(a, b, batch, contract, a.elem())
    }

    /// [`dot_general`](Self::dot_general) with a result of type `result`,
    /// e.g. an f32 accumulation of bf16 operands.
    pub fn dot_general_as(
        &mut self,
        a: &Value,
        b: &Value,
        batch: (&[i64], &[i64]),
        contract: (&[i64], &[i64]),
        result: DType,
    ) -> Value {
        assert_eq!(a.elem(), b.elem(), "dot_general element types differ");
        assert_eq!(batch.0.len(), batch.1.len());
        assert_eq!(contract.0.len(), contract.1.len());
        for (x, y) in batch.0.iter().zip(batch.1) {
            assert_eq!(
                a.shape()[*x as usize],
                b.shape()[*y as usize],
                "dot_general batch dims"
            );
        }
        for (x, y) in contract.0.iter().zip(contract.1) {
            assert_eq!(
                a.shape()[*x as usize],
                b.shape()[*y as usize],
                "dot_general contracting dims of {:?} and {:?}",
                a.shape(),
                b.shape()
            );
        }
        let free = |v: &Value, bd: &[i64], cd: &[i64]| -> Vec<i64> {
            (0..v.ty.rank() as i64)
                .filter(|d| !bd.contains(d) && !cd.contains(d))
                .map(|d| v.shape()[d as usize])
                .collect()
        };
        let mut shape: Vec<i64> = batch.0.iter().map(|&d| a.shape()[d as usize]).collect();
        shape.extend(free(a, batch.0, contract.0));
        shape.extend(free(b, batch.1, contract.1));
        let ty = TensorType::new(&shape, result);
        let batching = if batch.0.is_empty() {
            String::new()
        } else {
            format!(
                "batching_dims = [{}] x [{}], ",
                list(batch.0),
                list(batch.1)
            )
        };
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.dot_general {}, {}, {batching}contracting_dims = [{}] x [{}] : ({}, {}) -> {ty}",
                a.name,
                b.name,
                list(contract.0),
                list(contract.1),
                a.ty,
                b.ty
            ),
        )
    }

    fn reduce(&mut self, op: &str, a: &Value, init: f64, dims: &[i64]) -> Value {
        let z = self.splat_f(init, &[], a.elem());
        self.reduce_from(op, a, &z, dims)
    }

    fn reduce_from(&mut self, op: &str, a: &Value, z: &Value, dims: &[i64]) -> Value {
        let shape: Vec<i64> = (0..a.ty.rank() as i64)
            .filter(|d| !dims.contains(d))
            .map(|d| a.shape()[d as usize])
            .collect();
        let ty = a.ty.with_shape(&shape);
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.reduce({} init: {}) applies stablehlo.{op} across dimensions = [{}] : ({}, {}) -> {ty}",
                a.name,
                z.name,
                list(dims),
                a.ty,
                z.ty
            ),
        )
    }

    pub fn reduce_sum(&mut self, a: &Value, dims: &[i64]) -> Value {
        self.reduce("add", a, 0.0, dims)
    }

    pub fn reduce_max(&mut self, a: &Value, dims: &[i64]) -> Value {
        self.reduce("maximum", a, f64::NEG_INFINITY, dims)
    }

    pub fn reduce_min(&mut self, a: &Value, dims: &[i64]) -> Value {
        self.reduce("minimum", a, f64::INFINITY, dims)
    }

    /// Index of the maximum along the last dimension as i32, the lowest
    /// index winning ties (a two-operand reduce over value and index).
    pub fn argmax_last(&mut self, a: &Value) -> Value {
        let rank = a.ty.rank() as i64;
        let elem = a.elem();
        let iota = self.iota(a.shape(), rank - 1);
        let init_v = self.neg_inf(elem);
        let init_i = self.splat_i32(0, &[]);
        let out_shape: Vec<i64> = a.shape()[..a.ty.rank() - 1].to_vec();
        let vty = a.ty.with_shape(&out_shape);
        let ity = TensorType::new(&out_shape, DType::I32);
        let r = self.fresh(ity.clone());

        // The reducer keeps the larger value, and on equal values the lower
        // index, so ties go to the lowest token id as on the host.
        let mut red = self.region();
        let scalar = |name: &str, elem| Value {
            name: format!("%{name}"),
            ty: TensorType::new(&[], elem),
        };
        let (lhs_v, rhs_v) = (scalar("lhs_v", elem), scalar("rhs_v", elem));
        let (lhs_i, rhs_i) = (scalar("lhs_i", DType::I32), scalar("rhs_i", DType::I32));
        let gt = red.name_next("gt").compare(Cmp::Gt, &lhs_v, &rhs_v);
        let eq = red.name_next("eq").compare(Cmp::Eq, &lhs_v, &rhs_v);
        let lt = red.name_next("lt").compare(Cmp::Lt, &lhs_i, &rhs_i);
        let tie = red.name_next("tie").and(&eq, &lt);
        let pick = red.name_next("pick").or(&gt, &tie);
        let v = red.name_next("v").select(&pick, &lhs_v, &rhs_v);
        let i = red.name_next("i").select(&pick, &lhs_i, &rhs_i);

        let _ = writeln!(
            self.body,
            "    {r}:2 = stablehlo.reduce({a} init: {iv}), ({io} init: {ii}) across dimensions = [{dim}] : ({aty}, {ioty}, {vt}, {it}) -> ({vty}, {ity})\n\
             \x20    reducer({lv}: {vt}, {rv}: {vt}) ({li}: {it}, {ri}: {it}) {{\n\
             {body}\
             \x20     stablehlo.return {v}, {i} : {vt}, {it}\n\
             \x20   }}",
            r = r.name,
            a = a.name,
            iv = init_v.name,
            io = iota.name,
            ii = init_i.name,
            dim = rank - 1,
            aty = a.ty,
            ioty = iota.ty,
            vt = lhs_v.ty,
            it = lhs_i.ty,
            lv = lhs_v.name,
            rv = rhs_v.name,
            li = lhs_i.name,
            ri = rhs_i.name,
            body = red.body,
            v = v.name,
            i = i.name,
        );
        Value {
            name: format!("{}#1", r.name),
            ty: ity,
        }
    }
}

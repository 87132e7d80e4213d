//! Ops that move elements without computing on them: reshapes, transposes,
//! broadcasts, slices, concatenation, `iota`, and the dynamic slices,
//! gathers and scatters that index by device-computed values.

use std::fmt::Write;

use super::{FuncBuilder, TensorType, Value, list};
use crate::types::DType;

impl FuncBuilder {
    pub fn reshape(&mut self, a: &Value, shape: &[i64]) -> Value {
        let ty = a.ty.with_shape(shape);
        assert_eq!(
            ty.numel(),
            a.ty.numel(),
            "reshape {:?} -> {shape:?}",
            a.shape()
        );
        if ty == a.ty {
            return a.clone();
        }
        self.emit(
            ty.clone(),
            format!("stablehlo.reshape {} : ({}) -> {ty}", a.name, a.ty),
        )
    }

    pub fn transpose(&mut self, a: &Value, perm: &[i64]) -> Value {
        assert_eq!(
            perm.len(),
            a.ty.rank(),
            "transpose perm {perm:?} for {:?}",
            a.shape()
        );
        let shape: Vec<i64> = perm.iter().map(|&p| a.shape()[p as usize]).collect();
        let ty = a.ty.with_shape(&shape);
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.transpose {}, dims = [{}] : ({}) -> {ty}",
                a.name,
                list(perm),
                a.ty
            ),
        )
    }

    /// Broadcasts `a` to `shape`; operand dimension i maps to result
    /// dimension `dims[i]`.
    pub fn broadcast(&mut self, a: &Value, shape: &[i64], dims: &[i64]) -> Value {
        assert_eq!(
            dims.len(),
            a.ty.rank(),
            "broadcast dims {dims:?} for {:?}",
            a.shape()
        );
        for (i, &d) in dims.iter().enumerate() {
            let (from, to) = (a.shape()[i], shape[d as usize]);
            assert!(
                from == to || from == 1,
                "broadcast {:?} -> {shape:?} via {dims:?}",
                a.shape()
            );
        }
        let ty = a.ty.with_shape(shape);
        if ty == a.ty && dims.iter().enumerate().all(|(i, &d)| i as i64 == d) {
            return a.clone();
        }
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.broadcast_in_dim {}, dims = [{}] : ({}) -> {ty}",
                a.name,
                list(dims),
                a.ty
            ),
        )
    }

    /// Static slice `[start, limit)` in every dimension.
    pub fn slice(&mut self, a: &Value, start: &[i64], limit: &[i64]) -> Value {
        assert_eq!(start.len(), a.ty.rank());
        assert_eq!(limit.len(), a.ty.rank());
        let shape: Vec<i64> = start.iter().zip(limit).map(|(s, l)| l - s).collect();
        for (i, (&s, &l)) in start.iter().zip(limit).enumerate() {
            assert!(
                0 <= s && s <= l && l <= a.shape()[i],
                "slice {start:?}..{limit:?} of {:?}",
                a.shape()
            );
        }
        let ty = a.ty.with_shape(&shape);
        if ty == a.ty {
            return a.clone();
        }
        let ranges: Vec<String> = start
            .iter()
            .zip(limit)
            .map(|(s, l)| format!("{s}:{l}"))
            .collect();
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.slice {} [{}] : ({}) -> {ty}",
                a.name,
                ranges.join(", "),
                a.ty
            ),
        )
    }

    /// `a` with the order of its elements reversed along each of `dims`.
    pub fn reverse(&mut self, a: &Value, dims: &[i64]) -> Value {
        assert!(dims.iter().all(|&d| 0 <= d && (d as usize) < a.ty.rank()));
        let ty = a.ty.clone();
        self.emit(
            ty.clone(),
            format!(
                "\"stablehlo.reverse\"({}) {{dimensions = array<i64: {}>}} : ({ty}) -> {ty}",
                a.name,
                list(dims)
            ),
        )
    }

    pub fn concatenate(&mut self, parts: &[Value], dim: i64) -> Value {
        assert!(!parts.is_empty());
        if parts.len() == 1 {
            return parts[0].clone();
        }
        let mut shape = parts[0].shape().to_vec();
        shape[dim as usize] = parts.iter().map(|p| p.shape()[dim as usize]).sum();
        let ty = parts[0].ty.with_shape(&shape);
        let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
        let types: Vec<String> = parts.iter().map(|p| p.ty.to_string()).collect();
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.concatenate {}, dim = {dim} : ({}) -> {ty}",
                names.join(", "),
                types.join(", ")
            ),
        )
    }

    /// `[0, 1, ...]` along `dim` of an i32 tensor of `shape`.
    pub fn iota(&mut self, shape: &[i64], dim: i64) -> Value {
        let ty = TensorType::new(shape, DType::I32);
        self.emit(ty.clone(), format!("stablehlo.iota dim = {dim} : {ty}"))
    }

    /// Slice of `sizes` starting at the scalar i32 indices `starts`. Start
    /// indices are clamped by StableHLO; callers keep them in range.
    pub fn dynamic_slice(&mut self, a: &Value, starts: &[Value], sizes: &[i64]) -> Value {
        assert_eq!(starts.len(), a.ty.rank());
        assert!(
            starts
                .iter()
                .all(|s| s.shape().is_empty() && s.elem() == DType::I32)
        );
        let ty = a.ty.with_shape(sizes);
        let names: Vec<&str> = starts.iter().map(|s| s.name.as_str()).collect();
        let types: Vec<String> = starts.iter().map(|s| s.ty.to_string()).collect();
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.dynamic_slice {}, {}, sizes = [{}] : ({}, {}) -> {ty}",
                a.name,
                names.join(", "),
                list(sizes),
                a.ty,
                types.join(", ")
            ),
        )
    }

    /// Writes `update` into `a` at the scalar i32 indices `starts`.
    pub fn dynamic_update_slice(&mut self, a: &Value, update: &Value, starts: &[Value]) -> Value {
        assert_eq!(starts.len(), a.ty.rank());
        assert_eq!(update.ty.rank(), a.ty.rank());
        assert_eq!(update.elem(), a.elem());
        let names: Vec<&str> = starts.iter().map(|s| s.name.as_str()).collect();
        let types: Vec<String> = starts.iter().map(|s| s.ty.to_string()).collect();
        let ty = a.ty.clone();
        self.emit(
            ty.clone(),
            format!(
                "stablehlo.dynamic_update_slice {}, {}, {} : ({}, {}, {}) -> {ty}",
                a.name,
                update.name,
                names.join(", "),
                a.ty,
                update.ty,
                types.join(", ")
            ),
        )
    }

    /// `a` unchanged, computed apart from its users: IREE fuses nothing
    /// across the barrier, so `a` is made in a dispatch of its own and read
    /// from memory by the next one.
    pub fn optimization_barrier(&mut self, a: &Value) -> Value {
        self.emit(
            a.ty.clone(),
            format!("stablehlo.optimization_barrier {} : {}", a.name, a.ty),
        )
    }

    /// Writes the rows `rows` [N, D] into `a` (rank r + 1, last dimension D)
    /// at the i32 indices `idx` [N, r] of its first r dimensions; every
    /// index must be distinct. One scatter whose indices the device computes
    /// itself, so no backend has to read them back to place the rows.
    pub fn scatter_rows(&mut self, a: &Value, idx: &Value, rows: &Value) -> Value {
        let r = a.ty.rank() - 1;
        let (n, d) = (rows.shape()[0], rows.shape()[1]);
        assert_eq!(rows.ty.rank(), 2, "scatter_rows rows {:?}", rows.shape());
        assert_eq!(a.shape()[r], d, "scatter_rows row length");
        assert_eq!(idx.shape(), &[n, r as i64], "scatter_rows indices");
        assert_eq!(rows.elem(), a.elem());
        let dims = list(&(0..r as i64).collect::<Vec<_>>());
        let ty = a.ty.clone();
        let elem = TensorType::new(&[], a.elem());
        let v = self.fresh(ty.clone());
        let _ = writeln!(
            self.body,
            "{ind}{v} = \"stablehlo.scatter\"({a}, {idx}, {rows}) ({{\n\
             {ind}  ^bb0(%old: {elem}, %new: {elem}):\n\
             {ind}    stablehlo.return %new : {elem}\n\
             {ind}}}) {{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], \
             inserted_window_dims = [{dims}], scatter_dims_to_operand_dims = [{dims}], \
             index_vector_dim = 1>, indices_are_sorted = false, unique_indices = true}} \
             : ({aty}, {ity}, {rty}) -> {ty}",
            ind = self.indent,
            v = v.name,
            a = a.name,
            idx = idx.name,
            rows = rows.name,
            aty = a.ty,
            ity = idx.ty,
            rty = rows.ty,
        );
        v
    }

    /// Rows of `table` [N, D] picked by the i32 indices `idx` [M] -> [M, D].
    pub fn gather_rows(&mut self, table: &Value, idx: &Value) -> Value {
        assert_eq!(table.ty.rank(), 2, "gather_rows table {:?}", table.shape());
        assert_eq!(idx.ty.rank(), 1, "gather_rows indices {:?}", idx.shape());
        let m = idx.shape()[0];
        let d = table.shape()[1];
        let idx2 = self.reshape(idx, &[m, 1]);
        let ty = table.ty.with_shape(&[m, d]);
        self.emit(
            ty.clone(),
            format!(
                "\"stablehlo.gather\"({}, {}) {{dimension_numbers = #stablehlo.gather<offset_dims = [1], \
                 collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, \
                 slice_sizes = array<i64: 1, {d}>, indices_are_sorted = false}} : ({}, {}) -> {ty}",
                table.name, idx2.name, table.ty, idx2.ty
            ),
        )
    }

    /// Rows `idx` [M] (i32) of a matrix laid out in panels
    /// ([`crate::emit::panels`]), `table` [n/16, k/2, 16, 2]: [M, k] in the
    /// table's element type. One gather: row r is panel r / 16, lane r % 16,
    /// every pair of that lane.
    pub fn gather_panel_rows(&mut self, table: &Value, idx: &Value) -> Value {
        assert_eq!(
            table.ty.rank(),
            4,
            "gather_panel_rows table {:?}",
            table.shape()
        );
        assert_eq!(
            idx.ty.rank(),
            1,
            "gather_panel_rows indices {:?}",
            idx.shape()
        );
        let (m, panel) = (idx.shape()[0], table.shape()[2]);
        let (pairs, k) = (table.shape()[1], table.shape()[1] * table.shape()[3]);
        let panels = self.splat_int(panel, &[m], DType::I32);
        let which = self.div(idx, &panels);
        let lanes = self.splat_int(panel - 1, &[m], DType::I32);
        let lane = self.and(idx, &lanes);
        let which = self.reshape(&which, &[m, 1]);
        let lane = self.reshape(&lane, &[m, 1]);
        let starts = self.concatenate(&[which, lane], 1);
        let ty = table.ty.with_shape(&[m, pairs, 2]);
        let rows = self.emit(
            ty.clone(),
            format!(
                "\"stablehlo.gather\"({}, {}) {{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], \
                 collapsed_slice_dims = [0, 2], start_index_map = [0, 2], index_vector_dim = 1>, \
                 slice_sizes = array<i64: 1, {pairs}, 1, 2>, indices_are_sorted = false}} : ({}, {}) -> {ty}",
                table.name, starts.name, table.ty, starts.ty
            ),
        );
        self.reshape(&rows, &[m, k])
    }
}

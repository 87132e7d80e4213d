//! A small typed builder that prints StableHLO text. It tracks the shape and
//! element type of every value, hands out SSA names, and has one method per
//! op; each method checks its operands and computes the result type, so a
//! graph that builds is well-typed. Misuse is a programming error and panics
//! with the op and the offending types.

use std::fmt::Write;

use crate::types::DType;

/// A ranked tensor type; rank 0 is a scalar tensor.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TensorType {
    pub shape: Vec<i64>,
    pub elem: DType,
}

impl TensorType {
    pub fn new(shape: &[i64], elem: DType) -> Self {
        TensorType {
            shape: shape.to_vec(),
            elem,
        }
    }

    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    pub fn numel(&self) -> i64 {
        self.shape.iter().product()
    }

    pub fn with_shape(&self, shape: &[i64]) -> Self {
        TensorType::new(shape, self.elem)
    }

    pub fn with_elem(&self, elem: DType) -> Self {
        TensorType::new(&self.shape, elem)
    }
}

impl std::fmt::Display for TensorType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("tensor<")?;
        for d in &self.shape {
            write!(f, "{d}x")?;
        }
        write!(f, "{}>", self.elem.name())
    }
}

/// A hand-written GPU kernel for [`FuncBuilder::dispatch_extern_object`].
pub struct ExternKernel<'a> {
    /// The kernel's entry point in its object.
    pub name: &'a str,
    /// The executable target the object is for, e.g.
    /// `#hal.executable.target<"cuda", "cuda-nvptx-fb">`.
    pub target: &'a str,
    /// The object's bytes, embedded in the graph.
    pub object: &'a [u8],
    pub workgroup_size: [i64; 3],
    /// How much of the dispatch's workload one workgroup covers.
    pub outputs_per_workgroup: i64,
}

/// An SSA value with its type.
#[derive(Clone, Debug)]
pub struct Value {
    name: String,
    ty: TensorType,
}

impl Value {
    pub fn ty(&self) -> &TensorType {
        &self.ty
    }

    pub fn shape(&self) -> &[i64] {
        &self.ty.shape
    }

    pub fn elem(&self) -> DType {
        self.ty.elem
    }

    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Comparison directions of `stablehlo.compare`.
#[derive(Clone, Copy, Debug)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn mlir(self) -> &'static str {
        match self {
            Cmp::Eq => "EQ",
            Cmp::Ne => "NE",
            Cmp::Lt => "LT",
            Cmp::Le => "LE",
            Cmp::Gt => "GT",
            Cmp::Ge => "GE",
        }
    }
}

/// Prints a float so that MLIR parses it back to exactly `v` in `elem`.
/// Finite values use the shortest round-trip decimal of the rounded value;
/// non-finite ones use the bit pattern.
fn float_literal(v: f64, elem: DType) -> String {
    match elem {
        DType::F32 => {
            let x = v as f32;
            if x.is_finite() {
                decimal(format!("{x:e}"))
            } else {
                format!("0x{:08X}", x.to_bits())
            }
        }
        DType::F16 => {
            let x = half::f16::from_f64(v);
            if x.is_finite() {
                decimal(format!("{:e}", x.to_f32()))
            } else {
                format!("0x{:04X}", x.to_bits())
            }
        }
        DType::BF16 => {
            let x = half::bf16::from_f64(v);
            if x.is_finite() {
                decimal(format!("{:e}", x.to_f32()))
            } else {
                format!("0x{:04X}", x.to_bits())
            }
        }
        _ => panic!("float literal for {elem:?}"),
    }
}

/// MLIR float literals need a '.' before the exponent: "1e-5" -> "1.0e-5".
fn decimal(s: String) -> String {
    match s.split_once('e') {
        Some((m, e)) if !m.contains('.') => format!("{m}.0e{e}"),
        _ => s,
    }
}

fn list(xs: &[i64]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Builds one `func.func`.
pub struct FuncBuilder {
    name: String,
    args: Vec<(Value, Option<String>)>,
    body: String,
    next: usize,
    results: Option<Vec<Value>>,
    /// Indentation of an op line: a function body's, or a region's inside it.
    indent: &'static str,
    /// Name for the next value instead of a number (regions name theirs).
    next_name: Option<&'static str>,
}

impl FuncBuilder {
    pub fn new(name: &str) -> Self {
        FuncBuilder {
            name: name.to_string(),
            args: Vec::new(),
            body: String::new(),
            next: 0,
            results: None,
            indent: "    ",
            next_name: None,
        }
    }

    /// A builder for the body of a region (a reducer) nested in an op of
    /// this function: its ops are printed one level deeper.
    fn region(&self) -> Self {
        FuncBuilder {
            indent: "      ",
            ..FuncBuilder::new(&self.name)
        }
    }

    /// Names the next value `%name` (region bodies read better with names).
    fn name_next(&mut self, name: &'static str) -> &mut Self {
        self.next_name = Some(name);
        self
    }

    /// Adds a function argument. `attrs` is an optional attribute dictionary
    /// body such as `tf.aliasing_output = 1 : i32`.
    pub fn arg(&mut self, ty: TensorType, attrs: Option<String>) -> Value {
        let v = Value {
            name: format!("%arg{}", self.args.len()),
            ty,
        };
        self.args.push((v.clone(), attrs));
        v
    }

    /// Adds a `// text` line to the body, to keep the printed graph readable.
    pub fn comment(&mut self, text: &str) {
        let _ = writeln!(self.body, "    // {text}");
    }

    fn fresh(&mut self, ty: TensorType) -> Value {
        if let Some(name) = self.next_name.take() {
            return Value {
                name: format!("%{name}"),
                ty,
            };
        }
        let v = Value {
            name: format!("%{}", self.next),
            ty,
        };
        self.next += 1;
        v
    }

    fn emit(&mut self, ty: TensorType, rhs: String) -> Value {
        let v = self.fresh(ty);
        let _ = writeln!(self.body, "{}{} = {rhs}", self.indent, v.name);
        v
    }

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

    // ---- shape ---------------------------------------------------------------------

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

    // ---- calls into hand-written executables ------------------------------------------

    /// `flow.dispatch` of an export of an executable declared in the same
    /// module (see `emit::kernels`): `workload` (one or more values) sizes
    /// its workgroup count; the export's function takes one binding per
    /// tensor operand, one for the result, then the `indices` as `index`
    /// values.
    pub fn dispatch_extern(
        &mut self,
        export: &str,
        workload: &[i64],
        operands: &[Value],
        indices: &[i64],
        result: TensorType,
    ) -> Value {
        let call = self.dispatch_call(export, workload, operands, indices);
        self.emit(result.clone(), format!("{call} -> {result}"))
    }

    /// `flow.dispatch EXPORT[workload](operands, indices) : (types)`, the
    /// part of a `flow.dispatch` before its results; emits the workload's and
    /// the indices' constants.
    fn dispatch_call(
        &mut self,
        export: &str,
        workload: &[i64],
        operands: &[Value],
        indices: &[i64],
    ) -> String {
        let workload: Vec<String> = workload
            .iter()
            .map(|&w| self.scalar_constant(w, "index"))
            .collect();
        let workload = workload.join(", ");
        let mut args: Vec<String> = operands.iter().map(|v| v.name.clone()).collect();
        let mut types: Vec<String> = operands.iter().map(|v| v.ty.to_string()).collect();
        for &i in indices {
            args.push(self.scalar_constant(i, "index"));
            types.push("index".to_string());
        }
        format!(
            "flow.dispatch {export}[{workload}]({}) : ({})",
            args.join(", "),
            types.join(", ")
        )
    }

    /// [`dispatch_extern`](Self::dispatch_extern) of an export that also
    /// writes into its operand `operands[tied]` in place: returns its result
    /// and that operand updated (the same buffer, so IREE copies nothing).
    pub fn dispatch_extern_tied(
        &mut self,
        export: &str,
        workload: &[i64],
        operands: &[Value],
        indices: &[i64],
        result: TensorType,
        tied: usize,
    ) -> (Value, Value) {
        let call = self.dispatch_call(export, workload, operands, indices);
        let updated = &operands[tied];
        let r = self.fresh(result.clone());
        let _ = writeln!(
            self.body,
            "{}{}:2 = {call} -> ({result}, {})",
            self.indent, r.name, updated.name
        );
        (
            Value {
                name: format!("{}#0", r.name),
                ty: result,
            },
            Value {
                name: format!("{}#1", r.name),
                ty: updated.ty.clone(),
            },
        )
    }

    /// `flow.dispatch` of an export whose only result is its operand
    /// `operands[tied]` written in place: returns that operand updated (the
    /// same buffer).
    pub fn dispatch_extern_in_place(
        &mut self,
        export: &str,
        workload: &[i64],
        operands: &[Value],
        indices: &[i64],
        tied: usize,
    ) -> Value {
        let call = self.dispatch_call(export, workload, operands, indices);
        let updated = &operands[tied];
        let ty = updated.ty.clone();
        let line = format!("{call} -> {}", updated.name);
        self.emit(ty, line)
    }

    /// An `arith.constant` scalar (`index`, `i32`: the operands of a
    /// dispatch that are not tensors); returns its name.
    fn scalar_constant(&mut self, value: i64, ty: &str) -> String {
        let name = format!("%{}", self.next);
        self.next += 1;
        let _ = writeln!(
            self.body,
            "{}{name} = arith.constant {value} : {ty}",
            self.indent
        );
        name
    }

    /// `hal.dispatch.extern` of a hand-written GPU kernel whose object
    /// (e.g. PTX text) is embedded in the graph: `operands` are its
    /// read-only bindings, the result its written one, then `constants`
    /// (32-bit). The workgroup count is `workload` divided by the
    /// kernel's outputs per workgroup, rounded up.
    pub fn dispatch_extern_object(
        &mut self,
        kernel: &ExternKernel,
        workload: i64,
        constants: &[i32],
        operands: &[Value],
        result: TensorType,
    ) -> Value {
        let n = self.scalar_constant(workload, "index");
        let mut args = Vec::new();
        let mut types = Vec::new();
        for &c in constants {
            args.push(self.scalar_constant(c.into(), "i32"));
            types.push("i32".to_string());
        }
        args.extend(operands.iter().map(|v| v.name.clone()));
        types.extend(operands.iter().map(|v| v.ty.to_string()));
        let bindings: Vec<&str> = operands
            .iter()
            .map(|_| "#hal.pipeline.binding<storage_buffer, ReadOnly>")
            .chain(["#hal.pipeline.binding<storage_buffer>"])
            .collect();
        let hex: String = kernel.object.iter().map(|b| format!("{b:02X}")).collect();
        let [wx, wy, wz] = kernel.workgroup_size;
        let rhs = format!(
            "hal.dispatch.extern \"{name}\"[{n}]({args}) : ({types}) -> {result}\n\
             {i}  count(%device: !hal.device, %workload: index) -> (index, index, index) {{\n\
             {i}    %x = affine.apply affine_map<()[s0] -> (s0 ceildiv {per})>()[%workload]\n\
             {i}    %c1 = arith.constant 1 : index\n\
             {i}    hal.return %x, %c1, %c1 : index, index, index\n\
             {i}  }}\n\
             {i}  layout(#hal.pipeline.layout<constants = {nc}, bindings = [{bindings}]>)\n\
             {i}  objects({{{target} ordinal(0) = [#hal.executable.object<{{data = dense<\"0x{hex}\"> : vector<{len}xi8>}}>]}})\n\
             {i}  <{{workgroup_size = [{wx} : index, {wy} : index, {wz} : index]}}>",
            name = kernel.name,
            args = args.join(", "),
            types = types.join(", "),
            i = self.indent,
            per = kernel.outputs_per_workgroup,
            nc = constants.len(),
            bindings = bindings.join(", "),
            target = kernel.target,
            len = kernel.object.len(),
        );
        self.emit(result, rhs)
    }

    // ---- contractions and reductions ----------------------------------------------------

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

    // ---- finishing ---------------------------------------------------------------------

    pub fn ret(&mut self, values: &[Value]) {
        assert!(
            self.results.is_none(),
            "{}: return emitted twice",
            self.name
        );
        let names: Vec<&str> = values.iter().map(|v| v.name.as_str()).collect();
        let types: Vec<String> = values.iter().map(|v| v.ty.to_string()).collect();
        let _ = writeln!(
            self.body,
            "    return {} : {}",
            names.join(", "),
            types.join(", ")
        );
        self.results = Some(values.to_vec());
    }

    /// The printed `func.func`.
    pub fn finish(self) -> String {
        let results = self
            .results
            .unwrap_or_else(|| panic!("{}: no return", self.name));
        let args: Vec<String> = self
            .args
            .iter()
            .map(|(v, attrs)| match attrs {
                Some(a) => format!("{}: {} {{{a}}}", v.name, v.ty),
                None => format!("{}: {}", v.name, v.ty),
            })
            .collect();
        let result_types: Vec<String> = results.iter().map(|v| v.ty.to_string()).collect();
        format!(
            "  func.func @{}({}) -> ({}) {{\n{}  }}\n",
            self.name,
            args.join(", "),
            result_types.join(", "),
            self.body
        )
    }
}

/// Wraps functions in `module @name { ... }`.
pub fn module(name: &str, header_comment: &str, funcs: &[String]) -> String {
    let mut out = String::new();
    for line in header_comment.lines() {
        let _ = writeln!(out, "// {line}");
    }
    let _ = writeln!(out, "module @{name} {{");
    for f in funcs {
        out.push_str(f);
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_literals_round_trip_and_always_have_a_point() {
        assert_eq!(float_literal(1e-5, DType::F32), "1.0e-5");
        assert_eq!(float_literal(0.125, DType::F32), "1.25e-1");
        assert_eq!(float_literal(f64::NEG_INFINITY, DType::F32), "0xFF800000");
        let s = float_literal(0.1, DType::F32);
        assert_eq!(s.parse::<f32>().unwrap(), 0.1f32);
    }

    #[test]
    fn types_print_as_mlir_tensors() {
        assert_eq!(
            TensorType::new(&[2, 3], DType::F32).to_string(),
            "tensor<2x3xf32>"
        );
        assert_eq!(TensorType::new(&[], DType::I32).to_string(), "tensor<i32>");
    }

    #[test]
    fn dot_general_puts_batch_then_free_dimensions() {
        let mut f = FuncBuilder::new("f");
        let a = f.arg(TensorType::new(&[8, 3, 5], DType::F32), None);
        let b = f.arg(TensorType::new(&[8, 7, 5], DType::F32), None);
        let c = f.dot_general(&a, &b, (&[0], &[0]), (&[2], &[2]));
        assert_eq!(c.shape(), &[8, 3, 7]);
    }

    #[test]
    #[should_panic(expected = "contracting dims")]
    fn mismatched_contractions_are_caught_while_building() {
        let mut f = FuncBuilder::new("f");
        let a = f.arg(TensorType::new(&[2, 3], DType::F32), None);
        let b = f.arg(TensorType::new(&[4, 2], DType::F32), None);
        f.dot_general(&a, &b, (&[], &[]), (&[1], &[1]));
    }

    #[test]
    fn a_function_prints_arguments_attributes_and_results() {
        let mut f = FuncBuilder::new("g");
        let s = f.arg(
            TensorType::new(&[4], DType::F32),
            Some("tf.aliasing_output = 0 : i32".into()),
        );
        let t = f.add(&s, &s);
        f.ret(&[t]);
        let text = f.finish();
        assert!(text.contains(
            "func.func @g(%arg0: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<4xf32>)"
        ));
        assert!(text.contains("%0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>"));
        assert!(text.contains("return %0 : tensor<4xf32>"));
    }
}

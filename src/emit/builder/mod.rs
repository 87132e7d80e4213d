//! A small typed builder that prints StableHLO text. It tracks the shape and
//! element type of every value, hands out SSA names, and has one method per
//! op; each method checks its operands and computes the result type, so a
//! graph that builds is well-typed. Misuse is a programming error and panics
//! with the op and the offending types.
//!
//! This file holds the types, the literal helpers and the builder's core
//! (arguments, names, return, printing); the ops live in the child modules,
//! one per kind of op.

use std::fmt::Write;

use crate::types::DType;

mod dispatch;
mod elementwise;
mod reduce;
mod shape;
#[cfg(test)]
mod tests;

pub use dispatch::ExternKernel;

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

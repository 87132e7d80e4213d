//! Calls into hand-written executables and kernels (`flow.dispatch`,
//! `hal.dispatch.extern`): they print IREE ops rather than StableHLO, so they
//! live apart from the ops the compiler generates code for.

use std::fmt::Write;

use super::{FuncBuilder, TensorType, Value};

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

impl FuncBuilder {
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
}

//! A hand-written CUDA kernel for the products of a few rows by a bf16
//! weight: `y = x . W^T` for `x` [R, K] f32 (R <= 8, a decode step's rows
//! or a prompt's last token) and `W` [N, K] bf16, the shape of every weight
//! product of a decode step.
//!
//! Why: IREE 3.13 lowers this product, in every form the emitter can write
//! (`NarrowRows`), to code that reads the weights at a small fraction of the
//! GPU's bandwidth: on an H100 a B=1 step of the 1B preset took 9.8 ms in
//! the best form (`reduce`, one warp per output looping over k with one
//! 16-byte load in flight), against 0.74 ms for its bytes at 3.35 TB/s, and
//! the weight products were 94% of its kernel time (docs/performance.md).
//! This kernel keeps four 16-byte weight loads per lane in flight, reads
//! each weight once for all rows, and widens bf16 to f32 exactly, so the
//! product stays in f32 like the graphs' own (only the order of the sums
//! differs).
//!
//! The kernel is PTX text generated here for one (R, K), so every loop
//! bound is a constant; the graph embeds it (`hal.dispatch.extern` with the
//! text as its object's data), so the module cache, keyed by the graph's
//! text, can never pair a module with another kernel. The CUDA driver
//! compiles the PTX for the GPU it runs on when the module loads.
//!
//! Work split ([`Split`]): a workgroup has 8 warps. For most products its
//! 256 threads split k for `COLS` adjacent outputs (weight rows), for all
//! R rows: thread i reads the weight and x vectors i, i+256, ... (8 values
//! each); each warp sums its lanes with shuffles, and the warps' sums meet
//! in shared memory. So even a 2048-output product (the attention output,
//! a 1B model's MLP down product) runs as 512 workgroups. A product with
//! many outputs (the output head) has parallelism to spare, and there each
//! warp takes two outputs over all of k, summing with shuffles alone.
//! Measured on an H100 (docs/performance.md): the 1B preset's layer
//! products took 6.6 ms a B=1 step with warps alone (0.4 TB/s) and 5.5 ms
//! split over the workgroup, while its 128256-output head took 0.88 / 1.05
//! ms (1 / 8 rows) with warps alone against 1.77 / 2.95 ms split.

use super::builder::{ExternKernel, FuncBuilder, TensorType, Value};
use crate::types::DType;

/// The most rows the kernel takes (a decode step's largest batch).
pub const MAX_ROWS: i64 = 8;
/// From this many outputs a product takes [`Split::Warp`]: its warps alone
/// are then about twice the warps an H100 keeps resident (132 SMs x 64), so
/// splitting k buys no parallelism and costs a workgroup-wide sum per
/// output. Every Llama output head is past it; no layer product of the 1B
/// preset or SmolLM2 is.
pub const WARP_SPLIT_FROM: i64 = 32768;
/// Warps in a workgroup.
const WARPS: i64 = 8;
/// Loop iterations whose weight loads are issued before any is used.
const UNROLL: i64 = 4;
/// Values of K one 16-byte weight load covers.
const VEC: i64 = 8;
const LANES: i64 = 32;

/// Whether the kernel takes `x` [rows, k] times a `w` [n, k] of this type.
pub fn takes(x: &Value, w: &Value) -> bool {
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    x.elem() == DType::F32
        && w.elem() == DType::BF16
        && (1..=MAX_ROWS).contains(&rows)
        && k % VEC == 0
        && w.shape()[1] == k
        // Offsets are 32-bit in the kernel.
        && w.shape()[0] * k * 2 < i64::from(u32::MAX)
        && rows * w.shape()[0] < i64::from(i32::MAX)
}

/// How a workgroup's warps share a product (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// The workgroup's 256 threads split k for 4 outputs.
    Workgroup,
    /// Each warp takes 2 outputs over all of k.
    Warp,
}

impl Split {
    /// The split for a product with `n` outputs.
    pub fn for_outputs(n: i64) -> Split {
        if n >= WARP_SPLIT_FROM {
            Split::Warp
        } else {
            Split::Workgroup
        }
    }

    /// Outputs one group of threads sharing k computes.
    fn cols(self) -> i64 {
        match self {
            Split::Workgroup => 4,
            Split::Warp => 2,
        }
    }

    /// Threads that split k for one group of outputs.
    fn threads(self) -> i64 {
        match self {
            Split::Workgroup => WARPS * LANES,
            Split::Warp => LANES,
        }
    }

    fn outputs_per_workgroup(self) -> i64 {
        self.cols() * WARPS * LANES / self.threads()
    }
}

/// `x . w^T` [rows, n] through the kernel (see [`takes`]), split as
/// [`Split::for_outputs`] picks; `$IREE_LLM_GPU_ROWS_SPLIT` (workgroup or
/// warp; by-outputs is the default) makes every product take one split,
/// for measuring.
pub fn rows_bf16(f: &mut FuncBuilder, x: &Value, w: &Value) -> Value {
    let forced = super::llama::gpu_form_from_env(
        "IREE_LLM_GPU_ROWS_SPLIT",
        None,
        &[
            ("by-outputs", None),
            ("workgroup", Some(Split::Workgroup)),
            ("warp", Some(Split::Warp)),
        ],
    );
    let split = forced.unwrap_or_else(|| Split::for_outputs(w.shape()[0]));
    rows_bf16_split(f, x, w, split)
}

/// `x . w^T` [rows, n] through the kernel with the given split.
pub fn rows_bf16_split(f: &mut FuncBuilder, x: &Value, w: &Value, split: Split) -> Value {
    assert!(
        takes(x, w),
        "cuda_rows::rows_bf16 of {:?} x {:?}",
        x.ty(),
        w.ty()
    );
    let (rows, k) = (x.shape()[0], x.shape()[1]);
    let n = w.shape()[0];
    let name = entry_name(rows, k, split);
    let ptx = ptx(rows, k, split);
    let kernel = ExternKernel {
        name: &name,
        target: "#hal.executable.target<\"cuda\", \"cuda-nvptx-fb\">",
        object: ptx.as_bytes(),
        workgroup_size: [WARPS * LANES, 1, 1],
        outputs_per_workgroup: split.outputs_per_workgroup(),
    };
    f.dispatch_extern_object(
        &kernel,
        n,
        &[n as i32],
        &[x.clone(), w.clone()],
        TensorType::new(&[rows, n], DType::F32),
    )
}

fn entry_name(rows: i64, k: i64, split: Split) -> String {
    match split {
        Split::Workgroup => format!("iree_llm_rows_bf16_r{rows}_k{k}"),
        Split::Warp => format!("iree_llm_rows_bf16_warps_r{rows}_k{k}"),
    }
}

/// The PTX of the kernel for `rows` rows of length `k`. Its parameters are
/// IREE's CUDA ABI for the dispatch: the bindings' device addresses (x, w,
/// y) and then the one 32-bit constant, n.
pub fn ptx(rows: i64, k: i64, split: Split) -> String {
    assert!((1..=MAX_ROWS).contains(&rows) && k % VEC == 0 && k > 0);
    let name = entry_name(rows, k, split);
    let cols = split.cols();
    let threads = split.threads(); // threads splitting k
    let vectors = k / VEC; // per row
    let full = vectors / threads; // iterations where every thread has a vector
    let tail = vectors % threads; // threads with a vector in the last one
    let (passes, rest) = (full / UNROLL, full % UNROLL);
    let w_step = threads * VEC * 2; // bytes of a row one iteration reads
    let x_step = threads * VEC * 4;
    let outputs = rows * cols; // sums each thread keeps
    let acc = |r: i64, c: i64| format!("%a{}", r * cols + c);
    // The thread's index among those splitting k: its lane, or its index
    // in the workgroup.
    let k_thread = match split {
        Split::Warp => "%r2",
        Split::Workgroup => "%r1",
    };

    let mut s = String::new();
    let mut l = |line: &str| {
        s.push_str(line);
        s.push('\n');
    };
    l("// iree-llm: y = x . W^T for f32 rows x and a bf16 weight W (src/emit/cuda_rows.rs).");
    l(".version 7.6");
    l(".target sm_80");
    l(".address_size 64");
    l("");
    if split == Split::Workgroup {
        l(&format!(
            ".shared .align 16 .b8 {name}_sums[{}];",
            WARPS * outputs * 4
        ));
        l("");
    }
    l(&format!(".visible .entry {name}("));
    l(&format!("    .param .u64 {name}_x,"));
    l(&format!("    .param .u64 {name}_w,"));
    l(&format!("    .param .u64 {name}_y,"));
    l(&format!("    .param .u32 {name}_n"));
    l(")");
    // The two splits' headers differ only as the two kernels that ran on
    // the H100 did (docs/performance.md), so each stays that exact text.
    match split {
        Split::Workgroup => l(&format!(".reqntid {}, 1, 1", WARPS * LANES)),
        Split::Warp => l(&format!(".maxntid {}, 1, 1", WARPS * LANES)),
    }
    l("{");
    l("    .reg .pred %p<4>;");
    match split {
        Split::Workgroup => l("    .reg .b32 %r<16>;"),
        Split::Warp => l("    .reg .b32 %r<12>;"),
    }
    l(&format!("    .reg .b32 %q<{}>;", UNROLL * cols * 4));
    l(&format!("    .reg .b32 %e<{}>;", cols * VEC));
    l("    .reg .b64 %rd<8>;");
    l(&format!("    .reg .b64 %wp<{cols}>;"));
    l(&format!("    .reg .b64 %xp<{rows}>;"));
    l(&format!("    .reg .f32 %a<{outputs}>;"));
    l("    .reg .f32 %x<8>;");
    l("    .reg .f32 %t;");
    l("");
    l(&format!("    ld.param.u64 %rd0, [{name}_x];"));
    l(&format!("    ld.param.u64 %rd1, [{name}_w];"));
    l(&format!("    ld.param.u64 %rd2, [{name}_y];"));
    l(&format!("    ld.param.u32 %r0, [{name}_n];"));
    l("    cvta.to.global.u64 %rd0, %rd0;");
    l("    cvta.to.global.u64 %rd1, %rd1;");
    l("    cvta.to.global.u64 %rd2, %rd2;");
    l("    mov.u32 %r1, %tid.x;");
    l("    and.b32 %r2, %r1, 31;");
    l("    shr.u32 %r3, %r1, 5;");
    l("    mov.u32 %r4, %ctaid.x;");
    match split {
        Split::Workgroup => {
            l(&format!("    mul.lo.u32 %r5, %r4, {cols};"));
            l("    // %r5: the workgroup's first output; its threads split k.");
        }
        Split::Warp => {
            l(&format!("    mad.lo.u32 %r5, %r4, {WARPS}, %r3;"));
            l(&format!("    mul.lo.u32 %r5, %r5, {cols};"));
            l("    // %r5: this warp's first output; a warp past the last has none.");
            l("    setp.ge.u32 %p0, %r5, %r0;");
            l("    @%p0 bra DONE;");
        }
    }
    l("    sub.u32 %r6, %r0, 1;");
    l(&format!("    mul.wide.u32 %rd3, {k_thread}, 16;"));
    for c in 0..cols {
        l("    // outputs past the last read the last row (and are not stored)");
        l(&format!("    add.u32 %r7, %r5, {c};"));
        l("    min.u32 %r7, %r7, %r6;");
        l(&format!("    mul.wide.u32 %rd4, %r7, {};", k * 2));
        l(&format!("    add.s64 %wp{c}, %rd1, %rd4;"));
        l(&format!("    add.s64 %wp{c}, %wp{c}, %rd3;"));
    }
    l(&format!("    mul.wide.u32 %rd5, {k_thread}, 32;"));
    l("    add.s64 %rd6, %rd0, %rd5;");
    for r in 0..rows {
        l(&format!("    add.s64 %xp{r}, %rd6, {};", r * k * 4));
    }
    for i in 0..outputs {
        l(&format!("    mov.f32 %a{i}, 0f00000000;"));
    }

    // `n` iterations at iteration offset `first`.. from the pointers,
    // optionally under a predicate (the last, partial iteration).
    let iterations = |l: &mut dyn FnMut(&str), n: i64, first: i64, pred: Option<&str>| {
        let guard = pred.map(|p| format!("@{p} ")).unwrap_or_default();
        for u in 0..n {
            for c in 0..cols {
                let q = (u * cols + c) * 4;
                if pred.is_some() {
                    for j in 0..4 {
                        l(&format!("    mov.b32 %q{}, 0;", q + j));
                    }
                }
                l(&format!(
                    "    {guard}ld.global.nc.L1::no_allocate.v4.b32 {{%q{}, %q{}, %q{}, %q{}}}, [%wp{c}+{}];",
                    q,
                    q + 1,
                    q + 2,
                    q + 3,
                    (first + u) * w_step
                ));
            }
        }
        for u in 0..n {
            for c in 0..cols {
                let q = (u * cols + c) * 4;
                for j in 0..4 {
                    // bf16 is the high half of an f32: value 2j is the low
                    // half of word j, value 2j+1 its high half.
                    l(&format!(
                        "    shl.b32 %e{}, %q{}, 16;",
                        c * VEC + 2 * j,
                        q + j
                    ));
                    l(&format!(
                        "    and.b32 %e{}, %q{}, -65536;",
                        c * VEC + 2 * j + 1,
                        q + j
                    ));
                }
            }
            for r in 0..rows {
                if pred.is_some() {
                    for i in 0..8 {
                        l(&format!("    mov.f32 %x{i}, 0f00000000;"));
                    }
                }
                let off = (first + u) * x_step;
                l(&format!(
                    "    {guard}ld.global.nc.v4.f32 {{%x0, %x1, %x2, %x3}}, [%xp{r}+{off}];"
                ));
                l(&format!(
                    "    {guard}ld.global.nc.v4.f32 {{%x4, %x5, %x6, %x7}}, [%xp{r}+{}];",
                    off + 16
                ));
                for c in 0..cols {
                    let a = acc(r, c);
                    for i in 0..VEC {
                        l(&format!(
                            "    fma.rn.f32 {a}, %x{i}, %e{}, {a};",
                            c * VEC + i
                        ));
                    }
                }
            }
        }
    };

    if passes > 0 {
        l("    mov.u32 %r8, 0;");
        l("LOOP:");
        iterations(&mut l, UNROLL, 0, None);
        for c in 0..cols {
            l(&format!("    add.s64 %wp{c}, %wp{c}, {};", UNROLL * w_step));
        }
        for r in 0..rows {
            l(&format!("    add.s64 %xp{r}, %xp{r}, {};", UNROLL * x_step));
        }
        l("    add.u32 %r8, %r8, 1;");
        l(&format!("    setp.lt.u32 %p1, %r8, {passes};"));
        l("    @%p1 bra LOOP;");
    }
    iterations(&mut l, rest, 0, None);
    if tail > 0 {
        l(&format!("    setp.lt.u32 %p2, {k_thread}, {tail};"));
        iterations(&mut l, 1, rest, Some("%p2"));
    }

    match split {
        Split::Workgroup => {
            l("    // each sum over the warp's lanes, then over the warps through shared memory")
        }
        Split::Warp => l("    // each output's lanes summed across the warp"),
    }
    for i in 0..outputs {
        for off in [16, 8, 4, 2, 1] {
            l(&format!("    shfl.sync.bfly.b32 %t, %a{i}, {off}, 31, -1;"));
            l(&format!("    add.f32 %a{i}, %a{i}, %t;"));
        }
    }
    match split {
        Split::Workgroup => workgroup_sums(&mut l, &name, rows, cols),
        Split::Warp => {
            // Lane 0 stores the warp's outputs; the first exists (the
            // warp exited early otherwise), later ones are checked.
            l("    setp.ne.u32 %p3, %r2, 0;");
            l("    @%p3 bra DONE;");
            for c in 0..cols {
                if c == 0 {
                    l("    mov.u32 %r7, %r5;");
                } else {
                    l(&format!("    add.u32 %r7, %r5, {c};"));
                    l("    setp.ge.u32 %p0, %r7, %r0;");
                    l("    @%p0 bra DONE;");
                }
                for r in 0..rows {
                    l(&format!("    mad.lo.u32 %r9, %r0, {r}, %r7;"));
                    l("    mul.wide.u32 %rd7, %r9, 4;");
                    l("    add.s64 %rd7, %rd2, %rd7;");
                    l(&format!("    st.global.f32 [%rd7], {};", acc(r, c)));
                }
            }
        }
    }
    l("DONE:");
    l("    ret;");
    l("}");
    s
}

/// The end of [`Split::Workgroup`]'s kernel: the warps' sums (in every
/// lane after the shuffles) meet in shared memory, and thread i < rows *
/// cols adds up output i and stores it.
fn workgroup_sums(l: &mut dyn FnMut(&str), name: &str, rows: i64, cols: i64) {
    let outputs = rows * cols;
    l(&format!("    mov.u32 %r9, {name}_sums;"));
    l("    setp.ne.u32 %p3, %r2, 0;");
    l("    @%p3 bra SUMMED;");
    l(&format!("    mad.lo.u32 %r10, %r3, {}, %r9;", outputs * 4));
    for i in 0..outputs {
        l(&format!("    st.shared.f32 [%r10+{}], %a{i};", i * 4));
    }
    l("SUMMED:");
    l("    bar.sync 0;");
    l(&format!("    setp.ge.u32 %p3, %r1, {outputs};"));
    l("    @%p3 bra DONE;");
    l("    // thread i < rows * COLS adds up output i: row i / COLS, column i % COLS");
    l("    shl.b32 %r10, %r1, 2;");
    l("    add.u32 %r10, %r10, %r9;");
    l("    ld.shared.f32 %a0, [%r10];");
    for w in 1..WARPS {
        l(&format!(
            "    ld.shared.f32 %t, [%r10+{}];",
            w * outputs * 4
        ));
        l("    add.f32 %a0, %a0, %t;");
    }
    l(&format!("    rem.u32 %r11, %r1, {cols};"));
    l("    add.u32 %r11, %r11, %r5;");
    l("    setp.ge.u32 %p3, %r11, %r0;");
    l("    @%p3 bra DONE;");
    l(&format!("    div.u32 %r12, %r1, {cols};"));
    l("    // y[row, column] at (row * n + column) * 4");
    l("    mad.lo.u32 %r12, %r12, %r0, %r11;");
    l("    mul.wide.u32 %rd7, %r12, 4;");
    l("    add.s64 %rd7, %rd2, %rd7;");
    l("    st.global.f32 [%rd7], %a0;");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_is_specialised_to_its_rows_and_length() {
        let text = ptx(8, 8192, Split::Workgroup);
        assert!(text.contains(".visible .entry iree_llm_rows_bf16_r8_k8192("));
        // 8192 / 8 / 256 threads = 4 iterations: one pass of four, nothing left.
        assert!(text.contains("setp.lt.u32 %p1, %r8, 1;"));
        assert!(!text.contains("%p2"));
        // 8 rows x 4 outputs, each summed over the warp in 5 shuffles.
        assert_eq!(text.matches("shfl.sync.bfly.b32").count(), 8 * 4 * 5);
        // k = 2048 is one iteration: no loop.
        assert!(!ptx(1, 2048, Split::Workgroup).contains("LOOP:"));
    }

    #[test]
    fn a_warp_alone_loops_over_all_of_k_and_sums_without_shared_memory() {
        let text = ptx(8, 2048, Split::Warp);
        assert!(text.contains(".visible .entry iree_llm_rows_bf16_warps_r8_k2048("));
        // 2048 / 8 / 32 lanes = 8 iterations: two passes of four.
        assert!(text.contains("setp.lt.u32 %p1, %r8, 2;"));
        assert!(!text.contains(".shared") && !text.contains("bar.sync"));
        // 8 rows x 2 outputs, each summed over the warp in 5 shuffles.
        assert_eq!(text.matches("shfl.sync.bfly.b32").count(), 8 * 2 * 5);
    }

    #[test]
    fn only_products_with_many_outputs_give_each_warp_its_own() {
        // Llama 3.2's and SmolLM2's output heads.
        assert_eq!(Split::for_outputs(128256), Split::Warp);
        assert_eq!(Split::for_outputs(49152), Split::Warp);
        // The 1B preset's widest layer product (gate and up stacked).
        assert_eq!(Split::for_outputs(16384), Split::Workgroup);
        assert_eq!(Split::Warp.outputs_per_workgroup(), 16);
        assert_eq!(Split::Workgroup.outputs_per_workgroup(), 4);
    }

    #[test]
    fn ptxas_accepts_the_kernel_for_every_row_count_and_the_presets_lengths() {
        // Llama 3.2 1B (2048, 8192), SmolLM2-135M (576, 1536), the tiny preset's.
        for k in [2048, 8192, 576, 1536, 64, 8] {
            for rows in 1..=MAX_ROWS {
                for split in [Split::Workgroup, Split::Warp] {
                    let what = format!("rows {rows}, k {k}, {split:?}");
                    crate::emit::ptxas::assemble(&what, &ptx(rows, k, split));
                }
            }
        }
    }

    #[test]
    fn a_length_that_leaves_threads_without_a_vector_ends_in_a_guarded_iteration() {
        // SmolLM2's hidden size: 576 / 8 = 72 vectors, one iteration in
        // which 72 of the 256 threads have one.
        let text = ptx(1, 576, Split::Workgroup);
        assert!(!text.contains("LOOP:"));
        assert!(text.contains("setp.lt.u32 %p2, %r1, 72;"));
        assert!(text.contains("@%p2 ld.global.nc.L1::no_allocate.v4.b32"));
        // A warp alone: 72 = 2 x 32 + 8, two full iterations, then 8 lanes.
        let text = ptx(1, 576, Split::Warp);
        assert!(text.contains("setp.lt.u32 %p2, %r2, 8;"));
    }
}

//! A hand-written CUDA kernel for a decode step's attention: every row's
//! query heads against its own slot's cached keys and values, the same call
//! as the CPU's kernel ([`super::kernels::decode_attention`]): `q` [b,
//! heads, d], the caches [layers, 2, b * kv_heads, capacity, d] (f32), the
//! rows' own `k`, `v` [b, kv_heads, d] and positions `pos` [b]; row i
//! attends to its cached positions below `pos[i]` and to its own key, and
//! the result is [b * kv_heads, group, d].
//!
//! Why: IREE 3.13 compiles the StableHLO forms of this attention
//! ([`super::GroupedQueries`]) to three kernels a layer that read far more
//! than the cache rows a step needs: on an H100 (1B preset, B = 8, window
//! 256, Nsight Compute with caches flushed; docs/performance.md) the
//! broadcast copy of each head's rows took 22.4 us, the scores 42 us and
//! the weighted values 34 us a layer, 1.9 ms of a 5.3 ms step, and all
//! three read the whole window, not the positions below each row's own.
//!
//! One workgroup of 256 threads per (row, key/value head) slot:
//! 1. the group's `g` queries go to shared memory; warp j computes query
//!    j's score against the row's own key;
//! 2. thread t scores positions t, t + 256, ... below the row's position,
//!    each against all `g` queries (its key row read once, 16 bytes at a
//!    time), keeps them in shared memory and asks L2 for the position's
//!    value row, which step 4 reads;
//! 3. the maximum and the sum of exponentials per query, over warps through
//!    shared memory (the scores replaced by their exponentials);
//! 4. thread t owns output t of the g x d outputs (t + 256, ... where g d is
//!    larger) and sums weight x value over the positions, eight loads in
//!    flight, adds the row's own value and divides by the sum.
//!
//! Scores are scaled by 1/sqrt(d) after the product, as the StableHLO form
//! does; exponentials use the GPU's `ex2.approx` (relative error about
//! 2^-22), so results match the f64 reference within f32 tolerances, not
//! bit for bit with IREE's form. The PTX is generated for one shape (slots,
//! kv heads, g, d, capacity, window), with the layer as the one push
//! constant, and embedded in the graph as [`super::cuda_rows`]'s is.

use super::builder::{ExternKernel, FuncBuilder, TensorType, Value};
use crate::types::DType;

const THREADS: i64 = 256;
const WARPS: i64 = THREADS / 32;
/// Static shared memory a kernel may use without opting in to more.
const SHARED_LIMIT: i64 = 48 * 1024;
/// Loads in flight per thread in the values' sum.
const UNROLL: i64 = 8;
/// log2(e), to take exp(x) as 2^(x log2 e).
const LOG2E: f32 = std::f32::consts::LOG2_E;

/// The kernel's shape: what its PTX is specialised to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttentionShape {
    /// (row, key/value head) slots: b * kv_heads.
    pub slots: i64,
    pub kv_heads: i64,
    /// Query heads per key/value head.
    pub group: i64,
    pub head_dim: i64,
    /// Positions per slot in the cache.
    pub capacity: i64,
    /// The most cached positions a row reads (the graph's window).
    pub window: i64,
}

impl AttentionShape {
    /// Bytes of shared memory: the queries, every score of the window, and
    /// the per-warp maxima and sums.
    fn shared_bytes(&self) -> i64 {
        let g = self.group;
        4 * (g * self.head_dim + g * self.window + g + 2 * WARPS * g)
    }

    fn name(&self) -> String {
        let s = self;
        format!(
            "iree_llm_attention_s{}_h{}_g{}_d{}_c{}_w{}",
            s.slots, s.kv_heads, s.group, s.head_dim, s.capacity, s.window
        )
    }
}

/// Whether the kernel takes a decode step of this shape with a cache of
/// `cache` elements: an f32 cache, heads of a multiple of 4 values up to
/// 256, and a window whose scores fit in shared memory (2048 positions for
/// 4 queries a head).
pub fn takes(shape: &AttentionShape, cache: DType) -> bool {
    cache == DType::F32
        && shape.head_dim % 4 == 0
        && (4..=256).contains(&shape.head_dim)
        && shape.group >= 1
        && shape.window >= 1
        && shape.shared_bytes() <= SHARED_LIMIT
        // Byte offsets of a layer's caches and of a slot's rows in 32 bits.
        && shape.capacity * shape.head_dim * 4 < i64::from(u32::MAX)
}

/// Layer `layer`'s attention through the kernel; operands as the module
/// doc says. Returns [b * kv_heads, group, d].
#[allow(clippy::too_many_arguments)]
pub fn decode_attention(
    f: &mut FuncBuilder,
    q: &Value,
    kv: &Value,
    k: &Value,
    v: &Value,
    pos: &Value,
    layer: i64,
    window: i64,
) -> Value {
    let (heads, d) = (q.shape()[1], q.shape()[2]);
    let kv_heads = k.shape()[1];
    let shape = AttentionShape {
        slots: kv.shape()[2],
        kv_heads,
        group: heads / kv_heads,
        head_dim: d,
        capacity: kv.shape()[3],
        window,
    };
    assert!(takes(&shape, kv.elem()), "cuda_attention of {shape:?}");
    assert_eq!(shape.slots, q.shape()[0] * kv_heads);
    let name = shape.name();
    let ptx = ptx(&shape);
    let kernel = ExternKernel {
        name: &name,
        target: "#hal.executable.target<\"cuda\", \"cuda-nvptx-fb\">",
        object: ptx.as_bytes(),
        workgroup_size: [THREADS, 1, 1],
        outputs_per_workgroup: 1,
    };
    f.dispatch_extern_object(
        &kernel,
        shape.slots,
        &[layer as i32],
        &[q.clone(), kv.clone(), k.clone(), v.clone(), pos.clone()],
        TensorType::new(&[shape.slots, shape.group, d], DType::F32),
    )
}

/// `reg` combined over the warp's 32 lanes by `op` (`add` or `max`), in
/// every lane, through `tmp`.
fn over_warp(l: &mut dyn FnMut(&str), op: &str, reg: &str, tmp: &str) {
    for off in [16, 8, 4, 2, 1] {
        l(&format!(
            "    shfl.sync.bfly.b32 {tmp}, {reg}, {off}, 31, -1;"
        ));
        l(&format!("    {op}.f32 {reg}, {reg}, {tmp};"));
    }
}

fn ceil_div(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

fn f32_hex(x: f32) -> String {
    format!("0f{:08X}", x.to_bits())
}

/// The PTX of the kernel. Its parameters are IREE's CUDA ABI for the
/// dispatch: the bindings' device addresses (q, kv, k, v, pos, out), then
/// the push constant (the layer).
pub fn ptx(s: &AttentionShape) -> String {
    assert!(s.head_dim % 4 == 0 && s.group >= 1 && s.window >= 1);
    let name = s.name();
    let (g, d, w) = (s.group, s.head_dim, s.window);
    let gd = g * d;
    // The 1/sqrt(d) the StableHLO form multiplies scores by, as f32.
    let scale = f32_hex((1.0 / (d as f64).sqrt()) as f32);
    let row_bytes = d * 4;
    let slot_bytes = s.capacity * row_bytes;

    let mut t = String::new();
    let mut l = |line: &str| {
        t.push_str(line);
        t.push('\n');
    };
    l("// iree-llm: a decode step's attention (src/emit/cuda_attention.rs).");
    l(".version 7.6");
    l(".target sm_80");
    l(".address_size 64");
    l("");
    l(&format!(".shared .align 16 .b8 {name}_q[{}];", 4 * gd));
    l(&format!(".shared .align 16 .b8 {name}_s[{}];", 4 * g * w));
    l(&format!(".shared .align 16 .b8 {name}_own[{}];", 4 * g));
    l(&format!(
        ".shared .align 16 .b8 {name}_max[{}];",
        4 * WARPS * g
    ));
    l(&format!(
        ".shared .align 16 .b8 {name}_sum[{}];",
        4 * WARPS * g
    ));
    l("");
    l(&format!(".visible .entry {name}("));
    for p in ["q", "kv", "k", "v", "pos", "out"] {
        l(&format!("    .param .u64 {name}_{p},"));
    }
    l(&format!("    .param .u32 {name}_layer"));
    l(")");
    l(&format!(".reqntid {THREADS}, 1, 1"));
    l("{");
    l("    .reg .pred %p<8>;");
    l("    .reg .b32 %r<40>;");
    l("    .reg .b64 %rd<24>;");
    l("    .reg .f32 %k<64>;");
    l("    .reg .f32 %c<4>;");
    l(&format!("    .reg .f32 %acc<{g}>;"));
    l(&format!("    .reg .f32 %m<{g}>;"));
    l(&format!("    .reg .f32 %z<{g}>;"));
    l(&format!("    .reg .f32 %vv<{UNROLL}>;"));
    l(&format!("    .reg .f32 %ww<{UNROLL}>;"));
    l("    .reg .f32 %f<8>;");
    l("");
    // %rd0..5: q, kv, k, v, pos, out (global); %r0 layer.
    for (i, p) in ["q", "kv", "k", "v", "pos", "out"].iter().enumerate() {
        l(&format!("    ld.param.u64 %rd{i}, [{name}_{p}];"));
        l(&format!("    cvta.to.global.u64 %rd{i}, %rd{i};"));
    }
    l(&format!("    ld.param.u32 %r0, [{name}_layer];"));
    l("    mov.u32 %r1, %tid.x;");
    l("    and.b32 %r2, %r1, 31;");
    l("    shr.u32 %r3, %r1, 5;");
    l("    mov.u32 %r4, %ctaid.x;");
    l("    // %r4: the slot (row i = slot / kv_heads); %r6: positions read, min(pos[i], window)");
    l(&format!("    div.u32 %r5, %r4, {};", s.kv_heads));
    l("    mul.wide.u32 %rd6, %r5, 4;");
    l("    add.s64 %rd6, %rd4, %rd6;");
    l("    ld.global.nc.u32 %r6, [%rd6];");
    l("    max.s32 %r6, %r6, 0;");
    l(&format!("    min.s32 %r6, %r6, {w};"));
    l("    // shared addresses: queries %r7, scores %r8, own scores %r9, maxima %r10, sums %r11");
    for (r, a) in [(7, "q"), (8, "s"), (9, "own"), (10, "max"), (11, "sum")] {
        l(&format!("    mov.u32 %r{r}, {name}_{a};"));
    }
    l("    // %rd7: the slot's g queries; %rd8: its own key; %rd9: its own value");
    l(&format!("    mul.wide.u32 %rd7, %r4, {};", 4 * gd));
    l("    add.s64 %rd7, %rd0, %rd7;");
    l(&format!("    mul.wide.u32 %rd8, %r4, {row_bytes};"));
    l("    add.s64 %rd9, %rd3, %rd8;");
    l("    add.s64 %rd8, %rd2, %rd8;");
    l("    // %rd10: the slot's cached keys in this layer, %rd11 its values");
    l(&format!("    mad.lo.u32 %r12, %r0, {}, %r4;", 2 * s.slots));
    l(&format!("    mul.wide.u32 %rd10, %r12, {slot_bytes};"));
    l("    add.s64 %rd10, %rd1, %rd10;");
    l(&format!(
        "    add.s64 %rd11, %rd10, {};",
        s.slots * slot_bytes
    ));

    l("    // 1. the queries to shared memory");
    l("    mul.wide.u32 %rd12, %r1, 4;");
    l("    add.s64 %rd12, %rd7, %rd12;");
    l("    shl.b32 %r13, %r1, 2;");
    l("    add.u32 %r13, %r7, %r13;");
    for u in 0..ceil_div(gd, THREADS) {
        let guarded = (u + 1) * THREADS > gd;
        let guard = if guarded {
            l(&format!("    setp.lt.u32 %p0, %r1, {};", gd - u * THREADS));
            "@%p0 "
        } else {
            ""
        };
        l(&format!(
            "    {guard}ld.global.nc.f32 %f0, [%rd12+{}];",
            u * THREADS * 4
        ));
        l(&format!(
            "    {guard}st.shared.f32 [%r13+{}], %f0;",
            u * THREADS * 4
        ));
    }
    l("    bar.sync 0;");
    l("    // warp j: query j against the row's own key, scaled, to shared memory");
    for jj in 0..ceil_div(g, WARPS) {
        l(&format!("    add.u32 %r14, %r3, {};", jj * WARPS));
        l(&format!("    setp.ge.u32 %p1, %r14, {g};"));
        l(&format!("    @%p1 bra OWN_DONE_{jj};"));
        l(&format!("    mul.lo.u32 %r15, %r14, {row_bytes};"));
        l("    add.u32 %r15, %r15, %r7;");
        l("    shl.b32 %r16, %r2, 2;");
        l("    add.u32 %r15, %r15, %r16;");
        l("    mul.wide.u32 %rd13, %r2, 4;");
        l("    add.s64 %rd13, %rd8, %rd13;");
        l("    mov.f32 %f1, 0f00000000;");
        for m in 0..ceil_div(d, 32) {
            let guarded = (m + 1) * 32 > d;
            let guard = if guarded {
                l(&format!("    setp.lt.u32 %p2, %r2, {};", d - m * 32));
                "@%p2 "
            } else {
                ""
            };
            if guarded {
                l("    mov.f32 %f2, 0f00000000;");
                l("    mov.f32 %f3, 0f00000000;");
            }
            l(&format!(
                "    {guard}ld.shared.f32 %f2, [%r15+{}];",
                m * 128
            ));
            l(&format!(
                "    {guard}ld.global.nc.f32 %f3, [%rd13+{}];",
                m * 128
            ));
            l("    fma.rn.f32 %f1, %f2, %f3, %f1;");
        }
        over_warp(&mut l, "add", "%f1", "%f2");
        l(&format!("    mul.f32 %f1, %f1, {scale};"));
        l("    setp.ne.u32 %p2, %r2, 0;");
        l("    shl.b32 %r16, %r14, 2;");
        l("    add.u32 %r16, %r16, %r9;");
        l("    @!%p2 st.shared.f32 [%r16], %f1;");
        l(&format!("OWN_DONE_{jj}:"));
    }

    l("    // 2. thread t scores positions t, t + 256, ... below %r6");
    for j in 0..g {
        l(&format!("    mov.f32 %m{j}, 0fFF800000;"));
    }
    l("    mov.u32 %r17, %r1;");
    l("SCORES:");
    l("    setp.ge.s32 %p3, %r17, %r6;");
    l("    @%p3 bra SCORED;");
    l(&format!("    mul.wide.u32 %rd14, %r17, {row_bytes};"));
    l("    add.s64 %rd15, %rd10, %rd14;");
    l("    add.s64 %rd16, %rd11, %rd14;");
    for line in 0..ceil_div(row_bytes, 128) {
        l(&format!("    prefetch.global.L2 [%rd16+{}];", line * 128));
    }
    for j in 0..g {
        l(&format!("    mov.f32 %acc{j}, 0f00000000;"));
    }
    // The key row in pieces of up to 64 values: loads first, then products.
    for piece in 0..ceil_div(d, 64) {
        let first = piece * 64;
        let count = (d - first).min(64);
        for c in 0..count / 4 {
            l(&format!(
                "    ld.global.nc.v4.f32 {{%k{}, %k{}, %k{}, %k{}}}, [%rd15+{}];",
                4 * c,
                4 * c + 1,
                4 * c + 2,
                4 * c + 3,
                (first + 4 * c) * 4
            ));
        }
        for c in 0..count / 4 {
            for j in 0..g {
                l(&format!(
                    "    ld.shared.v4.f32 {{%c0, %c1, %c2, %c3}}, [%r7+{}];",
                    (j * d + first + 4 * c) * 4
                ));
                for i in 0..4 {
                    l(&format!(
                        "    fma.rn.f32 %acc{j}, %c{i}, %k{}, %acc{j};",
                        4 * c + i
                    ));
                }
            }
        }
    }
    l("    shl.b32 %r18, %r17, 2;");
    l("    add.u32 %r18, %r18, %r8;");
    for j in 0..g {
        l(&format!("    mul.f32 %acc{j}, %acc{j}, {scale};"));
        l(&format!("    max.f32 %m{j}, %m{j}, %acc{j};"));
        l(&format!("    st.shared.f32 [%r18+{}], %acc{j};", j * w * 4));
    }
    l(&format!("    add.u32 %r17, %r17, {THREADS};"));
    l("    bra SCORES;");
    l("SCORED:");

    l("    // 3. each query's maximum: over the warp, then over the warps");
    l("    setp.ne.u32 %p4, %r2, 0;");
    l(&format!("    mul.lo.u32 %r19, %r3, {};", 4 * g));
    for j in 0..g {
        over_warp(&mut l, "max", &format!("%m{j}"), "%f0");
    }
    l("    add.u32 %r20, %r19, %r10;");
    for j in 0..g {
        l(&format!("    @!%p4 st.shared.f32 [%r20+{}], %m{j};", j * 4));
    }
    l("    bar.sync 0;");
    for j in 0..g {
        l(&format!("    ld.shared.f32 %m{j}, [%r9+{}];", j * 4));
        for wi in 0..WARPS {
            l(&format!(
                "    ld.shared.f32 %f0, [%r10+{}];",
                (wi * g + j) * 4
            ));
            l(&format!("    max.f32 %m{j}, %m{j}, %f0;"));
        }
        l(&format!("    mov.f32 %z{j}, 0f00000000;"));
    }
    l("    // the scores become exp(score - max); %z: their sums");
    l("    mov.u32 %r17, %r1;");
    l("EXPS:");
    l("    setp.ge.s32 %p3, %r17, %r6;");
    l("    @%p3 bra EXPED;");
    l("    shl.b32 %r18, %r17, 2;");
    l("    add.u32 %r18, %r18, %r8;");
    for j in 0..g {
        l(&format!("    ld.shared.f32 %f0, [%r18+{}];", j * w * 4));
        l(&format!("    sub.f32 %f0, %f0, %m{j};"));
        l(&format!("    mul.f32 %f0, %f0, {};", f32_hex(LOG2E)));
        l("    ex2.approx.ftz.f32 %f0, %f0;");
        l(&format!("    st.shared.f32 [%r18+{}], %f0;", j * w * 4));
        l(&format!("    add.f32 %z{j}, %z{j}, %f0;"));
    }
    l(&format!("    add.u32 %r17, %r17, {THREADS};"));
    l("    bra EXPS;");
    l("EXPED:");
    for j in 0..g {
        over_warp(&mut l, "add", &format!("%z{j}"), "%f0");
    }
    l("    add.u32 %r20, %r19, %r11;");
    for j in 0..g {
        l(&format!("    @!%p4 st.shared.f32 [%r20+{}], %z{j};", j * 4));
    }
    l("    bar.sync 0;");

    l("    // 4. thread t: output t (query j = t / d, value i = t % d), then t + 256, ...");
    for u in 0..ceil_div(gd, THREADS) {
        let done = format!("OUT_DONE_{u}");
        l(&format!("    add.u32 %r21, %r1, {};", u * THREADS));
        l(&format!("    setp.ge.u32 %p5, %r21, {gd};"));
        l(&format!("    @%p5 bra {done};"));
        l(&format!("    div.u32 %r22, %r21, {d};"));
        l(&format!("    rem.u32 %r23, %r21, {d};"));
        l("    // this query's maximum, own weight and sum of weights");
        l("    shl.b32 %r24, %r22, 2;");
        l("    add.u32 %r25, %r24, %r9;");
        l("    ld.shared.f32 %f4, [%r25];");
        l("    add.u32 %r25, %r24, %r10;");
        for wi in 0..WARPS {
            l(&format!("    ld.shared.f32 %f0, [%r25+{}];", wi * g * 4));
            if wi == 0 {
                l("    mov.f32 %f5, %f0;");
            } else {
                l("    max.f32 %f5, %f5, %f0;");
            }
        }
        l("    max.f32 %f5, %f5, %f4;");
        l("    sub.f32 %f4, %f4, %f5;");
        l(&format!("    mul.f32 %f4, %f4, {};", f32_hex(LOG2E)));
        l("    ex2.approx.ftz.f32 %f4, %f4;");
        l("    add.u32 %r25, %r24, %r11;");
        l("    mov.f32 %f6, %f4;");
        for wi in 0..WARPS {
            l(&format!("    ld.shared.f32 %f0, [%r25+{}];", wi * g * 4));
            l("    add.f32 %f6, %f6, %f0;");
        }
        l("    // %r26: the query's weights; %rd17: value i of position 0");
        l(&format!("    mul.lo.u32 %r26, %r22, {};", w * 4));
        l("    add.u32 %r26, %r26, %r8;");
        l("    mul.wide.u32 %rd17, %r23, 4;");
        l("    add.s64 %rd17, %rd11, %rd17;");
        l("    mov.f32 %f1, 0f00000000;");
        l("    mov.f32 %f2, 0f00000000;");
        l("    mov.u32 %r27, 0;");
        l(&format!("VALUES_{u}:"));
        l(&format!("    add.u32 %r28, %r27, {UNROLL};"));
        l("    setp.gt.s32 %p6, %r28, %r6;");
        l(&format!("    @%p6 bra VALUES_TAIL_{u};"));
        for i in 0..UNROLL {
            l(&format!(
                "    ld.global.nc.f32 %vv{i}, [%rd17+{}];",
                i * row_bytes
            ));
        }
        for i in 0..UNROLL {
            l(&format!("    ld.shared.f32 %ww{i}, [%r26+{}];", i * 4));
        }
        for i in 0..UNROLL {
            let a = if i % 2 == 0 { "%f1" } else { "%f2" };
            l(&format!("    fma.rn.f32 {a}, %ww{i}, %vv{i}, {a};"));
        }
        l("    mov.u32 %r27, %r28;");
        l(&format!(
            "    add.s64 %rd17, %rd17, {};",
            UNROLL * row_bytes
        ));
        l(&format!("    add.u32 %r26, %r26, {};", UNROLL * 4));
        l(&format!("    bra VALUES_{u};"));
        l(&format!("VALUES_TAIL_{u}:"));
        l("    setp.ge.s32 %p6, %r27, %r6;");
        l(&format!("    @%p6 bra VALUES_END_{u};"));
        l("    ld.global.nc.f32 %vv0, [%rd17];");
        l("    ld.shared.f32 %ww0, [%r26];");
        l("    fma.rn.f32 %f1, %ww0, %vv0, %f1;");
        l("    add.u32 %r27, %r27, 1;");
        l(&format!("    add.s64 %rd17, %rd17, {row_bytes};"));
        l("    add.u32 %r26, %r26, 4;");
        l(&format!("    bra VALUES_TAIL_{u};"));
        l(&format!("VALUES_END_{u}:"));
        l("    add.f32 %f1, %f1, %f2;");
        l("    // the row's own value, then the division by the sum");
        l("    mul.wide.u32 %rd18, %r23, 4;");
        l("    add.s64 %rd18, %rd9, %rd18;");
        l("    ld.global.nc.f32 %f3, [%rd18];");
        l("    fma.rn.f32 %f1, %f4, %f3, %f1;");
        l("    div.rn.f32 %f1, %f1, %f6;");
        l(&format!("    mad.lo.u32 %r29, %r4, {gd}, %r21;"));
        l("    mul.wide.u32 %rd19, %r29, 4;");
        l("    add.s64 %rd19, %rd5, %rd19;");
        l("    st.global.f32 [%rd19], %f1;");
        l(&format!("{done}:"));
    }
    l("    ret;");
    l("}");
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(g: i64, d: i64, window: i64) -> AttentionShape {
        AttentionShape {
            slots: 8 * 8,
            kv_heads: 8,
            group: g,
            head_dim: d,
            capacity: 2048,
            window,
        }
    }

    #[test]
    fn the_kernel_takes_windows_whose_scores_fit_in_shared_memory() {
        // The 1B preset: 4 queries a head of 64, the whole 2048 window.
        assert!(takes(&shape(4, 64, 2048), DType::F32));
        // Its f16 cache takes IREE's forms.
        assert!(!takes(&shape(4, 64, 256), DType::F16));
        // 8 queries a head over 2048 positions: 64 KiB of scores.
        assert!(!takes(&shape(8, 64, 2048), DType::F32));
        assert!(takes(&shape(8, 128, 1024), DType::F32));
        assert!(!takes(&shape(4, 6, 256), DType::F32));
    }

    #[test]
    fn each_output_beyond_a_workgroup_s_threads_has_a_pass_of_its_own() {
        // g d = 256: one pass; 4 x 128 = 512: two, the second unguarded.
        assert!(ptx(&shape(4, 64, 256)).contains("OUT_DONE_0:"));
        assert!(!ptx(&shape(4, 64, 256)).contains("OUT_DONE_1:"));
        assert!(ptx(&shape(4, 128, 256)).contains("OUT_DONE_1:"));
        // SmolLM2: 3 x 64 = 192 outputs, the queries' load guarded.
        let text = ptx(&shape(3, 64, 256));
        assert!(text.contains("setp.lt.u32 %p0, %r1, 192;"));
    }

    #[test]
    fn ptxas_accepts_the_kernel_for_the_presets_and_smollm2_without_spilling() {
        // The 1B preset, SmolLM2-135M, the tiny preset, heads of 128.
        for (g, d) in [(4, 64), (3, 64), (2, 16), (4, 128), (8, 128)] {
            for window in [64, 256, 1024, 2048] {
                let s = AttentionShape {
                    slots: 24,
                    kv_heads: 3,
                    group: g,
                    head_dim: d,
                    capacity: 2048,
                    window,
                };
                if !takes(&s, DType::F32) {
                    continue;
                }
                let log = crate::emit::ptxas::assemble(&format!("{s:?}"), &ptx(&s));
                assert!(
                    log.contains(" 0 bytes spill stores"),
                    "{s:?} spills registers: {log}"
                );
            }
        }
    }
}

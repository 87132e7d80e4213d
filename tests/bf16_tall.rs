//! The bf16 panel products' tall tiles (csrc/kernels/x86_64_avx512_bf16_tall.h),
//! which take 9 to 48 rows of x (a decode step carrying a prompt's chunk),
//! sum every row exactly as the 8-row tiles of a plain step do: a row's
//! result does not depend on how many rows share the call. That is what
//! keeps a carrying step's decode rows bit for bit a plain step's, and the
//! model-level test of it (tests/graphs.rs) cannot see the order of a
//! product's sums through a tiny model's residual stream; here the product
//! is the graph's output.
//!
//! Each call's rows also match an f64 product of the bf16-rounded inputs
//! within f32 rounding, and rows past the live count are zero. Only CPUs
//! with AVX512-BF16 run these kernels. On CPUs with AMX-BF16 the graphs
//! take the AMX panel kernel instead (csrc/kernels/x86_64_amx_bf16.h), which
//! takes every row count in tiles, and the same checks hold for it.

mod common;

use rand_core::Rng;

use iree_llm::compile::Target;
use iree_llm::emit::builder::{self, FuncBuilder, TensorType};
use iree_llm::emit::{Kernels, kernels, panels};
use iree_llm::runtime::{Instance, Session};
use iree_llm::sampler::SplitMix64;
use iree_llm::types::{DType, DeviceKind};

/// (n, k): SmolLM2's k, a down projection's k of five 1,024-value spans
/// (the last a partial one), the 1B's; n in whole panels, an even number
/// of them (the gated kernel's gate and up halves). On two threads a
/// workgroup takes 2, 2, 1 and 3 panels: tiles of two panels, of one, and
/// both in one call.
const SHAPES: [(i64, i64); 4] = [(64, 576), (64, 4608), (32, 2048), (96, 576)];

/// Row counts through the tall tiles: one tile of two panels at a time (9,
/// 12) or of one (16, 24), two of 15 and 20, the most the emitter sends
/// (48, two of 24).
const TALL_ROWS: [i64; 7] = [9, 12, 16, 24, 30, 40, 48];

/// One product of x [rows, k] f32 (rounded to bf16 by the kernel's caller)
/// and a weight in panels: `x . W^T` [rows, n] f32, or with `gated` the
/// activation `silu(x . Wg^T) * (x . Wu^T)` [rows, n / 2] widened from bf16;
/// with `live` an i32 [1] argument saying how many rows are real.
fn product_graph(name: &str, rows: i64, n: i64, k: i64, gated: bool, live: bool) -> String {
    let mut f = FuncBuilder::new(name);
    let x = f.arg(TensorType::new(&[rows, k], DType::F32), None);
    let w = f.arg(TensorType::new(&panels::shape(n, k), DType::BF16), None);
    let live = live.then(|| f.arg(TensorType::new(&[1], DType::I32), None));
    let y = if gated {
        let act = kernels::bf16_panels_silu_bf16(&mut f, &x, &w, live.as_ref());
        f.convert(&act, DType::F32)
    } else {
        kernels::bf16_panels_bf16(&mut f, &x, &w, live.as_ref())
    };
    f.ret(&[y]);
    let func = f.finish();
    builder::module(
        name,
        "one bf16 panel product (tests/bf16_tall.rs)",
        &[kernels::declarations(&func), func],
    )
}

/// Deterministic values in [-1, 1), already bf16 (the top half of f32s).
fn bf16_values(seed: u64, count: usize) -> Vec<f32> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| {
            let v = (rng.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0;
            f32::from_bits(v.to_bits() & 0xffff_0000)
        })
        .collect()
}

struct Product<'a> {
    session: &'a mut Session,
    name: String,
    n: i64,
    k: i64,
    gated: bool,
    live: bool,
}

impl Product<'_> {
    fn new<'a>(
        session: &'a mut Session,
        rows: i64,
        (n, k): (i64, i64),
        gated: bool,
        live: bool,
    ) -> Product<'a> {
        let kind = if gated { "gated" } else { "product" };
        let name = format!(
            "{kind}_r{rows}_n{n}_k{k}{}",
            if live { "_live" } else { "" }
        );
        let mlir = product_graph(&name, rows, n, k, gated, live);
        let module = common::test_cache()
            .get_or_compile(
                &common::compiler(),
                &Target::new(DeviceKind::Cpu),
                &name,
                &mlir,
            )
            .unwrap();
        session.load_module(&module.path).unwrap();
        Product {
            session,
            name,
            n,
            k,
            gated,
            live,
        }
    }

    /// The graph's output for x [rows, k] and the row-major weight w [n, k],
    /// `live` rows of x real.
    fn run(&mut self, x: &[f32], w: &[f32], live: i32) -> Vec<f32> {
        let (n, k) = (self.n, self.k);
        let rows = x.len() as i64 / k;
        let w_bytes: Vec<u8> = w
            .iter()
            .flat_map(|v| ((v.to_bits() >> 16) as u16).to_le_bytes())
            .collect();
        let panels = panels::relayout(&w_bytes, n as usize, k as usize);
        let xb = self.session.upload(&[rows, k], x).unwrap();
        let wb = self
            .session
            .upload_bytes(DType::BF16, &panels::shape(n, k), &panels)
            .unwrap();
        let lb = self.session.upload(&[1], &[live]).unwrap();
        let function = self
            .session
            .function(&format!("{0}.{0}", self.name))
            .unwrap();
        let args = if self.live {
            vec![&xb, &wb, &lb]
        } else {
            vec![&xb, &wb]
        };
        let out = self.session.call(&function, &args).unwrap();
        let y: Vec<f32> = self.session.read(&out[0]).unwrap();
        let width = if self.gated { n / 2 } else { n };
        assert_eq!(y.len() as i64, rows * width, "{}", self.name);
        y
    }
}

/// A local-task session, where this CPU runs the AVX512-BF16 kernels.
fn bf16_session() -> Option<Session> {
    if !Kernels::X86_64Bf16.runs_on_this_host() {
        eprintln!("not run: this CPU or build has no AVX512-BF16 kernel");
        return None;
    }
    let device = iree_llm::types::DeviceUri::parse("local-task").unwrap();
    Some(Instance::new().unwrap().open(&device).unwrap())
}

/// Row r of x . W^T in f64, and sum |x w| per output.
fn exact_row(x: &[f32], w: &[f32], r: usize, n: usize, k: usize) -> Vec<(f64, f64)> {
    (0..n)
        .map(|j| {
            (0..k).fold((0.0, 0.0), |(s, a), i| {
                let p = f64::from(x[r * k + i]) * f64::from(w[j * k + i]);
                (s + p, a + p.abs())
            })
        })
        .collect()
}

#[test]
fn a_rows_product_is_the_same_bits_whether_8_or_up_to_48_rows_share_the_call() {
    let Some(mut session) = bf16_session() else {
        return;
    };
    for (case, &(n, k)) in SHAPES.iter().enumerate() {
        for gated in [false, true] {
            let w = bf16_values(100 + case as u64, (n * k) as usize);
            let x = bf16_values(200 + case as u64, (48 * k) as usize);
            let eight = Product::new(&mut session, 8, (n, k), gated, false).run(
                &x[..(8 * k) as usize],
                &w,
                8,
            );
            let width = eight.len() / 8;
            for rows in TALL_ROWS {
                let x = &x[..(rows * k) as usize];
                let tall = Product::new(&mut session, rows, (n, k), gated, false).run(x, &w, 0);
                let case = format!("{rows} rows, n {n}, k {k}, gated {gated}");
                let differ = (0..8 * width)
                    .filter(|&i| eight[i].to_bits() != tall[i].to_bits())
                    .count();
                assert_eq!(differ, 0, "{case}: the first 8 rows' results differ");
                if gated {
                    continue;
                }
                // Every row against f64: f32 sums of exact bf16 products.
                for r in 0..rows as usize {
                    for (j, (exact, scale)) in exact_row(x, &w, r, n as usize, k as usize)
                        .into_iter()
                        .enumerate()
                    {
                        let got = f64::from(tall[r * width + j]);
                        assert!(
                            (got - exact).abs() <= 64.0 * f64::from(f32::EPSILON) / 2.0 * scale,
                            "{case}: y[{r}, {j}] = {got} against {exact}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn rows_past_the_live_count_are_zero_and_the_live_ones_unchanged() {
    let Some(mut session) = bf16_session() else {
        return;
    };
    let (n, k) = (64, 2048);
    let rows = 40;
    let w = bf16_values(300, (n * k) as usize);
    let x = bf16_values(301, (rows * k) as usize);
    for gated in [false, true] {
        let all = Product::new(&mut session, rows, (n, k), gated, false).run(&x, &w, 0);
        let mut live = Product::new(&mut session, rows, (n, k), gated, true);
        let width = all.len() / rows as usize;
        for used in [0, 1, 8, 9, 13, 24, 25, 40] {
            let y = live.run(&x, &w, used as i32);
            let case = format!("{used} of {rows} rows live, gated {gated}");
            for (i, (&got, &want)) in y.iter().zip(&all).enumerate() {
                let want = if i / width < used { want } else { 0.0 };
                assert_eq!(got.to_bits(), want.to_bits(), "{case}: element {i}");
            }
        }
    }
}

//! The hand-written CUDA kernel for products of a few rows by a bf16 weight
//! (`emit::cuda_rows`) computes `x . W^T` as an f64 product does, within
//! f32 rounding, in both of its splits of the work and for every code path
//! their PTX has: several iterations with the loop, one full iteration,
//! only a partial one, a full and a partial, and output counts that are
//! not a multiple of a workgroup's or a warp's.
//!
//! The kernel runs only on an NVIDIA GPU, so its test is ignored here; run
//! it where one is, with a `--features cuda` build:
//! `cargo test --release --features cuda --test cuda_rows -- --ignored`.
//! The same harness runs on local-task with IREE's own form of the product,
//! so the inputs, the call and the comparison are checked on every machine.

mod common;

use rand_core::Rng;

use iree_llm::compile::Target;
use iree_llm::emit::builder::{self, FuncBuilder, TensorType};
use iree_llm::emit::cuda_rows::{self, Split};
use iree_llm::runtime::Instance;
use iree_llm::sampler::SplitMix64;
use iree_llm::types::{DType, DeviceUri};

/// (rows, outputs, k): the paths through the kernel (see the module doc).
const CASES: [(i64, i64, i64); 7] = [
    (8, 64, 8192),
    (1, 64, 8192),
    (3, 40, 2048),
    (4, 36, 576),
    (8, 42, 1536),
    (1, 44, 4096),
    // An odd output count: a warp's second output is past the last.
    (5, 45, 1032),
];

/// A graph of one product of `x` [rows, k] f32 and `w` [n, k] bf16, by the
/// kernel split as given or (for the CPU, `None`) as a contraction of the
/// widened weight.
fn product_graph(kernel: Option<Split>, name: &str, rows: i64, n: i64, k: i64) -> String {
    let mut f = FuncBuilder::new(name);
    let x = f.arg(TensorType::new(&[rows, k], DType::F32), None);
    let w = f.arg(TensorType::new(&[n, k], DType::BF16), None);
    let y = match kernel {
        Some(split) => cuda_rows::rows_bf16_split(&mut f, &x, &w, split),
        None => {
            let wf = f.convert(&w, DType::F32);
            f.dot_general(&x, &wf, (&[], &[]), (&[1], &[1]))
        }
    };
    f.ret(&[y]);
    builder::module(
        name,
        "one few-row product (tests/cuda_rows.rs)",
        &[f.finish()],
    )
}

/// Deterministic values in [-1, 1) from the project's SplitMix64.
fn values(seed: u64, count: usize) -> Vec<f32> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| (rng.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0)
        .collect()
}

fn products_match_f64(device: &str, kernel: Option<Split>) {
    let device = DeviceUri::parse(device).unwrap();
    let target = Target::new(device.kind());
    let instance = Instance::new().unwrap();
    let mut session = instance.open(&device).unwrap();
    for (case, &(rows, n, k)) in CASES.iter().enumerate() {
        let form = kernel.map_or("iree".to_string(), |s| format!("{s:?}").to_lowercase());
        let name = format!("product_{form}_r{rows}_n{n}_k{k}");
        let mlir = product_graph(kernel, &name, rows, n, k);
        let module = common::test_cache()
            .get_or_compile(&common::compiler(), &target, &name, &mlir)
            .unwrap();
        session.load_module(&module.path).unwrap();
        let x = values(2 * case as u64 + 1, (rows * k) as usize);
        // bf16 weights: the top half of f32 values.
        let w_bits: Vec<u16> = values(2 * case as u64 + 2, (n * k) as usize)
            .iter()
            .map(|v| (v.to_bits() >> 16) as u16)
            .collect();
        let w: Vec<f64> = w_bits
            .iter()
            .map(|&b| f64::from(f32::from_bits(u32::from(b) << 16)))
            .collect();
        let w_bytes: Vec<u8> = w_bits.iter().flat_map(|b| b.to_le_bytes()).collect();
        let xb = session.upload(&[rows, k], &x).unwrap();
        let wb = session
            .upload_bytes(DType::BF16, &[n, k], &w_bytes)
            .unwrap();
        let function = session.function(&format!("{name}.{name}")).unwrap();
        let out = session.call(&function, &[&xb, &wb]).unwrap();
        let y: Vec<f32> = session.read(&out[0]).unwrap();
        assert_eq!(y.len(), (rows * n) as usize);
        for r in 0..rows as usize {
            for j in 0..n as usize {
                let (mut exact, mut scale) = (0f64, 0f64);
                for i in 0..k as usize {
                    let p = f64::from(x[r * k as usize + i]) * w[j * k as usize + i];
                    exact += p;
                    scale += p.abs();
                }
                // f32 sums of k products: a few units of f32 rounding of
                // sum |x w| (measured on an H100: at most 0.28 units; a
                // wrong index or a lost partial sum is off by O(1)).
                let err = (f64::from(y[r * n as usize + j]) - exact).abs();
                assert!(
                    err <= 64.0 * f64::from(f32::EPSILON) / 2.0 * scale,
                    "{name} on {device}: y[{r}, {j}] = {} against {exact} (sum |x w| {scale})",
                    y[r * n as usize + j]
                );
            }
        }
    }
}

#[test]
fn the_harness_checks_iree_s_own_product_on_the_cpu() {
    products_match_f64("local-task", None);
}

#[test]
#[ignore = "needs an NVIDIA GPU and a --features cuda build (see the module doc)"]
fn the_kernel_matches_an_f64_product_on_a_gpu() {
    products_match_f64("cuda", Some(Split::Workgroup));
}

#[test]
#[ignore = "needs an NVIDIA GPU and a --features cuda build (see the module doc)"]
fn the_kernel_with_a_warp_per_two_outputs_matches_an_f64_product_on_a_gpu() {
    products_match_f64("cuda", Some(Split::Warp));
}

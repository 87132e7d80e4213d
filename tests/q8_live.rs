//! The 8-bit form's packed product over a live count of rows
//! (csrc/kernels/x86_64_q8_entries.h's live entries): a prompt's chunk
//! padded to its graph's size rounds and multiplies only its real rows. The
//! live rows get the bits of a call in which every row is real, with or
//! without the residual the o and down products add, and the rows past the
//! count are zero. Here the product is the graph's output, where the
//! model-level test (tests/quantized.rs) sees it only through the logits.

mod common;

use rand_core::Rng;

use iree_llm::compile::Target;
use iree_llm::emit::builder::{self, FuncBuilder, TensorType};
use iree_llm::emit::{BlockFormat, Kernels, kernels, vnni_layout};
use iree_llm::runtime::{Instance, Session};
use iree_llm::sampler::SplitMix64;
use iree_llm::types::{DType, DeviceKind};

/// Weight rows (two groups of 16) and SmolLM2's k (18 blocks).
const N: i64 = 32;
const K: i64 = 576;
/// Rows of x: more than 8, so the product takes the packed path.
const ROWS: i64 = 24;

/// `x . W^T` [ROWS, N] (plus a residual where asked) for a Q4_1 weight in
/// the VNNI layout; with `live` an i32 [1] argument saying how many rows
/// are real.
fn product_graph(name: &str, residual: bool, live: bool) -> String {
    let group = vnni_layout::GROUP as i64;
    let blocks = K / 32;
    let format = BlockFormat::Q4_1;
    let mut f = FuncBuilder::new(name);
    let x = f.arg(TensorType::new(&[ROWS, K], DType::F32), None);
    let q_shape = [N / group, blocks, group * format.q_bytes(true)];
    let q = f.arg(TensorType::new(&q_shape, DType::I8), None);
    let d = f.arg(
        TensorType::new(&[N / group, blocks, group], DType::F16),
        None,
    );
    let m = f.arg(
        TensorType::new(&[N / group, blocks, group], DType::F16),
        None,
    );
    let res = residual.then(|| f.arg(TensorType::new(&[ROWS, N], DType::F32), None));
    let live = live.then(|| f.arg(TensorType::new(&[1], DType::I32), None));
    let y = kernels::blocks_vnni_packed(
        &mut f,
        &x,
        None,
        format,
        &q,
        &d,
        Some(&m),
        res.as_ref(),
        live.as_ref(),
    );
    f.ret(&[y]);
    let func = f.finish();
    builder::module(
        name,
        "one 8-bit packed product (tests/q8_live.rs)",
        &[kernels::declarations(&func), func],
    )
}

/// Deterministic values in [-1, 1).
fn values(rng: &mut SplitMix64, count: usize) -> Vec<f32> {
    (0..count)
        .map(|_| (rng.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0)
        .collect()
}

/// Scales or offsets as f16 bytes, small enough that sums stay moderate.
fn f16_bytes(rng: &mut SplitMix64, count: usize) -> Vec<u8> {
    values(rng, count)
        .into_iter()
        .flat_map(|v| half::f16::from_f32(v / 64.0).to_le_bytes())
        .collect()
}

struct Inputs {
    x: Vec<f32>,
    q: Vec<u8>,
    d: Vec<u8>,
    m: Vec<u8>,
    res: Vec<f32>,
}

impl Inputs {
    fn new(seed: u64) -> Self {
        let mut rng = SplitMix64::new(seed);
        let blocks = (K / 32) as usize;
        let x = values(&mut rng, (ROWS * K) as usize);
        let q = (0..N as usize * blocks * 16)
            .map(|_| rng.next_u64() as u8)
            .collect();
        let d = f16_bytes(&mut rng, N as usize * blocks);
        let m = f16_bytes(&mut rng, N as usize * blocks);
        let res = values(&mut rng, (ROWS * N) as usize);
        Inputs { x, q, d, m, res }
    }
}

/// Compiles and runs the product over `inputs`: every row real where
/// `live` is None, else that many.
fn run(session: &mut Session, inputs: &Inputs, residual: bool, live: Option<i32>) -> Vec<f32> {
    let name = format!(
        "q8_packed_r{ROWS}{}{}",
        if residual { "_res" } else { "" },
        if live.is_some() { "_live" } else { "" }
    );
    let module = common::test_cache()
        .get_or_compile(
            &common::compiler(),
            &Target::new(DeviceKind::Cpu),
            &name,
            &product_graph(&name, residual, live.is_some()),
        )
        .unwrap();
    session.load_module(&module.path).unwrap();
    let group = vnni_layout::GROUP as i64;
    let blocks = K / 32;
    let scales = [N / group, blocks, group];
    let mut args = vec![
        session.upload(&[ROWS, K], &inputs.x).unwrap(),
        session
            .upload_bytes(DType::I8, &[N / group, blocks, group * 16], &inputs.q)
            .unwrap(),
        session
            .upload_bytes(DType::F16, &scales, &inputs.d)
            .unwrap(),
        session
            .upload_bytes(DType::F16, &scales, &inputs.m)
            .unwrap(),
    ];
    if residual {
        args.push(session.upload(&[ROWS, N], &inputs.res).unwrap());
    }
    if let Some(live) = live {
        args.push(session.upload(&[1], &[live]).unwrap());
    }
    let function = session.function(&format!("{name}.{name}")).unwrap();
    let refs: Vec<_> = args.iter().collect();
    let out = session.call(&function, &refs).unwrap();
    session.read(&out[0]).unwrap()
}

#[test]
fn rows_past_the_live_count_are_zero_and_the_live_ones_keep_their_bits() {
    if !kernels::packs_for_vnni(Kernels::X86_64Q8) {
        eprintln!("not run: this CPU or build has no packed 8-bit kernel");
        return;
    }
    let device = iree_llm::types::DeviceUri::parse("local-task").unwrap();
    let mut session = Instance::new().unwrap().open(&device).unwrap();
    let inputs = Inputs::new(45);
    for residual in [false, true] {
        let all = run(&mut session, &inputs, residual, None);
        assert!(
            all.iter().all(|v| v.is_finite()) && all.iter().any(|&v| v != 0.0),
            "residual {residual}: the full product is finite and not all zero"
        );
        // None, one row, a whole group, a group and one row, a partial
        // last group, all of them, and a count past the rows.
        for used in [0, 1, 8, 9, 17, 24, 40] {
            let y = run(&mut session, &inputs, residual, Some(used));
            let case = format!("{used} of {ROWS} rows live, residual {residual}");
            for (i, (&got, &want)) in y.iter().zip(&all).enumerate() {
                let want = if (i as i64 / N) < i64::from(used) {
                    want
                } else {
                    0.0
                };
                assert_eq!(got.to_bits(), want.to_bits(), "{case}: element {i}");
            }
        }
    }
}

//! The real SmolLM2-135M-Instruct (Q4_1 GGUF, fetched by scripts/bootstrap.sh)
//! on local-task against the f64 reference run on the same dequantized
//! weights: prefill and decode logits within the tolerance the random presets
//! are held to, and greedy continuations token-identical. Ignored by default
//! (needs the 98 MB file and minutes of compilation): run with
//! `cargo test --release --test gguf_smollm2 -- --ignored`.

mod common;

use common::{load, relative_error};
use iree_llm::config::ModelConfig;
use iree_llm::emit::{EmitPlan, GraphKind, Output};
use iree_llm::reference::{Reference, argmax};
use iree_llm::types::TokenId;
use iree_llm::weights::Weights;

// The same capacity as tests/gguf_parity.rs, so the two share compiled graphs.
const CAPACITY: i64 = 128;

fn smollm2() -> std::path::PathBuf {
    iree_llm::preset::fetched_model_path("smollm2-135m").unwrap()
}

fn graphs() -> Vec<GraphKind> {
    let plan = EmitPlan::new(CAPACITY, &[]).unwrap();
    let mut g = plan.prefill_kinds(1, Output::Logits);
    g.extend(plan.decode_kinds(1, Output::Logits));
    g
}

#[test]
#[ignore = "needs the SmolLM2 GGUF from scripts/bootstrap.sh and minutes of compilation"]
fn smollm2_logits_and_greedy_tokens_match_the_f64_reference() {
    let path = smollm2();
    let cfg = ModelConfig::from_dir(&path).unwrap();
    let reference = Reference::new(&cfg, &Weights::open(&path, &cfg).unwrap()).unwrap();
    let mut model = load(&path, "local-task", CAPACITY, graphs());
    // "The capital of France is" in SmolLM2's tokenizer.
    let prompt: Vec<TokenId> = [504, 3575, 282, 4649, 314].map(TokenId).to_vec();
    let mut kv = model.new_kv().unwrap();
    let mut seq = reference.new_sequence();
    let want = seq.forward(&reference, &prompt).unwrap();
    let got = model.prefill_logits(&mut kv, &prompt).unwrap();
    let mut worst = relative_error(&got, &want);
    assert!(worst <= 1e-4, "prefill: relative error {worst:.2e}");
    let (mut dev_tokens, mut ref_tokens) = (vec![], vec![]);
    let mut next = argmax(&want);
    let mut logits = Vec::new();
    for step in 0..16 {
        ref_tokens.push(next);
        let pos = prompt.len() + step;
        model
            .decode_logits(&mut kv, &[next], &[pos], &mut logits)
            .unwrap();
        let want = seq.forward(&reference, &[next]).unwrap();
        let err = relative_error(&logits, &want);
        assert!(err <= 1e-4, "decode at {pos}: relative error {err:.2e}");
        worst = worst.max(err);
        let widened: Vec<f64> = logits.iter().map(|&x| x as f64).collect();
        dev_tokens.push(argmax(&widened));
        next = argmax(&want);
    }
    // The device's greedy choice at each step equals the reference's.
    assert_eq!(dev_tokens[..15], ref_tokens[1..]);
    eprintln!(
        "SmolLM2: worst relative error {worst:.2e}; greedy ids {:?}",
        ref_tokens.iter().map(|t| t.0).collect::<Vec<_>>()
    );
}

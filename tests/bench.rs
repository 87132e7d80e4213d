//! The pieces `iree-llm bench` reports with: divergence points, the top-2
//! logit margin at a divergence (checked against the f64 reference), and the
//! deterministic request set.

mod common;

use iree_llm::bench::{bench_requests, first_divergence, run_engine, top2_margin};
use iree_llm::config::ModelConfig;
use iree_llm::reference::Reference;
use iree_llm::types::TokenId;
use iree_llm::weights::{DType as WeightDType, Weights};

fn t(ids: &[u32]) -> Vec<TokenId> {
    ids.iter().copied().map(TokenId).collect()
}

#[test]
fn first_divergence_is_the_first_differing_index_or_the_shorter_length() {
    assert_eq!(first_divergence(&t(&[1, 2, 3]), &t(&[1, 2, 3])), None);
    assert_eq!(first_divergence(&t(&[1, 2, 3]), &t(&[1, 9, 3])), Some(1));
    assert_eq!(first_divergence(&t(&[1, 2]), &t(&[1, 2, 3])), Some(2));
    assert_eq!(first_divergence(&t(&[]), &t(&[4])), Some(0));
}

#[test]
fn the_top2_margin_is_the_gap_between_the_two_best_reference_logits() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = common::batch_engine(&dir, 4, 128);
    let cfg = ModelConfig::from_dir(&dir).unwrap();
    let reference = Reference::new(&cfg, &Weights::open(&dir, &cfg).unwrap()).unwrap();
    for (len, seed) in [(3, 1), (20, 2)] {
        let tokens = common::prompt(len, seed, cfg.vocab_size);
        let (best, second, margin) = top2_margin(&mut engine, &tokens).unwrap();
        let logits = reference.logits(&tokens).unwrap();
        let mut order: Vec<usize> = (0..logits.len()).collect();
        order.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]).then(a.cmp(&b)));
        assert_eq!(
            (best.index(), second.index()),
            (order[0], order[1]),
            "prompt of {len}"
        );
        let want = logits[order[0]] - logits[order[1]];
        assert!(
            (margin as f64 - want).abs() <= 1e-4 * logits[order[0]].abs().max(1.0),
            "{margin} vs {want}"
        );
    }
}

#[test]
fn the_benchmark_requests_are_deterministic_and_fit_the_context() {
    let a = bench_requests(16, 32, 128, 512, 0);
    assert_eq!(a, bench_requests(16, 32, 128, 512, 0));
    for r in &a {
        assert!(r.prompt.len() + r.max_tokens <= 128);
        assert!((16..=32).contains(&r.max_tokens));
        assert!(r.params.is_greedy());
    }
    let lengths: std::collections::BTreeSet<usize> = a.iter().map(|r| r.prompt.len()).collect();
    assert!(lengths.len() > 8, "prompt lengths vary: {lengths:?}");
}

#[test]
fn with_a_shared_prefix_every_prompt_starts_with_the_same_tokens_then_its_own() {
    let plain = bench_requests(16, 32, 128, 512, 0);
    let shared = bench_requests(16, 32, 128, 512, 20);
    let prefix = &shared[0].prompt[..20];
    for (s, p) in shared.iter().zip(&plain) {
        assert_eq!(&s.prompt[..20], prefix);
        // Its own tokens follow, cut where the context would overflow.
        let own = &s.prompt[20..];
        assert_eq!(own, &p.prompt[..own.len()]);
        assert!(!own.is_empty() && s.prompt.len() + s.max_tokens <= 128);
    }
}

#[test]
fn a_run_reports_every_request_and_its_tokens() {
    let dir = common::tiny_dir(WeightDType::F32);
    let mut engine = common::batch_engine(&dir, 4, 128);
    let requests = bench_requests(6, 16, 128, 512, 0);
    let run = run_engine(&mut engine, &requests).unwrap();
    assert_eq!(run.results.len(), 6);
    assert_eq!(
        run.tokens,
        run.results.iter().map(|r| r.tokens.len()).sum::<usize>()
    );
    assert!(run.decode_steps > 0 && run.step_ms() > 0.0 && run.tok_s() > 0.0);
    assert_eq!(run.prefills, 6);
    // One wait between each two consecutive tokens of a request.
    let pairs: usize = run
        .results
        .iter()
        .map(|r| r.tokens.len().saturating_sub(1))
        .sum();
    assert_eq!(run.gaps.len(), pairs);
    assert!(run.gap_percentile_ms(100.0) >= run.gap_percentile_ms(50.0));
}

#[test]
fn graph_bench_takes_a_given_bandwidth_for_every_decode_floor() {
    use iree_llm::bench::{GraphBenchOptions, graph_bench};
    let dir = common::tiny_dir(WeightDType::F32);
    let gbps = 3.0;
    let opts = GraphBenchOptions {
        device: "local-task".parse().unwrap(),
        weights: Default::default(),
        capacity: 128,
        batches: vec![4],
        prefill_lengths: vec![16],
        iterations: 1,
        decode_position: 20,
        sampling: false,
        bandwidth_gbps: Some(gbps),
        carry: vec![8],
    };
    let report = graph_bench(&dir, &opts, &iree_llm::model::Quiet, &mut |_| {}).unwrap();
    assert_eq!(report.bandwidth_source, "given");
    // The step carrying a chunk is timed beside a plain one.
    let [carried] = &report.carried[..] else {
        panic!("{:?}", report.carried)
    };
    assert_eq!((carried.batch, carried.tokens), (4, 8));
    assert!(carried.plain_ms > 0.0 && carried.carrying_ms > 0.0);
    assert_eq!(report.read_gb_s, Some(gbps));
    assert!(!report.decode_floor.is_empty());
    for step in &report.decode_floor {
        // The floor is the step's bytes at the given rate, and the ratio is the step's time over it.
        let floor_ms = step.bytes as f64 / (gbps * 1e9) * 1e3;
        let got = step.floor_ms.unwrap();
        assert!(
            (got - floor_ms).abs() <= 1e-9 * floor_ms,
            "{got} vs {floor_ms}"
        );
        assert!(
            (step.ratio.unwrap() - step.step_ms / floor_ms).abs() <= 1e-9 * step.ratio.unwrap()
        );
        // A given bandwidth is not probed between the steps.
        assert_eq!(step.read_gb_s, Some(gbps));
        assert!(step.probe_gb_s.is_empty() && step.segment_ratios.is_empty());
        // Next to its time, what the step's call asks of the device.
        let schedule = step.schedule.expect("the step's dispatches counted");
        assert!(schedule.dispatches > 0, "{schedule}");
    }
}

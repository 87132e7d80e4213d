//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use iree_llm::compile::{Compiler, ModuleCache, Target};
use iree_llm::types::DeviceKind;

/// The opt-in bf16 activations' own tolerance against the f64 reference
/// (`Kernels::X86_64Bf16`; docs/performance.md gives the measured errors),
/// for prompts and decode steps alike, with or without an f16 cache.
pub const BF16_TOLERANCE: f64 = 2e-2;

/// The f16 cache's tolerance against the f64 reference (docs/performance.md
/// gives the measured range).
pub const F16_CACHE_TOLERANCE: f64 = 1e-3;

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

pub fn compiler() -> Compiler {
    Compiler::locate().expect("iree-compile must be installed (scripts/bootstrap.sh)")
}

/// The shared module cache of the test suite (under target/, so `cargo clean`
/// resets it). Hits are safe: the key covers text, flags and compiler version.
pub fn test_cache() -> ModuleCache {
    ModuleCache::new(Path::new(env!("CARGO_TARGET_TMPDIR")).join("module-cache"))
}

/// Compiles a fixture for the CPU (cached) and returns the module path.
pub fn cpu_module(fixture_name: &str) -> PathBuf {
    let mlir = std::fs::read_to_string(fixture(fixture_name)).unwrap();
    let stem = fixture_name.trim_end_matches(".mlir");
    test_cache()
        .get_or_compile(&compiler(), &Target::new(DeviceKind::Cpu), stem, &mlir)
        .unwrap()
        .path
}

use iree_llm::config::ModelConfig;
use iree_llm::emit::{EmitPlan, GraphKind};
use iree_llm::model::{DeviceModel, LoadOptions, Quiet};
use iree_llm::preset::{self, Preset};
use iree_llm::runtime::Instance;
use iree_llm::types::{DeviceUri, TokenId};
use iree_llm::weights::DType as WeightDType;

/// Where test models are synthesized (once; synthesis is deterministic).
pub fn models_root() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("models")
}

/// The `tiny` preset in `dtype`.
pub fn tiny_dir(dtype: WeightDType) -> PathBuf {
    preset::materialize_with(Preset::Tiny, dtype, &models_root()).unwrap()
}

/// A named variant of `tiny`'s config, synthesized once into its own
/// directory (written under a temporary name, then renamed into place).
pub fn variant_dir(name: &str, config: &ModelConfig, dtype: WeightDType) -> PathBuf {
    let root = models_root();
    let target = root.join(format!("{name}-{}", dtype.name()));
    if target.join("config.json").exists() {
        return target;
    }
    let tmp = root.join(format!(
        ".tmp-{name}-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    preset::synth_config(config, 1234, dtype, &tmp).unwrap();
    if std::fs::rename(&tmp, &target).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        assert!(target.join("config.json").exists());
    }
    target
}

/// `tiny` with tied embeddings, one KV head per query head and plain RoPE.
pub fn tied_mha_config() -> ModelConfig {
    let mut c = Preset::Tiny.config();
    c.tie_word_embeddings = true;
    c.num_key_value_heads = c.num_attention_heads;
    c.rope_scaling = None;
    c
}

/// `tiny` with a single KV head (4 queries share it) and stronger llama3 scaling.
pub fn gqa_llama3_config() -> ModelConfig {
    let mut c = Preset::Tiny.config();
    c.num_key_value_heads = 1;
    c.num_hidden_layers = 3;
    if let Some(s) = c.rope_scaling.as_mut() {
        s.factor = 32.0;
        s.original_max_position_embeddings = 32;
    }
    c
}

pub fn device(uri: &str) -> DeviceUri {
    DeviceUri::parse(uri).unwrap()
}

/// Loads `dir` on `uri` with the given graphs, through the test module cache.
pub fn load(dir: &Path, uri: &str, capacity: i64, graphs: Vec<GraphKind>) -> DeviceModel {
    load_with(
        dir,
        uri,
        capacity,
        graphs,
        iree_llm::model::DeviceWeights::Native,
    )
}

/// [`load`] with an explicit placement of the weights.
pub fn load_with(
    dir: &Path,
    uri: &str,
    capacity: i64,
    graphs: Vec<GraphKind>,
    weights: iree_llm::model::DeviceWeights,
) -> DeviceModel {
    load_opts(dir, uri, capacity, graphs, |opts| {
        opts.device_weights = weights
    })
}

/// [`load`] with options changed by `change` (after the test defaults).
pub fn load_opts(
    dir: &Path,
    uri: &str,
    capacity: i64,
    graphs: Vec<GraphKind>,
    change: impl FnOnce(&mut LoadOptions),
) -> DeviceModel {
    let plan = EmitPlan::new(capacity, &[4, 8]).unwrap();
    let mut opts = LoadOptions::with_graphs(device(uri), plan, graphs);
    opts.cache = test_cache();
    change(&mut opts);
    DeviceModel::load(&Instance::new().unwrap(), dir, &opts, &Quiet).unwrap()
}

/// The batch-1 argmax graphs (prefill buckets and decode) at `capacity`.
pub fn argmax_graphs(capacity: i64) -> Vec<GraphKind> {
    let plan = EmitPlan::new(capacity, &[]).unwrap();
    let mut g = plan.prefill_kinds(1, iree_llm::emit::Output::Argmax);
    g.extend(plan.decode_kinds(1, iree_llm::emit::Output::Argmax));
    g
}

/// Deterministic prompts of the given lengths over a vocabulary.
pub fn prompt(len: usize, seed: u32, vocab: usize) -> Vec<TokenId> {
    (0..len)
        .map(|i| TokenId(((i as u32 * 2654435761) ^ (seed * 97 + 13)) % (vocab as u32 - 16)))
        .collect()
}

/// max |a - b| / max |b|: the relative error of a logits vector.
pub fn relative_error(got: &[f32], want: &[f64]) -> f64 {
    assert_eq!(got.len(), want.len());
    let scale = want.iter().fold(0f64, |m, v| m.max(v.abs()));
    let diff = got
        .iter()
        .zip(want)
        .fold(0f64, |m, (g, w)| m.max((*g as f64 - w).abs()));
    diff / scale
}

use iree_llm::engine::{
    BatchEngine, BatchOptions, Engine, Event, FinishReason, Request, SingleEngine,
};
use iree_llm::types::RequestId;

/// A batch engine for `dir` on local-task with `batch` slots.
pub fn batch_engine(dir: &Path, batch: usize, capacity: i64) -> BatchEngine {
    batch_engine_with(dir, batch, capacity, &[])
}

/// [`batch_engine`] whose model also loads `extra` graphs (e.g. the logits
/// decode graphs a test drives by hand next to the engine).
pub fn batch_engine_with(
    dir: &Path,
    batch: usize,
    capacity: i64,
    extra: &[GraphKind],
) -> BatchEngine {
    batch_engine_opts(
        dir,
        capacity,
        extra,
        BatchOptions {
            batch,
            max_queue: 64,
            ..Default::default()
        },
    )
}

/// [`batch_engine_with`] with the engine's options given whole.
pub fn batch_engine_opts(
    dir: &Path,
    capacity: i64,
    extra: &[GraphKind],
    options: BatchOptions,
) -> BatchEngine {
    let batch = options.batch as i64;
    let plan = EmitPlan::new(capacity, &[batch]).unwrap();
    let mut opts = LoadOptions::batched(device("local-task"), plan, batch);
    opts.graphs.extend_from_slice(extra);
    opts.cache = test_cache();
    let model = DeviceModel::load(&Instance::new().unwrap(), dir, &opts, &Quiet).unwrap();
    BatchEngine::new(model, options).unwrap()
}

/// The tiny f32 model on local-task with the logits prefill graphs of a
/// cache of `slots` slots, for tests that fill slots by hand.
pub fn tiny_prefill_model(capacity: i64, slots: i64) -> DeviceModel {
    let plan = EmitPlan::new(capacity, &[]).unwrap();
    load(
        &tiny_dir(WeightDType::F32),
        "local-task",
        capacity,
        plan.prefill_kinds(slots, iree_llm::emit::Output::Logits),
    )
}

/// The single-sequence argmax engine for `dir` on local-task.
pub fn single_engine(dir: &Path, capacity: i64) -> SingleEngine {
    let plan = EmitPlan::new(capacity, &[]).unwrap();
    let mut opts = LoadOptions::single_argmax(device("local-task"), plan);
    opts.cache = test_cache();
    let model = DeviceModel::load(&Instance::new().unwrap(), dir, &opts, &Quiet).unwrap();
    SingleEngine::new(model).unwrap()
}

/// What one request produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub tokens: Vec<TokenId>,
    pub reason: FinishReason,
    pub seed: u64,
}

/// Steps `engine` until idle, collecting each request's tokens and ending.
/// Requests whose first tokens were reported before the call (by manual
/// steps) keep only the tokens seen here.
pub fn drain(engine: &mut dyn Engine) -> std::collections::BTreeMap<RequestId, Outcome> {
    // Per request: index of the first token seen here, and the tokens.
    let mut tokens: std::collections::BTreeMap<RequestId, (usize, Vec<TokenId>)> =
        Default::default();
    let mut done = std::collections::BTreeMap::new();
    let mut steps = 0;
    while !engine.is_idle() {
        for event in engine.step() {
            match event {
                // Checked where reuse is under test (tests/engine_prefix.rs).
                Event::Prefilled { .. } => {}
                Event::Token {
                    id, token, index, ..
                } => {
                    let (first, t) = tokens.entry(id).or_insert((index, Vec::new()));
                    assert_eq!(*first + t.len(), index, "token indices are consecutive");
                    t.push(token);
                }
                Event::Finished {
                    id,
                    reason,
                    generated,
                    seed,
                    message,
                } => {
                    let (first, t) = tokens.remove(&id).unwrap_or((generated, Vec::new()));
                    assert_eq!(
                        first + t.len(),
                        generated,
                        "generated count matches the tokens emitted"
                    );
                    assert!(
                        reason != FinishReason::Error,
                        "request {id} failed: {message:?}"
                    );
                    assert!(
                        done.insert(
                            id,
                            Outcome {
                                tokens: t,
                                reason,
                                seed
                            }
                        )
                        .is_none()
                    );
                }
            }
        }
        steps += 1;
        assert!(steps < 100_000, "engine never became idle");
    }
    done
}

/// Deterministic greedy requests with varied prompt lengths and caps; every
/// fifth one runs past position 64, where decode switches from the 64-position
/// attention window to the next graph.
pub fn varied_requests(n: usize, vocab: usize) -> Vec<Request> {
    (0..n)
        .map(|i| {
            let (len, cap) = if i % 5 == 4 {
                (55 + i % 3, 20)
            } else {
                (1 + (i * 7) % 23, 4 + (i * 5) % 13)
            };
            Request::greedy(prompt(len, 100 + i as u32, vocab), cap)
        })
        .collect()
}

/// Waits for a spawned `iree-llm serve` (stderr piped) to print its address;
/// returns the port and that line, and keeps draining stderr afterwards so
/// the server never blocks on a full pipe.
pub fn wait_for_listening(child: &mut std::process::Child) -> (u16, String) {
    use std::io::{BufRead, BufReader};
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr piped"));
    let mut line = String::new();
    let port = loop {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the server ended before listening"
        );
        if let Some(rest) = line.split("http://127.0.0.1:").nth(1) {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            break digits.parse().unwrap();
        }
    };
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    (port, line)
}

/// The first index of the largest logit: the greedy token, computed on the
/// host as the tests' own check of the device's choice.
pub fn host_argmax(logits: &[f32]) -> TokenId {
    let mut best = 0;
    for (i, v) in logits.iter().enumerate() {
        if *v > logits[best] {
            best = i;
        }
    }
    TokenId(best as u32)
}

/// Greedy decoding on the device's argmax graphs, `n` tokens.
pub fn device_greedy(model: &mut DeviceModel, tokens: &[TokenId], n: usize) -> Vec<TokenId> {
    let mut kv = model.new_kv().unwrap();
    let mut next = model.prefill_argmax(&mut kv, tokens).unwrap();
    let mut out = vec![next];
    for step in 1..n {
        let pos = tokens.len() + step - 1;
        next = model.decode_argmax(&mut kv, &[next], &[pos]).unwrap()[0];
        out.push(next);
    }
    out
}

/// Greedy decode from `first` at positions `start..start + steps`, one row,
/// each step's logits held to the f64 reference `seq` (which has seen the
/// same prompt) within `tol`; returns the worst relative error. `case`
/// names the case in a failure.
#[allow(clippy::too_many_arguments)]
pub fn decode_matches_reference(
    model: &mut DeviceModel,
    kv: &mut iree_llm::model::KvCache,
    reference: &iree_llm::reference::Reference,
    seq: &mut iree_llm::reference::RefSequence,
    first: TokenId,
    start: usize,
    steps: usize,
    tol: f64,
    case: &str,
) -> f64 {
    let mut worst = 0f64;
    let mut next = first;
    let mut logits = Vec::new();
    for pos in start..start + steps {
        model
            .decode_logits(kv, &[next], &[pos], &mut logits)
            .unwrap();
        let want = seq.forward(reference, &[next]).unwrap();
        let err = relative_error(&logits, &want);
        assert!(
            err <= tol,
            "{case}: decode at {pos}: relative error {err:.2e}"
        );
        worst = worst.max(err);
        next = host_argmax(&logits);
    }
    worst
}

/// Submits `requests` to `engine`, runs it until idle and returns each
/// request's outcome in submission order.
pub fn run_all(engine: &mut dyn Engine, requests: &[Request]) -> Vec<Outcome> {
    let ids: Vec<RequestId> = requests
        .iter()
        .map(|r| engine.submit(r.clone()).unwrap())
        .collect();
    let mut done = drain(engine);
    ids.iter().map(|id| done.remove(id).unwrap()).collect()
}

/// The f64 reference forward pass of the model at `path` (a directory or a
/// GGUF file), read independently of the device path.
pub fn reference(path: &Path) -> iree_llm::reference::Reference {
    let cfg = ModelConfig::from_dir(path).unwrap();
    let weights = iree_llm::weights::Weights::open(path, &cfg).unwrap();
    iree_llm::reference::Reference::new(&cfg, &weights).unwrap()
}

/// Prefill of a `len`-token prompt, then `steps` greedy decode steps, each
/// within `tol` (relative error) of the f64 reference; returns the prefill's
/// error and the worst of all.
pub fn prefill_and_decode_error(
    model: &mut DeviceModel,
    reference: &iree_llm::reference::Reference,
    len: usize,
    seed: u32,
    steps: usize,
    tol: f64,
    case: &str,
) -> (f64, f64) {
    let tokens = prompt(len, seed, model.vocab());
    let mut kv = model.new_kv().unwrap();
    let mut seq = reference.new_sequence();
    let want = seq.forward(reference, &tokens).unwrap();
    let got = model.prefill_logits(&mut kv, &tokens).unwrap();
    let prefill = relative_error(&got, &want);
    assert!(
        prefill <= tol,
        "{case}: prefill relative error {prefill:.2e}"
    );
    let decoded = decode_matches_reference(
        model,
        &mut kv,
        reference,
        &mut seq,
        host_argmax(&got),
        len,
        steps,
        tol,
        case,
    );
    (prefill, prefill.max(decoded))
}

/// Checks an opt-in inexact numeric form: for each (length, seed) prompt,
/// the prefill and `steps` decode steps stay within `tol` of the reference;
/// and the least prefill error is above the exact form's (1e-5), so the
/// form is not silently the exact one. Prints the range for the docs.
pub fn assert_inexact_form_within(
    model: &mut DeviceModel,
    reference: &iree_llm::reference::Reference,
    prompts: &[(usize, u32)],
    steps: usize,
    tol: f64,
    form: &str,
) {
    let (mut worst, mut least) = (0f64, f64::INFINITY);
    for &(len, seed) in prompts {
        let case = format!("{form}, prompt of {len}");
        let (prefill, err) =
            prefill_and_decode_error(model, reference, len, seed, steps, tol, &case);
        (worst, least) = (worst.max(err), least.min(prefill));
    }
    eprintln!("{form}: relative error {least:.2e} .. {worst:.2e}");
    assert!(
        least > 1e-5,
        "{form}: error {least:.2e} is the exact form's"
    );
}

/// One slot a prompt of each of `lengths` (seeds `seed`, `seed + 1`, ...),
/// prefilled, then `steps` greedy decode steps of all the slots together,
/// each row at its own position: every row's logits within `tol` of the
/// f64 reference's for its own sequence. Returns the least and the worst
/// relative error seen.
pub fn ragged_steps_within(
    model: &mut DeviceModel,
    reference: &iree_llm::reference::Reference,
    lengths: &[usize],
    seed: u32,
    steps: usize,
    tol: f64,
    case: &str,
) -> (f64, f64) {
    let vocab = model.vocab();
    let batch = lengths.len();
    let mut kv = model.new_kv_slots(batch).unwrap();
    let (mut seqs, mut next, mut pos) = (Vec::new(), Vec::new(), Vec::new());
    for (i, &len) in lengths.iter().enumerate() {
        let tokens = prompt(len, seed + i as u32, vocab);
        let mut seq = reference.new_sequence();
        seq.forward(reference, &tokens).unwrap();
        let logits = model.prefill_logits_at(&mut kv, i, &tokens).unwrap();
        next.push(host_argmax(&logits));
        pos.push(tokens.len());
        seqs.push(seq);
    }
    let (mut least, mut worst) = (f64::INFINITY, 0f64);
    let mut logits = Vec::new();
    for step in 0..steps {
        model
            .decode_logits(&mut kv, &next, &pos, &mut logits)
            .unwrap();
        for i in 0..batch {
            let row = &logits[i * vocab..(i + 1) * vocab];
            let want = seqs[i].forward(reference, &[next[i]]).unwrap();
            let err = relative_error(row, &want);
            assert!(
                err <= tol,
                "{case}, B={batch}: step {step} row {i} at position {}: relative error {err:.2e}",
                pos[i]
            );
            (least, worst) = (least.min(err), worst.max(err));
            next[i] = host_argmax(row);
            pos[i] += 1;
        }
    }
    (least, worst)
}

/// Rows `0..rows - 1` of a `rows`-slot step generate (prompts of their
/// own), and the last slot takes a new 20-token prompt as one chunk: the
/// step that carries that chunk must give the decode rows bit for bit the
/// logits and ids of a plain step, so a request's tokens do not depend on
/// whether its step carried someone's prompt. `model` has the decode graphs
/// of `rows` rows (logits and sampled) and compiles on demand. `case` names
/// the form in the messages.
pub fn assert_carrying_a_chunk_keeps_the_decode_rows_bits(
    model: &mut DeviceModel,
    rows: usize,
    case: &str,
) {
    use iree_llm::model::RowDraw;
    let vocab = model.vocab();
    let chunk_slot = rows - 1;
    let new_prompt = prompt(20, 99, vocab);
    let call = model.chunk_plan(new_prompt.len(), 32).unwrap()[0];
    let (mut plain_kv, mut carried_kv) = (
        model.new_kv_slots(rows).unwrap(),
        model.new_kv_slots(rows).unwrap(),
    );
    let (mut next, mut pos) = (vec![TokenId(0); rows], vec![call.start; rows]);
    for i in 0..chunk_slot {
        let p = prompt(3 + 5 * i, 70 + i as u32, vocab);
        let logits = model.prefill_logits_at(&mut plain_kv, i, &p).unwrap();
        let again = model.prefill_logits_at(&mut carried_kv, i, &p).unwrap();
        assert_eq!(logits, again, "{case}: the same prompt prefilled twice");
        next[i] = host_argmax(&logits);
        pos[i] = p.len();
    }
    let draws = vec![RowDraw::GREEDY; rows];
    model
        .ensure_graph(model.decode_chunk_kind(&carried_kv, &pos, call))
        .unwrap();
    let (mut ids, mut plain, mut carried) = (Vec::new(), Vec::new(), Vec::new());
    model
        .decode_sample(
            &mut plain_kv,
            &next,
            &pos,
            &draws,
            &mut ids,
            Some(&mut plain),
        )
        .unwrap();
    let plain_ids = ids.clone();
    let outcome = model
        .decode_sample_with_chunk(
            &mut carried_kv,
            &next,
            &pos,
            &draws,
            &mut ids,
            Some(&mut carried),
            (chunk_slot, &new_prompt, call),
        )
        .unwrap();
    assert!(
        outcome.logits.is_some(),
        "{case}: a 20-token prompt is one chunk"
    );
    assert_eq!(plain.len(), rows * vocab, "{case}: the plain step's logits");
    assert_eq!(
        carried.len(),
        plain.len(),
        "{case}: the carrying step's logits"
    );
    for i in 0..chunk_slot {
        let row = i * vocab..(i + 1) * vocab;
        let same = plain[row.clone()]
            .iter()
            .zip(&carried[row])
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(
            same,
            "{case}: decode row {i}'s logits differ when the step carries a chunk"
        );
        assert_eq!(ids[i], plain_ids[i], "{case}: decode row {i}");
    }
}

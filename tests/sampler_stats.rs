//! Statistical tests of the host sampler: for several parameter sets, draw
//! 100,000 tokens (fixed seed, steps 0..N) and test their counts against the
//! distribution of the plain f64 specification (`sampler::spec`: softmax,
//! sort, cut; it shares no code with the sampler under test), with a chi-square goodness-of-fit test at significance 0.001.
//!
//! The harness itself is shown able to fail: the same draws are tested
//! against deliberately wrong filters and must be rejected.
//!
//! Run with `--nocapture` to see the summary table.

use std::sync::OnceLock;

use half::{bf16, f16};
use iree_llm::sampler::spec::Candidates;
use iree_llm::sampler::{Logit, SampleParams, Sampler};

const DRAWS: u64 = 100_000;
/// Reject when the fit is this unlikely (or worse) under the null hypothesis.
const ALPHA: f64 = 1e-3;

#[derive(Clone, Copy, Debug)]
struct Filters {
    temperature: f64,
    top_k: usize,
    top_p: f64,
    min_p: f64,
}

const fn filters(temperature: f64, top_k: usize, top_p: f64, min_p: f64) -> Filters {
    Filters {
        temperature,
        top_k,
        top_p,
        min_p,
    }
}

/// How the reference may be deliberately broken, to show the test has power.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Planted {
    None,
    /// top-p stops before the token that crosses p.
    TopPDropsCrossingToken,
    /// top-k keeps one token too many.
    TopKOffByOne,
    /// Temperature 10% too high (same support, different shape).
    WrongTemperature,
    /// top-p measured against the whole vocabulary instead of the top-k set.
    TopPIgnoresTopK,
}

/// The analytic distribution, over the whole vocabulary, of the token
/// chosen from `logits` with `f`, from the plain f64 specification of the
/// chain (`sampler::spec`, which shares no code with the sampler under
/// test): softmax(x / T); rank by logit desc then id asc; keep k;
/// renormalize; keep the smallest prefix reaching p; keep q >= min_p * q_max;
/// renormalize. A planted bug rearranges or bends the stages. Also returns
/// the closest any cumulative or min-p comparison came to its boundary, to
/// guard against cases whose outcome would hinge on rounding.
fn reference(logits: &[f64], f: Filters, bug: Planted) -> (Vec<f64>, f64) {
    let t = if bug == Planted::WrongTemperature {
        f.temperature * 1.1
    } else {
        f.temperature
    };
    let k = if bug == Planted::TopKOffByOne && f.top_k > 0 {
        f.top_k + 1
    } else {
        f.top_k
    };
    let tempered = Candidates::new(logits, t);
    let mut kept = if bug == Planted::TopPIgnoresTopK {
        // top-p's mass taken over the whole vocabulary, then cut to k: the
        // two are rank prefixes, so this is the shorter of the two.
        tempered.top_p(f.top_p).top_k(k)
    } else {
        tempered.top_k(k).top_p(f.top_p)
    };
    if bug == Planted::TopPDropsCrossingToken && f.top_p < 1.0 && kept.ranked.len() > 1 {
        kept.ranked.pop();
    }
    let kept = kept.min_p(f.min_p);
    (kept.probabilities(logits.len()), kept.margin)
}

struct Fit {
    chi2: f64,
    df: usize,
    p_value: f64,
    /// Draws of tokens the reference gives probability 0.
    outside: u64,
}

impl Fit {
    fn accepted(&self) -> bool {
        self.outside == 0 && self.p_value >= ALPHA
    }
}

/// Pearson chi-square of `counts` against `probs`. Tokens are taken in
/// descending expected count and pooled until each bin expects >= 5 draws.
fn goodness_of_fit(counts: &[u64], probs: &[f64]) -> Fit {
    let total: u64 = counts.iter().sum();
    let outside = counts
        .iter()
        .zip(probs)
        .filter(|&(_, &p)| p == 0.0)
        .map(|(&c, _)| c)
        .sum();
    let mut idx: Vec<usize> = (0..probs.len()).filter(|&i| probs[i] > 0.0).collect();
    idx.sort_by(|&a, &b| probs[b].total_cmp(&probs[a]));
    let mut bins: Vec<(f64, f64)> = Vec::new(); // (observed, expected)
    let (mut o, mut e) = (0.0, 0.0);
    for &i in &idx {
        o += counts[i] as f64;
        e += probs[i] * total as f64;
        if e >= 5.0 {
            bins.push((o, e));
            (o, e) = (0.0, 0.0);
        }
    }
    if e > 0.0 {
        match bins.last_mut() {
            Some(last) => {
                last.0 += o;
                last.1 += e;
            }
            None => bins.push((o, e)),
        }
    }
    let chi2: f64 = bins.iter().map(|&(o, e)| (o - e) * (o - e) / e).sum();
    let df = bins.len().saturating_sub(1);
    Fit {
        chi2,
        df,
        p_value: chi2_upper_tail(chi2, df),
        outside,
    }
}

/// P(X >= x) for X ~ chi-square(df): the regularized upper incomplete
/// gamma function Q(df/2, x/2), as 1 minus the power series of P. Each series
/// term is at most P <= 1, so computing terms in log space cannot overflow.
fn chi2_upper_tail(x: f64, df: usize) -> f64 {
    if df == 0 {
        return 1.0;
    }
    let a = df as f64 / 2.0;
    let x = x / 2.0;
    if x <= 0.0 {
        return 1.0;
    }
    if x > 2.0 * a + 400.0 {
        return 0.0; // far beyond any critical value of interest
    }
    // P(a, x) = exp(-x) x^a / Gamma(a + 1) * sum_n x^n / ((a + 1) ... (a + n))
    let log_prefactor = -x + a * x.ln() - ln_gamma_half_integer(a + 1.0);
    let mut log_term = log_prefactor;
    let mut p = log_term.exp();
    let mut n = 1.0;
    while n < x + 40.0 * x.sqrt() + 100.0 {
        log_term += (x / (a + n)).ln();
        p += log_term.exp();
        n += 1.0;
    }
    (1.0 - p).max(0.0)
}

/// ln Gamma(a) for a positive multiple of 1/2, exactly by recurrence from
/// Gamma(1) = 1 and Gamma(1/2) = sqrt(pi).
fn ln_gamma_half_integer(a: f64) -> f64 {
    let (mut v, mut acc) = if a.fract() == 0.0 {
        (1.0, 0.0)
    } else {
        (0.5, 0.5 * std::f64::consts::PI.ln())
    };
    while v < a {
        acc += v.ln();
        v += 1.0;
    }
    acc
}

/// Deterministic logits: a mix of a few large values and a normal-ish bulk,
/// optionally quantized so that exact ties occur.
fn make_logits(n: usize, seed: u64, std: f64, quantum: f64) -> Vec<f64> {
    let mut s = seed;
    let mut next = || {
        // xorshift64*, local to the test.
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let bulk: f64 = (0..4).map(|_| next()).sum::<f64>() - 2.0;
            let v = bulk * std * 1.73;
            if quantum > 0.0 {
                (v / quantum).round() * quantum
            } else {
                v
            }
        })
        .collect()
}

/// Draws `DRAWS` tokens and returns per-token counts.
fn draw_counts<L: Logit>(row: &[L], f: Filters, seed: u64) -> Vec<u64> {
    let mut sampler = Sampler::new(row.len());
    let params = SampleParams {
        temperature: f.temperature as f32,
        top_k: f.top_k,
        top_p: f.top_p as f32,
        min_p: f.min_p as f32,
        seed: Some(seed),
    };
    let mut counts = vec![0u64; row.len()];
    for step in 0..DRAWS {
        counts[sampler.sample(row, &params, step).unwrap().index()] += 1;
    }
    counts
}

/// One case: logits, filters and the element type they are sampled in.
struct Case {
    name: &'static str,
    vocab: usize,
    logit_seed: u64,
    quantum: f64,
    f: Filters,
    dtype: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "temperature 1",
        vocab: 50,
        logit_seed: 1,
        quantum: 0.0,
        f: filters(1.0, 0, 1.0, 0.0),
        dtype: "f32",
    },
    Case {
        name: "T 0.7, top-k 8 (ties)",
        vocab: 64,
        logit_seed: 2,
        quantum: 0.25,
        f: filters(0.7, 8, 1.0, 0.0),
        dtype: "f32",
    },
    Case {
        name: "T 1.3, top-p 0.8",
        vocab: 300,
        logit_seed: 3,
        quantum: 0.0,
        f: filters(1.3, 0, 0.8, 0.0),
        dtype: "f32",
    },
    Case {
        name: "T 1, min-p 0.1",
        vocab: 200,
        logit_seed: 4,
        quantum: 0.0,
        f: filters(1.0, 0, 1.0, 0.1),
        dtype: "f32",
    },
    Case {
        name: "T 0.8, k 20, p 0.9, min-p 0.05",
        vocab: 500,
        logit_seed: 5,
        quantum: 0.0,
        f: filters(0.8, 20, 0.9, 0.05),
        dtype: "f32",
    },
    Case {
        name: "bf16, T 1.1, top-p 0.95",
        vocab: 1000,
        logit_seed: 6,
        quantum: 0.0,
        f: filters(1.1, 0, 0.95, 0.0),
        dtype: "bf16",
    },
    Case {
        name: "f16, T 0.9, k 40, min-p 0.02",
        vocab: 4096,
        logit_seed: 7,
        quantum: 0.0,
        f: filters(0.9, 40, 1.0, 0.02),
        dtype: "f16",
    },
    Case {
        name: "f32, T 1.5, top-p 0.5, min-p 0.3",
        vocab: 1000,
        logit_seed: 8,
        quantum: 0.125,
        f: filters(1.5, 0, 0.5, 0.3),
        dtype: "f32",
    },
    Case {
        // k above the number of 64-token chunks: the all-candidates path.
        name: "f32, T 1, k 30 of 16 chunks, p 0.9",
        vocab: 1000,
        logit_seed: 9,
        quantum: 0.0,
        f: filters(1.0, 30, 0.9, 0.0),
        dtype: "f32",
    },
];

/// The case's logits as the sampler sees them (rounded to its dtype) and
/// the draws, computed once per test binary and shared by the tests.
fn run_case(c: &Case) -> &'static (Vec<f64>, Vec<u64>) {
    static DONE: [OnceLock<(Vec<f64>, Vec<u64>)>; CASES.len()] =
        [const { OnceLock::new() }; CASES.len()];
    let i = CASES
        .iter()
        .position(|k| std::ptr::eq(k, c))
        .expect("a case from CASES");
    DONE[i].get_or_init(|| draw_case(c))
}

fn draw_case(c: &Case) -> (Vec<f64>, Vec<u64>) {
    let raw = make_logits(c.vocab, c.logit_seed, 2.5, c.quantum);
    let seed = 1000 + c.logit_seed;
    match c.dtype {
        "f16" => {
            let row: Vec<f16> = raw.iter().map(|&v| f16::from_f64(v)).collect();
            let seen = row.iter().map(|v| v.to_f64()).collect();
            (seen, draw_counts(&row, c.f, seed))
        }
        "bf16" => {
            let row: Vec<bf16> = raw.iter().map(|&v| bf16::from_f64(v)).collect();
            let seen = row.iter().map(|v| v.to_f64()).collect();
            (seen, draw_counts(&row, c.f, seed))
        }
        _ => {
            let row: Vec<f32> = raw.iter().map(|&v| v as f32).collect();
            let seen = row.iter().map(|&v| f64::from(v)).collect();
            (seen, draw_counts(&row, c.f, seed))
        }
    }
}

fn report(name: &str, bug: Planted, kept: usize, fit: &Fit) {
    println!(
        "{name:<34} {:<24} kept {kept:>4}  bins-1 {:>3}  chi2 {:>9.1}  p {:>8.2e}  outside {:>6}  {}",
        format!("{bug:?}"),
        fit.df,
        fit.chi2,
        fit.p_value,
        fit.outside,
        if fit.accepted() { "fits" } else { "REJECTED" }
    );
}

#[test]
fn draws_fit_the_analytic_distribution() {
    let mut failures = Vec::new();
    for c in CASES {
        let (logits, counts) = run_case(c);
        assert_eq!(counts.iter().sum::<u64>(), DRAWS);
        let (probs, margin) = reference(logits, c.f, Planted::None);
        // The sampler's weights are good to a few 1e-7: a case closer than
        // 1e-6 to a threshold could go either way and would test rounding.
        assert!(
            margin > 1e-6,
            "{}: a boundary is within {margin:e} of its threshold; pick other parameters",
            c.name
        );
        let fit = goodness_of_fit(counts, &probs);
        report(
            c.name,
            Planted::None,
            probs.iter().filter(|&&p| p > 0.0).count(),
            &fit,
        );
        if !fit.accepted() {
            failures.push(c.name);
        }
    }
    assert!(failures.is_empty(), "rejected: {failures:?}");
}

/// The same draws against a wrong filter must be rejected: otherwise the
/// test above would prove nothing.
fn assert_rejected(case: usize, bug: Planted) {
    let c = &CASES[case];
    let (logits, counts) = run_case(c);
    let (probs, _) = reference(logits, c.f, bug);
    let fit = goodness_of_fit(counts, &probs);
    report(
        c.name,
        bug,
        probs.iter().filter(|&&p| p > 0.0).count(),
        &fit,
    );
    assert!(!fit.accepted(), "{bug:?} was not detected on {}", c.name);
}

#[test]
fn harness_rejects_top_p_that_drops_the_crossing_token() {
    assert_rejected(2, Planted::TopPDropsCrossingToken);
    assert_rejected(4, Planted::TopPDropsCrossingToken);
}

#[test]
fn harness_rejects_top_k_off_by_one() {
    assert_rejected(1, Planted::TopKOffByOne);
    assert_rejected(6, Planted::TopKOffByOne);
}

#[test]
fn harness_rejects_a_slightly_wrong_temperature() {
    assert_rejected(0, Planted::WrongTemperature);
    assert_rejected(3, Planted::WrongTemperature);
}

#[test]
fn harness_rejects_top_p_measured_against_the_whole_vocabulary() {
    assert_rejected(4, Planted::TopPIgnoresTopK);
}

#[test]
fn chi2_tail_approximation_is_sane() {
    // Critical values at 0.001: chi2(1) = 10.828, chi2(10) = 29.588, chi2(100) = 149.449.
    for (x, df) in [(10.828, 1), (29.588, 10), (149.449, 100)] {
        let p = chi2_upper_tail(x, df);
        assert!((p / 1e-3 - 1.0).abs() < 0.01, "df {df}: {p}");
    }
    // Medians: chi2(0.5; 10) = 9.342, chi2(0.5; 3) = 2.366.
    assert!((chi2_upper_tail(9.342, 10) - 0.5).abs() < 1e-3);
    assert!((chi2_upper_tail(2.366, 3) - 0.5).abs() < 1e-3);
    // ln Gamma: Gamma(5) = 24, Gamma(2.5) = 0.75 sqrt(pi).
    assert!((ln_gamma_half_integer(5.0) - 24f64.ln()).abs() < 1e-12);
    let g = 0.75 * std::f64::consts::PI.sqrt();
    assert!((ln_gamma_half_integer(2.5) - g.ln()).abs() < 1e-12);
}

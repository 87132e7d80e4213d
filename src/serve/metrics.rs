//! Server metrics and their Prometheus text exposition (format 0.0.4).
//!
//! Counters and gauges are atomics; the two latency histograms sit behind a
//! mutex each (one short lock per generated token, taken by the engine
//! thread). Nothing here allocates per observation.

use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::engine::{EngineStatus, FinishReason};

/// How a generation request ended, as counted by `iree_llm_requests_total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// EOS, a stop token or a stop string.
    Stop,
    /// `max_tokens` reached.
    Length,
    /// The client went away (or the server shut down) before the end.
    Cancelled,
    /// The engine failed the request (device or sampling error).
    Error,
    /// Refused before generation: bad input, unknown model, queue full.
    Rejected,
}

impl Outcome {
    pub const ALL: [Outcome; 5] = [
        Outcome::Stop,
        Outcome::Length,
        Outcome::Cancelled,
        Outcome::Error,
        Outcome::Rejected,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Stop => "stop",
            Outcome::Length => "length",
            Outcome::Cancelled => "cancelled",
            Outcome::Error => "error",
            Outcome::Rejected => "rejected",
        }
    }

    pub fn from_finish(reason: FinishReason) -> Self {
        match reason {
            FinishReason::Stop => Outcome::Stop,
            FinishReason::Length => Outcome::Length,
            FinishReason::Cancelled => Outcome::Cancelled,
            FinishReason::Error => Outcome::Error,
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Upper bounds (seconds) of the time-to-first-token buckets.
pub const TTFT_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];
/// Upper bounds (seconds) of the inter-token latency buckets.
pub const ITL_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// A cumulative Prometheus histogram with fixed buckets.
#[derive(Debug)]
pub struct Histogram {
    bounds: &'static [f64],
    inner: Mutex<HistogramData>,
}

#[derive(Debug, Clone, Default)]
struct HistogramData {
    /// Observations per bucket (not cumulative); one extra for +Inf.
    counts: Vec<u64>,
    sum: f64,
    count: u64,
}

impl Histogram {
    pub fn new(bounds: &'static [f64]) -> Self {
        Histogram {
            bounds,
            inner: Mutex::new(HistogramData {
                counts: vec![0; bounds.len() + 1],
                ..Default::default()
            }),
        }
    }

    pub fn observe(&self, d: Duration) {
        let v = d.as_secs_f64();
        let i = self.bounds.partition_point(|&b| b < v);
        let mut h = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        h.counts[i] += 1;
        h.sum += v;
        h.count += 1;
    }

    /// Number of observations so far.
    pub fn count(&self) -> u64 {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).count
    }

    fn write(&self, out: &mut String, name: &str, help: &str) {
        let h = self.inner.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, n) in self.bounds.iter().zip(&h.counts) {
            cumulative += n;
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {}", h.count);
        let _ = writeln!(out, "{name}_sum {}", h.sum);
        let _ = writeln!(out, "{name}_count {}", h.count);
    }
}

/// Everything `/metrics` reports.
#[derive(Debug)]
pub struct Metrics {
    requests: [AtomicU64; 5],
    generated_tokens: AtomicU64,
    /// Prompt tokens not prefilled, found in a slot's cache (prefix reuse).
    reused_prompt_tokens: AtomicU64,
    queue_depth: AtomicU64,
    active_slots: AtomicU64,
    slots: AtomicU64,
    /// From the arrival of the HTTP request to its first generated token.
    pub time_to_first_token: Histogram,
    /// Between consecutive generated tokens of one request.
    pub inter_token_latency: Histogram,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    pub fn new() -> Self {
        Metrics {
            requests: Default::default(),
            generated_tokens: AtomicU64::new(0),
            reused_prompt_tokens: AtomicU64::new(0),
            queue_depth: AtomicU64::new(0),
            active_slots: AtomicU64::new(0),
            slots: AtomicU64::new(0),
            time_to_first_token: Histogram::new(TTFT_BUCKETS),
            inter_token_latency: Histogram::new(ITL_BUCKETS),
        }
    }

    pub fn count_request(&self, outcome: Outcome) {
        self.requests[outcome.index()].fetch_add(1, Ordering::Relaxed);
    }

    pub fn requests(&self, outcome: Outcome) -> u64 {
        self.requests[outcome.index()].load(Ordering::Relaxed)
    }

    pub fn add_generated_tokens(&self, n: u64) {
        self.generated_tokens.fetch_add(n, Ordering::Relaxed);
    }

    pub fn generated_tokens(&self) -> u64 {
        self.generated_tokens.load(Ordering::Relaxed)
    }

    /// Records the engine's count of prompt tokens taken from a slot's
    /// cache instead of prefilled (called by the engine thread).
    pub fn set_reused_prompt_tokens(&self, n: u64) {
        self.reused_prompt_tokens.store(n, Ordering::Relaxed);
    }

    pub fn reused_prompt_tokens(&self) -> u64 {
        self.reused_prompt_tokens.load(Ordering::Relaxed)
    }

    /// Records the engine's load (called by the engine thread).
    pub fn set_status(&self, s: EngineStatus) {
        self.queue_depth.store(s.queued as u64, Ordering::Relaxed);
        self.active_slots.store(s.active as u64, Ordering::Relaxed);
        self.slots.store(s.slots as u64, Ordering::Relaxed);
    }

    /// The engine's load as last recorded.
    pub fn status(&self) -> EngineStatus {
        EngineStatus {
            queued: self.queue_depth.load(Ordering::Relaxed) as usize,
            active: self.active_slots.load(Ordering::Relaxed) as usize,
            slots: self.slots.load(Ordering::Relaxed) as usize,
        }
    }

    /// The Prometheus text exposition of every metric.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(4096);
        out.push_str(
            "# HELP iree_llm_requests_total Generation requests by how they ended \
             (rejected: refused before generation).\n\
             # TYPE iree_llm_requests_total counter\n",
        );
        for o in Outcome::ALL {
            let _ = writeln!(
                out,
                "iree_llm_requests_total{{outcome=\"{}\"}} {}",
                o.as_str(),
                self.requests(o)
            );
        }
        let status = self.status();
        let gauges = [
            (
                "iree_llm_queue_depth",
                "Requests waiting for a slot.",
                status.queued,
            ),
            (
                "iree_llm_active_slots",
                "Slots generating a request.",
                status.active,
            ),
            (
                "iree_llm_slots",
                "Slots of the engine (the batch size).",
                status.slots,
            ),
        ];
        for (name, help, v) in gauges {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {v}");
        }
        let _ = writeln!(
            out,
            "# HELP iree_llm_generated_tokens_total Tokens generated, over all requests.\n\
             # TYPE iree_llm_generated_tokens_total counter\n\
             iree_llm_generated_tokens_total {}",
            self.generated_tokens()
        );
        let _ = writeln!(
            out,
            "# HELP iree_llm_prompt_tokens_reused_total Prompt tokens not prefilled because a \
             slot's cache held them (prefix reuse).\n\
             # TYPE iree_llm_prompt_tokens_reused_total counter\n\
             iree_llm_prompt_tokens_reused_total {}",
            self.reused_prompt_tokens()
        );
        self.time_to_first_token.write(
            &mut out,
            "iree_llm_time_to_first_token_seconds",
            "Time from a request's arrival to its first generated token.",
        );
        self.inter_token_latency.write(
            &mut out,
            "iree_llm_inter_token_latency_seconds",
            "Time between consecutive generated tokens of a request.",
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative_and_end_with_inf() {
        let m = Metrics::new();
        m.time_to_first_token.observe(Duration::from_millis(3));
        m.time_to_first_token.observe(Duration::from_millis(30));
        m.time_to_first_token.observe(Duration::from_secs(100));
        let text = m.render();
        assert!(text.contains("iree_llm_time_to_first_token_seconds_bucket{le=\"0.005\"} 1\n"));
        assert!(text.contains("iree_llm_time_to_first_token_seconds_bucket{le=\"0.05\"} 2\n"));
        assert!(text.contains("iree_llm_time_to_first_token_seconds_bucket{le=\"60\"} 2\n"));
        assert!(text.contains("iree_llm_time_to_first_token_seconds_bucket{le=\"+Inf\"} 3\n"));
        assert!(text.contains("iree_llm_time_to_first_token_seconds_count 3\n"));
        assert!(text.contains("# TYPE iree_llm_inter_token_latency_seconds histogram\n"));
    }

    #[test]
    fn a_value_on_a_bound_falls_in_that_bucket() {
        let h = Histogram::new(&[1.0, 2.0]);
        h.observe(Duration::from_secs(1));
        let mut out = String::new();
        h.write(&mut out, "x", "help");
        assert!(out.contains("x_bucket{le=\"1\"} 1\n"), "{out}");
    }

    #[test]
    fn counters_and_gauges_are_exposed_with_help_and_type() {
        let m = Metrics::new();
        m.count_request(Outcome::Cancelled);
        m.count_request(Outcome::Rejected);
        m.count_request(Outcome::Rejected);
        m.add_generated_tokens(7);
        m.set_status(EngineStatus {
            queued: 2,
            active: 3,
            slots: 4,
        });
        let text = m.render();
        for line in [
            "# TYPE iree_llm_requests_total counter",
            "iree_llm_requests_total{outcome=\"cancelled\"} 1",
            "iree_llm_requests_total{outcome=\"rejected\"} 2",
            "iree_llm_requests_total{outcome=\"stop\"} 0",
            "# TYPE iree_llm_queue_depth gauge",
            "iree_llm_queue_depth 2",
            "iree_llm_active_slots 3",
            "iree_llm_generated_tokens_total 7",
        ] {
            assert!(
                text.lines().any(|l| l == line),
                "missing {line:?} in\n{text}"
            );
        }
        // Every sample line belongs to a family announced by HELP and TYPE.
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let name = line.split(['{', ' ']).next().unwrap();
            let family = name
                .trim_end_matches("_bucket")
                .trim_end_matches("_sum")
                .trim_end_matches("_count");
            assert!(text.contains(&format!("# HELP {family} ")), "{name}");
            assert!(text.contains(&format!("# TYPE {family} ")), "{name}");
        }
    }
}

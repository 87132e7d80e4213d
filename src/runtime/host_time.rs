//! How long a session's operations held the calling thread, by kind: the
//! account `graph-bench` gives of a step (uploads, the call, read-backs),
//! so a device's fixed cost per step can be told from its kernels' time.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// The kinds of session operation that wait for the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostOp {
    /// A host array copied to a new device buffer.
    Upload,
    /// A function called synchronously.
    Call,
    /// Device data read back to the host.
    Read,
    /// Host data written into an existing device buffer.
    Write,
    /// A copy between device buffers.
    Copy,
}

impl HostOp {
    pub const ALL: [HostOp; 5] = [
        HostOp::Upload,
        HostOp::Call,
        HostOp::Read,
        HostOp::Write,
        HostOp::Copy,
    ];

    pub fn name(self) -> &'static str {
        match self {
            HostOp::Upload => "uploads",
            HostOp::Call => "calls",
            HostOp::Read => "read-backs",
            HostOp::Write => "writes",
            HostOp::Copy => "device copies",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Counts and total times per kind, as of one moment; subtract two to get
/// what happened between them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HostTimes {
    counts: [u64; 5],
    times: [Duration; 5],
}

impl HostTimes {
    pub fn count(&self, op: HostOp) -> u64 {
        self.counts[op.index()]
    }

    pub fn time(&self, op: HostOp) -> Duration {
        self.times[op.index()]
    }

    /// What happened after `earlier`.
    pub fn since(&self, earlier: &HostTimes) -> HostTimes {
        let mut out = HostTimes::default();
        for i in 0..5 {
            out.counts[i] = self.counts[i].saturating_sub(earlier.counts[i]);
            out.times[i] = self.times[i].saturating_sub(earlier.times[i]);
        }
        out
    }

    /// Both spans' operations together.
    pub fn plus(&self, other: &HostTimes) -> HostTimes {
        let mut out = *self;
        for i in 0..5 {
            out.counts[i] += other.counts[i];
            out.times[i] += other.times[i];
        }
        out
    }

    /// One line for `steps` steps' worth of operations: each kind that
    /// happened, its count and milliseconds per step.
    pub fn per_step_summary(&self, steps: usize) -> String {
        let steps = steps.max(1) as f64;
        let parts: Vec<String> = HostOp::ALL
            .iter()
            .filter(|&&op| self.count(op) > 0)
            .map(|&op| {
                format!(
                    "{} {} x {:.3} ms",
                    op.name(),
                    self.count(op) as f64 / steps,
                    self.time(op).as_secs_f64() * 1e3 / self.count(op) as f64
                )
            })
            .collect();
        parts.join(", ")
    }
}

/// The running totals a session keeps (one thread at a time, like the session).
#[derive(Debug, Default)]
pub(super) struct HostClock {
    totals: Cell<HostTimes>,
}

impl HostClock {
    /// Runs `f`, adding its duration to `op`'s total.
    pub(super) fn time<T>(&self, op: HostOp, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        let mut totals = self.totals.get();
        totals.counts[op.index()] += 1;
        totals.times[op.index()] += start.elapsed();
        self.totals.set(totals);
        out
    }

    pub(super) fn totals(&self) -> HostTimes {
        self.totals.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_count_each_kind_apart_and_subtract() {
        let clock = HostClock::default();
        clock.time(HostOp::Upload, || ());
        let before = clock.totals();
        clock.time(HostOp::Upload, || ());
        clock.time(HostOp::Upload, || ());
        clock.time(HostOp::Call, || {
            std::thread::sleep(Duration::from_millis(2))
        });
        let delta = clock.totals().since(&before);
        assert_eq!(delta.count(HostOp::Upload), 2);
        assert_eq!(delta.count(HostOp::Call), 1);
        assert_eq!(delta.count(HostOp::Read), 0);
        assert!(delta.time(HostOp::Call) >= Duration::from_millis(2));
    }

    #[test]
    fn two_spans_add_up_kind_by_kind() {
        let clock = HostClock::default();
        let start = clock.totals();
        clock.time(HostOp::Upload, || ());
        let mid = clock.totals();
        clock.time(HostOp::Upload, || ());
        clock.time(HostOp::Call, || ());
        let both = mid.since(&start).plus(&clock.totals().since(&mid));
        assert_eq!(both, clock.totals().since(&start));
        assert_eq!(
            (both.count(HostOp::Upload), both.count(HostOp::Call)),
            (2, 1)
        );
    }

    #[test]
    fn the_summary_names_only_what_happened_per_step() {
        let mut t = HostTimes::default();
        t.counts[HostOp::Upload.index()] = 4;
        t.times[HostOp::Upload.index()] = Duration::from_micros(400);
        t.counts[HostOp::Call.index()] = 2;
        t.times[HostOp::Call.index()] = Duration::from_millis(10);
        assert_eq!(
            t.per_step_summary(2),
            "uploads 2 x 0.100 ms, calls 1 x 5.000 ms"
        );
    }
}

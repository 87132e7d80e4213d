//! Decode steps timed in segments with a streaming-read probe around each,
//! so a step's memory floor comes from the bandwidth the host gave while
//! the steps ran. On a shared machine that bandwidth moves with other
//! guests' load from one second to the next: a floor measured once before
//! loading can be a third off by the time the steps are timed, and the
//! ratio would then say more about the host's phase than about the step.

use std::time::Duration;

use super::{median, process_cpu_time};
use crate::bandwidth::{Bandwidth, Probe};
use crate::runtime::HostTimes;

/// Segments a batch's timed steps are cut into; a probe runs before the
/// first, between each two and after the last.
pub const SEGMENTS: usize = 4;

/// Passes each probe takes; the best is kept, as in the first probe.
pub const PROBE_PASSES: usize = 3;

/// Ticks of the whole machine's CPU time so far (Linux `/proc/stat`): those
/// the hypervisor gave to other guests (steal) and all of them. On a
/// shared host a step can take longer because its vCPUs were not running
/// at all, which no memory floor explains.
pub fn host_cpu_ticks() -> Option<StealTicks> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    StealTicks::parse(stat.lines().next()?)
}

/// Stolen and total CPU ticks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StealTicks {
    pub steal: u64,
    pub total: u64,
}

impl StealTicks {
    /// The `cpu` line of `/proc/stat`: "cpu user nice system idle iowait
    /// irq softirq steal guest guest_nice"; the guest columns are already
    /// counted in user and nice.
    fn parse(line: &str) -> Option<StealTicks> {
        let mut fields = line.split_whitespace();
        if fields.next()? != "cpu" {
            return None;
        }
        let ticks: Vec<u64> = fields
            .take(8)
            .map(|f| f.parse().ok())
            .collect::<Option<_>>()?;
        (ticks.len() == 8).then(|| StealTicks {
            steal: ticks[7],
            total: ticks.iter().sum(),
        })
    }

    /// What happened after `earlier`.
    pub fn since(&self, earlier: &StealTicks) -> StealTicks {
        StealTicks {
            steal: self.steal.saturating_sub(earlier.steal),
            total: self.total.saturating_sub(earlier.total),
        }
    }

    pub fn plus(&self, other: &StealTicks) -> StealTicks {
        StealTicks {
            steal: self.steal + other.steal,
            total: self.total + other.total,
        }
    }

    /// The stolen share of the ticks, if any ticks passed.
    pub fn share(&self) -> Option<f64> {
        (self.total > 0).then(|| self.steal as f64 / self.total as f64)
    }
}

/// The timed steps of one batch size and the bandwidth measured around them.
#[derive(Clone, Debug)]
pub struct PairedSteps {
    /// Every timed step, in order.
    pub times: Vec<Duration>,
    /// The median step of each segment.
    pub segment_medians: Vec<Duration>,
    /// CPU time of the timed steps, all threads, where the platform says.
    pub cpu: Option<Duration>,
    /// The runtime's host waits during the timed steps.
    pub host: HostTimes,
    /// The machine's stolen and total CPU ticks during the timed steps,
    /// where the platform says.
    pub steal: Option<StealTicks>,
    /// One more probe than segments, in order; empty without a probe.
    pub probes: Vec<Bandwidth>,
}

impl PairedSteps {
    pub fn median_ms(&self) -> f64 {
        median(self.times.clone()).as_secs_f64() * 1e3
    }

    /// The median of the probes: the bandwidth for the floor of the whole
    /// run's median step. None without a probe.
    pub fn median_bandwidth(&self) -> Option<Bandwidth> {
        let mut probes = self.probes.clone();
        probes.sort_by(|a, b| a.bytes_per_s.total_cmp(&b.bytes_per_s));
        probes.get(probes.len() / 2).copied()
    }

    /// Each segment's median step over the floor of `bytes` at the mean
    /// bandwidth of the two probes around it. Empty without a probe.
    pub fn segment_ratios(&self, bytes: u64) -> Vec<f64> {
        self.segment_medians
            .iter()
            .zip(self.probes.windows(2))
            .map(|(step, around)| {
                let bytes_per_s = (around[0].bytes_per_s + around[1].bytes_per_s) / 2.0;
                step.as_secs_f64() * bytes_per_s / bytes as f64
            })
            .collect()
    }
}

/// Times `iterations` calls of `step` in up to [`SEGMENTS`] segments. Before
/// each segment the probe (if any) reads its buffer, and one untimed step
/// then puts back in the caches what the probe pushed out, as the step
/// before it would have in a steady run.
pub fn time_steps<T, E>(
    state: &mut T,
    iterations: usize,
    probe: Option<&Probe>,
    host_times: impl Fn(&T) -> HostTimes,
    mut step: impl FnMut(&mut T) -> Result<Duration, E>,
) -> Result<PairedSteps, E> {
    let iterations = iterations.max(1);
    let segments = SEGMENTS.min(iterations);
    let mut out = PairedSteps {
        times: Vec::with_capacity(iterations),
        segment_medians: Vec::with_capacity(segments),
        cpu: Some(Duration::ZERO),
        host: HostTimes::default(),
        steal: Some(StealTicks::default()),
        probes: Vec::new(),
    };
    for s in 0..segments {
        if let Some(p) = probe {
            out.probes.push(p.measure(PROBE_PASSES));
        }
        step(state)?; // warm-up
        let n = iterations * (s + 1) / segments - iterations * s / segments;
        let cpu_before = process_cpu_time();
        let ticks_before = host_cpu_ticks();
        let host_before = host_times(state);
        let segment: Vec<Duration> = (0..n).map(|_| step(state)).collect::<Result<_, _>>()?;
        out.host = out.host.plus(&host_times(state).since(&host_before));
        let cpu = cpu_before
            .zip(process_cpu_time())
            .map(|(a, b)| b.saturating_sub(a));
        out.cpu = out.cpu.zip(cpu).map(|(total, c)| total + c);
        let ticks = ticks_before.zip(host_cpu_ticks()).map(|(a, b)| b.since(&a));
        out.steal = out.steal.zip(ticks).map(|(total, t)| total.plus(&t));
        out.segment_medians.push(median(segment.clone()));
        out.times.extend(segment);
    }
    if let Some(p) = probe {
        out.probes.push(p.measure(PROBE_PASSES));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn every_step_is_timed_once_in_segments_with_a_warm_up_before_each() {
        let mut calls = 0usize;
        let paired = time_steps(
            &mut calls,
            10,
            None,
            |_| HostTimes::default(),
            |c| {
                *c += 1;
                Ok::<_, ()>(ms(*c as u64))
            },
        )
        .unwrap();
        assert_eq!(calls, 10 + SEGMENTS);
        assert_eq!(paired.times.len(), 10);
        assert_eq!(paired.segment_medians.len(), SEGMENTS);
        // Segments of 2, 3, 2 and 3 steps, each after its warm-up call.
        assert_eq!(paired.times[0], ms(2));
        assert_eq!(paired.times[2], ms(5));
        assert!(paired.probes.is_empty() && paired.segment_ratios(1).is_empty());
        assert!(paired.median_bandwidth().is_none());
    }

    #[test]
    fn fewer_steps_than_segments_take_one_segment_each() {
        let paired = time_steps(
            &mut (),
            2,
            None,
            |_| HostTimes::default(),
            |_| Ok::<_, ()>(ms(1)),
        )
        .unwrap();
        assert_eq!((paired.times.len(), paired.segment_medians.len()), (2, 2));
    }

    #[test]
    fn a_probe_brackets_every_segment() {
        let probe = Probe::new(1 << 20, 2);
        let paired = time_steps(
            &mut (),
            8,
            Some(&probe),
            |_| HostTimes::default(),
            |_| Ok::<_, ()>(ms(1)),
        )
        .unwrap();
        assert_eq!(paired.probes.len(), SEGMENTS + 1);
        assert_eq!(paired.segment_ratios(1000).len(), SEGMENTS);
    }

    #[test]
    fn steal_is_the_eighth_number_of_the_cpu_line_and_the_total_the_first_eight() {
        let line = "cpu  9450030 0 432811 1937788 485270 0 16433 369725 7 9";
        let t = StealTicks::parse(line).unwrap();
        assert_eq!(t.steal, 369725);
        assert_eq!(
            t.total,
            9450030 + 432811 + 1937788 + 485270 + 16433 + 369725
        );
        assert_eq!(StealTicks::parse("cpu0 1 2 3 4 5 6 7 8"), None);
        assert_eq!(StealTicks::parse("cpu 1 2 3"), None);
    }

    #[test]
    fn the_stolen_share_is_of_the_ticks_that_passed() {
        let a = StealTicks {
            steal: 10,
            total: 100,
        };
        let b = StealTicks {
            steal: 40,
            total: 400,
        };
        let d = b.since(&a);
        assert_eq!(
            d,
            StealTicks {
                steal: 30,
                total: 300
            }
        );
        assert_eq!(d.plus(&d).share(), Some(0.1));
        assert_eq!(StealTicks::default().share(), None);
    }

    #[test]
    fn a_segment_is_judged_by_the_mean_of_the_probes_around_it() {
        let gbps = |g: f64| Bandwidth::given(g);
        let paired = PairedSteps {
            times: vec![ms(2), ms(3), ms(4)],
            segment_medians: vec![ms(2), ms(4)],
            cpu: None,
            host: HostTimes::default(),
            steal: None,
            probes: vec![gbps(1.0), gbps(3.0), gbps(5.0)],
        };
        // 4 MB at 2 GB/s is 2 ms, at 4 GB/s 1 ms.
        let ratios = paired.segment_ratios(4_000_000);
        assert!((ratios[0] - 1.0).abs() < 1e-12 && (ratios[1] - 4.0).abs() < 1e-12);
        assert_eq!(paired.median_bandwidth().unwrap().gb_per_s(), 3.0);
        assert_eq!(paired.median_ms(), 3.0);
    }
}

//! The machine's streaming-read bandwidth and the memory floor of a decode
//! step: the time a step would take if it did nothing but read its bytes
//! (weights once, plus each row's KV window) at that bandwidth. Benchmarks
//! print their step times next to this floor so the ratio says how much of a
//! step is memory traffic and how much is everything else.

use std::time::Instant;

/// Default size of the probe buffer: about five times the largest shared
/// last-level cache met so far (105 MB), and small enough to keep resident
/// next to a loaded model while its steps are timed.
pub const PROBE_BYTES: usize = 1 << 29;

/// One bandwidth measurement.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Bandwidth {
    pub bytes: usize,
    pub threads: usize,
    /// Best of the timed passes, in bytes per second.
    pub bytes_per_s: f64,
}

impl Bandwidth {
    pub fn gb_per_s(&self) -> f64 {
        self.bytes_per_s / 1e9
    }

    /// A bandwidth measured elsewhere (a GPU's, say), in GB/s.
    pub fn given(gb_per_s: f64) -> Self {
        Bandwidth {
            bytes: 0,
            threads: 0,
            bytes_per_s: gb_per_s * 1e9,
        }
    }

    /// Seconds needed to read `bytes` at this bandwidth.
    pub fn floor_s(&self, bytes: u64) -> f64 {
        bytes as f64 / self.bytes_per_s
    }
}

/// A written buffer kept for streaming reads, so the bandwidth can be
/// measured again between timed steps without paying for fresh pages.
pub struct Probe {
    buf: Vec<u64>,
    threads: usize,
}

impl Probe {
    /// Allocates about `bytes` and writes every word, so its pages are
    /// resident before any pass is timed.
    pub fn new(bytes: usize, threads: usize) -> Self {
        let threads = threads.max(1);
        let words = (bytes / 8).max(threads * 64);
        let mut buf = vec![0u64; words];
        let share = words.div_ceil(threads);
        std::thread::scope(|s| {
            for (t, chunk) in buf.chunks_mut(share).enumerate() {
                s.spawn(move || {
                    for (i, w) in chunk.iter_mut().enumerate() {
                        *w = (t * share + i) as u64;
                    }
                });
            }
        });
        Probe { buf, threads }
    }

    /// Bytes the buffer holds (resident for as long as the probe lives).
    pub fn bytes(&self) -> usize {
        self.buf.len() * 8
    }

    /// Reads the buffer `passes` times in each of the two ways below, each
    /// thread its own contiguous share, and returns the best pass of
    /// either: the floor is the fastest read this program has found.
    pub fn measure(&self, passes: usize) -> Bandwidth {
        let share = self.buf.len().div_ceil(self.threads);
        let mut best = f64::INFINITY;
        for _ in 0..passes.max(1) {
            for read in [sum_words as fn(&[u64]) -> u64, sum_streams] {
                let start = Instant::now();
                let total: u64 = std::thread::scope(|s| {
                    let handles: Vec<_> = self
                        .buf
                        .chunks(share)
                        .map(|chunk| s.spawn(move || read(chunk)))
                        .collect();
                    handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
                });
                let secs = start.elapsed().as_secs_f64();
                std::hint::black_box(total);
                best = best.min(secs);
            }
        }
        Bandwidth {
            bytes: self.bytes(),
            threads: self.threads,
            bytes_per_s: self.bytes() as f64 / best,
        }
    }
}

/// Sums with four independent accumulators so the loop is limited by loads,
/// not by one dependency chain.
fn sum_words(xs: &[u64]) -> u64 {
    let mut acc = [0u64; 4];
    let mut it = xs.chunks_exact(4);
    for c in &mut it {
        for k in 0..4 {
            acc[k] = acc[k].wrapping_add(c[k]);
        }
    }
    let tail: u64 = it.remainder().iter().fold(0, |a, &x| a.wrapping_add(x));
    acc.iter().fold(tail, |a, &x| a.wrapping_add(x))
}

/// Streams a thread reads side by side in [`sum_streams`].
const STREAMS: usize = 8;
/// Words in a 64-byte cache line.
const LINE_WORDS: usize = 8;

/// The same sum read as [`STREAMS`] equal parts side by side, a line of
/// each in turn, so that each thread has that many lines in flight. One
/// stream a thread leaves some CPUs far below their bandwidth: on a 2-core
/// Ice Lake guest one stream a thread read 20-21 GB/s where 6 to 12 read
/// 28-33 (a C harness, docs/performance.md), and the model's own products
/// read 26. On other CPUs the one stream may be the faster;
/// [`Probe::measure`] takes both.
fn sum_streams(xs: &[u64]) -> u64 {
    let part = xs.len() / STREAMS / LINE_WORDS * LINE_WORDS;
    let mut acc = [0u64; LINE_WORDS];
    for i in (0..part).step_by(LINE_WORDS) {
        for j in 0..STREAMS {
            let at = j * part + i;
            for (a, &w) in acc.iter_mut().zip(&xs[at..at + LINE_WORDS]) {
                *a = a.wrapping_add(w);
            }
        }
    }
    let tail = sum_words(&xs[part * STREAMS..]);
    acc.iter().fold(tail, |a, &x| a.wrapping_add(x))
}

/// Bytes one decode step must read: every weight once (the tied or separate
/// output projection included) plus each row's attended KV window.
pub fn decode_step_bytes(weight_bytes: u64, kv_window_bytes_per_row: u64, batch: u64) -> u64 {
    weight_bytes + kv_window_bytes_per_row * batch
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sum_reads_every_word_including_the_tail() {
        let xs: Vec<u64> = (1..=11).collect();
        assert_eq!(sum_words(&xs), 66);
    }

    #[test]
    fn the_streamed_sum_reads_every_word_once_whatever_the_length() {
        for len in [0, 7, 64, 64 * 8, 64 * 8 + 13, 5_000] {
            let n = len as u64;
            let xs: Vec<u64> = (1..=n).collect();
            assert_eq!(sum_streams(&xs), n * (n + 1) / 2, "length {len}");
        }
    }

    #[test]
    fn a_probe_reports_a_positive_finite_bandwidth_for_the_bytes_it_read() {
        let probe = Probe::new(4 << 20, 2);
        assert_eq!(probe.bytes(), 4 << 20);
        let bw = probe.measure(2);
        assert_eq!((bw.bytes, bw.threads), (4 << 20, 2));
        assert!(bw.bytes_per_s.is_finite() && bw.bytes_per_s > 0.0);
    }

    #[test]
    fn the_floor_is_bytes_over_bandwidth() {
        let bw = Bandwidth {
            bytes: 0,
            threads: 2,
            bytes_per_s: 50e9,
        };
        let bytes = decode_step_bytes(2_000_000_000, 1_000_000, 8);
        assert_eq!(bytes, 2_008_000_000);
        assert!((bw.floor_s(bytes) - 0.04016).abs() < 1e-9);
    }
}

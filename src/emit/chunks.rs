//! How a prompt is split into prefill chunks: the chunk sizes a model has
//! graphs for, and the sequence of chunk calls ([`ChunkCall`]) that prefills
//! a prompt of a given length so its cost follows its length.
//!
//! Sizes are powers of two from [`MIN_CHUNK`] and the midpoints between
//! them (8, 16, 24, 32, 48, 64, 96, 128, ...) up to the largest chunk, so one
//! chunk pads a prompt by at most a third (17 tokens run as 24, not 32).
//! Every chunk call also pays a fixed cost (each call reads all the weights
//! and runs every layer's dispatches): on SmolLM2-135M on the 2-core test
//! machine a whole-prompt prefill took 120 ms at 16 tokens and 508 ms at
//! 128, about 60 ms a call plus 3.6 ms a token, so a call costs as much as
//! [`CALL_COST_TOKENS`] tokens. The plan runs chunks of the largest size
//! while more than that remains, then covers the rest with the cheapest mix
//! of calls under that cost model (100 tokens: 96 + 8, not 128).
//!
//! Where the graphs' products skip a chunk's padding ([`Padding::Skipped`]:
//! the panel kernels multiply only its real rows) a padded row costs little
//! (its norms, rotary embedding and attention), so the plan takes fewer,
//! larger calls (100 tokens: one of 128).

use super::decode_windows;

/// The smallest chunk: fewer rows are padded to 8 inside every matmul
/// anyway (see `llama::linear`), so a smaller chunk would cost the same.
pub const MIN_CHUNK: i64 = 8;

/// The default largest chunk: what a running slot waits for at most
/// between two tokens while a prompt is admitted.
pub const DEFAULT_MAX_CHUNK: usize = 128;

/// The default largest chunk a decode step carries (the engine's
/// `--carry-chunks`). Carrying more tokens a step makes that step longer
/// and a prompt fewer steps to admit, during which its slot's row yields
/// nothing. A step of up to 24 chunk rows beside 8 decode rows takes the
/// bf16 products' tall tiles, whose multiplies overlap the weight stream;
/// 32 rows and more take two tiles and cost about their multiplies. On the
/// 1B preset, bf16 activations, 32 x 128 requests on 8 slots, chunks of 16
/// kept 91-93% of the raw decode rate while requests were queued, as chunks
/// of 32 did (91-92%), with a 99th-percentile wait between two tokens of
/// 76-80 ms against 112-114 (docs/performance.md).
pub const DEFAULT_CARRIED_CHUNK: usize = 16;

/// The fixed cost of one chunk call in tokens' worth of work (measured, see
/// the module documentation).
pub const CALL_COST_TOKENS: usize = 16;

/// What a chunk's padding rows cost its call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padding {
    /// As much as a real token: the products multiply every row.
    Multiplied,
    /// A quarter of a real token's share in the cost model: the products
    /// multiply only the real rows (the panel kernels' live rows), what is
    /// left is the row's norms, rotary embedding, attention and cache write.
    Skipped,
}

/// One chunk call of a prefill: `len` real tokens of the prompt from
/// position `start`, padded to `size`, attending to the first `window`
/// positions of the slot's cache (0 for a chunk at position 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkCall {
    pub start: usize,
    pub len: usize,
    pub size: i64,
    pub window: i64,
}

impl ChunkCall {
    /// `len` tokens from `start` padded to `size`, reading the smallest
    /// window of a cache of `capacity` that holds the positions before it.
    fn placed(start: usize, len: usize, size: i64, capacity: i64) -> Self {
        ChunkCall {
            start,
            len,
            size,
            window: chunk_window(capacity, start),
        }
    }
}

/// The chunk sizes at most `max_chunk` (at least [`MIN_CHUNK`]) for a
/// cache of `capacity`, ascending; a size above the capacity becomes the
/// capacity.
pub fn chunk_sizes(capacity: i64, max_chunk: usize) -> Vec<i64> {
    let max = (max_chunk as i64).max(MIN_CHUNK);
    let mut out = Vec::new();
    let mut p = MIN_CHUNK;
    while p <= max {
        out.push(p);
        let mid = p + p / 2;
        if p >= 16 && mid <= max {
            out.push(mid);
        }
        p *= 2;
    }
    if out.last() != Some(&max) {
        out.push(max);
    }
    let mut out: Vec<i64> = out.into_iter().map(|s| s.min(capacity)).collect();
    out.dedup();
    out
}

/// The cache windows a chunk at a later position reads: the decode windows
/// below the capacity, then the capacity. A chunk at `start` reads the
/// smallest one holding positions `0..start`.
pub fn chunk_window(capacity: i64, start: usize) -> i64 {
    if start == 0 {
        return 0;
    }
    decode_windows(capacity)
        .into_iter()
        .find(|&w| w >= start as i64)
        .unwrap_or(capacity)
}

/// The chunk calls that prefill a prompt of `prompt` tokens (1 to
/// `capacity`) from position 0 with chunks of at most `max_chunk` tokens,
/// for graphs whose padding costs `padding`. Consecutive calls cover the
/// prompt in order; each starts where the last ended, except a last chunk
/// that would pass the capacity, which starts early enough to fit and
/// recomputes the positions it overlaps.
pub fn chunk_plan(
    prompt: usize,
    capacity: i64,
    max_chunk: usize,
    padding: Padding,
) -> Vec<ChunkCall> {
    chunk_plan_from(0, prompt, capacity, max_chunk, padding)
}

/// The chunk calls that prefill positions `from..prompt` of a prompt whose
/// positions before `from` are already in the cache, as
/// [`chunk_plan`] does from 0: the rest of a prompt when the engine changes
/// the size of its chunks halfway.
pub fn chunk_plan_from(
    from: usize,
    prompt: usize,
    capacity: i64,
    max_chunk: usize,
    padding: Padding,
) -> Vec<ChunkCall> {
    assert!(
        from < prompt && prompt as i64 <= capacity,
        "positions {from}..{prompt} of a prompt in a capacity of {capacity}"
    );
    let sizes = chunk_sizes(capacity, max_chunk);
    let largest = *sizes.last().expect("at least one size") as usize;
    let mut sizes_for = Vec::new();
    let mut start = from;
    while prompt - start > largest {
        sizes_for.push(largest as i64);
        start += largest;
    }
    sizes_for.extend(cheapest_cover(prompt - start, &sizes, padding));
    let mut calls = Vec::new();
    let mut at = from;
    for size in sizes_for {
        let begin = at.min(capacity as usize - size as usize);
        let len = (prompt - begin).min(size as usize);
        calls.push(ChunkCall::placed(begin, len, size, capacity));
        at = begin + len;
    }
    debug_assert_eq!(at, prompt);
    calls
}

/// What the calls of a plan cost under the cost model of [`chunk_plan`], in
/// quarters of a token's work: the fixed cost and the real tokens of every
/// call, its padding counted as `padding` says.
pub fn plan_cost(calls: &[ChunkCall], padding: Padding) -> usize {
    calls
        .iter()
        .map(|c| 4 * (CALL_COST_TOKENS + c.len) + pad_quarters(padding) * (c.size as usize - c.len))
        .sum()
}

/// The chunk calls that prefill positions `from..prompt` in chunks that
/// decode calls carry, of at most `carried` tokens: [`chunk_plan_from`]'s
/// from [`MIN_CHUNK`] tokens up; below it, calls of `carried` real tokens
/// each in graphs of [`MIN_CHUNK`], whose padding rows the products skip
/// where the kernels count live rows ([`Padding::Skipped`]).
///
/// Why smaller than the smallest graph: a decode step bound by reading the
/// weights has multipliers to spare, and on the 1B preset's bf16 form a
/// step carrying 4 tokens (12 rows of the bf16 products' two-panel tall
/// tiles) cost 1-3 ms a token past a plain one, against about 3 ms a token
/// carrying 8 or 16 (docs/performance.md, sixty-third session). A prompt
/// then takes more steps to admit, so whether it pays is the engine's
/// measured choice (`--carry-chunks auto`).
pub fn carried_plan_from(
    from: usize,
    prompt: usize,
    capacity: i64,
    carried: usize,
    padding: Padding,
) -> Vec<ChunkCall> {
    let size = MIN_CHUNK.min(capacity);
    if carried >= size as usize {
        return chunk_plan_from(from, prompt, capacity, carried, padding);
    }
    assert!(
        from < prompt && prompt as i64 <= capacity,
        "positions {from}..{prompt} of a prompt in a capacity of {capacity}"
    );
    let carried = carried.max(1);
    let mut calls = Vec::new();
    let mut at = from;
    while at < prompt {
        let begin = at.min((capacity - size) as usize);
        // A call that had to start early to fit the cache takes the rest,
        // which its graph holds.
        let len = if begin < at {
            prompt - begin
        } else {
            (prompt - begin).min(carried)
        };
        calls.push(ChunkCall::placed(begin, len, size, capacity));
        at = begin + len;
    }
    calls
}

/// [`chunk_plan_from`] with only graphs that `loaded(size, window)` says are
/// at hand: each call reads the smallest loaded window that holds its past
/// (any window at least its start will do; the graph masks the rest).
/// Failing that, the positions are covered by calls of the largest size
/// only, which engines load for every window. `None` when neither plan has
/// every graph loaded. For a prompt whose positions before `from` are in the
/// cache already (a reused prefix), so that resuming it never compiles a
/// graph in the middle of serving.
pub fn loaded_plan_from(
    from: usize,
    prompt: usize,
    capacity: i64,
    max_chunk: usize,
    padding: Padding,
    loaded: &dyn Fn(i64, i64) -> bool,
) -> Option<Vec<ChunkCall>> {
    let windows: Vec<i64> = decode_windows(capacity)
        .into_iter()
        .chain([capacity])
        .collect();
    let place = |mut call: ChunkCall| -> Option<ChunkCall> {
        if call.start == 0 {
            return loaded(call.size, 0).then_some(call);
        }
        call.window = windows
            .iter()
            .copied()
            .find(|&w| w >= call.window && loaded(call.size, w))?;
        Some(call)
    };
    let planned: Option<Vec<ChunkCall>> =
        chunk_plan_from(from, prompt, capacity, max_chunk, padding)
            .into_iter()
            .map(place)
            .collect();
    planned.or_else(|| {
        let largest = *chunk_sizes(capacity, max_chunk).last()?;
        let mut calls = Vec::new();
        let mut at = from;
        while at < prompt {
            let begin = at.min((capacity - largest) as usize);
            let len = (prompt - begin).min(largest as usize);
            calls.push(place(ChunkCall::placed(begin, len, largest, capacity))?);
            at = begin + len;
        }
        Some(calls)
    })
}

/// A padding row's cost in quarters of a token.
fn pad_quarters(padding: Padding) -> usize {
    match padding {
        Padding::Multiplied => 4,
        Padding::Skipped => 1,
    }
}

/// Chunk sizes covering `n` tokens (at most the largest size) at the least
/// cost: [`CALL_COST_TOKENS`] per call plus its tokens, its padding counted
/// as `padding` says, largest first.
fn cheapest_cover(n: usize, sizes: &[i64], padding: Padding) -> Vec<i64> {
    // In quarters of a token, so that a skipped padding row counts a quarter.
    let pad_quarters = pad_quarters(padding);
    // best[r]: (cost, first size) of covering r tokens.
    let mut best: Vec<(usize, i64)> = vec![(0, 0); n + 1];
    for r in 1..=n {
        best[r] = sizes
            .iter()
            .map(|&s| {
                let real = r.min(s as usize);
                let call = 4 * (CALL_COST_TOKENS + real) + pad_quarters * (s as usize - real);
                (call + best[r - real].0, s)
            })
            .min_by_key(|&(cost, s)| (cost, std::cmp::Reverse(s)))
            .expect("at least one size");
    }
    let mut out = Vec::new();
    let mut r = n;
    while r > 0 {
        let s = best[r].1;
        out.push(s);
        r = r.saturating_sub(s as usize);
    }
    out.sort_unstable_by(|a, b| b.cmp(a));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const M: Padding = Padding::Multiplied;

    fn sizes(calls: &[ChunkCall]) -> Vec<i64> {
        calls.iter().map(|c| c.size).collect()
    }

    #[test]
    fn sizes_are_powers_of_two_and_their_midpoints_up_to_the_largest() {
        assert_eq!(chunk_sizes(2048, 128), [8, 16, 24, 32, 48, 64, 96, 128]);
        assert_eq!(chunk_sizes(2048, 100), [8, 16, 24, 32, 48, 64, 96, 100]);
        assert_eq!(chunk_sizes(40, 128), [8, 16, 24, 32, 40]);
        assert_eq!(chunk_sizes(5, 128), [5]);
    }

    #[test]
    fn carried_chunks_below_the_smallest_graph_take_that_many_tokens_in_it() {
        let calls = carried_plan_from(0, 10, 256, 4, Padding::Skipped);
        let got: Vec<(usize, usize, i64)> =
            calls.iter().map(|c| (c.start, c.len, c.size)).collect();
        assert_eq!(got, [(0, 4, 8), (4, 4, 8), (8, 2, 8)]);
        assert_eq!(calls[0].window, 0);
        assert!(calls[2].window >= 8, "{calls:?}");
        // From the smallest graph up, the plan is chunk_plan_from's.
        for carried in [8, 16] {
            assert_eq!(
                carried_plan_from(3, 70, 256, carried, Padding::Skipped),
                chunk_plan_from(3, 70, 256, carried, Padding::Skipped)
            );
        }
    }

    #[test]
    fn small_carried_chunks_cover_every_position_up_to_the_cache_end() {
        for capacity in [8i64, 20, 64] {
            for carried in 1..8 {
                for prompt in 2..=capacity as usize {
                    for from in [0, 1, prompt / 2, prompt - 1] {
                        let calls = carried_plan_from(from, prompt, capacity, carried, M);
                        let mut covered = from;
                        for c in &calls {
                            assert!(c.start <= covered && c.start + c.len > covered, "{calls:?}");
                            assert!(c.len <= c.size as usize, "{calls:?}");
                            assert!(c.start + c.size as usize <= capacity as usize, "{calls:?}");
                            assert!(c.start == 0 || c.window >= c.start as i64, "{calls:?}");
                            covered = c.start + c.len;
                        }
                        assert_eq!(covered, prompt, "{calls:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_short_prompt_is_one_chunk_padded_by_at_most_a_third() {
        assert_eq!(sizes(&chunk_plan(1, 2048, 128, M)), [8]);
        assert_eq!(sizes(&chunk_plan(17, 2048, 128, M)), [24]);
        assert_eq!(sizes(&chunk_plan(32, 2048, 128, M)), [32]);
        assert_eq!(sizes(&chunk_plan(128, 2048, 128, M)), [128]);
        // 96 + 8 costs less than one call of 128 under the cost model.
        assert_eq!(sizes(&chunk_plan(100, 2048, 128, M)), [96, 8]);
    }

    #[test]
    fn chunks_cover_the_prompt_in_order_and_read_a_window_holding_their_past() {
        for capacity in [64i64, 100, 256, 2048] {
            for max_chunk in [8usize, 32, 128] {
                for prompt in 1..=capacity as usize {
                    for padding in [M, Padding::Skipped] {
                        let calls = chunk_plan(prompt, capacity, max_chunk, padding);
                        let mut covered = 0;
                        for c in &calls {
                            assert!(c.start <= covered, "{calls:?}");
                            assert!(c.len >= 1 && c.len as i64 <= c.size);
                            assert!(c.size as usize <= max_chunk.max(8) || c.size == capacity);
                            assert!(c.start as i64 + c.size <= capacity, "{calls:?}");
                            assert!(c.window >= c.start as i64 && c.window <= capacity);
                            assert_eq!(c.window == 0, c.start == 0);
                            covered = c.start + c.len;
                        }
                        assert_eq!(covered, prompt, "{calls:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn where_padding_is_skipped_a_prompt_takes_fewer_larger_calls() {
        let skipped = |prompt| sizes(&chunk_plan(prompt, 2048, 128, Padding::Skipped));
        // One call of 128 rather than 96 + 8: its 28 padding rows cost less
        // than a second call.
        assert_eq!(skipped(100), [128]);
        assert_eq!(skipped(17), [24]);
        assert_eq!(skipped(8), [8]);
        assert_eq!(skipped(300), [128, 128, 48]);
        // Carried chunks of at most 32: the fewest steps.
        assert_eq!(sizes(&chunk_plan(40, 2048, 32, Padding::Skipped)), [32, 8]);
    }

    #[test]
    fn a_long_prompt_runs_largest_chunks_then_a_small_tail() {
        let calls = chunk_plan(300, 2048, 128, M);
        assert_eq!(sizes(&calls), [128, 128, 48]);
        let starts: Vec<usize> = calls.iter().map(|c| c.start).collect();
        assert_eq!(starts, [0, 128, 256]);
        let windows: Vec<i64> = calls.iter().map(|c| c.window).collect();
        assert_eq!(windows, [0, 256, 256]);
    }

    #[test]
    fn the_rest_of_a_prompt_is_planned_from_where_its_chunks_stopped() {
        // 8-token chunks carried by decode steps, then the rest at once.
        let calls = chunk_plan_from(24, 300, 2048, 128, M);
        assert_eq!(sizes(&calls), [128, 128, 24]);
        let starts: Vec<usize> = calls.iter().map(|c| c.start).collect();
        assert_eq!(starts, [24, 152, 280]);
        assert!(
            calls
                .iter()
                .all(|c| c.window >= c.start as i64 && c.window > 0)
        );
        assert_eq!(
            chunk_plan_from(0, 100, 2048, 128, M),
            chunk_plan(100, 2048, 128, M)
        );
    }

    /// What an engine loads up front (`EmitPlan::chunk_kinds`): every size
    /// at position 0 and at the smallest window, the largest at the windows
    /// of its later starts.
    fn engine_loads(capacity: i64, max_chunk: usize) -> impl Fn(i64, i64) -> bool {
        let largest = *chunk_sizes(capacity, max_chunk).last().unwrap();
        move |size, window| {
            window == 0
                || decode_windows(capacity).first() == Some(&window)
                || (size == largest
                    && (1..)
                        .map(|k| chunk_window(capacity, k * largest as usize))
                        .take_while(|&w| w < capacity)
                        .chain([capacity])
                        .any(|w| w == window))
        }
    }

    #[test]
    fn a_resumed_prompt_reads_a_loaded_window_or_takes_largest_chunks() {
        let loads = engine_loads(2048, 128);
        // 20 tokens after a prefix of 100: a call of 24 at a later window is
        // not loaded, so one call of 128 (padding skipped) at a loaded one.
        let calls = loaded_plan_from(100, 120, 2048, 128, Padding::Skipped, &loads).unwrap();
        assert_eq!(sizes(&calls), [128]);
        assert_eq!((calls[0].start, calls[0].len), (100, 20));
        assert!(loads(128, calls[0].window) && calls[0].window >= 100);
        // Past a short prefix (a system prompt), the rest takes its own
        // size at the smallest window, loaded for that.
        let calls = loaded_plan_from(30, 50, 2048, 128, M, &loads).unwrap();
        assert_eq!(sizes(&calls), [24]);
        assert_eq!((calls[0].start, calls[0].window), (30, 64));
        // Where every size is loaded at every window, the plan is the plain one.
        let all = |_: i64, _: i64| true;
        assert_eq!(
            loaded_plan_from(100, 300, 2048, 128, M, &all).unwrap(),
            chunk_plan_from(100, 300, 2048, 128, M)
        );
        // Nothing loaded past position 0: no plan.
        let none = |_: i64, w: i64| w == 0;
        assert_eq!(loaded_plan_from(100, 120, 2048, 128, M, &none), None);
    }

    #[test]
    fn resumed_plans_cover_their_positions_with_loaded_graphs() {
        for capacity in [64i64, 256, 2048] {
            let loads = engine_loads(capacity, 32);
            for prompt in 2..=capacity as usize {
                for from in (1..prompt).step_by(7) {
                    let calls = loaded_plan_from(from, prompt, capacity, 32, M, &loads)
                        .expect("largest chunks are loaded at every window");
                    let mut covered = from;
                    for c in &calls {
                        assert!(c.start <= covered && c.len >= 1, "{calls:?}");
                        assert!(c.start as i64 + c.size <= capacity, "{calls:?}");
                        assert!(c.window >= c.start as i64 && loads(c.size, c.window));
                        assert_eq!(c.window == 0, c.start == 0);
                        covered = c.start + c.len;
                    }
                    assert_eq!(covered, prompt, "{calls:?}");
                }
            }
        }
    }

    #[test]
    fn a_plan_costs_its_calls_tokens_and_padding() {
        let call = |len, size| ChunkCall {
            start: 0,
            len,
            size,
            window: 0,
        };
        // In quarters: (16 + 20) * 4 + 4 padding rows.
        assert_eq!(plan_cost(&[call(20, 24)], M), 4 * 36 + 4 * 4);
        assert_eq!(plan_cost(&[call(20, 24)], Padding::Skipped), 4 * 36 + 4);
        assert_eq!(plan_cost(&[call(8, 8), call(8, 8)], M), 2 * 4 * 24);
    }

    #[test]
    fn a_last_chunk_past_the_capacity_starts_earlier() {
        // 99 tokens in 100: 96, then 3 tokens padded to 8 would end at 104.
        let calls = chunk_plan(99, 100, 128, M);
        let last = calls.last().unwrap();
        assert_eq!(last.start as i64 + last.size, 100);
        assert_eq!(last.start + last.len, 99);
    }
}

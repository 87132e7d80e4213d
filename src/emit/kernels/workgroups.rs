//! How a kernel call's work is cut into workgroups for IREE's CPU driver.
//!
//! The local-task driver hands a dispatch's workgroups to its workers in
//! claims from a shared counter: one workgroup a claim while the dispatch
//! has fewer than 8 a worker, else 8 a claim
//! (`IREE_HAL_CMD_DISPATCH_MAX_TILES_PER_RESERVATION` in
//! `runtime/src/iree/hal/drivers/local_task/block_processor.c`). So with 2
//! workers a dispatch of 24 equal workgroups runs as claims of 8, 8 and 8:
//! one worker does 16 and the other waits after 8, a third of the
//! dispatch's time lost. SmolLM2's step is full of such counts (its 576-row
//! products as 18 workgroups of 32 rows, its decode attention as 24), so
//! the emitter sizes workgroups ([`balanced_units`]) for the way they will
//! be claimed.

/// Workgroups a claim of IREE's CPU driver takes once a dispatch has at
/// least this many a worker (and one a claim below that).
const CLAIM: i64 = 8;

/// The CPU workers the kernels' workgroups are cut for:
/// `IREE_LLM_CPU_WORKERS` where it is a whole number of 1 or more (for a
/// runtime given fewer workers, e.g. through `IREE_LLM_RUNTIME_FLAGS`, or
/// graphs emitted for a machine with other cores), else the threads this
/// process may run on: IREE's local-task device starts at most one worker
/// for each (one a physical core by default), and the modules compiled for
/// this host run there.
pub(super) fn host_threads() -> i64 {
    // Read once: every product of every graph asks.
    static THREADS: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *THREADS.get_or_init(|| {
        let host = || std::thread::available_parallelism().map_or(2, |n| n.get() as i64);
        match std::env::var("IREE_LLM_CPU_WORKERS") {
            Err(_) => host(),
            Ok(value) => workers(&value).unwrap_or_else(|| {
                tracing::warn!("IREE_LLM_CPU_WORKERS={value}: use a whole number of 1 or more");
                host()
            }),
        }
    })
}

/// `IREE_LLM_CPU_WORKERS`'s value as a worker count.
fn workers(value: &str) -> Option<i64> {
    value.trim().parse::<i64>().ok().filter(|&n| n >= 1)
}

/// When `threads` equally fast workers are done with `units` of work cut
/// into workgroups of `size` units (the last one shorter), claimed as
/// IREE's driver claims them, each claim going to the worker free first.
fn finish(units: i64, size: i64, threads: i64) -> i64 {
    let workgroups = (units + size - 1) / size;
    let claim = if workgroups < CLAIM * threads {
        1
    } else {
        CLAIM
    };
    let mut busy = vec![0i64; threads.max(1) as usize];
    let mut next = 0;
    while next < workgroups {
        let end = (next + claim).min(workgroups);
        let work = (end * size).min(units) - next * size;
        let free = busy.iter_mut().min().expect("at least one worker");
        *free += work;
        next = end;
    }
    busy.into_iter().max().unwrap_or(0)
}

/// Finishes within this share of the soonest count as soon: a few
/// thousand small workgroups that end 0.2% later (the 1B preset's output
/// head: 4,008 of 32 rows against 12 of 10,688) leave far more room for a
/// worker that starts late or is slowed than a dozen large ones.
const CLOSE_ENOUGH: f64 = 0.02;

/// Units of work per workgroup, at least `least`, for `units` units split
/// over `threads` workers: the smallest size whose workgroups, claimed as
/// IREE's driver claims them, finish within [`CLOSE_ENOUGH`] of the soonest
/// size's (the most workgroups, which leave the most room for workers that
/// are not equally fast). With 2 workers: 24 attention slots go as 12
/// workgroups of 2 (claimed one at a time, 6 each) instead of 24 of 1
/// (claimed 8 at a time, 16 and 8).
///
/// `csrc/bench/q8_product_ab.c` repeats this rule and [`finish`] in C to
/// cut its products as the graphs do: change it there too.
pub(super) fn balanced_units(units: i64, least: i64, threads: i64) -> i64 {
    let least = least.max(1);
    if units <= least {
        return least;
    }
    // Past one workgroup a worker, larger sizes only finish later.
    let most = ((units + threads - 1) / threads).max(least);
    let soonest = (least..=most)
        .map(|size| finish(units, size, threads))
        .min()
        .expect("least <= most");
    (least..=most)
        .find(|&size| finish(units, size, threads) as f64 <= soonest as f64 * (1.0 + CLOSE_ENOUGH))
        .expect("the soonest size is among them")
}

/// `n` weight rows cut into one run a thread, in whole multiples of
/// `unit`. For rows rounded to 8 bits by the row-major product: every
/// workgroup first rounds all of x, and IREE runs each workgroup as a tile
/// of its own, so 32-row workgroups (a SmolLM2 step's 6,396) cost about 3
/// ms of CPU a step in those two alone; with one workgroup a thread a
/// SmolLM2 B=1 step ran 1.24-1.40x faster (Zen 1, docs/performance.md).
pub(super) fn rows_per_thread(n: i64, unit: i64, threads: i64) -> i64 {
    let per = (n + threads - 1) / threads;
    ((per + unit - 1) / unit).max(1) * unit
}

/// Weight rows per workgroup of a product of `rows` rows of x over `n`
/// weight rows, in whole `unit`s and at least `least` of them: sized for the
/// way IREE's CPU driver claims workgroups (above) where there are
/// several rows of x. One row stays at `least` units: that product reads
/// its weights at memory speed, and the driver's claims of 8 small
/// workgroups give each worker long runs of consecutive rows for the
/// hardware prefetcher, where balanced claims of larger ones gave short
/// runs (SmolLM2 Q4_1, 8-bit B=1 step, 8 rounds: 6.75 ms median balanced
/// against 6.18; docs/performance.md).
pub(super) fn rows_per_workgroup(rows: i64, n: i64, unit: i64, least: i64) -> i64 {
    if rows == 1 {
        return unit * least;
    }
    unit * balanced_units((n + unit - 1) / unit, least, host_threads())
}

/// Prompt rows per workgroup of the AVX-512 prompt attention's tiles
/// (`csrc/kernels/x86_64_prompt_tiles.h`): whole tiles of `tile` rows, as
/// many workgroups as stay under a claim of 8 a worker. The kernel takes a
/// workgroup's rows from the prompt's end, so the workgroups claimed first
/// are the costliest (a row sees every position before it) and the cheap
/// ones at the start of the prompt even out the workers at the end.
pub(super) fn prompt_tile_rows(rows: i64, tile: i64, threads: i64) -> i64 {
    let tiles = (rows + tile - 1) / tile;
    let most = (CLAIM * threads - 1).max(1);
    ((tiles + most - 1) / most).max(1) * tile
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_count_is_a_whole_number_of_one_or_more() {
        assert_eq!(workers("2"), Some(2));
        assert_eq!(workers(" 16 "), Some(16));
        for bad in ["", "0", "-1", "2.5", "two"] {
            assert_eq!(workers(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_claim_is_one_workgroup_below_eight_a_worker_and_eight_from_there() {
        // 24 workgroups of 1 on 2 workers: claims of 8, 8 and 8.
        assert_eq!(finish(24, 1, 2), 16);
        // 12 workgroups of 2: claims of one, 6 a worker.
        assert_eq!(finish(24, 2, 2), 12);
        // 15 workgroups: claims of one, 8 and 7.
        assert_eq!(finish(15, 1, 2), 8);
        // The last workgroup is shorter: 10 units in 4s are 4, 4 and 2.
        assert_eq!(finish(10, 4, 2), 6);
        assert_eq!(finish(7, 1, 1), 7);
    }

    #[test]
    fn balanced_units_are_the_smallest_size_that_finishes_about_as_soon_as_any() {
        for threads in [1, 2, 3, 4, 16] {
            for units in [1, 2, 3, 7, 12, 18, 24, 30, 36, 60, 64, 96, 192, 1536, 4008] {
                for least in [1, 2, 3] {
                    let size = balanced_units(units, least, threads);
                    assert!(size >= least, "{units} units, {threads} threads");
                    let ends = |s| finish(units, s, threads) as f64;
                    let others = least..=units.max(least);
                    let soonest = others.clone().map(ends).fold(f64::INFINITY, f64::min);
                    let case = format!("{units} units, {threads} threads, size {size}");
                    assert!(
                        ends(size) <= soonest * 1.02,
                        "{case}: {} against {soonest}",
                        ends(size)
                    );
                    for smaller in least..size {
                        assert!(
                            ends(smaller) > soonest * 1.02,
                            "{case}: {smaller} does as well"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn smollm2_counts_on_two_workers_split_evenly() {
        // Decode attention's 24 slots (B=8, 3 key/value heads): 12 of 2.
        assert_eq!(balanced_units(24, 1, 2), 2);
        // 576 rows in 16-row groups (the packed product): 12 of 48 rows.
        assert_eq!(balanced_units(36, 2, 2), 3);
        // 960 rows in 32s (its fused q, k, v): 10 of 96 rows.
        assert_eq!(balanced_units(30, 1, 2), 3);
        // Counts already even stay at the smallest size.
        assert_eq!(balanced_units(64, 1, 2), 1);
        assert_eq!(balanced_units(1536, 1, 2), 1);
        // The 1B preset's head, 128,256 rows in 32s: 2,008 against 2,004
        // for 12 workgroups of 334, close enough to keep 4,008 small ones.
        assert_eq!(balanced_units(4008, 1, 2), 1);
        // One worker: the smallest size.
        assert_eq!(balanced_units(24, 1, 1), 1);
    }

    #[test]
    fn prompt_tiles_go_in_whole_tiles_as_fewer_workgroups_than_one_claim_of_eight_a_worker() {
        for threads in [1, 2, 4, 16] {
            for tile in [1, 4, 5, 16] {
                for rows in [1, 5, 16, 17, 128, 256, 2048] {
                    let per = prompt_tile_rows(rows, tile, threads);
                    let workgroups = (rows + per - 1) / per;
                    let case = format!("{rows} rows, tile {tile}, {threads} threads");
                    assert_eq!(per % tile, 0, "{case}");
                    assert!(workgroups < CLAIM * threads || per >= rows, "{case}");
                    // No smaller whole number of tiles also stays under it.
                    let fewer = per - tile;
                    assert!(
                        fewer == 0 || (rows + fewer - 1) / fewer >= CLAIM * threads,
                        "{case}: {fewer} rows a workgroup would do"
                    );
                }
            }
        }
        // SmolLM2 (3 query heads a key/value head: 5 rows a tile), a
        // prompt of 128 on 2 workers: 13 workgroups of 10 rows.
        assert_eq!(prompt_tile_rows(128, 5, 2), 10);
    }

    #[test]
    fn rows_per_thread_covers_every_row_in_one_run_a_thread_of_whole_units() {
        for (n, threads, per) in [
            (576, 2, 288),
            (960, 2, 480),
            (49152, 2, 24576),
            (576, 16, 64),
        ] {
            assert_eq!(
                rows_per_thread(n, 32, threads),
                per,
                "n {n}, {threads} threads"
            );
        }
        for n in [1, 31, 32, 33, 64, 100, 1536, 49153] {
            for threads in [1, 2, 3, 16, 64] {
                let per = rows_per_thread(n, 32, threads);
                assert_eq!(per % 32, 0, "n {n}, {threads} threads");
                let workgroups = (n + per - 1) / per;
                assert!(
                    workgroups <= threads,
                    "n {n}: {workgroups} runs for {threads} threads"
                );
                assert!(workgroups * per >= n, "n {n}: rows left out");
            }
        }
    }
}

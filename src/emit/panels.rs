//! The device layout of dense bf16 matrices for the exact AVX-512 kernel
//! (`iree_llm_bf16_panels_workgroup`, csrc/kernels/x86_64_avx512_panels.h),
//! which every product of such a matrix takes on CPUs with AVX-512
//! ([`super::kernels::packs_bf16_panels`]).
//!
//! The checkpoint keeps W [n, k] row by row. The kernel multiplies 16
//! weight rows at once, one per 32-bit lane, each lane a pair of a row's
//! values: in the row-major layout it reads 16 rows far apart and sums each
//! row's products across a vector's lanes at the end. Here the pairs are
//! put side by side once, at upload: for each panel of 16 rows and each
//! pair `j` of columns, the 16 rows' values `2j` and `2j + 1`, so each panel
//! is one stream and a loaded vector holds 16 output rows' terms (C harness,
//! docs/performance.md: a 1B B=8 step's products 52.5-54.7 ms streamed
//! against 61.1-66.7 for the row-major tile).
//!
//! The same values, permuted: the layout costs no memory. A parameter in it
//! says so ([`super::ParamSpec::bf16_panels`]); its shape is [n/16, k/2,
//! 16, 2].

/// Weight rows side by side in one panel.
pub const PANEL: usize = 16;

/// Whether a bf16 matrix of `rows` x `cols` can be laid out in panels: whole
/// panels of rows, and columns in whole pairs (the kernels' products take k
/// in multiples of 32).
pub fn fits(rows: usize, cols: usize) -> bool {
    rows > 0 && rows.is_multiple_of(PANEL) && cols > 0 && cols.is_multiple_of(32)
}

/// The shape of a parameter holding a `rows` x `cols` matrix in panels.
pub fn shape(rows: i64, cols: i64) -> Vec<i64> {
    vec![rows / PANEL as i64, cols / 2, PANEL as i64, 2]
}

/// A bf16 matrix of `rows` x `cols` ([`fits`]) given row by row (two bytes
/// a value), in panels.
pub fn relayout(bytes: &[u8], rows: usize, cols: usize) -> Vec<u8> {
    assert!(fits(rows, cols), "a {rows} x {cols} matrix in panels");
    assert_eq!(bytes.len(), rows * cols * 2, "{rows} x {cols} bf16 values");
    let mut out = vec![0u8; bytes.len()];
    let panel_bytes = PANEL * cols * 2;
    // Panels are independent: the CPU's threads take a share each (the 1B
    // preset's 2.3 GiB took 1.5 s more to upload on one thread).
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per = (rows / PANEL).div_ceil(threads).max(1) * panel_bytes;
    std::thread::scope(|scope| {
        for (to, from) in out.chunks_mut(per).zip(bytes.chunks(per)) {
            scope.spawn(move || {
                for (to, from) in to
                    .chunks_exact_mut(panel_bytes)
                    .zip(from.chunks_exact(panel_bytes))
                {
                    panel(to, from, cols);
                }
            });
        }
    });
    out
}

/// One panel: 16 rows of `cols` values given row by row, into `out` as
/// [cols/2][16] pairs (row r's values 2j, 2j + 1 go to lane r of pair j).
fn panel(out: &mut [u8], rows: &[u8], cols: usize) {
    for (lane, row) in rows.chunks_exact(cols * 2).enumerate() {
        for (j, pair) in row.chunks_exact(4).enumerate() {
            let to = (j * PANEL + lane) * 4;
            out[to..to + 4].copy_from_slice(pair);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value that says which row and column it came from.
    fn tag(r: usize, c: usize) -> u16 {
        (r * 1000 + c) as u16
    }

    fn tagged(rows: usize, cols: usize) -> Vec<u8> {
        (0..rows)
            .flat_map(|r| (0..cols).flat_map(move |c| tag(r, c).to_le_bytes()))
            .collect()
    }

    #[test]
    fn each_lane_of_a_panel_holds_one_rows_pair_of_values() {
        let (rows, cols) = (32, 64);
        let out = relayout(&tagged(rows, cols), rows, cols);
        let at = |i: usize| u16::from_le_bytes([out[2 * i], out[2 * i + 1]]);
        let shape = shape(rows as i64, cols as i64);
        assert_eq!(shape, vec![2, 32, 16, 2]);
        for panel in 0..2 {
            for j in 0..cols / 2 {
                for lane in 0..PANEL {
                    for half in 0..2 {
                        let i = ((panel * cols / 2 + j) * PANEL + lane) * 2 + half;
                        assert_eq!(at(i), tag(panel * PANEL + lane, 2 * j + half));
                    }
                }
            }
        }
    }

    #[test]
    fn only_whole_panels_and_pairs_fit() {
        assert!(fits(16, 32));
        assert!(fits(128256, 2048));
        assert!(!fits(24, 64), "rows in whole panels of 16");
        assert!(!fits(16, 48), "columns in multiples of 32");
        assert!(!fits(0, 32));
    }
}

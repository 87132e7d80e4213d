//! The `tiny` graphs checked into `mlir/tiny` are exactly what the emitter
//! produces today. After an intended change to the graphs, regenerate them:
//! `iree-llm emit --model tiny --out mlir/tiny --context 256 --batch 4,8`.

use std::collections::BTreeSet;
use std::path::Path;

use iree_llm::emit::{EmitPlan, LlamaShape, write_dir};
use iree_llm::preset::Preset;

#[test]
fn re_emitting_tiny_reproduces_the_checked_in_graphs_byte_for_byte() {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("mlir/tiny");
    let out = tempfile::tempdir().unwrap();
    let plan = EmitPlan::new(256, &[4, 8]).unwrap();
    write_dir(&LlamaShape::from(&Preset::Tiny.config()), &plan, out.path()).unwrap();

    let names = |dir: &Path| -> BTreeSet<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(
        names(out.path()),
        names(&golden),
        "the set of emitted files changed"
    );
    for name in names(&golden) {
        let want = std::fs::read(golden.join(&name)).unwrap();
        let got = std::fs::read(out.path().join(&name)).unwrap();
        if got != want {
            let line = got
                .split(|&b| b == b'\n')
                .zip(want.split(|&b| b == b'\n'))
                .position(|(a, b)| a != b)
                .map(|i| i + 1)
                .unwrap_or(0);
            panic!(
                "mlir/tiny/{name} differs from the emitter's output (first at line {line}); see this file's doc comment to regenerate"
            );
        }
    }
}

//! `iree-llm emit --device D` writes the graphs iree-llm itself compiles for
//! D, so that graphs emitted offline for a GPU are the ones the runtime
//! would run there.

use std::path::Path;
use std::process::{Command, Output};

fn emit(out: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iree-llm"))
        .args(["emit", "--model", "tiny", "--context", "64", "--batch", "4"])
        .arg("--out")
        .arg(out)
        .args(extra)
        // The measuring overrides of the GPU forms must not leak in.
        .env_remove("IREE_LLM_GPU_NARROW_ROWS")
        .env_remove("IREE_LLM_GPU_WIDE_ROWS")
        .env_remove("IREE_LLM_GPU_ATTENTION")
        .output()
        .expect("run iree-llm emit")
}

fn plan(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    serde_json::from_str::<serde_json::Value>(&text).unwrap()["plan"].clone()
}

#[test]
fn graphs_emitted_for_cuda_take_the_forms_the_runtime_compiles_for_cuda() {
    let cpu = tempfile::tempdir().unwrap();
    let cuda = tempfile::tempdir().unwrap();
    for (dir, extra) in [(&cpu, &[][..]), (&cuda, &["--device", "cuda"][..])] {
        let out = emit(dir.path(), extra);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    // The CPU's forms are the plan's defaults, left out of the manifest.
    let cpu_plan = plan(cpu.path());
    for form in ["narrow", "wide", "attention"] {
        assert!(cpu_plan.get(form).is_none(), "{form}: {cpu_plan}");
    }
    let cuda_plan = plan(cuda.path());
    assert_eq!(cuda_plan["narrow"], "cuda-kernel");
    assert_eq!(cuda_plan["wide"], "bf16-terms");
    assert_eq!(cuda_plan["attention"], "kernel");

    // And the graphs differ where the forms do: a decode step's attention.
    let decode = "decode_ragged_logits_b4.mlir";
    let read = |dir: &Path| std::fs::read_to_string(dir.join(decode)).unwrap();
    assert_ne!(read(cpu.path()), read(cuda.path()));
}

#[test]
fn x86_64_kernels_are_refused_for_a_gpu_with_what_to_do_instead() {
    let dir = tempfile::tempdir().unwrap();
    let out = emit(dir.path(), &["--device", "cuda", "--kernels", "x86-64"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("runs only on a CPU device") && stderr.contains("leave --kernels out"),
        "{stderr}"
    );
    assert!(!dir.path().join("manifest.json").exists());
}

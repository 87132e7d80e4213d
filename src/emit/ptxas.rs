//! Test support for the generated CUDA kernels: assembles their PTX with
//! ptxas from the `nvidia-cuda-nvcc-cu12` wheel that `scripts/bootstrap.sh
//! --cuda` installs into .venv, so that their text is checked on machines
//! without a GPU.

use std::path::PathBuf;

fn ptxas() -> PathBuf {
    let venv = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/lib");
    std::fs::read_dir(&venv)
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("site-packages/nvidia/cuda_nvcc/bin/ptxas"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "no ptxas in {}: run scripts/bootstrap.sh --cuda",
                venv.display()
            )
        })
}

/// Assembles `text` for sm_80 and returns ptxas's verbose log (registers,
/// spills); panics with the log, naming `what`, if ptxas rejects it.
pub(crate) fn assemble(what: &str, text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kernel.ptx");
    std::fs::write(&path, text).unwrap();
    let out = std::process::Command::new(ptxas())
        .args(["-arch=sm_80", "-v", "-o"])
        .arg(dir.path().join("kernel.cubin"))
        .arg(&path)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "ptxas rejected {what}: {log}");
    log
}

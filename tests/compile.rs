//! The compiler driver: flags per device, the module cache (a hit runs no
//! compiler), version checking, and error messages that show the compiler's
//! text and the input file.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use iree_llm::compile::{CompileError, Compiler, ModuleCache, Target};
use iree_llm::types::DeviceKind;

/// A stand-in iree-compile that reports `version` and fails any compilation.
fn fake_compiler(dir: &Path, version: &str) -> PathBuf {
    let path = dir.join("iree-compile");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then\n  echo 'IREE (https://iree.dev):'\n  \
             echo '  IREE compiler version {version} @ fake'\n  exit 0\nfi\necho 'fake compiler asked to compile' >&2\nexit 3\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Another test thread's fork may briefly hold the write descriptor of the
    // fresh script, and exec then fails with ETXTBSY ("text file busy"): wait
    // until the script runs.
    for _ in 0..200 {
        match std::process::Command::new(&path).arg("--version").output() {
            Err(e) if e.raw_os_error() == Some(26) => {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
            _ => break,
        }
    }
    path
}

#[test]
fn a_cache_hit_runs_no_compiler() {
    let real = common::compiler();
    let dir = tempfile::tempdir().unwrap();
    let cache = ModuleCache::new(dir.path().join("cache"));
    let target = Target::new(DeviceKind::Cpu);
    let mlir = std::fs::read_to_string(common::fixture("shim_test.mlir")).unwrap();

    let first = cache.get_or_compile(&real, &target, "shim", &mlir).unwrap();
    assert!(!first.hit && first.path.is_file());

    // Same version string, but any compilation fails: only a hit can succeed.
    let fake = Compiler::at(fake_compiler(dir.path(), real.version())).unwrap();
    let second = cache.get_or_compile(&fake, &target, "shim", &mlir).unwrap();
    assert!(second.hit);
    assert_eq!(second.path, first.path);

    // Anything that changes the key misses and would have to compile.
    let changed = format!("{mlir}\n// changed\n");
    let err = cache
        .get_or_compile(&fake, &target, "shim", &changed)
        .unwrap_err();
    assert!(
        err.to_string().contains("fake compiler asked to compile"),
        "{err}"
    );
}

#[test]
fn the_cache_key_covers_text_flags_and_compiler_version() {
    let real = common::compiler();
    let dir = tempfile::tempdir().unwrap();
    let other_version = Compiler::at(fake_compiler(dir.path(), "3.13.999")).unwrap();
    let cpu = Target::new(DeviceKind::Cpu);
    let mut sm86 = Target::new(DeviceKind::Cuda);
    sm86.cuda_arch = "sm_86".into();
    let mut sm80 = Target::new(DeviceKind::Cuda);
    sm80.cuda_arch = "sm_80".into();
    let keys = [
        ModuleCache::key(&real, &cpu, "a"),
        ModuleCache::key(&real, &cpu, "b"),
        ModuleCache::key(&real, &sm80, "a"),
        ModuleCache::key(&real, &sm86, "a"),
        ModuleCache::key(&other_version, &cpu, "a"),
    ];
    for i in 0..keys.len() {
        for j in i + 1..keys.len() {
            assert_ne!(keys[i], keys[j], "keys {i} and {j} collide");
        }
    }
    assert_eq!(
        ModuleCache::key(&real, &cpu, "a"),
        keys[0],
        "keys are stable"
    );
}

#[test]
fn a_compiler_from_another_release_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = Compiler::at(fake_compiler(dir.path(), "3.12.0")).unwrap_err();
    assert!(matches!(err, CompileError::VersionMismatch { .. }), "{err}");
    assert!(err.to_string().contains("3.12.0") && err.to_string().contains("3.13"));
}

#[test]
fn compiler_errors_show_the_message_and_the_input_file() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("broken.mlir");
    std::fs::write(&input, "func.func @f() {\n  %0 = stablehlo.not_an_op\n}\n").unwrap();
    let err = common::compiler()
        .compile_file(
            &input,
            &Target::new(DeviceKind::Cpu),
            &dir.path().join("out.vmfb"),
        )
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("broken.mlir"), "{text}");
    assert!(text.contains("not_an_op"), "{text}");
    assert!(
        !dir.path().join("out.vmfb").exists(),
        "no partial output is left behind"
    );
}

#[test]
fn the_test_module_lowers_for_cuda_and_metal_too() {
    let dir = tempfile::tempdir().unwrap();
    let compiler = common::compiler();
    for kind in [DeviceKind::Cuda, DeviceKind::Metal] {
        let out = dir.path().join(format!("{}.vmfb", kind.name()));
        compiler
            .compile_file(&common::fixture("shim_test.mlir"), &Target::new(kind), &out)
            .unwrap();
        assert!(std::fs::metadata(&out).unwrap().len() > 1000);
    }
}

#[test]
fn the_state_update_imports_the_state_for_in_place_writing() {
    let ir = common::compiler()
        .compile_to_text(
            &common::fixture("shim_test.mlir"),
            &Target::new(DeviceKind::Cpu),
            "stream",
        )
        .unwrap();
    let func = &ir[ir
        .find("util.func public @update_state")
        .expect("update_state in stream IR")..];
    let func = &func[..func.find("\n  }").unwrap_or(func.len())];
    assert!(
        func.contains("consume %arg0"),
        "state is not consumed:\n{func}"
    );
    // The state is 1 MiB; no allocation or copy of that size may appear.
    for op in [
        "stream.resource.alloca",
        "stream.async.copy",
        "stream.cmd.copy",
    ] {
        let offending: Vec<&str> = func
            .lines()
            .filter(|l| l.contains(op) && l.contains("1048576"))
            .collect();
        assert!(offending.is_empty(), "state-sized {op}: {offending:?}");
    }
}

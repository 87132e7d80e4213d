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

/// Byte range of the `.text` section of the first ELF image embedded in a
/// CPU module (IREE embeds each executable as an ELF shared object).
fn embedded_text_section(module: &[u8]) -> std::ops::Range<usize> {
    let elf = module
        .windows(4)
        .position(|w| w == b"\x7fELF")
        .expect("a CPU module embeds an ELF image");
    let image = &module[elf..];
    let u16_at = |at: usize| u16::from_le_bytes(image[at..at + 2].try_into().unwrap()) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(image[at..at + 4].try_into().unwrap()) as usize;
    let u64_at = |at: usize| u64::from_le_bytes(image[at..at + 8].try_into().unwrap()) as usize;
    assert_eq!(image[4], 2, "ELF64 expected");
    let (shoff, shentsize, shnum, shstrndx) =
        (u64_at(0x28), u16_at(0x3a), u16_at(0x3c), u16_at(0x3e));
    let section = |i: usize| shoff + i * shentsize;
    let names = u64_at(section(shstrndx) + 0x18);
    (0..shnum)
        .find_map(|i| {
            let name_at = names + u32_at(section(i));
            let name = &image[name_at..name_at + 6];
            (name == b".text\0").then(|| {
                let (offset, size) = (u64_at(section(i) + 0x18), u64_at(section(i) + 0x20));
                elf + offset..elf + offset + size
            })
        })
        .expect("the embedded ELF has a .text section")
}

/// The ways a cached module was found damaged: its machine code randomised,
/// its back half gone, bytes flipped in the middle.
fn damaged_copies(good: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let mut random_text = good.to_vec();
    let text = embedded_text_section(good);
    assert!(text.len() > 64, "tiny .text: {text:?}");
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for byte in &mut random_text[text] {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *byte = (state >> 56) as u8;
    }
    let mut flipped = good.to_vec();
    let middle = good.len() / 2;
    for byte in &mut flipped[middle..middle + 16] {
        *byte ^= 0xff;
    }
    vec![
        ("random .text", random_text),
        ("back half truncated", good[..good.len() / 2].to_vec()),
        ("bytes flipped in the middle", flipped),
    ]
}

/// Collects what `tracing` writes while a closure runs.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn warnings_of<T>(f: impl FnOnce() -> T) -> (T, String) {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_max_level(tracing::Level::WARN)
        .with_ansi(false)
        .finish();
    let out = tracing::subscriber::with_default(subscriber, f);
    let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    (out, text)
}

/// Runs the cached test module's matmul on ones: every entry must be 8.
fn matmul_of_ones(module: &Path) -> Vec<f32> {
    let instance = iree_llm::runtime::Instance::new().unwrap();
    let device = iree_llm::types::DeviceUri::parse("local-sync").unwrap();
    let mut session = instance.open(&device).unwrap();
    session.load_module(module).unwrap();
    let f = session.function("shim_test.matmul").unwrap();
    let a = session.upload(&[4, 8], &[1f32; 32]).unwrap();
    let b = session.upload(&[8, 3], &[1f32; 24]).unwrap();
    let out = session.call(&f, &[&a, &b]).unwrap();
    session.read(&out[0]).unwrap()
}

#[test]
fn a_damaged_cached_module_is_recompiled_with_a_warning_naming_it() {
    let compiler = common::compiler();
    let dir = tempfile::tempdir().unwrap();
    let cache = ModuleCache::new(dir.path().join("cache"));
    let target = Target::new(DeviceKind::Cpu);
    let mlir = std::fs::read_to_string(common::fixture("shim_test.mlir")).unwrap();
    let first = cache
        .get_or_compile(&compiler, &target, "shim", &mlir)
        .unwrap();
    assert!(!first.hit);
    let good = std::fs::read(&first.path).unwrap();

    for (how, bytes) in damaged_copies(&good) {
        assert_ne!(bytes, good, "{how}");
        std::fs::write(&first.path, &bytes).unwrap();
        let (again, warnings) = warnings_of(|| {
            cache
                .get_or_compile(&compiler, &target, "shim", &mlir)
                .unwrap()
        });
        assert!(
            !again.hit,
            "{how}: the damaged module was served from the cache"
        );
        assert_eq!(again.path, first.path);
        assert!(
            warnings.contains(&first.path.display().to_string()) && warnings.contains("damaged"),
            "{how}: no warning naming the file: {warnings:?}"
        );
        assert_eq!(std::fs::read(&again.path).unwrap(), good, "{how}");
        assert_eq!(matmul_of_ones(&again.path), vec![8f32; 12], "{how}");
        // Healed: the next lookup is a verified hit.
        let healed = cache
            .get_or_compile(&compiler, &target, "shim", &mlir)
            .unwrap();
        assert!(healed.hit, "{how}");
    }
}

#[test]
fn a_cached_module_without_a_recorded_digest_is_recompiled() {
    let compiler = common::compiler();
    let dir = tempfile::tempdir().unwrap();
    let cache = ModuleCache::new(dir.path().join("cache"));
    let target = Target::new(DeviceKind::Cpu);
    let mlir = std::fs::read_to_string(common::fixture("shim_test.mlir")).unwrap();
    let first = cache
        .get_or_compile(&compiler, &target, "shim", &mlir)
        .unwrap();
    let digest = iree_llm::compile::digest_path(&first.path);
    assert!(
        digest.is_file(),
        "a compiled module has its digest recorded"
    );
    std::fs::remove_file(&digest).unwrap();
    let (again, warnings) = warnings_of(|| {
        cache
            .get_or_compile(&compiler, &target, "shim", &mlir)
            .unwrap()
    });
    assert!(!again.hit);
    assert!(warnings.contains("no recorded digest"), "{warnings:?}");
    assert!(digest.is_file());
    assert!(
        cache
            .get_or_compile(&compiler, &target, "shim", &mlir)
            .unwrap()
            .hit
    );
}

/// The tiny preset's B=4 decode graph with `layers` layers (portable: IREE's
/// own code only).
fn tiny_decode_graph(layers: usize) -> iree_llm::emit::Graph {
    use iree_llm::emit::{EmitPlan, GraphKind, LlamaShape, Output, emit_graph};
    let mut cfg = iree_llm::preset::Preset::Tiny.config();
    cfg.num_hidden_layers = layers;
    let mut plan = EmitPlan::new(64, &[4]).unwrap();
    plan.kernels = iree_llm::emit::Kernels::Portable;
    let kind = GraphKind::Decode {
        batch: 4,
        output: Output::Logits,
        window: None,
        spare: 0,
    };
    emit_graph(&LlamaShape::from(&cfg), &plan.graph_config(), kind)
}

#[test]
fn a_calls_schedule_grows_by_the_same_dispatches_with_every_layer_and_is_counted_once() {
    let real = common::compiler();
    let dir = tempfile::tempdir().unwrap();
    let cache = ModuleCache::new(dir.path().join("cache"));
    let target = Target::new(DeviceKind::Cpu);
    let schedule = |compiler: &Compiler, layers| {
        let graph = tiny_decode_graph(layers);
        cache
            .call_schedule(compiler, &target, &graph.name(), &graph.mlir)
            .unwrap()
    };
    let [two, three, four] = [2, 3, 4].map(|layers| schedule(&real, layers));
    assert!(two.dispatches > 0, "{two}");
    // A layer between the first and the last is the same operations: the
    // same dispatches, copies and fills again (the module's one-time
    // initializers are not counted). The first layer may fuse differently
    // with the embedding, so the counts start at two layers.
    let per_layer = three.dispatches - two.dispatches;
    assert!(per_layer > 0, "{two} / {three}");
    assert_eq!(
        four.dispatches - three.dispatches,
        per_layer,
        "{three} / {four}"
    );
    assert_eq!(four.copies - three.copies, three.copies - two.copies);
    assert_eq!(four.fills - three.fills, three.fills - two.fills);

    // Counted once: the record next to the module answers a compiler that
    // cannot compile anything.
    let fake = Compiler::at(fake_compiler(dir.path(), real.version())).unwrap();
    assert_eq!(schedule(&fake, 3), three);
    let five = tiny_decode_graph(5);
    assert!(matches!(
        cache.call_schedule(&fake, &target, &five.name(), &five.mlir),
        Err(CompileError::Failed { .. })
    ));
}

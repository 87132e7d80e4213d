//! Builds the IREE C runtime from the sources vendored by the `eerie-sys` crate
//! (release line 3.13, matching the PyPI `iree-base-compiler==3.13.0`), compiles
//! our C shim in `csrc/` against it, and generates Rust bindings for the shim's
//! one header with bindgen.
//!
//! Nothing is downloaded here. Tools are looked up in this order:
//! - CMake >= 3.26: `$CMAKE`, then `.venv/bin/cmake` (installed by
//!   `scripts/bootstrap.sh`), then `cmake` on `PATH`.
//! - libclang for bindgen: `$LIBCLANG_PATH`, then the `libclang` wheel in `.venv`,
//!   then the system's (`apt-get install libclang-dev`).
//! - With the `cuda` feature: CUDA headers from `$IREE_CUDA_DEPS_DIR`, then the
//!   `nvidia-cuda-runtime-cu12` wheel in `.venv`.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// CMake switches for a runtime-only build with the drivers we use. The HAL
/// drivers are set explicitly so a reused CMake cache cannot keep stale ones.
fn runtime_definitions(cuda: bool, metal: bool) -> Vec<(&'static str, &'static str)> {
    let on_off = |b: bool| if b { "ON" } else { "OFF" };
    vec![
        ("IREE_BUILD_COMPILER", "OFF"),
        ("IREE_BUILD_TESTS", "OFF"),
        ("IREE_BUILD_SAMPLES", "OFF"),
        ("IREE_BUILD_BENCHMARKS", "OFF"),
        ("IREE_BUILD_PYTHON_BINDINGS", "OFF"),
        ("IREE_BUILD_BINDINGS_TFLITE", "OFF"),
        ("IREE_BUILD_BINDINGS_TFLITE_JAVA", "OFF"),
        ("IREE_ENABLE_LIBBACKTRACE", "OFF"),
        ("IREE_RUNTIME_OPTIMIZATION_PROFILE", ""),
        ("IREE_HAL_DRIVER_DEFAULTS", "OFF"),
        ("IREE_HAL_DRIVER_LOCAL_SYNC", "ON"),
        ("IREE_HAL_DRIVER_LOCAL_TASK", "ON"),
        ("IREE_HAL_DRIVER_CUDA", on_off(cuda)),
        ("IREE_HAL_DRIVER_METAL", on_off(metal)),
        ("IREE_HAL_DRIVER_VULKAN", "OFF"),
        ("IREE_HAL_DRIVER_HIP", "OFF"),
        ("IREE_HAL_DRIVER_AMDGPU", "OFF"),
        ("IREE_HAL_DRIVER_NULL", "OFF"),
        // No VMVX loader: modules are compiled for llvm-cpu, and every local
        // device opened creates one, which creates an IREE VM instance,
        // which re-registers the VM's builtin types. IREE 3.13 writes each
        // type's process-wide word to 0 before setting it again, so a call
        // on another thread checking a string argument (`hal.buffer.assert`'s
        // message) at that moment failed with "ref type mismatch"; engines
        // opened while others ran did, in the test suite's parallel tests.
        ("IREE_HAL_EXECUTABLE_LOADER_VMVX_MODULE", "OFF"),
        ("EERIE_CROSS_LANG_LTO", "OFF"),
    ]
}

fn main() {
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    let target_os = env::var("CARGO_CFG_TARGET_OS").unwrap();
    let target_arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap();
    let cuda = env::var_os("CARGO_FEATURE_CUDA").is_some();
    let metal = target_os == "macos" && target_arch == "aarch64";
    let venv = manifest_dir.join(".venv");

    for path in ["csrc", "build.rs"] {
        println!("cargo:rerun-if-changed={path}");
    }
    for var in [
        "IREE_RUNTIME_SOURCE_DIR",
        "CMAKE",
        "LIBCLANG_PATH",
        "IREE_CUDA_DEPS_DIR",
        "IREE_CUDA_LIBDEVICE_PATH",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }

    let eerie = eerie_sys_dir(&manifest_dir);
    let iree_src = eerie.join("iree");
    let cmake_exe = find_cmake(&venv);

    // --- 1. The IREE runtime, through eerie-sys's CMake tree. -------------------
    let mut cfg = cmake::Config::new(&eerie);
    // The runtime is always built optimized: a debug runtime makes every test
    // slower and debugging IREE internals is not what this crate is for.
    cfg.profile("Release");
    for (k, v) in runtime_definitions(cuda, metal) {
        cfg.define(k, v);
    }
    if let Some(ninja) = find_in_venv_or_path(&venv, "ninja") {
        cfg.generator("Ninja");
        cfg.define("CMAKE_MAKE_PROGRAM", ninja);
    }
    if cuda {
        let deps = cuda_deps_dir(&venv, &out_dir);
        // IREE's CUDA CMake reads this variable to find headers instead of
        // downloading a toolkit (which would fail without network access).
        cfg.env("IREE_CUDA_DEPS_DIR", &deps);
        cfg.define("CUDAToolkit_ROOT", &deps);
        // IREE's CMake checks for libdevice even in a runtime-only build (it
        // is embedded only into the compiler's CUDA target).
        cfg.define("IREE_CUDA_LIBDEVICE_PATH", cuda_libdevice(&venv, &deps));
    }
    cfg.env("CMAKE", &cmake_exe);
    // cmake-rs reads the executable from $CMAKE.
    // SAFETY: build scripts are single-threaded at this point.
    unsafe { env::set_var("CMAKE", &cmake_exe) };
    cfg.build_target("eerie_runtime");
    let dst = cfg.build();
    let build_dir = dst.join("build");

    // --- 2. Our shim, compiled against the same headers. ------------------------
    let mut cc = cc::Build::new();
    cc.file(manifest_dir.join("csrc/iree_llm_shim.c"))
        .include(manifest_dir.join("csrc"))
        .define("IREE_ALLOCATOR_SYSTEM_CTL", "iree_allocator_libc_ctl")
        .flag_if_supported("-std=gnu11")
        .warnings(true)
        .extra_warnings(true)
        .flag_if_supported("-Wno-unused-parameter")
        .opt_level(2);
    // IREE's headers as system headers: their warnings are not ours to fix.
    for dir in [
        iree_src.join("runtime/src"),
        build_dir.join("iree/runtime/src"),
        iree_src.join("third_party/flatcc/include"),
    ] {
        cc.flag("-isystem").flag(dir.display().to_string());
    }
    let version = runtime_package_version(&iree_src);
    cc.define("ILL_RUNTIME_VERSION", format!("\"{version}\"").as_str());
    // Tests compare the shim's answer with the sources' own version file.
    println!(
        "cargo:rustc-env=IREE_LLM_RUNTIME_SOURCES={}",
        iree_src.display()
    );
    if cuda {
        cc.define("IREE_LLM_HAVE_CUDA", "1");
    }
    if metal {
        cc.define("IREE_LLM_HAVE_METAL", "1");
    }
    if env::var_os("IREE_LLM_SANITIZE").is_some() {
        // Used by scripts/leakcheck.sh: instrument the shim for LeakSanitizer.
        cc.flag("-fsanitize=address")
            .flag("-fno-omit-frame-pointer");
    }
    cc.compile("iree_llm_shim");

    // --- 2b. Hand-written CPU kernels that compiled modules link in. -----------
    // The object is not linked into this binary: src/emit/kernels/objects.rs
    // embeds its bytes and hands them to iree-compile (`#hal.executable.object`).
    // Freestanding because IREE's embedded ELF loader provides no libc.
    println!("cargo:rustc-check-cfg=cfg(iree_llm_x86_64_kernels)");
    if target_arch == "x86_64" {
        // The AVX2 kernels run on any x86-64 CPU from Haswell and Zen 1 on;
        // the same source built for AVX-512, and the AVX512-BF16 and
        // AVX512-VNNI kernels, only where the emitter finds those extensions
        // (the 8-bit form's AVX2 kernel where it finds no AVX-512 at all).
        const AVX2: [&str; 3] = ["-mavx2", "-mfma", "-mf16c"];
        let avx512 = [&AVX2[..], &["-mavx512f", "-mavx512bw", "-mavx512vl"]].concat();
        let matmul = manifest_dir.join("csrc/kernels/x86_64_matmul.c");
        kernel_object(&matmul, &AVX2, &out_dir.join("x86_64_kernels.o"));
        kernel_object(&matmul, &avx512, &out_dir.join("x86_64_avx512_kernels.o"));
        let attention = manifest_dir.join("csrc/kernels/x86_64_attention.c");
        kernel_object(
            &attention,
            &AVX2,
            &out_dir.join("x86_64_attention_kernels.o"),
        );
        kernel_object(
            &attention,
            &avx512,
            &out_dir.join("x86_64_avx512_attention_kernels.o"),
        );
        kernel_object(
            &manifest_dir.join("csrc/kernels/x86_64_avx512_bf16.c"),
            &[&avx512[..], &["-mavx512bf16"]].concat(),
            &out_dir.join("x86_64_avx512_bf16_kernels.o"),
        );
        kernel_object(
            &manifest_dir.join("csrc/kernels/x86_64_amx_bf16.c"),
            &[&avx512[..], &["-mavx512bf16", "-mamx-tile", "-mamx-bf16"]].concat(),
            &out_dir.join("x86_64_amx_bf16_kernels.o"),
        );
        kernel_object(
            &manifest_dir.join("csrc/kernels/x86_64_avx2_q8.c"),
            &AVX2,
            &out_dir.join("x86_64_avx2_q8_kernels.o"),
        );
        kernel_object(
            &manifest_dir.join("csrc/kernels/x86_64_avx512_vnni.c"),
            &[&avx512[..], &["-mavx512vnni"]].concat(),
            &out_dir.join("x86_64_avx512_vnni_kernels.o"),
        );
        println!("cargo:rustc-cfg=iree_llm_x86_64_kernels");
    }

    // --- 3. Link the runtime archives after the shim that uses them. ------------
    println!("cargo:rustc-link-search=native={}", build_dir.display());
    println!(
        "cargo:rustc-link-search=native={}",
        build_dir
            .join("iree/build_tools/third_party/flatcc")
            .display()
    );
    println!("cargo:rustc-link-lib=static=eerie_runtime");
    println!("cargo:rustc-link-lib=static=flatcc_parsing");
    match target_os.as_str() {
        "linux" => {
            for lib in ["pthread", "dl", "m"] {
                println!("cargo:rustc-link-lib={lib}");
            }
        }
        "macos" => {
            println!("cargo:rustc-link-lib=framework=Foundation");
            println!("cargo:rustc-link-lib=framework=Metal");
        }
        _ => {}
    }

    // --- 4. Bindings for the shim's header alone (no IREE headers involved). ----
    if env::var_os("LIBCLANG_PATH").is_none()
        && let Some(dir) = venv_libclang_dir(&venv)
    {
        // SAFETY: single-threaded build script; clang-sys reads this when bindgen loads.
        unsafe { env::set_var("LIBCLANG_PATH", dir) };
    }
    let mut builder = bindgen::Builder::default();
    // The PyPI libclang has no builtin headers (stddef.h); borrow the C
    // compiler's, which define the same types for this target.
    if let Some(dir) = compiler_builtin_include_dir() {
        builder = builder.clang_arg(format!("-isystem{}", dir.display()));
    }
    let bindings = builder
        .header(
            manifest_dir
                .join("csrc/iree_llm_shim.h")
                .display()
                .to_string(),
        )
        .allowlist_function("ill_.*")
        .allowlist_type("ill_.*")
        .allowlist_var("ILL_.*")
        .default_enum_style(bindgen::EnumVariation::ModuleConsts)
        .prepend_enum_name(false)
        .size_t_is_usize(true)
        .layout_tests(false)
        .generate()
        .unwrap_or_else(|e| {
            panic!(
                "bindgen failed on csrc/iree_llm_shim.h: {e}\n\
                 bindgen needs libclang: run scripts/bootstrap.sh (installs the `libclang` \
                 wheel into .venv) or `apt-get install libclang-dev`, or set LIBCLANG_PATH."
            )
        });
    bindings
        .write_to_file(out_dir.join("shim_bindings.rs"))
        .expect("cannot write shim bindings");
}

/// The `package-version` of the IREE runtime sources (`runtime/version.json`),
/// compiled into the shim: IREE's C API has no version query of its own.
fn runtime_package_version(iree_src: &Path) -> String {
    let path = iree_src.join("runtime/version.json");
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the IREE runtime version from {}: {e}",
            path.display()
        )
    });
    let json: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    let version = json["package-version"].as_str().unwrap_or_default();
    // The value becomes a C string literal: allow only version characters.
    let plain = |c: char| c.is_ascii_alphanumeric() || ".-+_".contains(c);
    if version.is_empty() || !version.chars().all(plain) {
        panic!(
            "{} has no usable \"package-version\" (found {version:?})",
            path.display()
        );
    }
    version.to_string()
}

/// The `eerie-sys` package directory, which holds IREE's runtime sources.
///
/// Cargo has already downloaded it as our dependency. It is looked up as
/// `$IREE_RUNTIME_SOURCE_DIR`, then in Cargo's registry cache, then through
/// `cargo metadata` (which may need to fetch the manifests of dev-dependencies).
fn eerie_sys_dir(manifest_dir: &Path) -> PathBuf {
    const PACKAGE: &str = "eerie-sys-0.5.0";
    if let Some(dir) = env::var_os("IREE_RUNTIME_SOURCE_DIR") {
        return PathBuf::from(dir);
    }
    let cargo_home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(home) = cargo_home
        && let Ok(registries) = std::fs::read_dir(home.join("registry/src"))
    {
        for registry in registries.flatten() {
            let candidate = registry.path().join(PACKAGE);
            if candidate.join("iree/runtime/src").is_dir() {
                return candidate;
            }
        }
    }
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .arg("--manifest-path")
        .arg(manifest_dir.join("Cargo.toml"))
        .output()
        .expect("cannot run `cargo metadata` to locate the eerie-sys sources");
    if !out.status.success() {
        panic!(
            "cannot locate the eerie-sys sources (`cargo metadata` failed):\n{}\n\
             Set IREE_RUNTIME_SOURCE_DIR to an unpacked {PACKAGE}.",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let meta: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("cargo metadata printed invalid JSON");
    let pkg = meta["packages"]
        .as_array()
        .and_then(|pkgs| pkgs.iter().find(|p| p["name"] == "eerie-sys"))
        .expect("eerie-sys is not in the dependency graph");
    let manifest = PathBuf::from(pkg["manifest_path"].as_str().unwrap());
    manifest.parent().unwrap().to_path_buf()
}

fn compiler_builtin_include_dir() -> Option<PathBuf> {
    let compiler = cc::Build::new().get_compiler();
    let out = compiler
        .to_command()
        .arg("-print-file-name=include")
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    dir.join("stddef.h").is_file().then_some(dir)
}

fn find_in_venv_or_path(venv: &Path, name: &str) -> Option<PathBuf> {
    let local = venv.join("bin").join(name);
    if local.is_file() {
        return Some(local);
    }
    env::var_os("PATH").and_then(|paths| {
        env::split_paths(&paths)
            .map(|p| p.join(name))
            .find(|p| p.is_file())
    })
}

fn find_cmake(venv: &Path) -> PathBuf {
    let exe = env::var_os("CMAKE")
        .map(PathBuf::from)
        .or_else(|| find_in_venv_or_path(venv, "cmake"))
        .unwrap_or_else(|| {
            panic!(
                "CMake >= 3.26 is needed to build the IREE runtime and none was found.\n\
                 Run scripts/bootstrap.sh (it installs CMake from PyPI into .venv), \
                 or `pip install cmake`, or set CMAKE to its path."
            )
        });
    let out = Command::new(&exe).arg("--version").output();
    let version = out
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| {
            s.split_whitespace().nth(2).map(|v| {
                v.split('.')
                    .filter_map(|n| n.parse::<u32>().ok())
                    .collect::<Vec<_>>()
            })
        })
        .unwrap_or_default();
    if version.len() < 2 || (version[0], version[1]) < (3, 26) {
        panic!(
            "{} is CMake {:?}, but the IREE runtime needs >= 3.26.\n\
             Run scripts/bootstrap.sh (installs a newer CMake into .venv) or set CMAKE.",
            exe.display(),
            version
        );
    }
    exe
}

fn venv_site_packages(venv: &Path) -> Vec<PathBuf> {
    let lib = venv.join("lib");
    std::fs::read_dir(&lib)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path().join("site-packages"))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default()
}

fn venv_libclang_dir(venv: &Path) -> Option<PathBuf> {
    venv_site_packages(venv)
        .into_iter()
        .map(|sp| sp.join("clang/native"))
        .find(|d| d.join("libclang.so").is_file() || d.join("libclang.dylib").is_file())
}

/// A directory laid out like a CUDA toolkit for IREE's CMake: `include/`
/// with cuda.h and the headers it pulls in, and `nvvm/libdevice/`.
/// `$IREE_CUDA_DEPS_DIR` is used as is; otherwise the directory is assembled
/// in OUT_DIR from symlinks into three PyPI wheels: `nvidia-cuda-runtime-cu12`
/// (cuda.h), `nvidia-cuda-nvcc-cu12` (crt/ headers and libdevice) and
/// `nvidia-cuda-cccl-cu12` (nv/target, needed by the NCCL headers IREE's CUDA
/// driver always includes).
fn cuda_deps_dir(venv: &Path, out_dir: &Path) -> PathBuf {
    if let Some(dir) = env::var_os("IREE_CUDA_DEPS_DIR") {
        return PathBuf::from(dir);
    }
    let missing = || -> ! {
        panic!(
            "the `cuda` feature needs CUDA >= 12 headers (cuda.h, crt/) and libdevice.\n\
             Run `scripts/bootstrap.sh --cuda` (installs nvidia-cuda-runtime-cu12, \
             nvidia-cuda-nvcc-cu12 and nvidia-cuda-cccl-cu12 into .venv) or set \
             IREE_CUDA_DEPS_DIR to a CUDA toolkit."
        )
    };
    let site = venv_site_packages(venv)
        .into_iter()
        .find(|sp| sp.join("nvidia/cuda_runtime/include/cuda.h").is_file())
        .unwrap_or_else(|| missing());
    let nvcc = site.join("nvidia/cuda_nvcc");
    let cccl = site.join("nvidia/cuda_cccl");
    if !nvcc.join("include/crt").is_dir() || !cccl.join("include/nv").is_dir() {
        missing();
    }
    let deps = out_dir.join("cuda-deps");
    let include = deps.join("include");
    let _ = std::fs::remove_dir_all(&deps);
    std::fs::create_dir_all(&include).expect("create cuda-deps/include");
    for dir in [
        site.join("nvidia/cuda_runtime/include"),
        nvcc.join("include"),
        cccl.join("include"),
    ] {
        for entry in std::fs::read_dir(&dir)
            .expect("read CUDA include dir")
            .flatten()
        {
            let link = include.join(entry.file_name());
            if !link.exists() {
                std::os::unix::fs::symlink(entry.path(), &link).expect("link CUDA header");
            }
        }
    }
    std::os::unix::fs::symlink(nvcc.join("nvvm"), deps.join("nvvm")).expect("link nvvm");
    deps
}

fn cuda_libdevice(venv: &Path, deps: &Path) -> PathBuf {
    const FILE: &str = "nvvm/libdevice/libdevice.10.bc";
    if let Some(path) = env::var_os("IREE_CUDA_LIBDEVICE_PATH") {
        return PathBuf::from(path);
    }
    std::iter::once(deps.join(FILE))
        .chain(
            venv_site_packages(venv)
                .into_iter()
                .map(|sp| sp.join("nvidia/cuda_nvcc").join(FILE)),
        )
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "the `cuda` feature needs CUDA's libdevice.10.bc (IREE's CMake checks for it).\n\
                 Run `scripts/bootstrap.sh --cuda` (installs nvidia-cuda-nvcc-cu12 into .venv) or set \
                 IREE_CUDA_LIBDEVICE_PATH."
            )
        })
}

/// Compiles one freestanding kernel source into `out` (an object that
/// iree-compile links into modules, not into this binary).
fn kernel_object(source: &Path, isa_flags: &[&str], out: &Path) {
    let mut build = cc::Build::new();
    build
        .file(source)
        .opt_level(3)
        .debug(false)
        .warnings(true)
        .extra_warnings(true)
        .flag("-std=c11")
        .flag("-ffreestanding")
        .flag("-fno-stack-protector")
        .flag("-fno-plt");
    for flag in isa_flags {
        build.flag(flag);
    }
    let objects = build.compile_intermediates();
    assert_eq!(objects.len(), 1, "one kernel source, one object");
    std::fs::copy(&objects[0], out).expect("copy the kernel object into OUT_DIR");
}

//! Compiling StableHLO to IREE modules: finds `iree-compile`, checks that it is
//! the release line of the runtime we link (3.13), chooses the flags for each
//! device family, and keeps compiled modules in an on-disk cache keyed by the
//! MLIR text, the flags and the compiler version, so a cache hit runs no
//! compiler at all. Each cached module carries the SHA-256 of the bytes the
//! compiler wrote, checked before every hit: a damaged module (its machine code
//! would crash the process when run) is recompiled, not loaded.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::types::DeviceKind;

/// The compiler release line that matches the runtime vendored by eerie-sys.
pub const COMPILER_LINE: &str = "3.13";

#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    #[error(
        "iree-compile was not found (looked at $IREE_COMPILE, {venv}, then PATH).\n\
         Install it with scripts/bootstrap.sh (puts iree-base-compiler==3.13.0 into .venv), \
         or `pip install iree-base-compiler==3.13.0`, or set IREE_COMPILE to its path."
    )]
    NotFound { venv: String },
    #[error("cannot run {}: {source}", exe.display())]
    Spawn {
        exe: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "{} is IREE compiler {found}, but this runtime is the {COMPILER_LINE} release line; \
         modules from another release may not load. Install iree-base-compiler==3.13.0 \
         (scripts/bootstrap.sh) or point IREE_COMPILE at a 3.13 compiler.",
        exe.display()
    )]
    VersionMismatch { exe: PathBuf, found: String },
    #[error("iree-compile failed on {} (target {target}):\n{stderr}", input.display())]
    Failed {
        input: PathBuf,
        target: String,
        stderr: String,
    },
    #[error("input file {} cannot be read: {source}", path.display())]
    Input {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("module cache at {}: {source}", path.display())]
    Cache {
        path: PathBuf,
        source: std::io::Error,
    },
}

pub type Result<T> = std::result::Result<T, CompileError>;

/// What to compile for: a device family plus its options.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub kind: DeviceKind,
    /// CUDA architecture (`sm_80` by default: IREE 3.13 has no sm_90 entry and
    /// sm_80 PTX is JIT-compiled by the driver on Hopper).
    pub cuda_arch: String,
    /// Extra flags appended verbatim (e.g. tuning options).
    pub extra_flags: Vec<String>,
}

impl Target {
    pub fn new(kind: DeviceKind) -> Self {
        Target {
            kind,
            cuda_arch: std::env::var("IREE_LLM_CUDA_ARCH").unwrap_or_else(|_| "sm_80".into()),
            // For tuning experiments: whitespace-separated flags appended to
            // every compile (they are part of the cache key like any flag).
            extra_flags: std::env::var("IREE_LLM_COMPILE_FLAGS")
                .map(|v| v.split_whitespace().map(String::from).collect())
                .unwrap_or_default(),
        }
    }

    /// The iree-compile flags for this target.
    pub fn flags(&self) -> Vec<String> {
        let mut flags: Vec<String> = vec!["--iree-input-type=stablehlo".into()];
        match self.kind {
            DeviceKind::Cpu => flags.extend([
                "--iree-hal-target-device=local".into(),
                "--iree-hal-local-target-device-backends=llvm-cpu".into(),
                "--iree-llvmcpu-target-cpu=host".into(),
                // Measured on SmolLM2 decode (docs/performance.md): about
                // 20% less CPU per B=1 step, 150-180 fewer dispatches, and
                // within the reference tolerances and greedy parity.
                "--iree-opt-level=O3".into(),
                "--iree-dispatch-creation-enable-aggressive-fusion".into(),
            ]),
            DeviceKind::Cuda => flags.extend([
                "--iree-hal-target-device=cuda".into(),
                format!("--iree-cuda-target={}", self.cuda_arch),
            ]),
            DeviceKind::Metal => flags.extend([
                "--iree-hal-target-device=metal".into(),
                // Embed MSL source; the macOS driver compiles it at load time.
                // This lets Linux prove that graphs lower for Metal.
                "--iree-metal-compile-to-metallib=false".into(),
            ]),
        }
        flags.extend(self.extra_flags.iter().cloned());
        flags
    }

    /// A short name for file names and messages, e.g. `cpu`, `cuda-sm_80`.
    pub fn label(&self) -> String {
        match self.kind {
            DeviceKind::Cuda => format!("cuda-{}", self.cuda_arch),
            k => k.name().to_string(),
        }
    }

    /// Facts outside the flags that change the generated code: for `host`
    /// CPU targets, the host's CPU model and features.
    fn environment_key(&self) -> String {
        match self.kind {
            DeviceKind::Cpu => host_cpu_identity(),
            _ => String::new(),
        }
    }
}

fn host_cpu_identity() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let pick = |key: &str| {
        info.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_default()
    };
    format!(
        "{}|{}|{}",
        std::env::consts::ARCH,
        pick("model name"),
        pick("flags")
    )
}

/// A located, version-checked `iree-compile`.
#[derive(Clone, Debug)]
pub struct Compiler {
    exe: PathBuf,
    version: String,
}

impl Compiler {
    /// Finds iree-compile: `$IREE_COMPILE`, then the project's `.venv`, then `PATH`.
    pub fn locate() -> Result<Self> {
        let venv_candidates = project_venv_bins();
        let exe = std::env::var_os("IREE_COMPILE")
            .map(PathBuf::from)
            .or_else(|| {
                venv_candidates
                    .iter()
                    .map(|d| d.join("iree-compile"))
                    .find(|p| p.is_file())
            })
            .or_else(|| {
                std::env::var_os("PATH").and_then(|paths| {
                    std::env::split_paths(&paths)
                        .map(|p| p.join("iree-compile"))
                        .find(|p| p.is_file())
                })
            })
            .ok_or_else(|| CompileError::NotFound {
                venv: venv_candidates
                    .first()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| ".venv/bin".into()),
            })?;
        Self::at(exe)
    }

    /// Uses the compiler at `exe`, checking its version.
    pub fn at(exe: PathBuf) -> Result<Self> {
        let out = Command::new(&exe)
            .arg("--version")
            .output()
            .map_err(|source| CompileError::Spawn {
                exe: exe.clone(),
                source,
            })?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let version = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("IREE compiler version "))
            .map(|v| v.split_whitespace().next().unwrap_or(v).to_string())
            .unwrap_or_else(|| text.trim().to_string());
        if !version.starts_with(&format!("{COMPILER_LINE}.")) {
            return Err(CompileError::VersionMismatch {
                exe,
                found: version,
            });
        }
        Ok(Compiler { exe, version })
    }

    pub fn exe(&self) -> &Path {
        &self.exe
    }

    pub fn version(&self) -> &str {
        &self.version
    }

    /// Compiles one MLIR file to a `.vmfb`.
    pub fn compile_file(&self, input: &Path, target: &Target, output: &Path) -> Result<()> {
        let mut args = vec![std::ffi::OsString::from("-o")];
        args.push(output.into());
        self.run(input, target, &args).inspect_err(|_| {
            let _ = std::fs::remove_file(output);
        })?;
        Ok(())
    }

    /// Runs an arbitrary compiler phase (e.g. `--compile-to=stream`) and
    /// returns its textual output. Used to inspect the IR.
    pub fn compile_to_text(&self, input: &Path, target: &Target, phase: &str) -> Result<String> {
        let stdout = self.run(input, target, &[format!("--compile-to={phase}").into()])?;
        Ok(String::from_utf8_lossy(&stdout).into_owned())
    }

    /// Runs iree-compile on `input` with the target's flags and `extra`
    /// arguments; returns its standard output.
    fn run(&self, input: &Path, target: &Target, extra: &[std::ffi::OsString]) -> Result<Vec<u8>> {
        if let Err(source) = std::fs::metadata(input) {
            return Err(CompileError::Input {
                path: input.to_path_buf(),
                source,
            });
        }
        // Hand-written kernel objects named by the graph lie next to it
        // (`emit::kernels`).
        let mut search = std::ffi::OsString::from("--iree-hal-executable-object-search-path=");
        search.push(
            input
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new(".")),
        );
        let out = Command::new(&self.exe)
            .args(target.flags())
            .args(extra)
            .arg(search)
            .arg(input)
            .output()
            .map_err(|source| CompileError::Spawn {
                exe: self.exe.clone(),
                source,
            })?;
        if !out.status.success() {
            let mut stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            if stderr.trim().is_empty() {
                stderr = format!("(no output; exit status {})", out.status);
            }
            return Err(CompileError::Failed {
                input: input.to_path_buf(),
                target: target.label(),
                stderr,
            });
        }
        Ok(out.stdout)
    }
}

/// How old a private `.partial` module file must be to count as left
/// behind: a compile that takes this long is not running any more.
const STALE_PARTIAL: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes `.partial` module files older than [`STALE_PARTIAL`] from `dir`.
/// A process stopped while its compiler ran (a server shut down during a
/// background compile) never renames its private file into place, and the
/// compiler it started may finish after it; without a sweep those files
/// would pile up in the cache. Best effort: what cannot be read or removed
/// stays.
fn sweep_stale_partials(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "partial") {
            continue;
        }
        let age = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok());
        if age.is_some_and(|a| a > STALE_PARTIAL) && std::fs::remove_file(&path).is_ok() {
            tracing::debug!("removed a module file left behind: {}", path.display());
        }
    }
}

/// Gives the calling thread the lowest scheduling priority (nice 19), so
/// that the compiles it runs take the cores only when serving leaves them
/// idle; the compiler processes it starts inherit it. Linux only, where the
/// nice value belongs to the thread; elsewhere it would lower the whole
/// process, so nothing changes there. Returns whether it was lowered.
pub fn lower_thread_priority() -> bool {
    #[cfg(target_os = "linux")]
    {
        rustix::process::setpriority_process(None, 19).is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// `.venv/bin` directories where the project's own compiler may live: next to
/// the source tree this binary was built from, and above the binary itself
/// (`target/<profile>/iree-llm` -> `<repo>/.venv/bin`).
fn project_venv_bins() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv/bin")];
    if let Ok(exe) = std::env::current_exe() {
        for ancestor in exe.ancestors().skip(1).take(4) {
            dirs.push(ancestor.join(".venv/bin"));
        }
    }
    dirs
}

/// Where iree-llm keeps its caches: `$IREE_LLM_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/iree-llm`, else `~/.cache/iree-llm`.
pub fn cache_root() -> PathBuf {
    if let Some(dir) = std::env::var_os("IREE_LLM_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("iree-llm");
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    home.join(".cache/iree-llm")
}

/// Compiled modules on disk, named by a hash of everything that determines
/// the compiler's output. Next to each `NAME-KEY.vmfb` lies
/// `NAME-KEY.vmfb.sha256`, the digest of the module as the compiler wrote it.
#[derive(Clone, Debug)]
pub struct ModuleCache {
    dir: PathBuf,
}

/// The result of [`ModuleCache::get_or_compile`].
#[derive(Clone, Debug)]
pub struct CachedModule {
    pub path: PathBuf,
    /// True when the module was already cached and no compiler ran.
    pub hit: bool,
}

impl ModuleCache {
    pub fn new(dir: PathBuf) -> Self {
        ModuleCache { dir }
    }

    /// The cache under [`cache_root`].
    pub fn default_location() -> Self {
        ModuleCache::new(cache_root().join("modules"))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The cache key of `mlir` compiled by `compiler` for `target`.
    pub fn key(compiler: &Compiler, target: &Target, mlir: &str) -> String {
        let mut h = Sha256::new();
        for part in [
            compiler.version(),
            &target.flags().join("\u{1f}"),
            &target.environment_key(),
            mlir,
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        h.finalize()
            .iter()
            .take(16)
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// Path the module for `key` would have.
    pub fn module_path(&self, name: &str, key: &str) -> PathBuf {
        self.dir.join(format!("{name}-{key}.vmfb"))
    }

    /// Returns the compiled module for `mlir`, compiling it only if it is not
    /// cached yet or its cached bytes do not match the digest recorded when
    /// they were written (then a warning names the file). `name` is a readable
    /// prefix for the files. The MLIR is kept next to the module so compiler
    /// errors can point at a real file.
    pub fn get_or_compile(
        &self,
        compiler: &Compiler,
        target: &Target,
        name: &str,
        mlir: &str,
    ) -> Result<CachedModule> {
        let key = Self::key(compiler, target, mlir);
        let path = self.module_path(name, &key);
        if path.is_file() {
            match verify_module(&path) {
                Ok(()) => return Ok(CachedModule { path, hit: true }),
                Err(damage) => {
                    tracing::warn!(
                        "module cache entry {} {damage}; recompiling it",
                        path.display()
                    );
                    // Renames below replace both files; removing them first
                    // keeps a failed recompile from leaving the damage behind.
                    let _ = std::fs::remove_file(&path);
                    let _ = std::fs::remove_file(digest_path(&path));
                }
            }
        }
        let cache_err = |source| self.error(source);
        // Write on private names and rename into place: concurrent compiles
        // of the same module (threads or processes) never see each other's
        // half-written files. All of them compile the source under its one
        // stable name, because iree-compile embeds the input's path in the
        // module: the renames then install identical bytes and digests.
        let source = self.write_source(name, &key, mlir)?;
        sweep_stale_partials(&self.dir);
        let unique = crate::files::unique_suffix();
        let partial = self.dir.join(format!("{name}-{key}.{unique}.vmfb.partial"));
        compiler.compile_file(&source, target, &partial)?;
        // The digest goes into place first: a module that is visible under
        // its final name always has its digest next to it.
        let digest = file_digest(&partial).map_err(cache_err)?;
        crate::files::write_atomically(&digest_path(&path), format!("{digest}\n").as_bytes())
            .map_err(cache_err)?;
        std::fs::rename(&partial, &path).map_err(cache_err)?;
        Ok(CachedModule { path, hit: false })
    }

    /// What one call of `mlir`'s function asks of the device
    /// ([`CallSchedule`]), from iree-compile's stream IR of it, recorded
    /// next to the module as `NAME-KEY.schedule` so that it is counted once.
    pub fn call_schedule(
        &self,
        compiler: &Compiler,
        target: &Target,
        name: &str,
        mlir: &str,
    ) -> Result<CallSchedule> {
        let key = Self::key(compiler, target, mlir);
        let recorded = self.dir.join(format!("{name}-{key}.schedule"));
        if let Some(schedule) = std::fs::read_to_string(&recorded)
            .ok()
            .and_then(|text| CallSchedule::parse(&text))
        {
            return Ok(schedule);
        }
        let source = self.write_source(name, &key, mlir)?;
        let stream = compiler.compile_to_text(&source, target, "stream")?;
        let schedule = CallSchedule::from_stream_ir(&stream);
        crate::files::write_atomically(&recorded, schedule.to_text().as_bytes())
            .map_err(|e| self.error(e))?;
        Ok(schedule)
    }

    /// Writes `mlir` as the cache's source for `name` and `key`, with the
    /// kernel objects it names beside it; returns its path.
    fn write_source(&self, name: &str, key: &str, mlir: &str) -> Result<PathBuf> {
        std::fs::create_dir_all(&self.dir).map_err(|e| self.error(e))?;
        if crate::emit::kernels::called_by(mlir) {
            crate::emit::kernels::write_objects(&self.dir).map_err(|e| self.error(e))?;
        }
        let source = self.dir.join(format!("{name}-{key}.mlir"));
        crate::files::write_atomically(&source, mlir.as_bytes()).map_err(|e| self.error(e))?;
        Ok(source)
    }

    fn error(&self, source: std::io::Error) -> CompileError {
        CompileError::Cache {
            path: self.dir.clone(),
            source,
        }
    }
}

/// What one call of a compiled graph's function asks of its device: the
/// dispatches in its command buffers (IREE's generated code and the
/// hand-written kernels alike) and the copies and fills they hold besides.
/// A call's fixed cost grows with these whatever its bytes and arithmetic:
/// each is a region of work the runtime hands to its workers and waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct CallSchedule {
    pub dispatches: usize,
    pub copies: usize,
    pub fills: usize,
}

impl CallSchedule {
    /// Counts the `stream.cmd.dispatch`, `stream.cmd.copy` and
    /// `stream.cmd.fill` operations in the functions of iree-compile's
    /// `--compile-to=stream` text. Initializers, which run once when the
    /// module loads, are not counted.
    pub fn from_stream_ir(text: &str) -> Self {
        let mut schedule = CallSchedule::default();
        let mut in_function = false;
        for line in text.lines() {
            // A module's top-level operations are indented by two spaces.
            if let Some(top) = line.strip_prefix("  ")
                && !top.starts_with(' ')
                && !top.starts_with('}')
            {
                in_function = top.starts_with("util.func ");
                continue;
            }
            if !in_function {
                continue;
            }
            // These operations have no results: each begins its line.
            let op = line.trim_start();
            if op.starts_with("stream.cmd.dispatch ") {
                schedule.dispatches += 1;
            } else if op.starts_with("stream.cmd.copy ") {
                schedule.copies += 1;
            } else if op.starts_with("stream.cmd.fill ") {
                schedule.fills += 1;
            }
        }
        schedule
    }

    fn to_text(self) -> String {
        format!(
            "dispatches {}\ncopies {}\nfills {}\n",
            self.dispatches, self.copies, self.fills
        )
    }

    fn parse(text: &str) -> Option<Self> {
        let mut counts = text.lines().map(|line| {
            let (_, n) = line.split_once(' ')?;
            n.trim().parse::<usize>().ok()
        });
        let mut next = || counts.next().flatten();
        Some(CallSchedule {
            dispatches: next()?,
            copies: next()?,
            fills: next()?,
        })
    }
}

impl std::fmt::Display for CallSchedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} dispatches, {} copies, {} fills",
            self.dispatches, self.copies, self.fills
        )
    }
}

/// Where the digest of the cached module at `module` is recorded.
pub fn digest_path(module: &Path) -> PathBuf {
    let mut name = module.as_os_str().to_owned();
    name.push(".sha256");
    PathBuf::from(name)
}

/// Hex SHA-256 of a file's bytes, read in chunks.
fn file_digest(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut chunk = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut chunk)?;
        if n == 0 {
            break;
        }
        hasher.update(&chunk[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Checks a cached module against its recorded digest; the error says what
/// is wrong, for a warning that follows the file's path.
fn verify_module(path: &Path) -> std::result::Result<(), String> {
    let recorded = match std::fs::read_to_string(digest_path(path)) {
        Ok(text) => text.trim().to_string(),
        // Entries written before digests were recorded cannot be vouched for.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err("has no recorded digest and cannot be verified".into());
        }
        Err(e) => return Err(format!("has an unreadable digest file ({e})")),
    };
    let actual = file_digest(path).map_err(|e| format!("cannot be read ({e})"))?;
    if actual == recorded {
        Ok(())
    } else {
        Err(format!(
            "is damaged: its SHA-256 is {actual}, but {recorded} was recorded when it was written"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calls_schedule_counts_the_command_buffers_operations_of_its_functions_only() {
        let stream = "\
module {
  util.initializer {
    %0 = stream.cmd.execute once {
      stream.cmd.dispatch @init::@fill_table {
      }
      stream.cmd.copy %a[%c0], %b[%c0], %c4
    }
    util.return
  }
  stream.executable private @decode_dispatch_0 {
    stream.cmd.dispatch @not::@counted
  }
  util.func public @decode(%arg0: !hal.buffer_view) {
    %1 = stream.cmd.execute {
      stream.cmd.dispatch @decode_dispatch_0::@decode_dispatch_0_elementwise {
      }
      stream.cmd.concurrent {
        stream.cmd.dispatch @kernels::@matmul {
        }
        stream.cmd.copy %c[%c0], %d[%c8], %c16
      }
      stream.cmd.fill %c0_i32, %e[%c0 for %c64]
      stream.cmd.dispatch @decode_dispatch_1::@decode_dispatch_1_reduction {
      }
    }
    util.return
  }
}
";
        let schedule = CallSchedule::from_stream_ir(stream);
        assert_eq!(
            schedule,
            CallSchedule {
                dispatches: 3,
                copies: 1,
                fills: 1
            }
        );
        assert_eq!(schedule.to_string(), "3 dispatches, 1 copies, 1 fills");
        // The record the cache keeps reads back as the same counts; anything
        // else is no record (and is counted again).
        assert_eq!(CallSchedule::parse(&schedule.to_text()), Some(schedule));
        for damaged in [
            "",
            "dispatches 3\ncopies 1\n",
            "dispatches x\ncopies 1\nfills 1\n",
        ] {
            assert_eq!(CallSchedule::parse(damaged), None, "{damaged:?}");
        }
    }

    #[test]
    fn cpu_targets_the_host_with_llvm_cpu() {
        let flags = Target::new(DeviceKind::Cpu).flags();
        assert!(flags.contains(&"--iree-hal-local-target-device-backends=llvm-cpu".to_string()));
        assert!(flags.contains(&"--iree-llvmcpu-target-cpu=host".to_string()));
        assert!(flags.contains(&"--iree-opt-level=O3".to_string()));
    }

    #[test]
    fn cuda_defaults_to_sm_80_and_can_be_overridden() {
        let mut t = Target::new(DeviceKind::Cuda);
        if std::env::var_os("IREE_LLM_CUDA_ARCH").is_none() {
            assert!(t.flags().contains(&"--iree-cuda-target=sm_80".to_string()));
        }
        t.cuda_arch = "sm_86".into();
        assert!(t.flags().contains(&"--iree-cuda-target=sm_86".to_string()));
        assert_eq!(t.label(), "cuda-sm_86");
    }

    #[test]
    fn metal_embeds_source_instead_of_a_metallib() {
        let flags = Target::new(DeviceKind::Metal).flags();
        assert!(flags.contains(&"--iree-hal-target-device=metal".to_string()));
        assert!(flags.contains(&"--iree-metal-compile-to-metallib=false".to_string()));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_lowered_thread_and_the_compilers_it_starts_run_at_nice_19() {
        let before = rustix::process::getpriority_process(None).unwrap();
        let (lowered, niceness) = std::thread::spawn(|| {
            let lowered = lower_thread_priority();
            // `nice` without arguments prints the niceness it runs at.
            let out = Command::new("nice").output().expect("run nice");
            (
                lowered,
                String::from_utf8_lossy(&out.stdout).trim().to_string(),
            )
        })
        .join()
        .unwrap();
        assert!(lowered);
        assert_eq!(niceness, "19");
        // The nice value is the thread's: the caller's is untouched.
        assert_eq!(rustix::process::getpriority_process(None).unwrap(), before);
    }

    #[test]
    fn a_compile_removes_partial_modules_left_behind_but_not_running_ones() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str, age_s: u64| {
            let path = dir.path().join(name);
            let f = std::fs::File::create(&path).unwrap();
            let when = std::time::SystemTime::now() - std::time::Duration::from_secs(age_s);
            f.set_modified(when).unwrap();
            path
        };
        let left = file("m-k.1-1.vmfb.partial", 2 * 3600);
        let running = file("m-k.2-1.vmfb.partial", 60);
        let module = file("m-k.vmfb", 2 * 3600);
        sweep_stale_partials(dir.path());
        assert!(!left.exists());
        assert!(running.exists());
        assert!(module.exists());
    }
}

//! The IREE runtime, safely: an [`Instance`] (the HAL drivers compiled into
//! this build), a [`Session`] on one device with its loaded modules, resident
//! device [`Buffer`]s and resolved [`Function`]s. Handles are owned and
//! released by `Drop`; every IREE failure becomes a [`RuntimeError`] that keeps
//! IREE's own status text and says what to do about it.
//!
//! All `unsafe` code lives in the private `sys` submodule.

mod host_time;
mod sys;

use std::cell::Cell;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use crate::types::DType;
use host_time::HostClock;
pub use host_time::{HostOp, HostTimes};
use sys::{RawBuffer, RawFunction, RawInstance, RawSession, ShimError, ShimErrorKind};

use crate::types::DeviceUri;

/// Everything that can go wrong while driving the IREE runtime.
#[derive(Debug, thiserror::Error)]
pub enum RuntimeError {
    #[error("this build of iree-llm has no '{driver}' driver (compiled in: {compiled}). {hint}")]
    DriverNotCompiled {
        driver: String,
        compiled: String,
        hint: &'static str,
    },
    #[error("cannot open device '{uri}': {message}\n{hint}")]
    DeviceUnavailable {
        uri: String,
        message: String,
        hint: String,
    },
    #[error("module file '{}' does not exist or cannot be read; compile it first (`iree-llm compile`)", path.display())]
    ModuleNotFound { path: PathBuf },
    #[error(
        "'{}' is not a module this runtime can load: {message}\n\
         The file may be corrupt, or compiled by an iree-compile other than the {runtime} release \
         line of this runtime. Recompile it with the matching compiler (scripts/bootstrap.sh \
         installs iree-base-compiler==3.13.0), or delete it from the module cache.",
        path.display()
    )]
    IncompatibleModule {
        path: PathBuf,
        message: String,
        runtime: String,
    },
    #[error("no function '{name}' in the modules loaded on this session: {message}")]
    FunctionNotFound { name: String, message: String },
    #[error("{0}")]
    InvalidArgument(String),
    #[error("the device is out of memory: {0}\nUse a smaller model, context or batch.")]
    OutOfMemory(String),
    #[error(
        "{0}\nA graph must return f32, f16, bf16, i32 or i8 tensors; change the graph's result type."
    )]
    UnsupportedElementType(String),
    #[error("a buffer or function from another session was passed to this session")]
    ForeignHandle,
    #[error("IREE runtime error: {0}")]
    Iree(String),
}

impl RuntimeError {
    fn from_shim(e: ShimError) -> Self {
        match e.kind {
            ShimErrorKind::InvalidArgument => RuntimeError::InvalidArgument(e.message),
            ShimErrorKind::OutOfMemory => RuntimeError::OutOfMemory(e.message),
            ShimErrorKind::UnsupportedType => RuntimeError::UnsupportedElementType(e.message),
            _ => RuntimeError::Iree(e.message),
        }
    }
}

pub type Result<T> = std::result::Result<T, RuntimeError>;

/// Number of shim handles (instances, sessions, functions, buffers, errors)
/// alive in this process; a diagnostic for leak tests.
pub fn live_handles() -> i64 {
    sys::live_handles()
}

/// Version of the IREE runtime this binary was built with.
pub fn runtime_version() -> String {
    sys::runtime_version()
}

/// Number types that can live in a device buffer.
pub trait Element: bytemuck::Pod {
    const DTYPE: DType;
}
impl Element for f32 {
    const DTYPE: DType = DType::F32;
}
impl Element for half::f16 {
    const DTYPE: DType = DType::F16;
}
impl Element for half::bf16 {
    const DTYPE: DType = DType::BF16;
}
impl Element for i32 {
    const DTYPE: DType = DType::I32;
}

/// The IREE runtime instance: the drivers compiled into this build. Cheap to
/// clone; create one per process.
#[derive(Clone)]
pub struct Instance {
    raw: Arc<RawInstance>,
}

/// What `iree-llm devices` reports about one driver.
#[derive(Clone, Debug)]
pub struct DriverReport {
    pub driver: String,
    /// `(path, name)` of each device the driver sees.
    pub devices: Vec<(String, String)>,
    /// `Ok` if the default device opened, else the reason.
    pub open: std::result::Result<(), String>,
}

impl Instance {
    /// The process's runtime instance: the live one if there is one, else a
    /// new one. Creating an IREE instance registers HAL types in
    /// process-wide state, which races with calls running on another
    /// instance (seen as "ref type mismatch" errors), so one is shared.
    pub fn new() -> Result<Self> {
        static LIVE: std::sync::Mutex<std::sync::Weak<RawInstance>> =
            std::sync::Mutex::new(std::sync::Weak::new());
        let mut live = LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(raw) = live.upgrade() {
            return Ok(Instance { raw });
        }
        // Before any module runs: kernels built for AMX fault without it.
        cpu_tiles();
        sys::set_task_worker_spin_us(worker_spin_us_from_env()).map_err(RuntimeError::from_shim)?;
        sys::set_batch_calls(batch_calls(
            std::env::var("IREE_LLM_CALLER_SCHED").ok().as_deref(),
        ));
        // For tuning a driver (e.g. `--cuda_use_streams=false`): IREE's own
        // runtime flags, as its tools take them.
        if let Ok(flags) = std::env::var("IREE_LLM_RUNTIME_FLAGS") {
            sys::set_runtime_flags(&flags).map_err(|mut e| {
                e.message = format!("IREE_LLM_RUNTIME_FLAGS={flags:?}: {}", e.message);
                RuntimeError::from_shim(e)
            })?;
        }
        let raw = Arc::new(RawInstance::create().map_err(RuntimeError::from_shim)?);
        *live = Arc::downgrade(&raw);
        Ok(Instance { raw })
    }

    /// Names of the HAL drivers compiled in (e.g. `local-sync`, `local-task`, `cuda`).
    pub fn drivers(&self) -> Vec<String> {
        self.raw.driver_names()
    }

    /// Probes every compiled-in driver: the devices it sees and whether its
    /// default device can be opened now.
    pub fn probe(&self) -> Vec<DriverReport> {
        self.drivers()
            .into_iter()
            .map(|driver| {
                let devices = self.raw.query_devices(&driver).unwrap_or_default();
                let open = self
                    .raw
                    .create_session(&driver)
                    .map(drop)
                    .map_err(|e| e.message);
                DriverReport {
                    driver,
                    devices,
                    open,
                }
            })
            .collect()
    }

    /// Opens a session on `device`.
    pub fn open(&self, device: &DeviceUri) -> Result<Session> {
        let compiled = self.drivers();
        let driver = device.driver();
        if !compiled.iter().any(|d| d == driver) {
            let hint = match driver {
                "cuda" => "Rebuild with `cargo build --release --features cuda` (see README).",
                "metal" => "The Metal driver is built only on macOS on Apple silicon.",
                _ => "Use one of the compiled-in drivers.",
            };
            return Err(RuntimeError::DriverNotCompiled {
                driver: driver.to_string(),
                compiled: compiled.join(", "),
                hint,
            });
        }
        let raw = self.raw.create_session(device.as_str()).map_err(|e| {
            let hint = match device.driver() {
                "cuda" => {
                    "Is an NVIDIA GPU with its driver (libcuda.so) present? `iree-llm devices` \
                           shows what can be opened; use --device local-task to run on the CPU."
                        .to_string()
                }
                "metal" => "Is this a Mac with a Metal GPU?".to_string(),
                _ => "`iree-llm devices` shows what can be opened.".to_string(),
            };
            RuntimeError::DeviceUnavailable {
                uri: device.to_string(),
                message: e.message,
                hint,
            }
        })?;
        Ok(Session {
            raw: Arc::new(raw),
            device: device.clone(),
            modules: Vec::new(),
            clock: HostClock::default(),
            _instance: self.clone(),
            _not_sync: PhantomData,
        })
    }
}

/// One device and the modules loaded on it. A session is used from one
/// thread at a time (it is `Send` but not `Sync`).
pub struct Session {
    raw: Arc<RawSession>,
    device: DeviceUri,
    modules: Vec<PathBuf>,
    clock: HostClock,
    _instance: Instance,
    _not_sync: PhantomData<Cell<()>>,
}

/// A dense row-major tensor resident on the device.
pub struct Buffer {
    raw: RawBuffer,
    // Declared after `raw` so the buffer is released before the session.
    session: Arc<RawSession>,
}

/// A function resolved in a session's loaded modules.
pub struct Function {
    raw: RawFunction,
    name: String,
    session: Arc<RawSession>,
}

impl Session {
    pub fn device(&self) -> &DeviceUri {
        &self.device
    }

    /// How long this session's uploads, calls, read-backs, writes and
    /// copies have held the calling thread so far, by kind.
    pub fn host_times(&self) -> HostTimes {
        self.clock.totals()
    }

    /// Loads a compiled `.vmfb` module.
    pub fn load_module(&mut self, path: &Path) -> Result<()> {
        let text = path.to_str().ok_or_else(|| {
            RuntimeError::InvalidArgument(format!("module path {} is not UTF-8", path.display()))
        })?;
        self.raw.load_module(text).map_err(|e| match e.kind {
            ShimErrorKind::NotFound => RuntimeError::ModuleNotFound {
                path: path.to_path_buf(),
            },
            ShimErrorKind::Incompatible => RuntimeError::IncompatibleModule {
                path: path.to_path_buf(),
                message: e.message,
                runtime: runtime_version(),
            },
            _ => RuntimeError::from_shim(e),
        })?;
        self.modules.push(path.to_path_buf());
        Ok(())
    }

    /// Resolves `module.function`.
    pub fn function(&self, name: &str) -> Result<Function> {
        let raw = self.raw.lookup(name).map_err(|e| match e.kind {
            ShimErrorKind::NotFound => RuntimeError::FunctionNotFound {
                name: name.to_string(),
                message: e.message,
            },
            _ => RuntimeError::from_shim(e),
        })?;
        Ok(Function {
            raw,
            name: name.to_string(),
            session: self.raw.clone(),
        })
    }

    fn wrap(&self, raw: RawBuffer) -> Buffer {
        Buffer {
            raw,
            session: self.raw.clone(),
        }
    }

    fn owns(&self, session: &Arc<RawSession>) -> Result<()> {
        if Arc::ptr_eq(&self.raw, session) {
            Ok(())
        } else {
            Err(RuntimeError::ForeignHandle)
        }
    }

    /// Copies a host array to a new device buffer of the given shape.
    pub fn upload<T: Element>(&self, shape: &[i64], data: &[T]) -> Result<Buffer> {
        self.upload_bytes(T::DTYPE, shape, bytemuck::cast_slice(data))
    }

    /// Copies raw little-endian bytes of `dtype` elements to a new device buffer.
    pub fn upload_bytes(&self, dtype: DType, shape: &[i64], bytes: &[u8]) -> Result<Buffer> {
        let raw = self
            .clock
            .time(HostOp::Upload, || self.raw.upload(dtype, shape, bytes))
            .map_err(RuntimeError::from_shim)?;
        Ok(self.wrap(raw))
    }

    /// A new zero-filled device buffer.
    pub fn zeros(&self, dtype: DType, shape: &[i64]) -> Result<Buffer> {
        let raw = self
            .raw
            .zeros(dtype, shape)
            .map_err(RuntimeError::from_shim)?;
        Ok(self.wrap(raw))
    }

    /// Reads a whole buffer back to the host.
    pub fn read<T: Element>(&self, buffer: &Buffer) -> Result<Vec<T>> {
        self.check_dtype::<T>(buffer)?;
        let mut out = vec![T::zeroed(); buffer.raw.byte_length() / T::DTYPE.size_bytes()];
        self.read_into(buffer, 0, &mut out)?;
        Ok(out)
    }

    /// Reads `target.len()` elements starting at element `offset`.
    pub fn read_into<T: Element>(
        &self,
        buffer: &Buffer,
        offset: usize,
        target: &mut [T],
    ) -> Result<()> {
        self.owns(&buffer.session)?;
        self.check_dtype::<T>(buffer)?;
        let target = bytemuck::cast_slice_mut(target);
        self.clock
            .time(HostOp::Read, || {
                self.raw
                    .read(&buffer.raw, offset * T::DTYPE.size_bytes(), target)
            })
            .map_err(RuntimeError::from_shim)
    }

    /// Overwrites elements starting at element `offset` with `source`.
    pub fn write<T: Element>(
        &self,
        buffer: &mut Buffer,
        offset: usize,
        source: &[T],
    ) -> Result<()> {
        self.owns(&buffer.session)?;
        self.check_dtype::<T>(buffer)?;
        let source = bytemuck::cast_slice(source);
        self.clock
            .time(HostOp::Write, || {
                self.raw
                    .write(&buffer.raw, offset * T::DTYPE.size_bytes(), source)
            })
            .map_err(RuntimeError::from_shim)
    }

    /// Copies `source` into `target` on the device, never through the host.
    /// Both must have the same shape and element type.
    pub fn copy(&self, source: &Buffer, target: &mut Buffer) -> Result<()> {
        self.owns(&source.session)?;
        self.owns(&target.session)?;
        if source.dtype() != target.dtype() || source.shape() != target.shape() {
            return Err(RuntimeError::InvalidArgument(format!(
                "cannot copy a {:?} {:?} buffer into a {:?} {:?} one",
                source.dtype(),
                source.shape(),
                target.dtype(),
                target.shape()
            )));
        }
        let bytes = source.byte_length();
        self.clock
            .time(HostOp::Copy, || {
                self.raw.copy(&source.raw, 0, &target.raw, 0, bytes)
            })
            .map_err(RuntimeError::from_shim)
    }

    /// Copies `len` elements at element `from` of `buffer` to element `to`
    /// of the same buffer, on the device. The ranges must not overlap.
    pub fn copy_within(
        &self,
        buffer: &mut Buffer,
        from: usize,
        to: usize,
        len: usize,
    ) -> Result<()> {
        self.owns(&buffer.session)?;
        let size = buffer.dtype().size_bytes();
        self.clock
            .time(HostOp::Copy, || {
                self.raw
                    .copy(&buffer.raw, from * size, &buffer.raw, to * size, len * size)
            })
            .map_err(RuntimeError::from_shim)
    }

    fn check_dtype<T: Element>(&self, buffer: &Buffer) -> Result<()> {
        if buffer.dtype() == T::DTYPE {
            Ok(())
        } else {
            Err(RuntimeError::InvalidArgument(format!(
                "buffer holds {:?} elements, not {:?}",
                buffer.dtype(),
                T::DTYPE
            )))
        }
    }

    /// Calls `function` synchronously. Outputs stay on the device. A result
    /// the compiler aliased to an input (`tf.aliasing_output`) shares that
    /// input's storage, so state updated in place keeps its device buffer.
    pub fn call(&self, function: &Function, inputs: &[&Buffer]) -> Result<Vec<Buffer>> {
        self.owns(&function.session)?;
        for input in inputs {
            self.owns(&input.session)?;
        }
        let raw_inputs: Vec<&RawBuffer> = inputs.iter().map(|b| &b.raw).collect();
        let outputs = self
            .clock
            .time(HostOp::Call, || self.raw.call(&function.raw, &raw_inputs))
            .map_err(RuntimeError::from_shim)?;
        Ok(outputs.into_iter().map(|raw| self.wrap(raw)).collect())
    }
}

impl Buffer {
    pub fn dtype(&self) -> DType {
        self.raw.dtype()
    }

    pub fn shape(&self) -> Vec<i64> {
        self.raw.shape()
    }

    pub fn byte_length(&self) -> usize {
        self.raw.byte_length()
    }

    /// Identity of the device allocation behind this buffer; equal ids mean
    /// shared storage.
    pub fn storage_id(&self) -> u64 {
        self.raw.storage_id()
    }
}

impl std::fmt::Debug for Buffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Buffer({:?} {:?})", self.dtype(), self.shape())
    }
}

impl Function {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn result_count(&self) -> usize {
        self.raw.result_count()
    }
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Function({})", self.name)
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Session({}, {} modules)",
            self.device,
            self.modules.len()
        )
    }
}

/// Whether this process may run AMX tile instructions: the CPU has them and
/// Linux granted the process their state (asked once, here, for every
/// thread; runtime instances ask too before any module runs). Graphs link
/// kernels that use the tiles only where this is true.
pub fn cpu_tiles() -> bool {
    static GRANTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *GRANTED.get_or_init(sys::request_cpu_tiles)
}

/// How long local-task workers spin for more work before they sleep, unless
/// `IREE_LLM_WORKER_SPIN_US` says otherwise. IREE's default is 0 (sleep at
/// once); on the 2-core Zen 5 VM of this project a SmolLM2 B=1 step then
/// took 8.00 ms in 5 of 8 graph-bench runs and 3.8-4.0 ms in the others (a
/// sleeping worker seems to wake on the kernel's 4 ms tick), against
/// 3.97-4.11 ms in all 10 runs with 20 us (docs/performance.md). Longer
/// spins bought nothing.
pub const DEFAULT_WORKER_SPIN_US: i32 = 20;

/// Whether `IREE_LLM_CALLER_SCHED`'s value asks for calls made under
/// `SCHED_BATCH` (Linux): `batch`, the default, does; `normal` leaves the
/// calling thread's policy alone; anything else is warned about and taken
/// as unset. A call ends in IREE's semaphore wait, which, once woken, spins
/// until the worker that woke it has finished its callback. With no idle
/// core the woken caller lands on that worker's core and, under the default
/// policy, preempts it and spins out its time slice; a `SCHED_BATCH` thread
/// does not preempt when it wakes. On the 2-core Zen 5 VM a SmolLM2 B=8
/// call's mean wait was 0.8-1.8 ms shorter so (docs/performance.md). The
/// policy is set for the call only, so threads the caller starts later (a
/// device's workers) keep the default.
fn batch_calls(value: Option<&str>) -> bool {
    match value.map(str::trim) {
        None | Some("batch") => true,
        Some("normal") => false,
        Some(other) => {
            tracing::warn!("IREE_LLM_CALLER_SCHED={other:?}: use batch or normal; using batch");
            true
        }
    }
}

/// `IREE_LLM_WORKER_SPIN_US`: how long (microseconds) each local-task worker
/// spins for more work before it sleeps, IREE's `--task_worker_spin_us`.
fn worker_spin_us_from_env() -> i32 {
    worker_spin_us(std::env::var("IREE_LLM_WORKER_SPIN_US").ok().as_deref())
}

/// The spin time a setting asks for: a whole number of 0 or more, or
/// [`DEFAULT_WORKER_SPIN_US`] when unset or not such a number (with a
/// warning).
fn worker_spin_us(value: Option<&str>) -> i32 {
    let Some(value) = value else {
        return DEFAULT_WORKER_SPIN_US;
    };
    match value.trim().parse::<i32>() {
        Ok(us) if us >= 0 => us,
        _ => {
            tracing::warn!(
                "IREE_LLM_WORKER_SPIN_US={value:?} is not a number of microseconds (0 or more); \
                 using {DEFAULT_WORKER_SPIN_US}"
            );
            DEFAULT_WORKER_SPIN_US
        }
    }
}

#[cfg(test)]
mod spin_tests {
    use super::*;

    #[test]
    fn runtime_flags_are_passed_to_iree_and_an_unknown_one_is_an_error() {
        // The value iree-llm sets anyway, so other tests see no change.
        let ours = format!("--task_worker_spin_us={DEFAULT_WORKER_SPIN_US}");
        sys::set_runtime_flags(&ours).unwrap();
        sys::set_runtime_flags("").unwrap();
        let err = sys::set_runtime_flags("--no_such_iree_flag=1").unwrap_err();
        assert!(err.message.contains("no_such_iree_flag"), "{}", err.message);
    }

    #[test]
    fn the_worker_spin_is_the_default_unless_a_whole_number_of_microseconds_is_given() {
        assert_eq!(worker_spin_us(None), DEFAULT_WORKER_SPIN_US);
        assert_eq!(worker_spin_us(Some("0")), 0);
        assert_eq!(worker_spin_us(Some(" 150 ")), 150);
        for bad in ["-1", "fast", "1.5", ""] {
            assert_eq!(worker_spin_us(Some(bad)), DEFAULT_WORKER_SPIN_US, "{bad}");
        }
    }

    #[test]
    fn calls_are_batch_scheduled_unless_normal_is_asked_for() {
        assert!(batch_calls(None));
        assert!(batch_calls(Some("batch")));
        assert!(batch_calls(Some(" batch ")));
        assert!(!batch_calls(Some("normal")));
        assert!(
            batch_calls(Some("fifo")),
            "an unknown value is taken as unset"
        );
    }
}

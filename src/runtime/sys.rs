//! The only place in the crate that touches raw pointers: owned wrappers over
//! the C shim's handles (`csrc/iree_llm_shim.h`), each released exactly once
//! by `Drop`, and shim errors turned into [`ShimError`] values.
#![allow(unsafe_code)]

use std::ffi::{CStr, CString};
use std::ptr::NonNull;
use std::sync::Arc;

#[allow(non_camel_case_types, non_upper_case_globals, dead_code)]
mod bindings {
    include!(concat!(env!("OUT_DIR"), "/shim_bindings.rs"));
}
use bindings as b;

/// Broad class of a shim failure, mirroring `ill_error_kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShimErrorKind {
    Other,
    InvalidArgument,
    NotFound,
    Unavailable,
    OutOfMemory,
    Incompatible,
    UnsupportedType,
}

/// A failure reported by the shim, with IREE's status text.
#[derive(Clone, Debug)]
pub struct ShimError {
    pub kind: ShimErrorKind,
    pub message: String,
}

/// Element types moved between host and device (`ill_dtype`): the crate's
/// one element-type enum, of which `i1` never crosses the shim.
pub use crate::types::DType;

impl DType {
    fn to_raw(self) -> Result<b::ill_dtype::Type, ShimError> {
        match self {
            DType::F32 => Ok(b::ill_dtype::ILL_DTYPE_F32),
            DType::F16 => Ok(b::ill_dtype::ILL_DTYPE_F16),
            DType::BF16 => Ok(b::ill_dtype::ILL_DTYPE_BF16),
            DType::I32 => Ok(b::ill_dtype::ILL_DTYPE_I32),
            DType::I8 => Ok(b::ill_dtype::ILL_DTYPE_I8),
            DType::I1 => Err(ShimError {
                kind: ShimErrorKind::InvalidArgument,
                message: "i1 buffers cannot be moved between host and device; use i32".into(),
            }),
        }
    }

    /// `None` for a code this build does not know, never a guess.
    fn from_raw(raw: b::ill_dtype::Type) -> Option<Self> {
        match raw {
            b::ill_dtype::ILL_DTYPE_F32 => Some(DType::F32),
            b::ill_dtype::ILL_DTYPE_F16 => Some(DType::F16),
            b::ill_dtype::ILL_DTYPE_BF16 => Some(DType::BF16),
            b::ill_dtype::ILL_DTYPE_I32 => Some(DType::I32),
            b::ill_dtype::ILL_DTYPE_I8 => Some(DType::I8),
            _ => None,
        }
    }
}

/// Takes ownership of a shim error pointer; `Ok(())` for null.
fn check(error: *mut b::ill_error) -> Result<(), ShimError> {
    let Some(error) = NonNull::new(error) else {
        return Ok(());
    };
    // SAFETY: a non-null ill_error* is a live error owned by us; its message
    // is a NUL-terminated string valid until ill_error_free.
    let (kind, message) = unsafe {
        let kind = b::ill_error_get_kind(error.as_ptr());
        let message = CStr::from_ptr(b::ill_error_message(error.as_ptr()))
            .to_string_lossy()
            .into_owned();
        b::ill_error_free(error.as_ptr());
        (kind, message)
    };
    let kind = match kind {
        b::ill_error_kind::ILL_ERROR_INVALID_ARGUMENT => ShimErrorKind::InvalidArgument,
        b::ill_error_kind::ILL_ERROR_NOT_FOUND => ShimErrorKind::NotFound,
        b::ill_error_kind::ILL_ERROR_UNAVAILABLE => ShimErrorKind::Unavailable,
        b::ill_error_kind::ILL_ERROR_OUT_OF_MEMORY => ShimErrorKind::OutOfMemory,
        b::ill_error_kind::ILL_ERROR_INCOMPATIBLE => ShimErrorKind::Incompatible,
        b::ill_error_kind::ILL_ERROR_UNSUPPORTED_TYPE => ShimErrorKind::UnsupportedType,
        _ => ShimErrorKind::Other,
    };
    Err(ShimError { kind, message })
}

fn c_string(s: &str) -> Result<CString, ShimError> {
    CString::new(s).map_err(|_| ShimError {
        kind: ShimErrorKind::InvalidArgument,
        message: format!("{s:?} contains a NUL byte"),
    })
}

/// Builds a handle from an out-parameter the shim promised to set on success.
fn non_null<T>(ptr: *mut T, what: &str) -> Result<NonNull<T>, ShimError> {
    NonNull::new(ptr).ok_or_else(|| ShimError {
        kind: ShimErrorKind::Other,
        message: format!("the shim returned success but no {what}"),
    })
}

/// The IREE runtime version the shim was built against.
pub fn runtime_version() -> String {
    // SAFETY: returns a pointer to a static NUL-terminated string.
    unsafe { CStr::from_ptr(b::ill_runtime_version()) }
        .to_string_lossy()
        .into_owned()
}

// ---- instance ----------------------------------------------------------------

pub struct RawInstance(NonNull<b::ill_instance>);

/// Held while an IREE runtime instance is created or destroyed: both touch
/// process-wide state (HAL type registrations), and a destruction running
/// beside another instance's creation left that instance's calls failing
/// with "ref type mismatch" (seen in the test suite, whose tests run in
/// parallel threads).
static LIFECYCLE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn lifecycle() -> std::sync::MutexGuard<'static, ()> {
    LIFECYCLE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

// SAFETY: IREE runtime instances are thread-safe (documented in
// iree/runtime/instance.h); the shim's driver-name snapshot is immutable.
unsafe impl Send for RawInstance {}
unsafe impl Sync for RawInstance {}

/// How long local-task workers spin for more work before sleeping, for
/// devices opened from now on (process-wide).
pub fn set_task_worker_spin_us(microseconds: i32) -> Result<(), ShimError> {
    // SAFETY: plain value; the shim copies it into IREE's flag storage.
    check(unsafe { b::ill_set_task_worker_spin_us(microseconds) })
}

/// IREE runtime flags (space-separated, e.g. `--cuda_use_streams=false`)
/// for devices opened from now on (process-wide).
pub fn set_runtime_flags(flags: &str) -> Result<(), ShimError> {
    let flags = std::ffi::CString::new(flags).map_err(|_| ShimError {
        kind: ShimErrorKind::InvalidArgument,
        message: "runtime flags contain a NUL byte".into(),
    })?;
    // SAFETY: a valid C string; the shim copies it before parsing.
    check(unsafe { b::ill_set_runtime_flags(flags.as_ptr()) })
}

/// Whether calls run with the calling thread under `SCHED_BATCH` (see
/// `ill_set_batch_calls`), process-wide.
pub fn set_batch_calls(on: bool) {
    // SAFETY: plain value, stored atomically by the shim.
    unsafe { b::ill_set_batch_calls(on.into()) }
}

/// Asks Linux for the AMX tile state for the whole process (see
/// `ill_request_cpu_tiles`); whether it is granted.
pub fn request_cpu_tiles() -> bool {
    // SAFETY: takes nothing, changes only this process's permissions.
    unsafe { b::ill_request_cpu_tiles() == 1 }
}

impl RawInstance {
    pub fn create() -> Result<Self, ShimError> {
        let _serial = lifecycle();
        let mut out = std::ptr::null_mut();
        // SAFETY: out is a valid out-pointer.
        check(unsafe { b::ill_instance_create(&mut out) })?;
        Ok(RawInstance(non_null(out, "instance")?))
    }

    pub fn driver_names(&self) -> Vec<String> {
        // SAFETY: the instance is live; names live as long as the instance
        // and are copied out before returning.
        unsafe {
            let count = b::ill_instance_driver_count(self.0.as_ptr());
            (0..count)
                .filter_map(|i| {
                    let name = b::ill_instance_driver_name(self.0.as_ptr(), i);
                    (!name.is_null()).then(|| CStr::from_ptr(name).to_string_lossy().into_owned())
                })
                .collect()
        }
    }

    /// `(path, name)` of each device `driver` can see now.
    pub fn query_devices(&self, driver: &str) -> Result<Vec<(String, String)>, ShimError> {
        let driver = c_string(driver)?;
        let mut lines = std::ptr::null_mut();
        // SAFETY: valid instance, NUL-terminated driver name, out-pointer.
        check(unsafe {
            b::ill_instance_query_devices(self.0.as_ptr(), driver.as_ptr(), &mut lines)
        })?;
        let lines = non_null(lines, "device list")?;
        // SAFETY: the shim returned a malloc'd NUL-terminated string we own.
        let text = unsafe {
            let text = CStr::from_ptr(lines.as_ptr())
                .to_string_lossy()
                .into_owned();
            b::ill_string_free(lines.as_ptr());
            text
        };
        Ok(text
            .lines()
            .map(|l| {
                let (path, name) = l.split_once('\t').unwrap_or((l, ""));
                (path.to_string(), name.to_string())
            })
            .collect())
    }

    /// A session on the device at `uri`. It keeps the instance alive, so
    /// that the IREE instance is always released by [`RawInstance`]'s drop
    /// (never by a session's, outside [`LIFECYCLE`]).
    pub fn create_session(self: &Arc<Self>, uri: &str) -> Result<RawSession, ShimError> {
        let uri = c_string(uri)?;
        let mut out = std::ptr::null_mut();
        // SAFETY: valid instance and string, out-pointer.
        check(unsafe { b::ill_session_create(self.0.as_ptr(), uri.as_ptr(), &mut out) })?;
        Ok(RawSession(non_null(out, "session")?, Arc::clone(self)))
    }
}

impl Drop for RawInstance {
    fn drop(&mut self) {
        let _serial = lifecycle();
        // SAFETY: we own the only reference; sessions keep their own.
        unsafe { b::ill_instance_release(self.0.as_ptr()) }
    }
}

// ---- session -----------------------------------------------------------------

/// A session and the instance it was created on (released after it).
pub struct RawSession(
    NonNull<b::ill_session>,
    // Held, never read: keeps the instance alive while the session lives.
    #[allow(dead_code)] Arc<RawInstance>,
);

// SAFETY: a session may move between threads; it must not be used from two
// threads at once, which the safe wrapper enforces (its `Session` is !Sync).
// Sync is declared so that buffers can hold the session alive from other
// threads; they only ever drop their reference, never call into it.
unsafe impl Send for RawSession {}
unsafe impl Sync for RawSession {}

impl RawSession {
    pub fn load_module(&self, path: &str) -> Result<(), ShimError> {
        let path = c_string(path)?;
        // SAFETY: valid session and NUL-terminated path.
        check(unsafe { b::ill_session_load_module(self.0.as_ptr(), path.as_ptr()) })
    }

    pub fn lookup(&self, name: &str) -> Result<RawFunction, ShimError> {
        let name = c_string(name)?;
        let mut out = std::ptr::null_mut();
        // SAFETY: valid session and string, out-pointer.
        check(unsafe { b::ill_session_lookup(self.0.as_ptr(), name.as_ptr(), &mut out) })?;
        Ok(RawFunction(non_null(out, "function")?))
    }

    pub fn upload(
        &self,
        dtype: DType,
        shape: &[i64],
        bytes: &[u8],
    ) -> Result<RawBuffer, ShimError> {
        let mut out = std::ptr::null_mut();
        // SAFETY: shape and bytes are valid for their lengths during the call;
        // the shim copies the data.
        check(unsafe {
            b::ill_buffer_upload(
                self.0.as_ptr(),
                dtype.to_raw()?,
                shape.as_ptr(),
                shape.len(),
                bytes.as_ptr().cast(),
                bytes.len(),
                &mut out,
            )
        })?;
        RawBuffer::adopt(out)
    }

    pub fn zeros(&self, dtype: DType, shape: &[i64]) -> Result<RawBuffer, ShimError> {
        let mut out = std::ptr::null_mut();
        // SAFETY: shape is valid for its length during the call.
        check(unsafe {
            b::ill_buffer_zeros(
                self.0.as_ptr(),
                dtype.to_raw()?,
                shape.as_ptr(),
                shape.len(),
                &mut out,
            )
        })?;
        RawBuffer::adopt(out)
    }

    pub fn read(
        &self,
        buffer: &RawBuffer,
        byte_offset: usize,
        target: &mut [u8],
    ) -> Result<(), ShimError> {
        // SAFETY: target is writable for its length; the shim checks the range.
        check(unsafe {
            b::ill_buffer_read(
                self.0.as_ptr(),
                buffer.ptr.as_ptr(),
                byte_offset,
                target.as_mut_ptr().cast(),
                target.len(),
            )
        })
    }

    pub fn write(
        &self,
        buffer: &RawBuffer,
        byte_offset: usize,
        source: &[u8],
    ) -> Result<(), ShimError> {
        // SAFETY: source is readable for its length; the shim checks the range.
        check(unsafe {
            b::ill_buffer_write(
                self.0.as_ptr(),
                buffer.ptr.as_ptr(),
                byte_offset,
                source.as_ptr().cast(),
                source.len(),
            )
        })
    }

    /// Copies `byte_length` bytes between device buffers (possibly the same
    /// one); the shim checks element types, bounds and overlap.
    pub fn copy(
        &self,
        source: &RawBuffer,
        source_offset: usize,
        target: &RawBuffer,
        target_offset: usize,
        byte_length: usize,
    ) -> Result<(), ShimError> {
        // SAFETY: both are live buffers of this process; the shim checks the
        // ranges against their lengths before touching them.
        check(unsafe {
            b::ill_buffer_copy(
                self.0.as_ptr(),
                source.ptr.as_ptr(),
                source_offset,
                target.ptr.as_ptr(),
                target_offset,
                byte_length,
            )
        })
    }

    pub fn call(
        &self,
        function: &RawFunction,
        inputs: &[&RawBuffer],
    ) -> Result<Vec<RawBuffer>, ShimError> {
        let raw_inputs: Vec<*mut b::ill_buffer> = inputs.iter().map(|b| b.ptr.as_ptr()).collect();
        let count = function.result_count();
        let mut outputs: Vec<*mut b::ill_buffer> = vec![std::ptr::null_mut(); count];
        // SAFETY: the input pointers are live buffers borrowed for the call;
        // outputs has room for exactly `count` handles, which the shim fills
        // all-or-none.
        check(unsafe {
            b::ill_call(
                self.0.as_ptr(),
                function.0.as_ptr(),
                raw_inputs.as_ptr(),
                raw_inputs.len(),
                outputs.as_mut_ptr(),
                count,
            )
        })?;
        outputs.into_iter().map(RawBuffer::adopt).collect()
    }
}

impl Drop for RawSession {
    fn drop(&mut self) {
        // SAFETY: last reference (held in an Arc by the safe layer).
        unsafe { b::ill_session_release(self.0.as_ptr()) }
    }
}

// ---- functions and buffers -----------------------------------------------------

pub struct RawFunction(NonNull<b::ill_function>);

// SAFETY: a resolved function is an immutable value (module pointer + ordinal).
unsafe impl Send for RawFunction {}
unsafe impl Sync for RawFunction {}

impl RawFunction {
    pub fn result_count(&self) -> usize {
        // SAFETY: live handle.
        unsafe { b::ill_function_result_count(self.0.as_ptr()) }
    }
}

impl Drop for RawFunction {
    fn drop(&mut self) {
        // SAFETY: owned handle, released once.
        unsafe { b::ill_function_release(self.0.as_ptr()) }
    }
}

pub struct RawBuffer {
    ptr: NonNull<b::ill_buffer>,
    /// Read once when the handle is adopted, so a buffer always has a type.
    dtype: DType,
}

// SAFETY: buffer views are reference-counted IREE objects with atomic
// refcounts; the metadata accessors only read immutable fields.
unsafe impl Send for RawBuffer {}
unsafe impl Sync for RawBuffer {}

impl RawBuffer {
    /// Takes ownership of a buffer the shim handed out. The shim gives out
    /// only buffers of its four element types; a code this build does not
    /// know (a shim newer than these bindings) is refused, not read as F32.
    fn adopt(ptr: *mut b::ill_buffer) -> Result<Self, ShimError> {
        let ptr = non_null(ptr, "buffer")?;
        // SAFETY: live handle, owned from here on.
        let raw = unsafe { b::ill_buffer_dtype(ptr.as_ptr()) };
        match DType::from_raw(raw) {
            Some(dtype) => Ok(RawBuffer { ptr, dtype }),
            None => {
                // SAFETY: owned handle, released once (no RawBuffer was made).
                unsafe { b::ill_buffer_release(ptr.as_ptr()) };
                Err(ShimError {
                    kind: ShimErrorKind::UnsupportedType,
                    message: format!(
                        "the shim returned a buffer of element type code {raw}, which this \
                         build does not know; rebuild iree-llm so the shim and its bindings match"
                    ),
                })
            }
        }
    }

    pub fn dtype(&self) -> DType {
        self.dtype
    }

    pub fn shape(&self) -> Vec<i64> {
        // SAFETY: live handle; indices are below the rank.
        unsafe {
            let rank = b::ill_buffer_rank(self.ptr.as_ptr());
            (0..rank)
                .map(|i| b::ill_buffer_dim(self.ptr.as_ptr(), i))
                .collect()
        }
    }

    pub fn byte_length(&self) -> usize {
        // SAFETY: live handle.
        unsafe { b::ill_buffer_byte_length(self.ptr.as_ptr()) }
    }

    pub fn storage_id(&self) -> u64 {
        // SAFETY: live handle.
        unsafe { b::ill_buffer_storage_id(self.ptr.as_ptr()) }
    }
}

impl Drop for RawBuffer {
    fn drop(&mut self) {
        // SAFETY: owned handle, released once.
        unsafe { b::ill_buffer_release(self.ptr.as_ptr()) }
    }
}

/// Shim handles alive in this process (see `ill_live_handles`).
pub fn live_handles() -> i64 {
    // SAFETY: reads an atomic counter.
    unsafe { b::ill_live_handles() }
}

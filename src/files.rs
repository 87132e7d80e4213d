//! Files that several threads or processes may write at once (the module
//! cache, the kernel object, synthesized presets): each writer works under a
//! name of its own and renames into place, so no reader ever sees half a
//! file and no writer moves another's.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// A suffix no other call in any process on this machine gets: the process
/// id and a per-process count (threads of one process write at once too).
pub fn unique_suffix() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// Writes `bytes` to `path` through a private file in the same directory.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(format!(".{}.partial", unique_suffix()));
    std::fs::write(&partial, bytes)?;
    std::fs::rename(&partial, path)
}

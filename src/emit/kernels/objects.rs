//! The kernel objects: which compiled C file a graph links for this CPU,
//! the name that carries a hash of its bytes, and writing the objects where
//! iree-compile looks for them.
//!
//! build.rs compiles each file of `csrc/kernels/` freestanding into OUT_DIR;
//! the bytes are embedded in this binary. An object's file name carries a
//! hash of its bytes, so an MLIR text that names it names exactly those
//! bytes, and the module cache (keyed by a hash of the text) can never pair
//! a module with another build's kernel.

use std::path::Path;
use std::sync::LazyLock;

use sha2::{Digest, Sha256};

/// The bytes of a kernel object that build.rs wrote into OUT_DIR, in builds
/// that have the kernels (x86-64 targets).
macro_rules! kernel_object {
    ($file:literal) => {{
        #[cfg(iree_llm_x86_64_kernels)]
        let bytes: Option<&[u8]> = Some(include_bytes!(concat!(env!("OUT_DIR"), "/", $file)));
        #[cfg(not(iree_llm_x86_64_kernels))]
        let bytes: Option<&[u8]> = None;
        bytes
    }};
}

pub(super) const OBJECT: Option<&[u8]> = kernel_object!("x86_64_kernels.o");
const AVX512_OBJECT: Option<&[u8]> = kernel_object!("x86_64_avx512_kernels.o");
pub(super) const BF16_OBJECT: Option<&[u8]> = kernel_object!("x86_64_avx512_bf16_kernels.o");
const AMX_BF16_OBJECT: Option<&[u8]> = kernel_object!("x86_64_amx_bf16_kernels.o");
const VNNI_OBJECT: Option<&[u8]> = kernel_object!("x86_64_avx512_vnni_kernels.o");
const AVX2_Q8_OBJECT: Option<&[u8]> = kernel_object!("x86_64_avx2_q8_kernels.o");
const ATTENTION_OBJECT: Option<&[u8]> = kernel_object!("x86_64_attention_kernels.o");
const AVX512_ATTENTION_OBJECT: Option<&[u8]> = kernel_object!("x86_64_avx512_attention_kernels.o");

/// The kernel objects: `x86_64_matmul.c` built twice, for AVX2 and for AVX-512
/// (the same exact products in vectors twice as wide), the AVX512-BF16 one that
/// only [`Kernels::X86_64Bf16`](super::Kernels::X86_64Bf16)'s graphs call
/// (built a second time with its panel products in AMX tiles, for CPUs with
/// AMX-BF16), the
/// AVX512-VNNI one and its AVX2 twin (the same exports and results) that only
/// [`Kernels::X86_64Q8`](super::Kernels::X86_64Q8)'s graphs call, and the
/// decode attention, built for AVX2 and AVX-512 like the exact kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Object {
    Avx2,
    Avx512,
    Avx512Bf16,
    AmxBf16,
    Avx512Vnni,
    Avx2Q8,
    Attention,
    Avx512Attention,
}

impl Object {
    pub(super) const ALL: [Object; 8] = [
        Object::Avx2,
        Object::Avx512,
        Object::Avx512Bf16,
        Object::AmxBf16,
        Object::Avx512Vnni,
        Object::Avx2Q8,
        Object::Attention,
        Object::Avx512Attention,
    ];

    /// The build of the exact kernels (`x86_64_matmul.c`) for this host:
    /// AVX-512 where the CPU has it, since a one-row block product is bound
    /// by vector instructions (docs/performance.md: 1.4x on Zen 5), else
    /// AVX2.
    pub(super) fn exact_for_host() -> Object {
        if AVX512_OBJECT.is_some() && host_has_avx512() {
            Object::Avx512
        } else {
            Object::Avx2
        }
    }

    /// The build of the bf16 form's kernels for this host: the AMX one where
    /// the CPU has AMX-BF16 and this process may use the tiles
    /// ([`crate::runtime::cpu_tiles`]), unless `IREE_LLM_AMX=off` asks for
    /// the vector kernels (to compare the two); else the AVX512-BF16 one.
    pub(super) fn bf16_for_host() -> Object {
        let off = std::env::var("IREE_LLM_AMX").is_ok_and(|v| v == "off" || v == "0");
        if AMX_BF16_OBJECT.is_some() && !off && host_has_amx_bf16() && crate::runtime::cpu_tiles() {
            Object::AmxBf16
        } else {
            Object::Avx512Bf16
        }
    }

    /// The build of the 8-bit form's packed product for this host: the
    /// AVX512-VNNI kernel where the CPU has it, else its AVX2 twin.
    pub(super) fn q8_for_host() -> Object {
        if q8_rows_through_vnni() {
            Object::Avx512Vnni
        } else {
            Object::Avx2Q8
        }
    }

    pub(super) fn bytes(self) -> Option<&'static [u8]> {
        match self {
            Object::Avx2 => OBJECT,
            Object::Avx512 => AVX512_OBJECT,
            Object::Avx512Bf16 => BF16_OBJECT,
            Object::AmxBf16 => AMX_BF16_OBJECT,
            Object::Avx512Vnni => VNNI_OBJECT,
            Object::Avx2Q8 => AVX2_Q8_OBJECT,
            Object::Attention => ATTENTION_OBJECT,
            Object::Avx512Attention => AVX512_ATTENTION_OBJECT,
        }
    }

    pub(super) fn name(self) -> Option<&'static str> {
        match self {
            Object::Avx2 => OBJECT_NAME.as_deref(),
            Object::Avx512 => AVX512_OBJECT_NAME.as_deref(),
            Object::Avx512Bf16 => BF16_OBJECT_NAME.as_deref(),
            Object::AmxBf16 => AMX_BF16_OBJECT_NAME.as_deref(),
            Object::Avx512Vnni => VNNI_OBJECT_NAME.as_deref(),
            Object::Avx2Q8 => AVX2_Q8_OBJECT_NAME.as_deref(),
            Object::Attention => ATTENTION_OBJECT_NAME.as_deref(),
            Object::Avx512Attention => AVX512_ATTENTION_OBJECT_NAME.as_deref(),
        }
    }
}

pub(super) fn host_has_avx2_fma_f16c() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("fma")
            && std::is_x86_feature_detected!("f16c")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// What the AVX-512 build of the exact kernels needs (its compile flags).
pub(super) fn host_has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        host_has_avx2_fma_f16c()
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

pub(super) fn host_has_avx512_bf16() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        host_has_avx512() && std::is_x86_feature_detected!("avx512bf16")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// What `x86_64_amx_bf16.c` needs of the CPU: AVX512-BF16 and AMX's tiles
/// with their bf16 products (CPUID leaf 7: EDX bits 22 and 24). Whether
/// Linux lets this process use them is [`crate::runtime::cpu_tiles`].
pub(super) fn host_has_amx_bf16() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let leaf7 = std::arch::x86_64::__cpuid_count(7, 0);
        host_has_avx512_bf16() && (leaf7.edx >> 22) & 1 == 1 && (leaf7.edx >> 24) & 1 == 1
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// What `x86_64_avx512_vnni.c` needs (its compile flags).
pub(super) fn host_has_avx512_vnni() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        host_has_avx512() && std::is_x86_feature_detected!("avx512vnni")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether [`Kernels::X86_64Q8`](super::Kernels::X86_64Q8) graphs emitted here
/// multiply block weights through the AVX512-VNNI kernel: this build has it and
/// this CPU runs it (modules are compiled for the host CPU anyway).
pub fn q8_rows_through_vnni() -> bool {
    VNNI_OBJECT.is_some() && host_has_avx512_vnni()
}

/// `{stem}-{first 8 bytes of the object's sha256}.o`.
fn object_name(stem: &str, bytes: Option<&[u8]>) -> Option<String> {
    bytes.map(|bytes| {
        let digest = Sha256::digest(bytes);
        let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        format!("{stem}-{hex}.o")
    })
}

static OBJECT_NAME: LazyLock<Option<String>> =
    LazyLock::new(|| object_name("iree-llm-x86_64-kernels", OBJECT));
static AVX512_OBJECT_NAME: LazyLock<Option<String>> =
    LazyLock::new(|| object_name("iree-llm-x86_64-avx512-kernels", AVX512_OBJECT));
static BF16_OBJECT_NAME: LazyLock<Option<String>> =
    LazyLock::new(|| object_name("iree-llm-x86_64-avx512-bf16-kernels", BF16_OBJECT));
static AMX_BF16_OBJECT_NAME: LazyLock<Option<String>> =
    LazyLock::new(|| object_name("iree-llm-x86_64-amx-bf16-kernels", AMX_BF16_OBJECT));
static VNNI_OBJECT_NAME: LazyLock<Option<String>> =
    LazyLock::new(|| object_name("iree-llm-x86_64-avx512-vnni-kernels", VNNI_OBJECT));
static AVX2_Q8_OBJECT_NAME: LazyLock<Option<String>> =
    LazyLock::new(|| object_name("iree-llm-x86_64-avx2-q8-kernels", AVX2_Q8_OBJECT));
static ATTENTION_OBJECT_NAME: LazyLock<Option<String>> =
    LazyLock::new(|| object_name("iree-llm-x86_64-attention-kernels", ATTENTION_OBJECT));
static AVX512_ATTENTION_OBJECT_NAME: LazyLock<Option<String>> = LazyLock::new(|| {
    object_name(
        "iree-llm-x86_64-avx512-attention-kernels",
        AVX512_ATTENTION_OBJECT,
    )
});

/// Writes the kernel objects into `dir` under the names the graphs use,
/// unless they are there already; iree-compile finds them there when `dir`
/// is on its object search path (`compile::Compiler` puts the input's
/// directory there).
pub fn write_objects(dir: &Path) -> std::io::Result<()> {
    for object in Object::ALL {
        let (Some(bytes), Some(name)) = (object.bytes(), object.name()) else {
            return Err(std::io::Error::other(
                "this build of iree-llm has no x86-64 kernels (built for another architecture)",
            ));
        };
        let path = dir.join(name);
        if std::fs::read(&path).is_ok_and(|have| have == bytes) {
            continue;
        }
        // Parallel compiles (threads and processes) write it at once.
        crate::files::write_atomically(&path, bytes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX-512 build is taken exactly where the CPU has AVX-512 F, BW
    /// and VL (what build.rs compiles it for).
    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn the_exact_kernels_are_built_for_the_widest_vectors_this_cpu_has() {
        let expected = if host_has_avx512() {
            Object::Avx512
        } else {
            Object::Avx2
        };
        assert_eq!(Object::exact_for_host(), expected);
    }

    /// Parallel compiles in one process write the object into a fresh
    /// cache at once; each must succeed (a fresh clone's test run once
    /// failed here when the threads shared one partial file).
    #[cfg(iree_llm_x86_64_kernels)]
    #[test]
    fn threads_writing_the_object_at_once_all_succeed() {
        for _ in 0..20 {
            let dir = tempfile::tempdir().unwrap();
            std::thread::scope(|s| {
                let writers: Vec<_> = (0..8)
                    .map(|_| s.spawn(|| write_objects(dir.path())))
                    .collect();
                for w in writers {
                    w.join().unwrap().unwrap();
                }
            });
            let names = std::fs::read_dir(dir.path()).unwrap().count();
            assert_eq!(names, Object::ALL.len(), "only the objects remain");
        }
    }
}

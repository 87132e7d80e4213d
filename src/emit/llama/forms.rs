//! How the graphs write a product of a few rows and of many by a weight
//! ([`NarrowRows`], [`WideRows`]), each target's measured form, and the
//! environment variables that override it on a GPU for measuring: settings
//! that [`super::GraphConfig`] carries, apart from the graphs that read them.

/// How `x @ w^T` is written when `x` has at most 8 rows (every decode step):
/// the shape decides which of IREE's code-generation pipelines takes the
/// product, and the best one differs between CPU and GPU.
///
/// Measured on an H200 (CUDA, sm_80 PTX; 1B preset, bf16 weights, context
/// 256, median ms per decode step of B = 1 / 4 / 8, one run, forms side by
/// side; docs/performance.md): padded 24.6 / 25.1 / 25.5, plain 40.4 / 12.7
/// / 25.1, transposed 11.4 / 12.1 / 36.4, reduce 11.6 / 12.5 / 16.7. IREE
/// 3.13 gives an 8-row contraction 64-thread workgroups of 8x8 outputs,
/// which read the weights far below the GPU's bandwidth; the reduction form
/// becomes one reduction over k per output instead, still far below it, so
/// CUDA graphs call a hand-written kernel (`CudaKernel`).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum NarrowRows {
    /// Fewer than 8 rows padded with zero rows to 8: IREE 3.13's CPU code
    /// for narrow contractions is slow (see `linear_dense`).
    #[default]
    PadTo8,
    /// The rows as they are: one row is a matrix-vector product.
    Plain,
    /// `w @ x^T`, transposed back: the weight's rows are the product's
    /// leading (parallel) dimension.
    Transposed,
    /// `sum_k x[m, k] * w[n, k]` written as a multiply and a reduction
    /// (IREE fuses the two, and the widening of bf16 weights, into one
    /// dispatch): the fastest of IREE's own forms on CUDA at every batch
    /// measured.
    Reduce,
    /// A bf16 weight times f32 rows through the hand-written CUDA kernel
    /// ([`crate::emit::cuda_rows`]), CUDA's default; other weights take the
    /// `Reduce` form. Only graphs for CUDA may use it. On an H100 the 1B
    /// preset's decode graph took 11.9 / 16.0 ms a call at B = 1 / 8
    /// (`iree-benchmark-module`) against 14.1 / 17.1 with the kernel's
    /// first version, which itself beat `Reduce` (graph-bench at context
    /// 256, B = 1 / 4 / 8: 9.9 / 11.1 / 12.5 ms against 10.1 / 13.0 / 16.2;
    /// docs/performance.md).
    CudaKernel,
}

impl NarrowRows {
    pub fn is_padded(&self) -> bool {
        *self == NarrowRows::PadTo8
    }

    /// The form for graphs compiled for `kind`: padded on the CPU, the
    /// kernel on CUDA, padded on Metal (not measured there: no Mac).
    /// `$IREE_LLM_GPU_NARROW_ROWS` (pad-to8, plain, transposed, reduce or,
    /// on CUDA, cuda-kernel) overrides it for a GPU, for measuring.
    pub fn for_target(kind: crate::types::DeviceKind) -> Self {
        use crate::types::DeviceKind;
        let measured = match kind {
            DeviceKind::Cpu => return NarrowRows::PadTo8,
            DeviceKind::Cuda => NarrowRows::CudaKernel,
            DeviceKind::Metal => NarrowRows::PadTo8,
        };
        let mut forms = vec![
            ("pad-to8", NarrowRows::PadTo8),
            ("plain", NarrowRows::Plain),
            ("transposed", NarrowRows::Transposed),
            ("reduce", NarrowRows::Reduce),
        ];
        if kind == DeviceKind::Cuda {
            forms.push(("cuda-kernel", NarrowRows::CudaKernel));
        }
        gpu_form_from_env("IREE_LLM_GPU_NARROW_ROWS", measured, &forms)
    }
}

/// The form `$var` names among `forms`, else `measured` (see [`pick_form`]).
pub(in crate::emit) fn gpu_form_from_env<T: Copy + std::fmt::Debug>(
    var: &str,
    measured: T,
    forms: &[(&str, T)],
) -> T {
    pick_form(var, std::env::var(var).ok().as_deref(), measured, forms)
}

/// The form `name` (the value of `$var`) names among `forms`; `measured`
/// when it is unset, or when it names none of them (with a warning).
fn pick_form<T: Copy + std::fmt::Debug>(
    var: &str,
    name: Option<&str>,
    measured: T,
    forms: &[(&str, T)],
) -> T {
    let Some(name) = name else {
        return measured;
    };
    match forms.iter().find(|(n, _)| *n == name) {
        Some(&(_, form)) => form,
        None => {
            let names: Vec<&str> = forms.iter().map(|(n, _)| *n).collect();
            tracing::warn!(
                "{var}={name} is not one of {}; using {measured:?}",
                names.join(", ")
            );
            measured
        }
    }
}

/// How `x @ w^T` is written for a bf16 weight when `x` has more than 8 rows
/// (prompts and chunks).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum WideRows {
    /// One f32 contraction of the widened weight (the CPU's; its own
    /// kernels take over where it has them).
    #[default]
    F32,
    /// Three contractions of bf16 operands stacked into one, as exact as
    /// f32 (see `bf16_terms_product`): IREE 3.13 runs bf16 contractions on
    /// CUDA's matrix units and f32 ones without them.
    Bf16Terms,
    /// The rows rounded to bf16 (to nearest, ties to even) and one bf16
    /// contraction accumulated in f32: PyTorch's precision for a bf16
    /// model, a third of the terms' work, not exact. Opt-in on a GPU
    /// (`IREE_LLM_GPU_WIDE_ROWS=bf16`); docs/performance.md gives its
    /// measured error.
    Bf16,
}

impl WideRows {
    pub fn is_f32(&self) -> bool {
        *self == WideRows::F32
    }

    /// The form for graphs compiled for `kind`: three bf16 terms on CUDA,
    /// f32 elsewhere. `$IREE_LLM_GPU_WIDE_ROWS` (f32, bf16-terms or bf16)
    /// overrides it for a GPU: bf16 to trade exactness for speed, the
    /// others for measuring.
    pub fn for_target(kind: crate::types::DeviceKind) -> Self {
        use crate::types::DeviceKind;
        let measured = match kind {
            DeviceKind::Cpu => return WideRows::F32,
            DeviceKind::Cuda => WideRows::Bf16Terms,
            DeviceKind::Metal => WideRows::F32,
        };
        gpu_form_from_env(
            "IREE_LLM_GPU_WIDE_ROWS",
            measured,
            &[
                ("f32", WideRows::F32),
                ("bf16-terms", WideRows::Bf16Terms),
                ("bf16", WideRows::Bf16),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gpu_form_override_names_one_of_the_forms_or_keeps_the_measured_one() {
        let forms = [("f32", WideRows::F32), ("bf16-terms", WideRows::Bf16Terms)];
        let pick = |name| pick_form("VAR", name, WideRows::Bf16Terms, &forms);
        assert_eq!(pick(None), WideRows::Bf16Terms);
        assert_eq!(pick(Some("f32")), WideRows::F32);
        assert_eq!(pick(Some("bf16-terms")), WideRows::Bf16Terms);
        assert_eq!(pick(Some("F32")), WideRows::Bf16Terms);
        assert_eq!(pick(Some("")), WideRows::Bf16Terms);
    }
}

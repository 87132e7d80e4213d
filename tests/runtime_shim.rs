//! The C shim and its safe wrapper, driven with a hand-written StableHLO
//! module on both CPU drivers: results match host arithmetic, state is updated
//! in place, and each misuse is a clear error rather than a crash.

mod common;

use iree_llm::runtime::{DType, Instance, RuntimeError, Session};
use iree_llm::types::DeviceUri;

const CPU_DEVICES: [&str; 2] = ["local-task", "local-sync"];

fn session(device: &str) -> Session {
    let instance = Instance::new().unwrap();
    let mut s = instance.open(&DeviceUri::parse(device).unwrap()).unwrap();
    s.load_module(&common::cpu_module("shim_test.mlir"))
        .unwrap();
    s
}

/// Deterministic test values with distinct magnitudes.
fn values(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|i| (((i as u32).wrapping_mul(2654435761) ^ seed) % 1000) as f32 / 100.0 - 5.0)
        .collect()
}

#[test]
fn matmul_matches_the_host_product() {
    let a = values(4 * 8, 1);
    let b = values(8 * 3, 2);
    let mut expected = vec![0f64; 4 * 3];
    for i in 0..4 {
        for j in 0..3 {
            expected[i * 3 + j] = (0..8)
                .map(|k| a[i * 8 + k] as f64 * b[k * 3 + j] as f64)
                .sum();
        }
    }
    for device in CPU_DEVICES {
        let s = session(device);
        let f = s.function("shim_test.matmul").unwrap();
        let ba = s.upload(&[4, 8], &a).unwrap();
        let bb = s.upload(&[8, 3], &b).unwrap();
        let out = s.call(&f, &[&ba, &bb]).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].shape(), vec![4, 3]);
        let got: Vec<f32> = s.read(&out[0]).unwrap();
        for (g, e) in got.iter().zip(&expected) {
            assert!(
                (*g as f64 - e).abs() <= 1e-4 * e.abs().max(1.0),
                "{device}: {g} vs {e}"
            );
        }
    }
}

#[test]
fn argmax_takes_the_lowest_index_on_ties() {
    // Row 0: the maximum 5.0 appears at 1, 2 and 15 -> 1.
    // Row 1: all equal -> 0.
    let mut x = vec![0f32; 32];
    x[1] = 5.0;
    x[2] = 5.0;
    x[15] = 5.0;
    x[3] = 4.999;
    for v in &mut x[16..] {
        *v = -1.0;
    }
    let host: Vec<i32> = x
        .chunks(16)
        .map(|row| {
            let mut best = 0;
            for (i, v) in row.iter().enumerate() {
                if *v > row[best] {
                    best = i;
                }
            }
            best as i32
        })
        .collect();
    assert_eq!(host, vec![1, 0]);
    for device in CPU_DEVICES {
        let s = session(device);
        let f = s.function("shim_test.argmax").unwrap();
        let bx = s.upload(&[2, 16], &x).unwrap();
        let out = s.call(&f, &[&bx]).unwrap();
        assert_eq!(s.read::<i32>(&out[0]).unwrap(), host, "{device}");
    }
}

#[test]
fn state_is_updated_in_place_and_keeps_its_device_buffer() {
    for device in CPU_DEVICES {
        let s = session(device);
        let f = s.function("shim_test.update_state").unwrap();
        let mut state = s.zeros(DType::F32, &[4, 1024, 64]).unwrap();
        let storage = state.storage_id();
        let mut expected = vec![0f32; 4 * 1024 * 64];
        for (step, (slot, pos)) in [(1, 7), (3, 1023), (1, 8), (0, 0)].into_iter().enumerate() {
            let row: Vec<f32> = (0..64).map(|i| (step * 100 + i) as f32).collect();
            let brow = s.upload(&[1, 1, 64], &row).unwrap();
            let bslot = s.upload(&[], &[slot as i32]).unwrap();
            let bpos = s.upload(&[], &[pos as i32]).unwrap();
            let mut out = s.call(&f, &[&state, &brow, &bslot, &bpos]).unwrap();
            state = out.pop().unwrap();
            assert_eq!(
                state.storage_id(),
                storage,
                "{device}: the state moved to a new buffer"
            );
            let at = (slot * 1024 + pos) * 64;
            expected[at..at + 64].copy_from_slice(&row);
        }
        assert_eq!(s.read::<f32>(&state).unwrap(), expected, "{device}");
        // A host write into the resident buffer is visible to the next read.
        s.write(&mut state, 5, &[42f32]).unwrap();
        let mut one = [0f32];
        s.read_into(&state, 5, &mut one).unwrap();
        assert_eq!(one[0], 42.0);
    }
}

#[test]
fn a_missing_module_file_is_reported_by_path() {
    let instance = Instance::new().unwrap();
    let mut s = instance
        .open(&DeviceUri::parse("local-sync").unwrap())
        .unwrap();
    let err = s
        .load_module(std::path::Path::new("/nonexistent/model.vmfb"))
        .unwrap_err();
    assert!(matches!(err, RuntimeError::ModuleNotFound { .. }), "{err}");
    assert!(err.to_string().contains("/nonexistent/model.vmfb"), "{err}");
}

#[test]
fn corrupt_or_truncated_modules_are_rejected_with_a_recompile_hint() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read(common::cpu_module("shim_test.mlir")).unwrap();
    let cases = [
        (
            "garbage.vmfb",
            (0..4096u32)
                .map(|i| (i * 7 % 251) as u8)
                .collect::<Vec<_>>(),
        ),
        ("truncated.vmfb", good[..good.len() / 3].to_vec()),
        ("empty.vmfb", Vec::new()),
    ];
    for (name, bytes) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let instance = Instance::new().unwrap();
        let mut s = instance
            .open(&DeviceUri::parse("local-sync").unwrap())
            .unwrap();
        let err = s.load_module(&path).unwrap_err();
        assert!(
            matches!(err, RuntimeError::IncompatibleModule { .. }),
            "{name}: {err}"
        );
        let text = err.to_string();
        assert!(
            text.contains(name) && text.contains("3.13"),
            "{name}: {text}"
        );
    }
}

#[test]
fn a_result_of_an_element_type_the_shim_does_not_move_is_an_error_not_f32() {
    for device in CPU_DEVICES {
        let s = session(device);
        let f = s.function("shim_test.with_bytes").unwrap();
        let x = s.upload(&[4], &[1i32, -2, 3, 300]).unwrap();
        let err = s.call(&f, &[&x]).unwrap_err();
        assert!(
            matches!(err, RuntimeError::UnsupportedElementType(_)),
            "{device}: {err}"
        );
        let text = err.to_string();
        for needle in ["with_bytes", "result 1", "i16", "f32, f16, bf16, i32 or i8"] {
            assert!(
                text.contains(needle),
                "{device}: {needle:?} missing in {text}"
            );
        }
        // The session is still usable after the refusal.
        let argmax = s.function("shim_test.argmax").unwrap();
        let bx = s.upload(&[2, 16], &values(32, 7)).unwrap();
        assert_eq!(s.call(&argmax, &[&bx]).unwrap()[0].dtype(), DType::I32);
    }
}

#[test]
fn the_runtime_version_is_the_one_of_the_runtime_sources_built() {
    let version = iree_llm::runtime::runtime_version();
    let file = std::path::Path::new(env!("IREE_LLM_RUNTIME_SOURCES")).join("runtime/version.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(Some(version.as_str()), json["package-version"].as_str());
    // The same release line as the compiler the module cache accepts.
    let line = iree_llm::compile::COMPILER_LINE;
    assert!(
        version.starts_with(&format!("{line}.")),
        "{version} vs {line}"
    );
    let compiler = common::compiler();
    assert!(
        compiler.version().starts_with(&format!("{line}.")),
        "{} vs {version}",
        compiler.version()
    );
}

#[test]
fn an_unknown_function_names_itself() {
    let s = session("local-sync");
    let err = s.function("shim_test.no_such_function").unwrap_err();
    assert!(
        matches!(err, RuntimeError::FunctionNotFound { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("shim_test.no_such_function"));
}

#[test]
fn wrong_input_shape_dtype_or_count_is_an_error_not_a_crash() {
    let s = session("local-task");
    let f = s.function("shim_test.matmul").unwrap();
    let good = s.upload(&[8, 3], &values(24, 3)).unwrap();

    let wrong_shape = s.upload(&[4, 7], &values(28, 4)).unwrap();
    let err = s.call(&f, &[&wrong_shape, &good]).unwrap_err();
    assert!(err.to_string().contains("input0"), "wrong shape: {err}");

    let wrong_dtype = s.upload(&[4, 8], &[1i32; 32]).unwrap();
    let err = s.call(&f, &[&wrong_dtype, &good]).unwrap_err();
    assert!(err.to_string().contains("input0"), "wrong dtype: {err}");

    let err = s.call(&f, &[&good]).unwrap_err();
    assert!(
        err.to_string().contains("takes 2 arguments but 1"),
        "wrong count: {err}"
    );

    // The session is still usable after the failures.
    let a = s.upload(&[4, 8], &values(32, 5)).unwrap();
    assert_eq!(s.call(&f, &[&a, &good]).unwrap()[0].shape(), vec![4, 3]);
}

#[test]
fn uploads_must_match_their_shape() {
    let s = session("local-sync");
    let err = s.upload(&[4, 8], &values(31, 1)).unwrap_err();
    assert!(
        err.to_string().contains("does not match its shape"),
        "{err}"
    );
    let err = s
        .read::<i32>(&s.upload(&[2], &[1f32, 2.0]).unwrap())
        .unwrap_err();
    assert!(err.to_string().contains("F32"), "{err}");
}

#[test]
fn unknown_or_unavailable_devices_are_clear_errors() {
    let err = DeviceUri::parse("vulkan").unwrap_err().to_string();
    assert!(err.contains("unknown device 'vulkan'"), "{err}");

    let instance = Instance::new().unwrap();
    let cuda = DeviceUri::parse("cuda").unwrap();
    match instance.open(&cuda) {
        Err(RuntimeError::DriverNotCompiled { hint, .. }) => {
            if cfg!(feature = "cuda") {
                panic!("built with the cuda feature, but the cuda driver is missing");
            }
            assert!(hint.contains("--features cuda"));
        }
        // Built with CUDA but no GPU here: the error says what to check.
        Err(RuntimeError::DeviceUnavailable { hint, .. }) => assert!(hint.contains("local-task")),
        Err(e) => panic!("unexpected error for cuda: {e}"),
        Ok(_) => {} // a GPU machine
    }
    let err = instance.open(&DeviceUri::parse("local-task://7").unwrap());
    assert!(err.is_err(), "local-task has no device 7");
}

#[test]
fn buffers_from_another_session_are_refused() {
    let a = session("local-sync");
    let b = session("local-sync");
    let f = a.function("shim_test.argmax").unwrap();
    let x = b.upload(&[2, 16], &values(32, 9)).unwrap();
    assert!(matches!(
        a.call(&f, &[&x]).unwrap_err(),
        RuntimeError::ForeignHandle
    ));
    assert!(matches!(
        a.read::<f32>(&x).unwrap_err(),
        RuntimeError::ForeignHandle
    ));
}

/// The scheduling policy of thread `tid` of this process (field 41 of its
/// stat: 0 is SCHED_OTHER, 3 SCHED_BATCH).
#[cfg(target_os = "linux")]
fn policy_of(tid: &str) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/self/task/{tid}/stat")).ok()?;
    // The fields after the command name, which may hold spaces: state is 3.
    let rest = &stat[stat.rfind(')')? + 2..];
    rest.split(' ').nth(41 - 3)?.parse().ok()
}

#[cfg(target_os = "linux")]
#[test]
fn a_call_runs_under_sched_batch_and_the_caller_gets_its_policy_back() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, mpsc};
    use std::time::{Duration, Instant};
    // IREE_LLM_CALLER_SCHED=normal turns the switch off: then the caller
    // must never be seen under SCHED_BATCH.
    let switched = std::env::var("IREE_LLM_CALLER_SCHED").map_or(true, |v| v.trim() != "normal");
    let stop = Arc::new(AtomicBool::new(false));
    let (tid_tx, tid_rx) = mpsc::channel();
    let caller = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let link = std::fs::read_link("/proc/thread-self").unwrap();
            let tid = link.file_name().unwrap().to_string_lossy().into_owned();
            tid_tx.send(tid.clone()).unwrap();
            let s = session("local-task");
            let f = s.function("shim_test.matmul").unwrap();
            let a = s.upload(&[4, 8], &values(32, 1)).unwrap();
            let b = s.upload(&[8, 3], &values(24, 2)).unwrap();
            while !stop.load(Ordering::Relaxed) {
                s.call(&f, &[&a, &b]).unwrap();
            }
            policy_of(&tid)
        })
    };
    let tid = tid_rx.recv().unwrap();
    // Watch the caller's policy while it calls over and over: most of its
    // time is spent inside calls, so SCHED_BATCH shows up quickly.
    let watch = if switched { 20 } else { 2 };
    let deadline = Instant::now() + Duration::from_secs(watch);
    let mut seen_batch = false;
    while !seen_batch && Instant::now() < deadline {
        seen_batch = policy_of(&tid) == Some(3);
    }
    stop.store(true, Ordering::Relaxed);
    let after = caller.join().unwrap();
    assert_eq!(
        seen_batch, switched,
        "the caller ran under SCHED_BATCH while calling: {seen_batch}, expected {switched}"
    );
    assert_eq!(
        after,
        Some(0),
        "the caller's default policy comes back after its calls"
    );
}

#[test]
fn devices_opened_while_another_thread_calls_do_not_break_its_calls() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    // Opening a local device once created an IREE VM instance for the VMVX
    // loader, which zeroed, for a moment, the process-wide word that calls
    // check string arguments against: a call on another thread then failed
    // with "ref type mismatch" (build.rs now leaves that loader out).
    let stop = Arc::new(AtomicBool::new(false));
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let caller = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let s = session("local-task");
            let f = s.function("shim_test.matmul").unwrap();
            let a = s.upload(&[4, 8], &values(32, 1)).unwrap();
            let b = s.upload(&[8, 3], &values(24, 2)).unwrap();
            ready_tx.send(()).unwrap();
            let mut calls = 0u64;
            while !stop.load(Ordering::Relaxed) {
                if let Err(e) = s.call(&f, &[&a, &b]) {
                    return Err(format!("call {calls} failed: {e}"));
                }
                calls += 1;
            }
            Ok(calls)
        })
    };
    ready_rx.recv().unwrap();
    // The process's live instance, the one the caller's session holds.
    let instance = Instance::new().unwrap();
    let deadline = Instant::now() + Duration::from_secs(4);
    let mut opened = 0;
    while Instant::now() < deadline {
        drop(
            instance
                .open(&DeviceUri::parse("local-sync").unwrap())
                .unwrap(),
        );
        opened += 1;
    }
    stop.store(true, Ordering::Relaxed);
    let calls = caller.join().unwrap().unwrap();
    assert!(
        calls > 0 && opened > 0,
        "{calls} calls while {opened} devices were opened"
    );
}

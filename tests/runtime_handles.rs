//! The safe wrapper releases every shim handle it creates, on success and on
//! error paths. Its own test binary: the live-handle count is process-wide.

mod common;

use iree_llm::runtime::{self, DType, Instance};
use iree_llm::types::DeviceUri;

#[test]
fn every_handle_is_released_after_use_and_after_errors() {
    let module = common::cpu_module("shim_test.mlir");
    assert_eq!(runtime::live_handles(), 0);
    {
        let instance = Instance::new().unwrap();
        let _ = instance.probe();
        for device in ["local-task", "local-sync"] {
            let mut s = instance.open(&DeviceUri::parse(device).unwrap()).unwrap();
            assert!(
                s.load_module(std::path::Path::new("/nonexistent.vmfb"))
                    .is_err()
            );
            s.load_module(&module).unwrap();
            assert!(s.function("shim_test.missing").is_err());
            let f = s.function("shim_test.update_state").unwrap();
            let mut state = s.zeros(DType::F32, &[4, 1024, 64]).unwrap();
            let row = s.upload(&[1, 1, 64], &[1f32; 64]).unwrap();
            let idx = s.upload(&[], &[3i32]).unwrap();
            for _ in 0..3 {
                state = s
                    .call(&f, &[&state, &row, &idx, &idx])
                    .unwrap()
                    .pop()
                    .unwrap();
            }
            assert!(s.call(&f, &[&state, &row]).is_err());
            assert!(s.call(&f, &[&row, &row, &idx, &idx]).is_err());
            assert!(s.read::<f32>(&idx).is_err());
            assert!(s.upload(&[2], &[1f32]).is_err());
            // Result 0 is handed out before result 1 is refused; it is
            // given back, not leaked.
            let bytes = s.function("shim_test.with_bytes").unwrap();
            assert!(s.call(&bytes, &[&idx]).is_err());
            let x = s.upload(&[4], &[1i32; 4]).unwrap();
            assert!(s.call(&bytes, &[&x]).is_err());
            assert!(runtime::live_handles() > 0);
        }
        assert!(
            instance
                .open(&DeviceUri::parse("local-task://9").unwrap())
                .is_err()
        );
    }
    assert_eq!(
        runtime::live_handles(),
        0,
        "handles leaked by the safe wrapper"
    );
}

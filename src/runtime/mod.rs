#[allow(non_camel_case_types, dead_code)]
mod ffi {
    include!(concat!(env!("OUT_DIR"), "/shim_bindings.rs"));
}

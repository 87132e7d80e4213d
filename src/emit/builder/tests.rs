use super::*;

#[test]
fn float_literals_round_trip_and_always_have_a_point() {
    assert_eq!(float_literal(1e-5, DType::F32), "1.0e-5");
    assert_eq!(float_literal(0.125, DType::F32), "1.25e-1");
    assert_eq!(float_literal(f64::NEG_INFINITY, DType::F32), "0xFF800000");
    let s = float_literal(0.1, DType::F32);
    assert_eq!(s.parse::<f32>().unwrap(), 0.1f32);
}

#[test]
fn types_print_as_mlir_tensors() {
    assert_eq!(
        TensorType::new(&[2, 3], DType::F32).to_string(),
        "tensor<2x3xf32>"
    );
    assert_eq!(TensorType::new(&[], DType::I32).to_string(), "tensor<i32>");
}

#[test]
fn dot_general_puts_batch_then_free_dimensions() {
    let mut f = FuncBuilder::new("f");
    let a = f.arg(TensorType::new(&[8, 3, 5], DType::F32), None);
    let b = f.arg(TensorType::new(&[8, 7, 5], DType::F32), None);
    let c = f.dot_general(&a, &b, (&[0], &[0]), (&[2], &[2]));
    assert_eq!(c.shape(), &[8, 3, 7]);
}

#[test]
#[should_panic(expected = "contracting dims")]
fn mismatched_contractions_are_caught_while_building() {
    let mut f = FuncBuilder::new("f");
    let a = f.arg(TensorType::new(&[2, 3], DType::F32), None);
    let b = f.arg(TensorType::new(&[4, 2], DType::F32), None);
    f.dot_general(&a, &b, (&[], &[]), (&[1], &[1]));
}

#[test]
fn a_function_prints_arguments_attributes_and_results() {
    let mut f = FuncBuilder::new("g");
    let s = f.arg(
        TensorType::new(&[4], DType::F32),
        Some("tf.aliasing_output = 0 : i32".into()),
    );
    let t = f.add(&s, &s);
    f.ret(&[t]);
    let text = f.finish();
    assert!(text.contains(
        "func.func @g(%arg0: tensor<4xf32> {tf.aliasing_output = 0 : i32}) -> (tensor<4xf32>)"
    ));
    assert!(text.contains("%0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>"));
    assert!(text.contains("return %0 : tensor<4xf32>"));
}

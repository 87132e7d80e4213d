// decode_ragged_logits_b4_w64: emitted by iree-llm 0.1.0 (graph format 1).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_ragged_logits_b4_w64 {
  func.func @decode_ragged_logits_b4_w64(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 2 : i32}, %arg25: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 3 : i32}, %arg26: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 4 : i32}, %arg27: tensor<4xi32>, %arg28: tensor<4xi32>) -> (tensor<4x512xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg27 : (tensor<4xi32>) -> tensor<4x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<4x1xi32>) -> tensor<4x64xf32>
    %2 = stablehlo.reshape %arg28 : (tensor<4xi32>) -> tensor<4x1xi32>
    %3 = "stablehlo.gather"(%arg21, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
    %4 = stablehlo.reshape %arg28 : (tensor<4xi32>) -> tensor<4x1xi32>
    %5 = "stablehlo.gather"(%arg22, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
    // per row: its position as a scalar and its visibility mask (key s <= pos) over the window
    %6 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.iota dim = 0 : tensor<64xi32>
    %9 = stablehlo.slice %arg28 [0:1] : (tensor<4xi32>) -> tensor<1xi32>
    %10 = stablehlo.reshape %9 : (tensor<1xi32>) -> tensor<i32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %12 = stablehlo.compare LE, %8, %11 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %13 = stablehlo.broadcast_in_dim %12, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %14 = stablehlo.slice %arg28 [1:2] : (tensor<4xi32>) -> tensor<1xi32>
    %15 = stablehlo.reshape %14 : (tensor<1xi32>) -> tensor<i32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %17 = stablehlo.compare LE, %8, %16 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %18 = stablehlo.broadcast_in_dim %17, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %19 = stablehlo.slice %arg28 [2:3] : (tensor<4xi32>) -> tensor<1xi32>
    %20 = stablehlo.reshape %19 : (tensor<1xi32>) -> tensor<i32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %22 = stablehlo.compare LE, %8, %21 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %23 = stablehlo.broadcast_in_dim %22, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %24 = stablehlo.slice %arg28 [3:4] : (tensor<4xi32>) -> tensor<1xi32>
    %25 = stablehlo.reshape %24 : (tensor<1xi32>) -> tensor<i32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %27 = stablehlo.compare LE, %8, %26 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %28 = stablehlo.broadcast_in_dim %27, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %29 = stablehlo.constant dense<2.5e-1> : tensor<2x2x64xf32>
    // layer 0: projections for all rows
    %30 = stablehlo.multiply %1, %1 : tensor<4x64xf32>
    %31 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %32 = stablehlo.reduce(%30 init: %31) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %33 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %34 = stablehlo.divide %32, %33 : tensor<4xf32>
    %35 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %36 = stablehlo.add %34, %35 : tensor<4xf32>
    %37 = stablehlo.rsqrt %36 : tensor<4xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %39 = stablehlo.multiply %1, %38 : tensor<4x64xf32>
    %40 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %41 = stablehlo.multiply %39, %40 : tensor<4x64xf32>
    %42 = stablehlo.dot_general %41, %arg2, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<64x64xf32>) -> tensor<4x64xf32>
    %43 = stablehlo.reshape %42 : (tensor<4x64xf32>) -> tensor<4x4x16xf32>
    %44 = stablehlo.slice %43 [0:4, 0:4, 0:8] : (tensor<4x4x16xf32>) -> tensor<4x4x8xf32>
    %45 = stablehlo.slice %43 [0:4, 0:4, 8:16] : (tensor<4x4x16xf32>) -> tensor<4x4x8xf32>
    %46 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x4x8xf32>
    %47 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x4x8xf32>
    %48 = stablehlo.multiply %44, %46 : tensor<4x4x8xf32>
    %49 = stablehlo.multiply %45, %47 : tensor<4x4x8xf32>
    %50 = stablehlo.subtract %48, %49 : tensor<4x4x8xf32>
    %51 = stablehlo.multiply %45, %46 : tensor<4x4x8xf32>
    %52 = stablehlo.multiply %44, %47 : tensor<4x4x8xf32>
    %53 = stablehlo.add %51, %52 : tensor<4x4x8xf32>
    %54 = stablehlo.concatenate %50, %53, dim = 2 : (tensor<4x4x8xf32>, tensor<4x4x8xf32>) -> tensor<4x4x16xf32>
    %55 = stablehlo.dot_general %41, %arg3, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<32x64xf32>) -> tensor<4x32xf32>
    %56 = stablehlo.reshape %55 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %57 = stablehlo.slice %56 [0:4, 0:2, 0:8] : (tensor<4x2x16xf32>) -> tensor<4x2x8xf32>
    %58 = stablehlo.slice %56 [0:4, 0:2, 8:16] : (tensor<4x2x16xf32>) -> tensor<4x2x8xf32>
    %59 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %60 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %61 = stablehlo.multiply %57, %59 : tensor<4x2x8xf32>
    %62 = stablehlo.multiply %58, %60 : tensor<4x2x8xf32>
    %63 = stablehlo.subtract %61, %62 : tensor<4x2x8xf32>
    %64 = stablehlo.multiply %58, %59 : tensor<4x2x8xf32>
    %65 = stablehlo.multiply %57, %60 : tensor<4x2x8xf32>
    %66 = stablehlo.add %64, %65 : tensor<4x2x8xf32>
    %67 = stablehlo.concatenate %63, %66, dim = 2 : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x16xf32>
    %68 = stablehlo.dot_general %41, %arg4, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<32x64xf32>) -> tensor<4x32xf32>
    %69 = stablehlo.reshape %68 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %70 = stablehlo.constant dense<0> : tensor<i32>
    // layer 0, row 0: write K/V at pos, attend to 0..=pos
    %71 = stablehlo.slice %67 [0:1, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %72 = stablehlo.reshape %71 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %73 = stablehlo.slice %69 [0:1, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %74 = stablehlo.reshape %73 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %75 = stablehlo.dynamic_update_slice %arg23, %72, %70, %6, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %76 = stablehlo.dynamic_update_slice %75, %74, %70, %7, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %77 = stablehlo.slice %76 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %78 = stablehlo.reshape %77 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %79 = stablehlo.slice %76 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %80 = stablehlo.reshape %79 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %81 = stablehlo.slice %54 [0:1, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %82 = stablehlo.reshape %81 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %83 = stablehlo.dot_general %82, %78, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %84 = stablehlo.multiply %83, %29 : tensor<2x2x64xf32>
    %85 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %86 = stablehlo.select %13, %84, %85 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %87 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %88 = stablehlo.reduce(%86 init: %87) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %90 = stablehlo.subtract %86, %89 : tensor<2x2x64xf32>
    %91 = stablehlo.exponential %90 : tensor<2x2x64xf32>
    %92 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %93 = stablehlo.reduce(%91 init: %92) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %95 = stablehlo.divide %91, %94 : tensor<2x2x64xf32>
    %96 = stablehlo.dot_general %95, %80, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %97 = stablehlo.reshape %96 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 1: write K/V at pos, attend to 0..=pos
    %98 = stablehlo.slice %67 [1:2, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %99 = stablehlo.reshape %98 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %100 = stablehlo.slice %69 [1:2, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %101 = stablehlo.reshape %100 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %102 = stablehlo.dynamic_update_slice %arg24, %99, %70, %6, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %103 = stablehlo.dynamic_update_slice %102, %101, %70, %7, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %104 = stablehlo.slice %103 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %105 = stablehlo.reshape %104 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %106 = stablehlo.slice %103 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %107 = stablehlo.reshape %106 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %108 = stablehlo.slice %54 [1:2, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %109 = stablehlo.reshape %108 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %110 = stablehlo.dot_general %109, %105, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %111 = stablehlo.multiply %110, %29 : tensor<2x2x64xf32>
    %112 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %113 = stablehlo.select %18, %111, %112 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %114 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %115 = stablehlo.reduce(%113 init: %114) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %117 = stablehlo.subtract %113, %116 : tensor<2x2x64xf32>
    %118 = stablehlo.exponential %117 : tensor<2x2x64xf32>
    %119 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %120 = stablehlo.reduce(%118 init: %119) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %121 = stablehlo.broadcast_in_dim %120, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %122 = stablehlo.divide %118, %121 : tensor<2x2x64xf32>
    %123 = stablehlo.dot_general %122, %107, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %124 = stablehlo.reshape %123 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 2: write K/V at pos, attend to 0..=pos
    %125 = stablehlo.slice %67 [2:3, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %126 = stablehlo.reshape %125 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %127 = stablehlo.slice %69 [2:3, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %128 = stablehlo.reshape %127 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %129 = stablehlo.dynamic_update_slice %arg25, %126, %70, %6, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %130 = stablehlo.dynamic_update_slice %129, %128, %70, %7, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %131 = stablehlo.slice %130 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %132 = stablehlo.reshape %131 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %133 = stablehlo.slice %130 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %134 = stablehlo.reshape %133 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %135 = stablehlo.slice %54 [2:3, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %136 = stablehlo.reshape %135 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %137 = stablehlo.dot_general %136, %132, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %138 = stablehlo.multiply %137, %29 : tensor<2x2x64xf32>
    %139 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %140 = stablehlo.select %23, %138, %139 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %141 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %142 = stablehlo.reduce(%140 init: %141) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %144 = stablehlo.subtract %140, %143 : tensor<2x2x64xf32>
    %145 = stablehlo.exponential %144 : tensor<2x2x64xf32>
    %146 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %147 = stablehlo.reduce(%145 init: %146) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %148 = stablehlo.broadcast_in_dim %147, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %149 = stablehlo.divide %145, %148 : tensor<2x2x64xf32>
    %150 = stablehlo.dot_general %149, %134, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %151 = stablehlo.reshape %150 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 3: write K/V at pos, attend to 0..=pos
    %152 = stablehlo.slice %67 [3:4, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %153 = stablehlo.reshape %152 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %154 = stablehlo.slice %69 [3:4, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %155 = stablehlo.reshape %154 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %156 = stablehlo.dynamic_update_slice %arg26, %153, %70, %6, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %157 = stablehlo.dynamic_update_slice %156, %155, %70, %7, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %158 = stablehlo.slice %157 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %159 = stablehlo.reshape %158 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %160 = stablehlo.slice %157 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %161 = stablehlo.reshape %160 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %162 = stablehlo.slice %54 [3:4, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %163 = stablehlo.reshape %162 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %164 = stablehlo.dot_general %163, %159, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %165 = stablehlo.multiply %164, %29 : tensor<2x2x64xf32>
    %166 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %167 = stablehlo.select %28, %165, %166 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %168 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %169 = stablehlo.reduce(%167 init: %168) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %170 = stablehlo.broadcast_in_dim %169, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %171 = stablehlo.subtract %167, %170 : tensor<2x2x64xf32>
    %172 = stablehlo.exponential %171 : tensor<2x2x64xf32>
    %173 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %174 = stablehlo.reduce(%172 init: %173) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %175 = stablehlo.broadcast_in_dim %174, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %176 = stablehlo.divide %172, %175 : tensor<2x2x64xf32>
    %177 = stablehlo.dot_general %176, %161, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %178 = stablehlo.reshape %177 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %179 = stablehlo.concatenate %97, %124, %151, %178, dim = 0 : (tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<4x64xf32>
    %180 = stablehlo.dot_general %179, %arg5, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<64x64xf32>) -> tensor<4x64xf32>
    %181 = stablehlo.add %1, %180 : tensor<4x64xf32>
    // layer 0: MLP
    %182 = stablehlo.multiply %181, %181 : tensor<4x64xf32>
    %183 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %184 = stablehlo.reduce(%182 init: %183) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %185 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %186 = stablehlo.divide %184, %185 : tensor<4xf32>
    %187 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %188 = stablehlo.add %186, %187 : tensor<4xf32>
    %189 = stablehlo.rsqrt %188 : tensor<4xf32>
    %190 = stablehlo.broadcast_in_dim %189, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %191 = stablehlo.multiply %181, %190 : tensor<4x64xf32>
    %192 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %193 = stablehlo.multiply %191, %192 : tensor<4x64xf32>
    %194 = stablehlo.dot_general %193, %arg7, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<128x64xf32>) -> tensor<4x128xf32>
    %195 = stablehlo.dot_general %193, %arg8, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<128x64xf32>) -> tensor<4x128xf32>
    %196 = stablehlo.logistic %194 : tensor<4x128xf32>
    %197 = stablehlo.multiply %194, %196 : tensor<4x128xf32>
    %198 = stablehlo.multiply %197, %195 : tensor<4x128xf32>
    %199 = stablehlo.dot_general %198, %arg9, contracting_dims = [1] x [1] : (tensor<4x128xf32>, tensor<64x128xf32>) -> tensor<4x64xf32>
    %200 = stablehlo.add %181, %199 : tensor<4x64xf32>
    // layer 1: projections for all rows
    %201 = stablehlo.multiply %200, %200 : tensor<4x64xf32>
    %202 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %203 = stablehlo.reduce(%201 init: %202) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %204 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %205 = stablehlo.divide %203, %204 : tensor<4xf32>
    %206 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %207 = stablehlo.add %205, %206 : tensor<4xf32>
    %208 = stablehlo.rsqrt %207 : tensor<4xf32>
    %209 = stablehlo.broadcast_in_dim %208, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %210 = stablehlo.multiply %200, %209 : tensor<4x64xf32>
    %211 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %212 = stablehlo.multiply %210, %211 : tensor<4x64xf32>
    %213 = stablehlo.dot_general %212, %arg11, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<64x64xf32>) -> tensor<4x64xf32>
    %214 = stablehlo.reshape %213 : (tensor<4x64xf32>) -> tensor<4x4x16xf32>
    %215 = stablehlo.slice %214 [0:4, 0:4, 0:8] : (tensor<4x4x16xf32>) -> tensor<4x4x8xf32>
    %216 = stablehlo.slice %214 [0:4, 0:4, 8:16] : (tensor<4x4x16xf32>) -> tensor<4x4x8xf32>
    %217 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x4x8xf32>
    %218 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x4x8xf32>
    %219 = stablehlo.multiply %215, %217 : tensor<4x4x8xf32>
    %220 = stablehlo.multiply %216, %218 : tensor<4x4x8xf32>
    %221 = stablehlo.subtract %219, %220 : tensor<4x4x8xf32>
    %222 = stablehlo.multiply %216, %217 : tensor<4x4x8xf32>
    %223 = stablehlo.multiply %215, %218 : tensor<4x4x8xf32>
    %224 = stablehlo.add %222, %223 : tensor<4x4x8xf32>
    %225 = stablehlo.concatenate %221, %224, dim = 2 : (tensor<4x4x8xf32>, tensor<4x4x8xf32>) -> tensor<4x4x16xf32>
    %226 = stablehlo.dot_general %212, %arg12, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<32x64xf32>) -> tensor<4x32xf32>
    %227 = stablehlo.reshape %226 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %228 = stablehlo.slice %227 [0:4, 0:2, 0:8] : (tensor<4x2x16xf32>) -> tensor<4x2x8xf32>
    %229 = stablehlo.slice %227 [0:4, 0:2, 8:16] : (tensor<4x2x16xf32>) -> tensor<4x2x8xf32>
    %230 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %231 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %232 = stablehlo.multiply %228, %230 : tensor<4x2x8xf32>
    %233 = stablehlo.multiply %229, %231 : tensor<4x2x8xf32>
    %234 = stablehlo.subtract %232, %233 : tensor<4x2x8xf32>
    %235 = stablehlo.multiply %229, %230 : tensor<4x2x8xf32>
    %236 = stablehlo.multiply %228, %231 : tensor<4x2x8xf32>
    %237 = stablehlo.add %235, %236 : tensor<4x2x8xf32>
    %238 = stablehlo.concatenate %234, %237, dim = 2 : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x16xf32>
    %239 = stablehlo.dot_general %212, %arg13, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<32x64xf32>) -> tensor<4x32xf32>
    %240 = stablehlo.reshape %239 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %241 = stablehlo.constant dense<1> : tensor<i32>
    // layer 1, row 0: write K/V at pos, attend to 0..=pos
    %242 = stablehlo.slice %238 [0:1, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %243 = stablehlo.reshape %242 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %244 = stablehlo.slice %240 [0:1, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %245 = stablehlo.reshape %244 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %246 = stablehlo.dynamic_update_slice %76, %243, %241, %6, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %247 = stablehlo.dynamic_update_slice %246, %245, %241, %7, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %248 = stablehlo.slice %247 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %249 = stablehlo.reshape %248 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %250 = stablehlo.slice %247 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %251 = stablehlo.reshape %250 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %252 = stablehlo.slice %225 [0:1, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %253 = stablehlo.reshape %252 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %254 = stablehlo.dot_general %253, %249, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %255 = stablehlo.multiply %254, %29 : tensor<2x2x64xf32>
    %256 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %257 = stablehlo.select %13, %255, %256 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %258 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %259 = stablehlo.reduce(%257 init: %258) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %260 = stablehlo.broadcast_in_dim %259, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %261 = stablehlo.subtract %257, %260 : tensor<2x2x64xf32>
    %262 = stablehlo.exponential %261 : tensor<2x2x64xf32>
    %263 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %264 = stablehlo.reduce(%262 init: %263) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %265 = stablehlo.broadcast_in_dim %264, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %266 = stablehlo.divide %262, %265 : tensor<2x2x64xf32>
    %267 = stablehlo.dot_general %266, %251, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %268 = stablehlo.reshape %267 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 1: write K/V at pos, attend to 0..=pos
    %269 = stablehlo.slice %238 [1:2, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %270 = stablehlo.reshape %269 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %271 = stablehlo.slice %240 [1:2, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %272 = stablehlo.reshape %271 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %273 = stablehlo.dynamic_update_slice %103, %270, %241, %6, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %274 = stablehlo.dynamic_update_slice %273, %272, %241, %7, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %275 = stablehlo.slice %274 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %276 = stablehlo.reshape %275 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %277 = stablehlo.slice %274 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %278 = stablehlo.reshape %277 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %279 = stablehlo.slice %225 [1:2, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %280 = stablehlo.reshape %279 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %281 = stablehlo.dot_general %280, %276, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %282 = stablehlo.multiply %281, %29 : tensor<2x2x64xf32>
    %283 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %284 = stablehlo.select %18, %282, %283 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %285 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %286 = stablehlo.reduce(%284 init: %285) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %287 = stablehlo.broadcast_in_dim %286, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %288 = stablehlo.subtract %284, %287 : tensor<2x2x64xf32>
    %289 = stablehlo.exponential %288 : tensor<2x2x64xf32>
    %290 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %291 = stablehlo.reduce(%289 init: %290) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %292 = stablehlo.broadcast_in_dim %291, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %293 = stablehlo.divide %289, %292 : tensor<2x2x64xf32>
    %294 = stablehlo.dot_general %293, %278, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %295 = stablehlo.reshape %294 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 2: write K/V at pos, attend to 0..=pos
    %296 = stablehlo.slice %238 [2:3, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %297 = stablehlo.reshape %296 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %298 = stablehlo.slice %240 [2:3, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %299 = stablehlo.reshape %298 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %300 = stablehlo.dynamic_update_slice %130, %297, %241, %6, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %301 = stablehlo.dynamic_update_slice %300, %299, %241, %7, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %302 = stablehlo.slice %301 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %303 = stablehlo.reshape %302 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %304 = stablehlo.slice %301 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %305 = stablehlo.reshape %304 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %306 = stablehlo.slice %225 [2:3, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %307 = stablehlo.reshape %306 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %308 = stablehlo.dot_general %307, %303, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %309 = stablehlo.multiply %308, %29 : tensor<2x2x64xf32>
    %310 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %311 = stablehlo.select %23, %309, %310 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %312 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %313 = stablehlo.reduce(%311 init: %312) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %314 = stablehlo.broadcast_in_dim %313, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %315 = stablehlo.subtract %311, %314 : tensor<2x2x64xf32>
    %316 = stablehlo.exponential %315 : tensor<2x2x64xf32>
    %317 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %318 = stablehlo.reduce(%316 init: %317) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %319 = stablehlo.broadcast_in_dim %318, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %320 = stablehlo.divide %316, %319 : tensor<2x2x64xf32>
    %321 = stablehlo.dot_general %320, %305, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %322 = stablehlo.reshape %321 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 3: write K/V at pos, attend to 0..=pos
    %323 = stablehlo.slice %238 [3:4, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %324 = stablehlo.reshape %323 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %325 = stablehlo.slice %240 [3:4, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %326 = stablehlo.reshape %325 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %327 = stablehlo.dynamic_update_slice %157, %324, %241, %6, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %328 = stablehlo.dynamic_update_slice %327, %326, %241, %7, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %329 = stablehlo.slice %328 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %330 = stablehlo.reshape %329 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %331 = stablehlo.slice %328 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %332 = stablehlo.reshape %331 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %333 = stablehlo.slice %225 [3:4, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %334 = stablehlo.reshape %333 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %335 = stablehlo.dot_general %334, %330, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %336 = stablehlo.multiply %335, %29 : tensor<2x2x64xf32>
    %337 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %338 = stablehlo.select %28, %336, %337 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %339 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %340 = stablehlo.reduce(%338 init: %339) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %341 = stablehlo.broadcast_in_dim %340, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %342 = stablehlo.subtract %338, %341 : tensor<2x2x64xf32>
    %343 = stablehlo.exponential %342 : tensor<2x2x64xf32>
    %344 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %345 = stablehlo.reduce(%343 init: %344) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %346 = stablehlo.broadcast_in_dim %345, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %347 = stablehlo.divide %343, %346 : tensor<2x2x64xf32>
    %348 = stablehlo.dot_general %347, %332, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %349 = stablehlo.reshape %348 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %350 = stablehlo.concatenate %268, %295, %322, %349, dim = 0 : (tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<4x64xf32>
    %351 = stablehlo.dot_general %350, %arg14, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<64x64xf32>) -> tensor<4x64xf32>
    %352 = stablehlo.add %200, %351 : tensor<4x64xf32>
    // layer 1: MLP
    %353 = stablehlo.multiply %352, %352 : tensor<4x64xf32>
    %354 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %355 = stablehlo.reduce(%353 init: %354) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %356 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %357 = stablehlo.divide %355, %356 : tensor<4xf32>
    %358 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %359 = stablehlo.add %357, %358 : tensor<4xf32>
    %360 = stablehlo.rsqrt %359 : tensor<4xf32>
    %361 = stablehlo.broadcast_in_dim %360, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %362 = stablehlo.multiply %352, %361 : tensor<4x64xf32>
    %363 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %364 = stablehlo.multiply %362, %363 : tensor<4x64xf32>
    %365 = stablehlo.dot_general %364, %arg16, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<128x64xf32>) -> tensor<4x128xf32>
    %366 = stablehlo.dot_general %364, %arg17, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<128x64xf32>) -> tensor<4x128xf32>
    %367 = stablehlo.logistic %365 : tensor<4x128xf32>
    %368 = stablehlo.multiply %365, %367 : tensor<4x128xf32>
    %369 = stablehlo.multiply %368, %366 : tensor<4x128xf32>
    %370 = stablehlo.dot_general %369, %arg18, contracting_dims = [1] x [1] : (tensor<4x128xf32>, tensor<64x128xf32>) -> tensor<4x64xf32>
    %371 = stablehlo.add %352, %370 : tensor<4x64xf32>
    %372 = stablehlo.multiply %371, %371 : tensor<4x64xf32>
    %373 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %374 = stablehlo.reduce(%372 init: %373) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %375 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %376 = stablehlo.divide %374, %375 : tensor<4xf32>
    %377 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %378 = stablehlo.add %376, %377 : tensor<4xf32>
    %379 = stablehlo.rsqrt %378 : tensor<4xf32>
    %380 = stablehlo.broadcast_in_dim %379, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %381 = stablehlo.multiply %371, %380 : tensor<4x64xf32>
    %382 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %383 = stablehlo.multiply %381, %382 : tensor<4x64xf32>
    %384 = stablehlo.dot_general %383, %arg20, contracting_dims = [1] x [1] : (tensor<4x64xf32>, tensor<512x64xf32>) -> tensor<4x512xf32>
    return %384, %247, %274, %301, %328 : tensor<4x512xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>
  }
}

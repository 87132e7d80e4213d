// decode_sample_b4: emitted by iree-llm 0.1.0 (graph format 1).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_sample_b4 {
  func.func @decode_sample_b4(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 2 : i32}, %arg25: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 3 : i32}, %arg26: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 4 : i32}, %arg27: tensor<4xi32>, %arg28: tensor<4xi32>, %arg29: tensor<4xf32>, %arg30: tensor<4x2xi32>) -> (tensor<4xi32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<4x512xf32>) {
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
    %8 = stablehlo.iota dim = 0 : tensor<256xi32>
    %9 = stablehlo.slice %arg28 [0:1] : (tensor<4xi32>) -> tensor<1xi32>
    %10 = stablehlo.reshape %9 : (tensor<1xi32>) -> tensor<i32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %12 = stablehlo.compare LE, %8, %11 : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi1>
    %13 = stablehlo.broadcast_in_dim %12, dims = [2] : (tensor<256xi1>) -> tensor<2x2x256xi1>
    %14 = stablehlo.slice %arg28 [1:2] : (tensor<4xi32>) -> tensor<1xi32>
    %15 = stablehlo.reshape %14 : (tensor<1xi32>) -> tensor<i32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %17 = stablehlo.compare LE, %8, %16 : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi1>
    %18 = stablehlo.broadcast_in_dim %17, dims = [2] : (tensor<256xi1>) -> tensor<2x2x256xi1>
    %19 = stablehlo.slice %arg28 [2:3] : (tensor<4xi32>) -> tensor<1xi32>
    %20 = stablehlo.reshape %19 : (tensor<1xi32>) -> tensor<i32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %22 = stablehlo.compare LE, %8, %21 : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi1>
    %23 = stablehlo.broadcast_in_dim %22, dims = [2] : (tensor<256xi1>) -> tensor<2x2x256xi1>
    %24 = stablehlo.slice %arg28 [3:4] : (tensor<4xi32>) -> tensor<1xi32>
    %25 = stablehlo.reshape %24 : (tensor<1xi32>) -> tensor<i32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %27 = stablehlo.compare LE, %8, %26 : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi1>
    %28 = stablehlo.broadcast_in_dim %27, dims = [2] : (tensor<256xi1>) -> tensor<2x2x256xi1>
    %29 = stablehlo.constant dense<2.5e-1> : tensor<2x2x256xf32>
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
    %42 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %43 = stablehlo.concatenate %41, %42, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %44 = stablehlo.dot_general %43, %arg2, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %45 = stablehlo.slice %44 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %46 = stablehlo.reshape %45 : (tensor<4x64xf32>) -> tensor<4x4x16xf32>
    %47 = stablehlo.slice %46 [0:4, 0:4, 0:8] : (tensor<4x4x16xf32>) -> tensor<4x4x8xf32>
    %48 = stablehlo.slice %46 [0:4, 0:4, 8:16] : (tensor<4x4x16xf32>) -> tensor<4x4x8xf32>
    %49 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x4x8xf32>
    %50 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x4x8xf32>
    %51 = stablehlo.multiply %47, %49 : tensor<4x4x8xf32>
    %52 = stablehlo.multiply %48, %50 : tensor<4x4x8xf32>
    %53 = stablehlo.subtract %51, %52 : tensor<4x4x8xf32>
    %54 = stablehlo.multiply %48, %49 : tensor<4x4x8xf32>
    %55 = stablehlo.multiply %47, %50 : tensor<4x4x8xf32>
    %56 = stablehlo.add %54, %55 : tensor<4x4x8xf32>
    %57 = stablehlo.concatenate %53, %56, dim = 2 : (tensor<4x4x8xf32>, tensor<4x4x8xf32>) -> tensor<4x4x16xf32>
    %58 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %59 = stablehlo.concatenate %41, %58, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %60 = stablehlo.dot_general %59, %arg3, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %61 = stablehlo.slice %60 [0:4, 0:32] : (tensor<8x32xf32>) -> tensor<4x32xf32>
    %62 = stablehlo.reshape %61 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %63 = stablehlo.slice %62 [0:4, 0:2, 0:8] : (tensor<4x2x16xf32>) -> tensor<4x2x8xf32>
    %64 = stablehlo.slice %62 [0:4, 0:2, 8:16] : (tensor<4x2x16xf32>) -> tensor<4x2x8xf32>
    %65 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %66 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %67 = stablehlo.multiply %63, %65 : tensor<4x2x8xf32>
    %68 = stablehlo.multiply %64, %66 : tensor<4x2x8xf32>
    %69 = stablehlo.subtract %67, %68 : tensor<4x2x8xf32>
    %70 = stablehlo.multiply %64, %65 : tensor<4x2x8xf32>
    %71 = stablehlo.multiply %63, %66 : tensor<4x2x8xf32>
    %72 = stablehlo.add %70, %71 : tensor<4x2x8xf32>
    %73 = stablehlo.concatenate %69, %72, dim = 2 : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x16xf32>
    %74 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %75 = stablehlo.concatenate %41, %74, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %76 = stablehlo.dot_general %75, %arg4, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %77 = stablehlo.slice %76 [0:4, 0:32] : (tensor<8x32xf32>) -> tensor<4x32xf32>
    %78 = stablehlo.reshape %77 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %79 = stablehlo.constant dense<0> : tensor<i32>
    // layer 0, row 0: write K/V at pos, attend to 0..=pos
    %80 = stablehlo.slice %73 [0:1, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %81 = stablehlo.reshape %80 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %82 = stablehlo.slice %78 [0:1, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %83 = stablehlo.reshape %82 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %84 = stablehlo.dynamic_update_slice %arg23, %81, %79, %6, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %85 = stablehlo.dynamic_update_slice %84, %83, %79, %7, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %86 = stablehlo.slice %85 [0:1, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %87 = stablehlo.reshape %86 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %88 = stablehlo.slice %85 [0:1, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %89 = stablehlo.reshape %88 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %90 = stablehlo.slice %57 [0:1, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %91 = stablehlo.reshape %90 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %92 = stablehlo.dot_general %91, %87, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %93 = stablehlo.multiply %92, %29 : tensor<2x2x256xf32>
    %94 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %95 = stablehlo.select %13, %93, %94 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %96 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %97 = stablehlo.reduce(%95 init: %96) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %98 = stablehlo.broadcast_in_dim %97, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %99 = stablehlo.subtract %95, %98 : tensor<2x2x256xf32>
    %100 = stablehlo.exponential %99 : tensor<2x2x256xf32>
    %101 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %102 = stablehlo.reduce(%100 init: %101) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %104 = stablehlo.divide %100, %103 : tensor<2x2x256xf32>
    %105 = stablehlo.dot_general %104, %89, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %106 = stablehlo.reshape %105 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 1: write K/V at pos, attend to 0..=pos
    %107 = stablehlo.slice %73 [1:2, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %108 = stablehlo.reshape %107 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %109 = stablehlo.slice %78 [1:2, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %110 = stablehlo.reshape %109 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %111 = stablehlo.dynamic_update_slice %arg24, %108, %79, %6, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %112 = stablehlo.dynamic_update_slice %111, %110, %79, %7, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %113 = stablehlo.slice %112 [0:1, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %114 = stablehlo.reshape %113 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %115 = stablehlo.slice %112 [0:1, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %116 = stablehlo.reshape %115 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %117 = stablehlo.slice %57 [1:2, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %118 = stablehlo.reshape %117 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %119 = stablehlo.dot_general %118, %114, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %120 = stablehlo.multiply %119, %29 : tensor<2x2x256xf32>
    %121 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %122 = stablehlo.select %18, %120, %121 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %123 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %124 = stablehlo.reduce(%122 init: %123) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %125 = stablehlo.broadcast_in_dim %124, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %126 = stablehlo.subtract %122, %125 : tensor<2x2x256xf32>
    %127 = stablehlo.exponential %126 : tensor<2x2x256xf32>
    %128 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %129 = stablehlo.reduce(%127 init: %128) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %130 = stablehlo.broadcast_in_dim %129, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %131 = stablehlo.divide %127, %130 : tensor<2x2x256xf32>
    %132 = stablehlo.dot_general %131, %116, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %133 = stablehlo.reshape %132 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 2: write K/V at pos, attend to 0..=pos
    %134 = stablehlo.slice %73 [2:3, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %135 = stablehlo.reshape %134 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %136 = stablehlo.slice %78 [2:3, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %137 = stablehlo.reshape %136 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %138 = stablehlo.dynamic_update_slice %arg25, %135, %79, %6, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %139 = stablehlo.dynamic_update_slice %138, %137, %79, %7, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %140 = stablehlo.slice %139 [0:1, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %141 = stablehlo.reshape %140 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %142 = stablehlo.slice %139 [0:1, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %143 = stablehlo.reshape %142 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %144 = stablehlo.slice %57 [2:3, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %145 = stablehlo.reshape %144 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %146 = stablehlo.dot_general %145, %141, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %147 = stablehlo.multiply %146, %29 : tensor<2x2x256xf32>
    %148 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %149 = stablehlo.select %23, %147, %148 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %150 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %151 = stablehlo.reduce(%149 init: %150) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %153 = stablehlo.subtract %149, %152 : tensor<2x2x256xf32>
    %154 = stablehlo.exponential %153 : tensor<2x2x256xf32>
    %155 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %156 = stablehlo.reduce(%154 init: %155) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %158 = stablehlo.divide %154, %157 : tensor<2x2x256xf32>
    %159 = stablehlo.dot_general %158, %143, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %160 = stablehlo.reshape %159 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 3: write K/V at pos, attend to 0..=pos
    %161 = stablehlo.slice %73 [3:4, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %162 = stablehlo.reshape %161 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %163 = stablehlo.slice %78 [3:4, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %164 = stablehlo.reshape %163 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %165 = stablehlo.dynamic_update_slice %arg26, %162, %79, %6, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %166 = stablehlo.dynamic_update_slice %165, %164, %79, %7, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %167 = stablehlo.slice %166 [0:1, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %168 = stablehlo.reshape %167 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %169 = stablehlo.slice %166 [0:1, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %170 = stablehlo.reshape %169 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %171 = stablehlo.slice %57 [3:4, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %172 = stablehlo.reshape %171 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %173 = stablehlo.dot_general %172, %168, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %174 = stablehlo.multiply %173, %29 : tensor<2x2x256xf32>
    %175 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %176 = stablehlo.select %28, %174, %175 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %177 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %178 = stablehlo.reduce(%176 init: %177) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %179 = stablehlo.broadcast_in_dim %178, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %180 = stablehlo.subtract %176, %179 : tensor<2x2x256xf32>
    %181 = stablehlo.exponential %180 : tensor<2x2x256xf32>
    %182 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %183 = stablehlo.reduce(%181 init: %182) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %184 = stablehlo.broadcast_in_dim %183, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %185 = stablehlo.divide %181, %184 : tensor<2x2x256xf32>
    %186 = stablehlo.dot_general %185, %170, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %187 = stablehlo.reshape %186 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %188 = stablehlo.concatenate %106, %133, %160, %187, dim = 0 : (tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<4x64xf32>
    %189 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %190 = stablehlo.concatenate %188, %189, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %191 = stablehlo.dot_general %190, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %192 = stablehlo.slice %191 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %193 = stablehlo.add %1, %192 : tensor<4x64xf32>
    // layer 0: MLP
    %194 = stablehlo.multiply %193, %193 : tensor<4x64xf32>
    %195 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %196 = stablehlo.reduce(%194 init: %195) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %197 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %198 = stablehlo.divide %196, %197 : tensor<4xf32>
    %199 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %200 = stablehlo.add %198, %199 : tensor<4xf32>
    %201 = stablehlo.rsqrt %200 : tensor<4xf32>
    %202 = stablehlo.broadcast_in_dim %201, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %203 = stablehlo.multiply %193, %202 : tensor<4x64xf32>
    %204 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %205 = stablehlo.multiply %203, %204 : tensor<4x64xf32>
    %206 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %207 = stablehlo.concatenate %205, %206, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %208 = stablehlo.dot_general %207, %arg7, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %209 = stablehlo.slice %208 [0:4, 0:128] : (tensor<8x128xf32>) -> tensor<4x128xf32>
    %210 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %211 = stablehlo.concatenate %205, %210, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %212 = stablehlo.dot_general %211, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %213 = stablehlo.slice %212 [0:4, 0:128] : (tensor<8x128xf32>) -> tensor<4x128xf32>
    %214 = stablehlo.logistic %209 : tensor<4x128xf32>
    %215 = stablehlo.multiply %209, %214 : tensor<4x128xf32>
    %216 = stablehlo.multiply %215, %213 : tensor<4x128xf32>
    %217 = stablehlo.constant dense<0.0e0> : tensor<4x128xf32>
    %218 = stablehlo.concatenate %216, %217, dim = 0 : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<8x128xf32>
    %219 = stablehlo.dot_general %218, %arg9, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %220 = stablehlo.slice %219 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %221 = stablehlo.add %193, %220 : tensor<4x64xf32>
    // layer 1: projections for all rows
    %222 = stablehlo.multiply %221, %221 : tensor<4x64xf32>
    %223 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %224 = stablehlo.reduce(%222 init: %223) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %225 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %226 = stablehlo.divide %224, %225 : tensor<4xf32>
    %227 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %228 = stablehlo.add %226, %227 : tensor<4xf32>
    %229 = stablehlo.rsqrt %228 : tensor<4xf32>
    %230 = stablehlo.broadcast_in_dim %229, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %231 = stablehlo.multiply %221, %230 : tensor<4x64xf32>
    %232 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %233 = stablehlo.multiply %231, %232 : tensor<4x64xf32>
    %234 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %235 = stablehlo.concatenate %233, %234, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %236 = stablehlo.dot_general %235, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %237 = stablehlo.slice %236 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %238 = stablehlo.reshape %237 : (tensor<4x64xf32>) -> tensor<4x4x16xf32>
    %239 = stablehlo.slice %238 [0:4, 0:4, 0:8] : (tensor<4x4x16xf32>) -> tensor<4x4x8xf32>
    %240 = stablehlo.slice %238 [0:4, 0:4, 8:16] : (tensor<4x4x16xf32>) -> tensor<4x4x8xf32>
    %241 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x4x8xf32>
    %242 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x4x8xf32>
    %243 = stablehlo.multiply %239, %241 : tensor<4x4x8xf32>
    %244 = stablehlo.multiply %240, %242 : tensor<4x4x8xf32>
    %245 = stablehlo.subtract %243, %244 : tensor<4x4x8xf32>
    %246 = stablehlo.multiply %240, %241 : tensor<4x4x8xf32>
    %247 = stablehlo.multiply %239, %242 : tensor<4x4x8xf32>
    %248 = stablehlo.add %246, %247 : tensor<4x4x8xf32>
    %249 = stablehlo.concatenate %245, %248, dim = 2 : (tensor<4x4x8xf32>, tensor<4x4x8xf32>) -> tensor<4x4x16xf32>
    %250 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %251 = stablehlo.concatenate %233, %250, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %252 = stablehlo.dot_general %251, %arg12, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %253 = stablehlo.slice %252 [0:4, 0:32] : (tensor<8x32xf32>) -> tensor<4x32xf32>
    %254 = stablehlo.reshape %253 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %255 = stablehlo.slice %254 [0:4, 0:2, 0:8] : (tensor<4x2x16xf32>) -> tensor<4x2x8xf32>
    %256 = stablehlo.slice %254 [0:4, 0:2, 8:16] : (tensor<4x2x16xf32>) -> tensor<4x2x8xf32>
    %257 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %258 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x2x8xf32>
    %259 = stablehlo.multiply %255, %257 : tensor<4x2x8xf32>
    %260 = stablehlo.multiply %256, %258 : tensor<4x2x8xf32>
    %261 = stablehlo.subtract %259, %260 : tensor<4x2x8xf32>
    %262 = stablehlo.multiply %256, %257 : tensor<4x2x8xf32>
    %263 = stablehlo.multiply %255, %258 : tensor<4x2x8xf32>
    %264 = stablehlo.add %262, %263 : tensor<4x2x8xf32>
    %265 = stablehlo.concatenate %261, %264, dim = 2 : (tensor<4x2x8xf32>, tensor<4x2x8xf32>) -> tensor<4x2x16xf32>
    %266 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %267 = stablehlo.concatenate %233, %266, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %268 = stablehlo.dot_general %267, %arg13, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %269 = stablehlo.slice %268 [0:4, 0:32] : (tensor<8x32xf32>) -> tensor<4x32xf32>
    %270 = stablehlo.reshape %269 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %271 = stablehlo.constant dense<1> : tensor<i32>
    // layer 1, row 0: write K/V at pos, attend to 0..=pos
    %272 = stablehlo.slice %265 [0:1, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %273 = stablehlo.reshape %272 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %274 = stablehlo.slice %270 [0:1, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %275 = stablehlo.reshape %274 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %276 = stablehlo.dynamic_update_slice %85, %273, %271, %6, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %277 = stablehlo.dynamic_update_slice %276, %275, %271, %7, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %278 = stablehlo.slice %277 [1:2, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %279 = stablehlo.reshape %278 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %280 = stablehlo.slice %277 [1:2, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %281 = stablehlo.reshape %280 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %282 = stablehlo.slice %249 [0:1, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %283 = stablehlo.reshape %282 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %284 = stablehlo.dot_general %283, %279, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %285 = stablehlo.multiply %284, %29 : tensor<2x2x256xf32>
    %286 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %287 = stablehlo.select %13, %285, %286 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %288 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %289 = stablehlo.reduce(%287 init: %288) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %290 = stablehlo.broadcast_in_dim %289, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %291 = stablehlo.subtract %287, %290 : tensor<2x2x256xf32>
    %292 = stablehlo.exponential %291 : tensor<2x2x256xf32>
    %293 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %294 = stablehlo.reduce(%292 init: %293) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %295 = stablehlo.broadcast_in_dim %294, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %296 = stablehlo.divide %292, %295 : tensor<2x2x256xf32>
    %297 = stablehlo.dot_general %296, %281, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %298 = stablehlo.reshape %297 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 1: write K/V at pos, attend to 0..=pos
    %299 = stablehlo.slice %265 [1:2, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %300 = stablehlo.reshape %299 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %301 = stablehlo.slice %270 [1:2, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %302 = stablehlo.reshape %301 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %303 = stablehlo.dynamic_update_slice %112, %300, %271, %6, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %304 = stablehlo.dynamic_update_slice %303, %302, %271, %7, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %305 = stablehlo.slice %304 [1:2, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %306 = stablehlo.reshape %305 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %307 = stablehlo.slice %304 [1:2, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %308 = stablehlo.reshape %307 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %309 = stablehlo.slice %249 [1:2, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %310 = stablehlo.reshape %309 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %311 = stablehlo.dot_general %310, %306, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %312 = stablehlo.multiply %311, %29 : tensor<2x2x256xf32>
    %313 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %314 = stablehlo.select %18, %312, %313 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %315 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %316 = stablehlo.reduce(%314 init: %315) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %317 = stablehlo.broadcast_in_dim %316, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %318 = stablehlo.subtract %314, %317 : tensor<2x2x256xf32>
    %319 = stablehlo.exponential %318 : tensor<2x2x256xf32>
    %320 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %321 = stablehlo.reduce(%319 init: %320) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %322 = stablehlo.broadcast_in_dim %321, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %323 = stablehlo.divide %319, %322 : tensor<2x2x256xf32>
    %324 = stablehlo.dot_general %323, %308, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %325 = stablehlo.reshape %324 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 2: write K/V at pos, attend to 0..=pos
    %326 = stablehlo.slice %265 [2:3, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %327 = stablehlo.reshape %326 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %328 = stablehlo.slice %270 [2:3, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %329 = stablehlo.reshape %328 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %330 = stablehlo.dynamic_update_slice %139, %327, %271, %6, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %331 = stablehlo.dynamic_update_slice %330, %329, %271, %7, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %332 = stablehlo.slice %331 [1:2, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %333 = stablehlo.reshape %332 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %334 = stablehlo.slice %331 [1:2, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %335 = stablehlo.reshape %334 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %336 = stablehlo.slice %249 [2:3, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %337 = stablehlo.reshape %336 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %338 = stablehlo.dot_general %337, %333, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %339 = stablehlo.multiply %338, %29 : tensor<2x2x256xf32>
    %340 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %341 = stablehlo.select %23, %339, %340 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %342 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %343 = stablehlo.reduce(%341 init: %342) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %344 = stablehlo.broadcast_in_dim %343, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %345 = stablehlo.subtract %341, %344 : tensor<2x2x256xf32>
    %346 = stablehlo.exponential %345 : tensor<2x2x256xf32>
    %347 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %348 = stablehlo.reduce(%346 init: %347) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %349 = stablehlo.broadcast_in_dim %348, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %350 = stablehlo.divide %346, %349 : tensor<2x2x256xf32>
    %351 = stablehlo.dot_general %350, %335, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %352 = stablehlo.reshape %351 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 3: write K/V at pos, attend to 0..=pos
    %353 = stablehlo.slice %265 [3:4, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %354 = stablehlo.reshape %353 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %355 = stablehlo.slice %270 [3:4, 0:2, 0:16] : (tensor<4x2x16xf32>) -> tensor<1x2x16xf32>
    %356 = stablehlo.reshape %355 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %357 = stablehlo.dynamic_update_slice %166, %354, %271, %6, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %358 = stablehlo.dynamic_update_slice %357, %356, %271, %7, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %359 = stablehlo.slice %358 [1:2, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %360 = stablehlo.reshape %359 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %361 = stablehlo.slice %358 [1:2, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %362 = stablehlo.reshape %361 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %363 = stablehlo.slice %249 [3:4, 0:4, 0:16] : (tensor<4x4x16xf32>) -> tensor<1x4x16xf32>
    %364 = stablehlo.reshape %363 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %365 = stablehlo.dot_general %364, %360, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %366 = stablehlo.multiply %365, %29 : tensor<2x2x256xf32>
    %367 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %368 = stablehlo.select %28, %366, %367 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %369 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %370 = stablehlo.reduce(%368 init: %369) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %371 = stablehlo.broadcast_in_dim %370, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %372 = stablehlo.subtract %368, %371 : tensor<2x2x256xf32>
    %373 = stablehlo.exponential %372 : tensor<2x2x256xf32>
    %374 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %375 = stablehlo.reduce(%373 init: %374) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %376 = stablehlo.broadcast_in_dim %375, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %377 = stablehlo.divide %373, %376 : tensor<2x2x256xf32>
    %378 = stablehlo.dot_general %377, %362, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %379 = stablehlo.reshape %378 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %380 = stablehlo.concatenate %298, %325, %352, %379, dim = 0 : (tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<4x64xf32>
    %381 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %382 = stablehlo.concatenate %380, %381, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %383 = stablehlo.dot_general %382, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %384 = stablehlo.slice %383 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %385 = stablehlo.add %221, %384 : tensor<4x64xf32>
    // layer 1: MLP
    %386 = stablehlo.multiply %385, %385 : tensor<4x64xf32>
    %387 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %388 = stablehlo.reduce(%386 init: %387) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %389 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %390 = stablehlo.divide %388, %389 : tensor<4xf32>
    %391 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %392 = stablehlo.add %390, %391 : tensor<4xf32>
    %393 = stablehlo.rsqrt %392 : tensor<4xf32>
    %394 = stablehlo.broadcast_in_dim %393, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %395 = stablehlo.multiply %385, %394 : tensor<4x64xf32>
    %396 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %397 = stablehlo.multiply %395, %396 : tensor<4x64xf32>
    %398 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %399 = stablehlo.concatenate %397, %398, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %400 = stablehlo.dot_general %399, %arg16, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %401 = stablehlo.slice %400 [0:4, 0:128] : (tensor<8x128xf32>) -> tensor<4x128xf32>
    %402 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %403 = stablehlo.concatenate %397, %402, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %404 = stablehlo.dot_general %403, %arg17, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %405 = stablehlo.slice %404 [0:4, 0:128] : (tensor<8x128xf32>) -> tensor<4x128xf32>
    %406 = stablehlo.logistic %401 : tensor<4x128xf32>
    %407 = stablehlo.multiply %401, %406 : tensor<4x128xf32>
    %408 = stablehlo.multiply %407, %405 : tensor<4x128xf32>
    %409 = stablehlo.constant dense<0.0e0> : tensor<4x128xf32>
    %410 = stablehlo.concatenate %408, %409, dim = 0 : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<8x128xf32>
    %411 = stablehlo.dot_general %410, %arg18, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %412 = stablehlo.slice %411 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %413 = stablehlo.add %385, %412 : tensor<4x64xf32>
    %414 = stablehlo.multiply %413, %413 : tensor<4x64xf32>
    %415 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %416 = stablehlo.reduce(%414 init: %415) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %417 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %418 = stablehlo.divide %416, %417 : tensor<4xf32>
    %419 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %420 = stablehlo.add %418, %419 : tensor<4xf32>
    %421 = stablehlo.rsqrt %420 : tensor<4xf32>
    %422 = stablehlo.broadcast_in_dim %421, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %423 = stablehlo.multiply %413, %422 : tensor<4x64xf32>
    %424 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %425 = stablehlo.multiply %423, %424 : tensor<4x64xf32>
    %426 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %427 = stablehlo.concatenate %425, %426, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %428 = stablehlo.dot_general %427, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %429 = stablehlo.slice %428 [0:4, 0:512] : (tensor<8x512xf32>) -> tensor<4x512xf32>
    // sampling: argmax(logits / T + Gumbel noise), or argmax(logits) where T = 0
    %430 = stablehlo.slice %arg30 [0:4, 0:1] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %431 = stablehlo.reshape %430 : (tensor<4x1xi32>) -> tensor<4xi32>
    %432 = stablehlo.broadcast_in_dim %431, dims = [0] : (tensor<4xi32>) -> tensor<4x512xi32>
    %433 = stablehlo.slice %arg30 [0:4, 1:2] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %434 = stablehlo.reshape %433 : (tensor<4x1xi32>) -> tensor<4xi32>
    %435 = stablehlo.broadcast_in_dim %434, dims = [0] : (tensor<4xi32>) -> tensor<4x512xi32>
    %436 = stablehlo.iota dim = 1 : tensor<4x512xi32>
    %437 = stablehlo.xor %436, %432 : tensor<4x512xi32>
    %438 = stablehlo.constant dense<16> : tensor<4x512xi32>
    %439 = stablehlo.constant dense<15> : tensor<4x512xi32>
    %440 = stablehlo.constant dense<2146121005> : tensor<4x512xi32>
    %441 = stablehlo.constant dense<-2073254261> : tensor<4x512xi32>
    %442 = stablehlo.shift_right_logical %437, %438 : tensor<4x512xi32>
    %443 = stablehlo.xor %437, %442 : tensor<4x512xi32>
    %444 = stablehlo.multiply %443, %440 : tensor<4x512xi32>
    %445 = stablehlo.shift_right_logical %444, %439 : tensor<4x512xi32>
    %446 = stablehlo.xor %444, %445 : tensor<4x512xi32>
    %447 = stablehlo.multiply %446, %441 : tensor<4x512xi32>
    %448 = stablehlo.shift_right_logical %447, %438 : tensor<4x512xi32>
    %449 = stablehlo.xor %447, %448 : tensor<4x512xi32>
    %450 = stablehlo.add %449, %435 : tensor<4x512xi32>
    %451 = stablehlo.constant dense<16> : tensor<4x512xi32>
    %452 = stablehlo.constant dense<15> : tensor<4x512xi32>
    %453 = stablehlo.constant dense<2146121005> : tensor<4x512xi32>
    %454 = stablehlo.constant dense<-2073254261> : tensor<4x512xi32>
    %455 = stablehlo.shift_right_logical %450, %451 : tensor<4x512xi32>
    %456 = stablehlo.xor %450, %455 : tensor<4x512xi32>
    %457 = stablehlo.multiply %456, %453 : tensor<4x512xi32>
    %458 = stablehlo.shift_right_logical %457, %452 : tensor<4x512xi32>
    %459 = stablehlo.xor %457, %458 : tensor<4x512xi32>
    %460 = stablehlo.multiply %459, %454 : tensor<4x512xi32>
    %461 = stablehlo.shift_right_logical %460, %451 : tensor<4x512xi32>
    %462 = stablehlo.xor %460, %461 : tensor<4x512xi32>
    %463 = stablehlo.constant dense<9> : tensor<4x512xi32>
    %464 = stablehlo.shift_right_logical %462, %463 : tensor<4x512xi32>
    %465 = stablehlo.convert %464 : (tensor<4x512xi32>) -> tensor<4x512xf32>
    %466 = stablehlo.constant dense<5.0e-1> : tensor<4x512xf32>
    %467 = stablehlo.constant dense<1.1920929e-7> : tensor<4x512xf32>
    %468 = stablehlo.add %465, %466 : tensor<4x512xf32>
    %469 = stablehlo.multiply %468, %467 : tensor<4x512xf32>
    %470 = stablehlo.log %469 : tensor<4x512xf32>
    %471 = stablehlo.negate %470 : tensor<4x512xf32>
    %472 = stablehlo.log %471 : tensor<4x512xf32>
    %473 = stablehlo.negate %472 : tensor<4x512xf32>
    %474 = stablehlo.constant dense<0.0e0> : tensor<4xf32>
    %475 = stablehlo.constant dense<1.0e0> : tensor<4xf32>
    %476 = stablehlo.compare GT, %arg29, %474 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %477 = stablehlo.select %476, %arg29, %475 : tensor<4xi1>, tensor<4xf32>
    %478 = stablehlo.broadcast_in_dim %477, dims = [0] : (tensor<4xf32>) -> tensor<4x512xf32>
    %479 = stablehlo.divide %429, %478 : tensor<4x512xf32>
    %480 = stablehlo.add %479, %473 : tensor<4x512xf32>
    %481 = stablehlo.broadcast_in_dim %476, dims = [0] : (tensor<4xi1>) -> tensor<4x512xi1>
    %482 = stablehlo.select %481, %480, %429 : tensor<4x512xi1>, tensor<4x512xf32>
    %483 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %484 = stablehlo.reduce(%482 init: %483) applies stablehlo.maximum across dimensions = [1] : (tensor<4x512xf32>, tensor<f32>) -> tensor<4xf32>
    %485 = stablehlo.broadcast_in_dim %484, dims = [0] : (tensor<4xf32>) -> tensor<4x512xf32>
    %486 = stablehlo.compare EQ, %482, %485 : (tensor<4x512xf32>, tensor<4x512xf32>) -> tensor<4x512xi1>
    %487 = stablehlo.iota dim = 1 : tensor<4x512xi32>
    %488 = stablehlo.convert %487 : (tensor<4x512xi32>) -> tensor<4x512xf32>
    %489 = stablehlo.constant dense<5.12e2> : tensor<4x512xf32>
    %490 = stablehlo.select %486, %488, %489 : tensor<4x512xi1>, tensor<4x512xf32>
    %491 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %492 = stablehlo.reduce(%490 init: %491) applies stablehlo.minimum across dimensions = [1] : (tensor<4x512xf32>, tensor<f32>) -> tensor<4xf32>
    %493 = stablehlo.convert %492 : (tensor<4xf32>) -> tensor<4xi32>
    return %493, %277, %304, %331, %358, %429 : tensor<4xi32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<4x512xf32>
  }
}

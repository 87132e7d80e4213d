// decode_argmax_b1: emitted by iree-llm 0.1.0 (graph format 1).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_argmax_b1 {
  func.func @decode_argmax_b1(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<1xi32>, %arg25: tensor<1xi32>) -> (tensor<1xi32>, tensor<2x2x2x256x16xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg24 : (tensor<1xi32>) -> tensor<1x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<1x1xi32>) -> tensor<1x64xf32>
    %2 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<1x1xi32>
    %3 = "stablehlo.gather"(%arg21, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    %4 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<1x1xi32>
    %5 = "stablehlo.gather"(%arg22, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    // per row: its position as a scalar and its visibility mask (key s <= pos) over the window
    %6 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.iota dim = 0 : tensor<256xi32>
    %9 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<i32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %11 = stablehlo.compare LE, %8, %10 : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi1>
    %12 = stablehlo.broadcast_in_dim %11, dims = [2] : (tensor<256xi1>) -> tensor<2x2x256xi1>
    %13 = stablehlo.constant dense<2.5e-1> : tensor<2x2x256xf32>
    // layer 0: projections for all rows
    %14 = stablehlo.multiply %1, %1 : tensor<1x64xf32>
    %15 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %16 = stablehlo.reduce(%14 init: %15) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %17 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %18 = stablehlo.divide %16, %17 : tensor<1xf32>
    %19 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %20 = stablehlo.add %18, %19 : tensor<1xf32>
    %21 = stablehlo.rsqrt %20 : tensor<1xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %23 = stablehlo.multiply %1, %22 : tensor<1x64xf32>
    %24 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %25 = stablehlo.multiply %23, %24 : tensor<1x64xf32>
    %26 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %27 = stablehlo.concatenate %25, %26, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %28 = stablehlo.dot_general %27, %arg2, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %29 = stablehlo.slice %28 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %30 = stablehlo.reshape %29 : (tensor<1x64xf32>) -> tensor<1x4x16xf32>
    %31 = stablehlo.slice %30 [0:1, 0:4, 0:8] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %32 = stablehlo.slice %30 [0:1, 0:4, 8:16] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %33 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %34 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %35 = stablehlo.multiply %31, %33 : tensor<1x4x8xf32>
    %36 = stablehlo.multiply %32, %34 : tensor<1x4x8xf32>
    %37 = stablehlo.subtract %35, %36 : tensor<1x4x8xf32>
    %38 = stablehlo.multiply %32, %33 : tensor<1x4x8xf32>
    %39 = stablehlo.multiply %31, %34 : tensor<1x4x8xf32>
    %40 = stablehlo.add %38, %39 : tensor<1x4x8xf32>
    %41 = stablehlo.concatenate %37, %40, dim = 2 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x16xf32>
    %42 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %43 = stablehlo.concatenate %25, %42, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %44 = stablehlo.dot_general %43, %arg3, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %45 = stablehlo.slice %44 [0:1, 0:32] : (tensor<8x32xf32>) -> tensor<1x32xf32>
    %46 = stablehlo.reshape %45 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %47 = stablehlo.slice %46 [0:1, 0:2, 0:8] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %48 = stablehlo.slice %46 [0:1, 0:2, 8:16] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %49 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %50 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %51 = stablehlo.multiply %47, %49 : tensor<1x2x8xf32>
    %52 = stablehlo.multiply %48, %50 : tensor<1x2x8xf32>
    %53 = stablehlo.subtract %51, %52 : tensor<1x2x8xf32>
    %54 = stablehlo.multiply %48, %49 : tensor<1x2x8xf32>
    %55 = stablehlo.multiply %47, %50 : tensor<1x2x8xf32>
    %56 = stablehlo.add %54, %55 : tensor<1x2x8xf32>
    %57 = stablehlo.concatenate %53, %56, dim = 2 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x16xf32>
    %58 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %59 = stablehlo.concatenate %25, %58, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %60 = stablehlo.dot_general %59, %arg4, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %61 = stablehlo.slice %60 [0:1, 0:32] : (tensor<8x32xf32>) -> tensor<1x32xf32>
    %62 = stablehlo.reshape %61 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %63 = stablehlo.constant dense<0> : tensor<i32>
    // layer 0, row 0: write K/V at pos, attend to 0..=pos
    %64 = stablehlo.reshape %57 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %65 = stablehlo.reshape %62 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %66 = stablehlo.dynamic_update_slice %arg23, %64, %63, %6, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %67 = stablehlo.dynamic_update_slice %66, %65, %63, %7, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %68 = stablehlo.slice %67 [0:1, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %69 = stablehlo.reshape %68 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %70 = stablehlo.slice %67 [0:1, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %71 = stablehlo.reshape %70 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %72 = stablehlo.reshape %41 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %73 = stablehlo.dot_general %72, %69, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %74 = stablehlo.multiply %73, %13 : tensor<2x2x256xf32>
    %75 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %76 = stablehlo.select %12, %74, %75 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %77 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %78 = stablehlo.reduce(%76 init: %77) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %80 = stablehlo.subtract %76, %79 : tensor<2x2x256xf32>
    %81 = stablehlo.exponential %80 : tensor<2x2x256xf32>
    %82 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %83 = stablehlo.reduce(%81 init: %82) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %85 = stablehlo.divide %81, %84 : tensor<2x2x256xf32>
    %86 = stablehlo.dot_general %85, %71, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %87 = stablehlo.reshape %86 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %88 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %89 = stablehlo.concatenate %87, %88, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %90 = stablehlo.dot_general %89, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %91 = stablehlo.slice %90 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %92 = stablehlo.add %1, %91 : tensor<1x64xf32>
    // layer 0: MLP
    %93 = stablehlo.multiply %92, %92 : tensor<1x64xf32>
    %94 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %95 = stablehlo.reduce(%93 init: %94) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %96 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %97 = stablehlo.divide %95, %96 : tensor<1xf32>
    %98 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %99 = stablehlo.add %97, %98 : tensor<1xf32>
    %100 = stablehlo.rsqrt %99 : tensor<1xf32>
    %101 = stablehlo.broadcast_in_dim %100, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %102 = stablehlo.multiply %92, %101 : tensor<1x64xf32>
    %103 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %104 = stablehlo.multiply %102, %103 : tensor<1x64xf32>
    %105 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %106 = stablehlo.concatenate %104, %105, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %107 = stablehlo.dot_general %106, %arg7, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %108 = stablehlo.slice %107 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %109 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %110 = stablehlo.concatenate %104, %109, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %111 = stablehlo.dot_general %110, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %112 = stablehlo.slice %111 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %113 = stablehlo.logistic %108 : tensor<1x128xf32>
    %114 = stablehlo.multiply %108, %113 : tensor<1x128xf32>
    %115 = stablehlo.multiply %114, %112 : tensor<1x128xf32>
    %116 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %117 = stablehlo.concatenate %115, %116, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %118 = stablehlo.dot_general %117, %arg9, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %119 = stablehlo.slice %118 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %120 = stablehlo.add %92, %119 : tensor<1x64xf32>
    // layer 1: projections for all rows
    %121 = stablehlo.multiply %120, %120 : tensor<1x64xf32>
    %122 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %123 = stablehlo.reduce(%121 init: %122) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %124 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %125 = stablehlo.divide %123, %124 : tensor<1xf32>
    %126 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %127 = stablehlo.add %125, %126 : tensor<1xf32>
    %128 = stablehlo.rsqrt %127 : tensor<1xf32>
    %129 = stablehlo.broadcast_in_dim %128, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %130 = stablehlo.multiply %120, %129 : tensor<1x64xf32>
    %131 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %132 = stablehlo.multiply %130, %131 : tensor<1x64xf32>
    %133 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %134 = stablehlo.concatenate %132, %133, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %135 = stablehlo.dot_general %134, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %136 = stablehlo.slice %135 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %137 = stablehlo.reshape %136 : (tensor<1x64xf32>) -> tensor<1x4x16xf32>
    %138 = stablehlo.slice %137 [0:1, 0:4, 0:8] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %139 = stablehlo.slice %137 [0:1, 0:4, 8:16] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %140 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %141 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %142 = stablehlo.multiply %138, %140 : tensor<1x4x8xf32>
    %143 = stablehlo.multiply %139, %141 : tensor<1x4x8xf32>
    %144 = stablehlo.subtract %142, %143 : tensor<1x4x8xf32>
    %145 = stablehlo.multiply %139, %140 : tensor<1x4x8xf32>
    %146 = stablehlo.multiply %138, %141 : tensor<1x4x8xf32>
    %147 = stablehlo.add %145, %146 : tensor<1x4x8xf32>
    %148 = stablehlo.concatenate %144, %147, dim = 2 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x16xf32>
    %149 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %150 = stablehlo.concatenate %132, %149, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %151 = stablehlo.dot_general %150, %arg12, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %152 = stablehlo.slice %151 [0:1, 0:32] : (tensor<8x32xf32>) -> tensor<1x32xf32>
    %153 = stablehlo.reshape %152 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %154 = stablehlo.slice %153 [0:1, 0:2, 0:8] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %155 = stablehlo.slice %153 [0:1, 0:2, 8:16] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %156 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %157 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %158 = stablehlo.multiply %154, %156 : tensor<1x2x8xf32>
    %159 = stablehlo.multiply %155, %157 : tensor<1x2x8xf32>
    %160 = stablehlo.subtract %158, %159 : tensor<1x2x8xf32>
    %161 = stablehlo.multiply %155, %156 : tensor<1x2x8xf32>
    %162 = stablehlo.multiply %154, %157 : tensor<1x2x8xf32>
    %163 = stablehlo.add %161, %162 : tensor<1x2x8xf32>
    %164 = stablehlo.concatenate %160, %163, dim = 2 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x16xf32>
    %165 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %166 = stablehlo.concatenate %132, %165, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %167 = stablehlo.dot_general %166, %arg13, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %168 = stablehlo.slice %167 [0:1, 0:32] : (tensor<8x32xf32>) -> tensor<1x32xf32>
    %169 = stablehlo.reshape %168 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %170 = stablehlo.constant dense<1> : tensor<i32>
    // layer 1, row 0: write K/V at pos, attend to 0..=pos
    %171 = stablehlo.reshape %164 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %172 = stablehlo.reshape %169 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %173 = stablehlo.dynamic_update_slice %67, %171, %170, %6, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %174 = stablehlo.dynamic_update_slice %173, %172, %170, %7, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %175 = stablehlo.slice %174 [1:2, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %176 = stablehlo.reshape %175 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %177 = stablehlo.slice %174 [1:2, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %178 = stablehlo.reshape %177 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %179 = stablehlo.reshape %148 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %180 = stablehlo.dot_general %179, %176, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %181 = stablehlo.multiply %180, %13 : tensor<2x2x256xf32>
    %182 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %183 = stablehlo.select %12, %181, %182 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %184 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %185 = stablehlo.reduce(%183 init: %184) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %186 = stablehlo.broadcast_in_dim %185, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %187 = stablehlo.subtract %183, %186 : tensor<2x2x256xf32>
    %188 = stablehlo.exponential %187 : tensor<2x2x256xf32>
    %189 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %190 = stablehlo.reduce(%188 init: %189) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %192 = stablehlo.divide %188, %191 : tensor<2x2x256xf32>
    %193 = stablehlo.dot_general %192, %178, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %194 = stablehlo.reshape %193 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %195 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %196 = stablehlo.concatenate %194, %195, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %197 = stablehlo.dot_general %196, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %198 = stablehlo.slice %197 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %199 = stablehlo.add %120, %198 : tensor<1x64xf32>
    // layer 1: MLP
    %200 = stablehlo.multiply %199, %199 : tensor<1x64xf32>
    %201 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %202 = stablehlo.reduce(%200 init: %201) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %203 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %204 = stablehlo.divide %202, %203 : tensor<1xf32>
    %205 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %206 = stablehlo.add %204, %205 : tensor<1xf32>
    %207 = stablehlo.rsqrt %206 : tensor<1xf32>
    %208 = stablehlo.broadcast_in_dim %207, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %209 = stablehlo.multiply %199, %208 : tensor<1x64xf32>
    %210 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %211 = stablehlo.multiply %209, %210 : tensor<1x64xf32>
    %212 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %213 = stablehlo.concatenate %211, %212, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %214 = stablehlo.dot_general %213, %arg16, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %215 = stablehlo.slice %214 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %216 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %217 = stablehlo.concatenate %211, %216, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %218 = stablehlo.dot_general %217, %arg17, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %219 = stablehlo.slice %218 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %220 = stablehlo.logistic %215 : tensor<1x128xf32>
    %221 = stablehlo.multiply %215, %220 : tensor<1x128xf32>
    %222 = stablehlo.multiply %221, %219 : tensor<1x128xf32>
    %223 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %224 = stablehlo.concatenate %222, %223, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %225 = stablehlo.dot_general %224, %arg18, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %226 = stablehlo.slice %225 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %227 = stablehlo.add %199, %226 : tensor<1x64xf32>
    %228 = stablehlo.multiply %227, %227 : tensor<1x64xf32>
    %229 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %230 = stablehlo.reduce(%228 init: %229) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %231 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %232 = stablehlo.divide %230, %231 : tensor<1xf32>
    %233 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %234 = stablehlo.add %232, %233 : tensor<1xf32>
    %235 = stablehlo.rsqrt %234 : tensor<1xf32>
    %236 = stablehlo.broadcast_in_dim %235, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %237 = stablehlo.multiply %227, %236 : tensor<1x64xf32>
    %238 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %239 = stablehlo.multiply %237, %238 : tensor<1x64xf32>
    %240 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %241 = stablehlo.concatenate %239, %240, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %242 = stablehlo.dot_general %241, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %243 = stablehlo.slice %242 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %244 = stablehlo.iota dim = 1 : tensor<1x512xi32>
    %245 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %246 = stablehlo.constant dense<0> : tensor<i32>
    %247:2 = stablehlo.reduce(%243 init: %245), (%244 init: %246) across dimensions = [1] : (tensor<1x512xf32>, tensor<1x512xi32>, tensor<f32>, tensor<i32>) -> (tensor<1xf32>, tensor<1xi32>)
     reducer(%lhs_v: tensor<f32>, %rhs_v: tensor<f32>) (%lhs_i: tensor<i32>, %rhs_i: tensor<i32>) {
      %gt = stablehlo.compare GT, %lhs_v, %rhs_v : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %eq = stablehlo.compare EQ, %lhs_v, %rhs_v : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare LT, %lhs_i, %rhs_i : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %pick = stablehlo.or %gt, %tie : tensor<i1>
      %v = stablehlo.select %pick, %lhs_v, %rhs_v : tensor<i1>, tensor<f32>
      %i = stablehlo.select %pick, %lhs_i, %rhs_i : tensor<i1>, tensor<i32>
      stablehlo.return %v, %i : tensor<f32>, tensor<i32>
    }
    return %247#1, %174 : tensor<1xi32>, tensor<2x2x2x256x16xf32>
  }
}

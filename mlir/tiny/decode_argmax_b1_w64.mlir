// decode_argmax_b1_w64: emitted by iree-llm 0.1.0 (graph format 4).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_argmax_b1_w64 {
  func.func @decode_argmax_b1_w64(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<256x64xf32>, %arg6: tensor<64x128xf32>, %arg7: tensor<64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<64xf32>, %arg14: tensor<512x64xf32>, %arg15: tensor<256x8xf32>, %arg16: tensor<256x8xf32>, %arg17: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg18: tensor<1xi32>, %arg19: tensor<1xi32>) -> (tensor<1xi32>, tensor<2x2x2x256x16xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg18 : (tensor<1xi32>) -> tensor<1x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<1x1xi32>) -> tensor<1x64xf32>
    %2 = stablehlo.reshape %arg19 : (tensor<1xi32>) -> tensor<1x1xi32>
    %3 = "stablehlo.gather"(%arg15, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    %4 = stablehlo.reshape %arg19 : (tensor<1xi32>) -> tensor<1x1xi32>
    %5 = "stablehlo.gather"(%arg16, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    // each row sees the cached keys before its position: s < pos[i]
    %6 = stablehlo.iota dim = 1 : tensor<1x64xi32>
    %7 = stablehlo.broadcast_in_dim %arg19, dims = [0] : (tensor<1xi32>) -> tensor<1x64xi32>
    %8 = stablehlo.compare LT, %6, %7 : (tensor<1x64xi32>, tensor<1x64xi32>) -> tensor<1x64xi1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 3] : (tensor<1x64xi1>) -> tensor<1x2x2x64xi1>
    %10 = stablehlo.reshape %9 : (tensor<1x2x2x64xi1>) -> tensor<2x2x64xi1>
    %11 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %12 = stablehlo.constant dense<2.5e-1> : tensor<2x2x64xf32>
    %13 = stablehlo.constant dense<2.5e-1> : tensor<2x2xf32>
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
    %28 = stablehlo.dot_general %27, %arg2, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %29 = stablehlo.slice %28 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %30 = stablehlo.reshape %29 : (tensor<1x128xf32>) -> tensor<1x8x16xf32>
    %31 = stablehlo.slice %30 [0:1, 0:6, 0:16] : (tensor<1x8x16xf32>) -> tensor<1x6x16xf32>
    %32 = stablehlo.reshape %31 : (tensor<1x6x16xf32>) -> tensor<1x6x2x8xf32>
    %33 = "stablehlo.reverse"(%32) {dimensions = array<i64: 2>} : (tensor<1x6x2x8xf32>) -> tensor<1x6x2x8xf32>
    %34 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<1x8xf32>) -> tensor<1x6x2x8xf32>
    %35 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<1x8xf32>) -> tensor<1x6x2x8xf32>
    %36 = stablehlo.iota dim = 2 : tensor<1x6x2x8xi32>
    %37 = stablehlo.convert %36 : (tensor<1x6x2x8xi32>) -> tensor<1x6x2x8xf32>
    %38 = stablehlo.constant dense<2.0e0> : tensor<1x6x2x8xf32>
    %39 = stablehlo.constant dense<1.0e0> : tensor<1x6x2x8xf32>
    %40 = stablehlo.multiply %37, %38 : tensor<1x6x2x8xf32>
    %41 = stablehlo.subtract %40, %39 : tensor<1x6x2x8xf32>
    %42 = stablehlo.multiply %35, %41 : tensor<1x6x2x8xf32>
    %43 = stablehlo.multiply %32, %34 : tensor<1x6x2x8xf32>
    %44 = stablehlo.multiply %33, %42 : tensor<1x6x2x8xf32>
    %45 = stablehlo.add %43, %44 : tensor<1x6x2x8xf32>
    %46 = stablehlo.reshape %45 : (tensor<1x6x2x8xf32>) -> tensor<1x6x16xf32>
    %47 = stablehlo.slice %46 [0:1, 0:4, 0:16] : (tensor<1x6x16xf32>) -> tensor<1x4x16xf32>
    %48 = stablehlo.slice %46 [0:1, 4:6, 0:16] : (tensor<1x6x16xf32>) -> tensor<1x2x16xf32>
    %49 = stablehlo.slice %30 [0:1, 6:8, 0:16] : (tensor<1x8x16xf32>) -> tensor<1x2x16xf32>
    // layer 0: every row attends to its cached positions and its own K/V
    %50 = stablehlo.slice %arg17 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %51 = stablehlo.reshape %50 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %52 = stablehlo.slice %arg17 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %53 = stablehlo.reshape %52 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %54 = stablehlo.reshape %47 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %55 = stablehlo.reshape %48 : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
    %56 = stablehlo.reshape %49 : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
    %57 = stablehlo.dot_general %54, %51, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %58 = stablehlo.multiply %57, %12 : tensor<2x2x64xf32>
    %59 = stablehlo.select %10, %58, %11 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %60 = stablehlo.dot_general %54, %55, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x16xf32>, tensor<2x16xf32>) -> tensor<2x2xf32>
    %61 = stablehlo.multiply %60, %13 : tensor<2x2xf32>
    %62 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %63 = stablehlo.reduce(%59 init: %62) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %64 = stablehlo.maximum %63, %61 : tensor<2x2xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %66 = stablehlo.subtract %59, %65 : tensor<2x2x64xf32>
    %67 = stablehlo.exponential %66 : tensor<2x2x64xf32>
    %68 = stablehlo.subtract %61, %64 : tensor<2x2xf32>
    %69 = stablehlo.exponential %68 : tensor<2x2xf32>
    %70 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %71 = stablehlo.reduce(%67 init: %70) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %72 = stablehlo.add %71, %69 : tensor<2x2xf32>
    %73 = stablehlo.dot_general %67, %53, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %74 = stablehlo.broadcast_in_dim %69, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x16xf32>
    %75 = stablehlo.broadcast_in_dim %56, dims = [0, 2] : (tensor<2x16xf32>) -> tensor<2x2x16xf32>
    %76 = stablehlo.multiply %74, %75 : tensor<2x2x16xf32>
    %77 = stablehlo.add %73, %76 : tensor<2x2x16xf32>
    %78 = stablehlo.broadcast_in_dim %72, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x16xf32>
    %79 = stablehlo.divide %77, %78 : tensor<2x2x16xf32>
    %80 = stablehlo.reshape %48 : (tensor<1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %81 = stablehlo.reshape %49 : (tensor<1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %82 = stablehlo.reshape %79 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %83 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %84 = stablehlo.concatenate %82, %83, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %85 = stablehlo.dot_general %84, %arg3, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %86 = stablehlo.slice %85 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %87 = stablehlo.add %1, %86 : tensor<1x64xf32>
    // layer 0: MLP
    %88 = stablehlo.multiply %87, %87 : tensor<1x64xf32>
    %89 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %90 = stablehlo.reduce(%88 init: %89) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %91 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %92 = stablehlo.divide %90, %91 : tensor<1xf32>
    %93 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %94 = stablehlo.add %92, %93 : tensor<1xf32>
    %95 = stablehlo.rsqrt %94 : tensor<1xf32>
    %96 = stablehlo.broadcast_in_dim %95, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %97 = stablehlo.multiply %87, %96 : tensor<1x64xf32>
    %98 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %99 = stablehlo.multiply %97, %98 : tensor<1x64xf32>
    %100 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %101 = stablehlo.concatenate %99, %100, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %102 = stablehlo.dot_general %101, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<256x64xf32>) -> tensor<8x256xf32>
    %103 = stablehlo.slice %102 [0:1, 0:256] : (tensor<8x256xf32>) -> tensor<1x256xf32>
    %104 = stablehlo.slice %103 [0:1, 0:128] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %105 = stablehlo.slice %103 [0:1, 128:256] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %106 = stablehlo.logistic %104 : tensor<1x128xf32>
    %107 = stablehlo.multiply %104, %106 : tensor<1x128xf32>
    %108 = stablehlo.multiply %107, %105 : tensor<1x128xf32>
    %109 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %110 = stablehlo.concatenate %108, %109, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %111 = stablehlo.dot_general %110, %arg6, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %112 = stablehlo.slice %111 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %113 = stablehlo.add %87, %112 : tensor<1x64xf32>
    // layer 1: projections for all rows
    %114 = stablehlo.multiply %113, %113 : tensor<1x64xf32>
    %115 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %116 = stablehlo.reduce(%114 init: %115) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %117 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %118 = stablehlo.divide %116, %117 : tensor<1xf32>
    %119 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %120 = stablehlo.add %118, %119 : tensor<1xf32>
    %121 = stablehlo.rsqrt %120 : tensor<1xf32>
    %122 = stablehlo.broadcast_in_dim %121, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %123 = stablehlo.multiply %113, %122 : tensor<1x64xf32>
    %124 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %125 = stablehlo.multiply %123, %124 : tensor<1x64xf32>
    %126 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %127 = stablehlo.concatenate %125, %126, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %128 = stablehlo.dot_general %127, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %129 = stablehlo.slice %128 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %130 = stablehlo.reshape %129 : (tensor<1x128xf32>) -> tensor<1x8x16xf32>
    %131 = stablehlo.slice %130 [0:1, 0:6, 0:16] : (tensor<1x8x16xf32>) -> tensor<1x6x16xf32>
    %132 = stablehlo.reshape %131 : (tensor<1x6x16xf32>) -> tensor<1x6x2x8xf32>
    %133 = "stablehlo.reverse"(%132) {dimensions = array<i64: 2>} : (tensor<1x6x2x8xf32>) -> tensor<1x6x2x8xf32>
    %134 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<1x8xf32>) -> tensor<1x6x2x8xf32>
    %135 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<1x8xf32>) -> tensor<1x6x2x8xf32>
    %136 = stablehlo.iota dim = 2 : tensor<1x6x2x8xi32>
    %137 = stablehlo.convert %136 : (tensor<1x6x2x8xi32>) -> tensor<1x6x2x8xf32>
    %138 = stablehlo.constant dense<2.0e0> : tensor<1x6x2x8xf32>
    %139 = stablehlo.constant dense<1.0e0> : tensor<1x6x2x8xf32>
    %140 = stablehlo.multiply %137, %138 : tensor<1x6x2x8xf32>
    %141 = stablehlo.subtract %140, %139 : tensor<1x6x2x8xf32>
    %142 = stablehlo.multiply %135, %141 : tensor<1x6x2x8xf32>
    %143 = stablehlo.multiply %132, %134 : tensor<1x6x2x8xf32>
    %144 = stablehlo.multiply %133, %142 : tensor<1x6x2x8xf32>
    %145 = stablehlo.add %143, %144 : tensor<1x6x2x8xf32>
    %146 = stablehlo.reshape %145 : (tensor<1x6x2x8xf32>) -> tensor<1x6x16xf32>
    %147 = stablehlo.slice %146 [0:1, 0:4, 0:16] : (tensor<1x6x16xf32>) -> tensor<1x4x16xf32>
    %148 = stablehlo.slice %146 [0:1, 4:6, 0:16] : (tensor<1x6x16xf32>) -> tensor<1x2x16xf32>
    %149 = stablehlo.slice %130 [0:1, 6:8, 0:16] : (tensor<1x8x16xf32>) -> tensor<1x2x16xf32>
    // layer 1: every row attends to its cached positions and its own K/V
    %150 = stablehlo.slice %arg17 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %151 = stablehlo.reshape %150 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %152 = stablehlo.slice %arg17 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %153 = stablehlo.reshape %152 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %154 = stablehlo.reshape %147 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %155 = stablehlo.reshape %148 : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
    %156 = stablehlo.reshape %149 : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
    %157 = stablehlo.dot_general %154, %151, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %158 = stablehlo.multiply %157, %12 : tensor<2x2x64xf32>
    %159 = stablehlo.select %10, %158, %11 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %160 = stablehlo.dot_general %154, %155, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x16xf32>, tensor<2x16xf32>) -> tensor<2x2xf32>
    %161 = stablehlo.multiply %160, %13 : tensor<2x2xf32>
    %162 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %163 = stablehlo.reduce(%159 init: %162) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %164 = stablehlo.maximum %163, %161 : tensor<2x2xf32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %166 = stablehlo.subtract %159, %165 : tensor<2x2x64xf32>
    %167 = stablehlo.exponential %166 : tensor<2x2x64xf32>
    %168 = stablehlo.subtract %161, %164 : tensor<2x2xf32>
    %169 = stablehlo.exponential %168 : tensor<2x2xf32>
    %170 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %171 = stablehlo.reduce(%167 init: %170) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %172 = stablehlo.add %171, %169 : tensor<2x2xf32>
    %173 = stablehlo.dot_general %167, %153, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %174 = stablehlo.broadcast_in_dim %169, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x16xf32>
    %175 = stablehlo.broadcast_in_dim %156, dims = [0, 2] : (tensor<2x16xf32>) -> tensor<2x2x16xf32>
    %176 = stablehlo.multiply %174, %175 : tensor<2x2x16xf32>
    %177 = stablehlo.add %173, %176 : tensor<2x2x16xf32>
    %178 = stablehlo.broadcast_in_dim %172, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x16xf32>
    %179 = stablehlo.divide %177, %178 : tensor<2x2x16xf32>
    %180 = stablehlo.reshape %148 : (tensor<1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %181 = stablehlo.reshape %149 : (tensor<1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %182 = stablehlo.reshape %179 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %183 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %184 = stablehlo.concatenate %182, %183, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %185 = stablehlo.dot_general %184, %arg9, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %186 = stablehlo.slice %185 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %187 = stablehlo.add %113, %186 : tensor<1x64xf32>
    // layer 1: MLP
    %188 = stablehlo.multiply %187, %187 : tensor<1x64xf32>
    %189 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %190 = stablehlo.reduce(%188 init: %189) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %191 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %192 = stablehlo.divide %190, %191 : tensor<1xf32>
    %193 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %194 = stablehlo.add %192, %193 : tensor<1xf32>
    %195 = stablehlo.rsqrt %194 : tensor<1xf32>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %197 = stablehlo.multiply %187, %196 : tensor<1x64xf32>
    %198 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %199 = stablehlo.multiply %197, %198 : tensor<1x64xf32>
    %200 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %201 = stablehlo.concatenate %199, %200, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %202 = stablehlo.dot_general %201, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<256x64xf32>) -> tensor<8x256xf32>
    %203 = stablehlo.slice %202 [0:1, 0:256] : (tensor<8x256xf32>) -> tensor<1x256xf32>
    %204 = stablehlo.slice %203 [0:1, 0:128] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %205 = stablehlo.slice %203 [0:1, 128:256] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %206 = stablehlo.logistic %204 : tensor<1x128xf32>
    %207 = stablehlo.multiply %204, %206 : tensor<1x128xf32>
    %208 = stablehlo.multiply %207, %205 : tensor<1x128xf32>
    %209 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %210 = stablehlo.concatenate %208, %209, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %211 = stablehlo.dot_general %210, %arg12, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %212 = stablehlo.slice %211 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %213 = stablehlo.add %187, %212 : tensor<1x64xf32>
    // write every layer's K/V of row i at pos[i] of slot i
    %214 = stablehlo.concatenate %80, %81, %180, %181, dim = 0 : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<4x1x2x16xf32>
    %215 = stablehlo.reshape %214 : (tensor<4x1x2x16xf32>) -> tensor<8x16xf32>
    %216 = stablehlo.iota dim = 3 : tensor<2x2x2x4xi32>
    %217 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<1xi32>) -> tensor<2x2x1x2x4xi32>
    %218 = stablehlo.reshape %217 : (tensor<2x2x1x2x4xi32>) -> tensor<2x2x2x4xi32>
    %219 = stablehlo.constant dense<2> : tensor<2x2x2x4xi32>
    %220 = stablehlo.compare EQ, %216, %219 : (tensor<2x2x2x4xi32>, tensor<2x2x2x4xi32>) -> tensor<2x2x2x4xi1>
    %221 = stablehlo.iota dim = 2 : tensor<2x2x2x4xi32>
    %222 = stablehlo.select %220, %221, %218 : tensor<2x2x2x4xi1>, tensor<2x2x2x4xi32>
    %223 = stablehlo.constant dense<1> : tensor<2x2x2x4xi32>
    %224 = stablehlo.compare EQ, %216, %223 : (tensor<2x2x2x4xi32>, tensor<2x2x2x4xi32>) -> tensor<2x2x2x4xi1>
    %225 = stablehlo.iota dim = 1 : tensor<2x2x2x4xi32>
    %226 = stablehlo.select %224, %225, %222 : tensor<2x2x2x4xi1>, tensor<2x2x2x4xi32>
    %227 = stablehlo.constant dense<0> : tensor<2x2x2x4xi32>
    %228 = stablehlo.compare EQ, %216, %227 : (tensor<2x2x2x4xi32>, tensor<2x2x2x4xi32>) -> tensor<2x2x2x4xi1>
    %229 = stablehlo.iota dim = 0 : tensor<2x2x2x4xi32>
    %230 = stablehlo.select %228, %229, %226 : tensor<2x2x2x4xi1>, tensor<2x2x2x4xi32>
    %231 = stablehlo.reshape %230 : (tensor<2x2x2x4xi32>) -> tensor<8x4xi32>
    %232 = stablehlo.optimization_barrier %231 : tensor<8x4xi32>
    %233 = "stablehlo.scatter"(%arg17, %232, %215) ({
      ^bb0(%old: tensor<f32>, %new: tensor<f32>):
        stablehlo.return %new : tensor<f32>
    }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1, 2, 3], scatter_dims_to_operand_dims = [0, 1, 2, 3], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = true} : (tensor<2x2x2x256x16xf32>, tensor<8x4xi32>, tensor<8x16xf32>) -> tensor<2x2x2x256x16xf32>
    %234 = stablehlo.multiply %213, %213 : tensor<1x64xf32>
    %235 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %236 = stablehlo.reduce(%234 init: %235) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %237 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %238 = stablehlo.divide %236, %237 : tensor<1xf32>
    %239 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %240 = stablehlo.add %238, %239 : tensor<1xf32>
    %241 = stablehlo.rsqrt %240 : tensor<1xf32>
    %242 = stablehlo.broadcast_in_dim %241, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %243 = stablehlo.multiply %213, %242 : tensor<1x64xf32>
    %244 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %245 = stablehlo.multiply %243, %244 : tensor<1x64xf32>
    %246 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %247 = stablehlo.concatenate %245, %246, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %248 = stablehlo.dot_general %247, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %249 = stablehlo.slice %248 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %250 = stablehlo.iota dim = 1 : tensor<1x512xi32>
    %251 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %252 = stablehlo.constant dense<0> : tensor<i32>
    %253:2 = stablehlo.reduce(%249 init: %251), (%250 init: %252) across dimensions = [1] : (tensor<1x512xf32>, tensor<1x512xi32>, tensor<f32>, tensor<i32>) -> (tensor<1xf32>, tensor<1xi32>)
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
    return %253#1, %233 : tensor<1xi32>, tensor<2x2x2x256x16xf32>
  }
}

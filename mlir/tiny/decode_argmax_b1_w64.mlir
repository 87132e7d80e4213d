// decode_argmax_b1_w64: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_argmax_b1_w64 {
  func.func @decode_argmax_b1_w64(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<1xi32>, %arg25: tensor<1xi32>) -> (tensor<1xi32>, tensor<2x2x2x256x16xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg24 : (tensor<1xi32>) -> tensor<1x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<1x1xi32>) -> tensor<1x64xf32>
    %2 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<1x1xi32>
    %3 = "stablehlo.gather"(%arg21, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    %4 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<1x1xi32>
    %5 = "stablehlo.gather"(%arg22, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    // each row sees the cached keys before its position: s < pos[i]
    %6 = stablehlo.iota dim = 1 : tensor<1x64xi32>
    %7 = stablehlo.broadcast_in_dim %arg25, dims = [0] : (tensor<1xi32>) -> tensor<1x64xi32>
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
    // layer 0: every row attends to its cached positions and its own K/V
    %63 = stablehlo.slice %arg23 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %64 = stablehlo.reshape %63 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %65 = stablehlo.slice %arg23 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %66 = stablehlo.reshape %65 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %67 = stablehlo.reshape %41 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %68 = stablehlo.reshape %57 : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
    %69 = stablehlo.reshape %62 : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
    %70 = stablehlo.dot_general %67, %64, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %71 = stablehlo.multiply %70, %12 : tensor<2x2x64xf32>
    %72 = stablehlo.select %10, %71, %11 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %73 = stablehlo.dot_general %67, %68, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x16xf32>, tensor<2x16xf32>) -> tensor<2x2xf32>
    %74 = stablehlo.multiply %73, %13 : tensor<2x2xf32>
    %75 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %76 = stablehlo.reduce(%72 init: %75) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %77 = stablehlo.maximum %76, %74 : tensor<2x2xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %79 = stablehlo.subtract %72, %78 : tensor<2x2x64xf32>
    %80 = stablehlo.exponential %79 : tensor<2x2x64xf32>
    %81 = stablehlo.subtract %74, %77 : tensor<2x2xf32>
    %82 = stablehlo.exponential %81 : tensor<2x2xf32>
    %83 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %84 = stablehlo.reduce(%80 init: %83) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %85 = stablehlo.add %84, %82 : tensor<2x2xf32>
    %86 = stablehlo.dot_general %80, %66, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %87 = stablehlo.broadcast_in_dim %82, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x16xf32>
    %88 = stablehlo.broadcast_in_dim %69, dims = [0, 2] : (tensor<2x16xf32>) -> tensor<2x2x16xf32>
    %89 = stablehlo.multiply %87, %88 : tensor<2x2x16xf32>
    %90 = stablehlo.add %86, %89 : tensor<2x2x16xf32>
    %91 = stablehlo.broadcast_in_dim %85, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x16xf32>
    %92 = stablehlo.divide %90, %91 : tensor<2x2x16xf32>
    %93 = stablehlo.reshape %57 : (tensor<1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %94 = stablehlo.reshape %62 : (tensor<1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %95 = stablehlo.reshape %92 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %96 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %97 = stablehlo.concatenate %95, %96, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %98 = stablehlo.dot_general %97, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %99 = stablehlo.slice %98 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %100 = stablehlo.add %1, %99 : tensor<1x64xf32>
    // layer 0: MLP
    %101 = stablehlo.multiply %100, %100 : tensor<1x64xf32>
    %102 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %103 = stablehlo.reduce(%101 init: %102) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %104 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %105 = stablehlo.divide %103, %104 : tensor<1xf32>
    %106 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %107 = stablehlo.add %105, %106 : tensor<1xf32>
    %108 = stablehlo.rsqrt %107 : tensor<1xf32>
    %109 = stablehlo.broadcast_in_dim %108, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %110 = stablehlo.multiply %100, %109 : tensor<1x64xf32>
    %111 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %112 = stablehlo.multiply %110, %111 : tensor<1x64xf32>
    %113 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %114 = stablehlo.concatenate %112, %113, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %115 = stablehlo.dot_general %114, %arg7, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %116 = stablehlo.slice %115 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %117 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %118 = stablehlo.concatenate %112, %117, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %119 = stablehlo.dot_general %118, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %120 = stablehlo.slice %119 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %121 = stablehlo.logistic %116 : tensor<1x128xf32>
    %122 = stablehlo.multiply %116, %121 : tensor<1x128xf32>
    %123 = stablehlo.multiply %122, %120 : tensor<1x128xf32>
    %124 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %125 = stablehlo.concatenate %123, %124, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %126 = stablehlo.dot_general %125, %arg9, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %127 = stablehlo.slice %126 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %128 = stablehlo.add %100, %127 : tensor<1x64xf32>
    // layer 1: projections for all rows
    %129 = stablehlo.multiply %128, %128 : tensor<1x64xf32>
    %130 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %131 = stablehlo.reduce(%129 init: %130) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %132 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %133 = stablehlo.divide %131, %132 : tensor<1xf32>
    %134 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %135 = stablehlo.add %133, %134 : tensor<1xf32>
    %136 = stablehlo.rsqrt %135 : tensor<1xf32>
    %137 = stablehlo.broadcast_in_dim %136, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %138 = stablehlo.multiply %128, %137 : tensor<1x64xf32>
    %139 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %140 = stablehlo.multiply %138, %139 : tensor<1x64xf32>
    %141 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %142 = stablehlo.concatenate %140, %141, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %143 = stablehlo.dot_general %142, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %144 = stablehlo.slice %143 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %145 = stablehlo.reshape %144 : (tensor<1x64xf32>) -> tensor<1x4x16xf32>
    %146 = stablehlo.slice %145 [0:1, 0:4, 0:8] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %147 = stablehlo.slice %145 [0:1, 0:4, 8:16] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %148 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %149 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %150 = stablehlo.multiply %146, %148 : tensor<1x4x8xf32>
    %151 = stablehlo.multiply %147, %149 : tensor<1x4x8xf32>
    %152 = stablehlo.subtract %150, %151 : tensor<1x4x8xf32>
    %153 = stablehlo.multiply %147, %148 : tensor<1x4x8xf32>
    %154 = stablehlo.multiply %146, %149 : tensor<1x4x8xf32>
    %155 = stablehlo.add %153, %154 : tensor<1x4x8xf32>
    %156 = stablehlo.concatenate %152, %155, dim = 2 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x16xf32>
    %157 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %158 = stablehlo.concatenate %140, %157, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %159 = stablehlo.dot_general %158, %arg12, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %160 = stablehlo.slice %159 [0:1, 0:32] : (tensor<8x32xf32>) -> tensor<1x32xf32>
    %161 = stablehlo.reshape %160 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %162 = stablehlo.slice %161 [0:1, 0:2, 0:8] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %163 = stablehlo.slice %161 [0:1, 0:2, 8:16] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %164 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %165 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %166 = stablehlo.multiply %162, %164 : tensor<1x2x8xf32>
    %167 = stablehlo.multiply %163, %165 : tensor<1x2x8xf32>
    %168 = stablehlo.subtract %166, %167 : tensor<1x2x8xf32>
    %169 = stablehlo.multiply %163, %164 : tensor<1x2x8xf32>
    %170 = stablehlo.multiply %162, %165 : tensor<1x2x8xf32>
    %171 = stablehlo.add %169, %170 : tensor<1x2x8xf32>
    %172 = stablehlo.concatenate %168, %171, dim = 2 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x16xf32>
    %173 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %174 = stablehlo.concatenate %140, %173, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %175 = stablehlo.dot_general %174, %arg13, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %176 = stablehlo.slice %175 [0:1, 0:32] : (tensor<8x32xf32>) -> tensor<1x32xf32>
    %177 = stablehlo.reshape %176 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    // layer 1: every row attends to its cached positions and its own K/V
    %178 = stablehlo.slice %arg23 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %179 = stablehlo.reshape %178 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %180 = stablehlo.slice %arg23 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %181 = stablehlo.reshape %180 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %182 = stablehlo.reshape %156 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %183 = stablehlo.reshape %172 : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
    %184 = stablehlo.reshape %177 : (tensor<1x2x16xf32>) -> tensor<2x16xf32>
    %185 = stablehlo.dot_general %182, %179, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %186 = stablehlo.multiply %185, %12 : tensor<2x2x64xf32>
    %187 = stablehlo.select %10, %186, %11 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %188 = stablehlo.dot_general %182, %183, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x16xf32>, tensor<2x16xf32>) -> tensor<2x2xf32>
    %189 = stablehlo.multiply %188, %13 : tensor<2x2xf32>
    %190 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %191 = stablehlo.reduce(%187 init: %190) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %192 = stablehlo.maximum %191, %189 : tensor<2x2xf32>
    %193 = stablehlo.broadcast_in_dim %192, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %194 = stablehlo.subtract %187, %193 : tensor<2x2x64xf32>
    %195 = stablehlo.exponential %194 : tensor<2x2x64xf32>
    %196 = stablehlo.subtract %189, %192 : tensor<2x2xf32>
    %197 = stablehlo.exponential %196 : tensor<2x2xf32>
    %198 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %199 = stablehlo.reduce(%195 init: %198) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %200 = stablehlo.add %199, %197 : tensor<2x2xf32>
    %201 = stablehlo.dot_general %195, %181, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %202 = stablehlo.broadcast_in_dim %197, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x16xf32>
    %203 = stablehlo.broadcast_in_dim %184, dims = [0, 2] : (tensor<2x16xf32>) -> tensor<2x2x16xf32>
    %204 = stablehlo.multiply %202, %203 : tensor<2x2x16xf32>
    %205 = stablehlo.add %201, %204 : tensor<2x2x16xf32>
    %206 = stablehlo.broadcast_in_dim %200, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x16xf32>
    %207 = stablehlo.divide %205, %206 : tensor<2x2x16xf32>
    %208 = stablehlo.reshape %172 : (tensor<1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %209 = stablehlo.reshape %177 : (tensor<1x2x16xf32>) -> tensor<1x1x2x16xf32>
    %210 = stablehlo.reshape %207 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %211 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %212 = stablehlo.concatenate %210, %211, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %213 = stablehlo.dot_general %212, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %214 = stablehlo.slice %213 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %215 = stablehlo.add %128, %214 : tensor<1x64xf32>
    // layer 1: MLP
    %216 = stablehlo.multiply %215, %215 : tensor<1x64xf32>
    %217 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %218 = stablehlo.reduce(%216 init: %217) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %219 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %220 = stablehlo.divide %218, %219 : tensor<1xf32>
    %221 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %222 = stablehlo.add %220, %221 : tensor<1xf32>
    %223 = stablehlo.rsqrt %222 : tensor<1xf32>
    %224 = stablehlo.broadcast_in_dim %223, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %225 = stablehlo.multiply %215, %224 : tensor<1x64xf32>
    %226 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %227 = stablehlo.multiply %225, %226 : tensor<1x64xf32>
    %228 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %229 = stablehlo.concatenate %227, %228, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %230 = stablehlo.dot_general %229, %arg16, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %231 = stablehlo.slice %230 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %232 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %233 = stablehlo.concatenate %227, %232, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %234 = stablehlo.dot_general %233, %arg17, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %235 = stablehlo.slice %234 [0:1, 0:128] : (tensor<8x128xf32>) -> tensor<1x128xf32>
    %236 = stablehlo.logistic %231 : tensor<1x128xf32>
    %237 = stablehlo.multiply %231, %236 : tensor<1x128xf32>
    %238 = stablehlo.multiply %237, %235 : tensor<1x128xf32>
    %239 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %240 = stablehlo.concatenate %238, %239, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %241 = stablehlo.dot_general %240, %arg18, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %242 = stablehlo.slice %241 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %243 = stablehlo.add %215, %242 : tensor<1x64xf32>
    // write every layer's K/V of row i at pos[i] of slot i
    %244 = stablehlo.concatenate %93, %94, %208, %209, dim = 0 : (tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>, tensor<1x1x2x16xf32>) -> tensor<4x1x2x16xf32>
    %245 = stablehlo.reshape %244 : (tensor<4x1x2x16xf32>) -> tensor<2x2x2x16xf32>
    %246 = stablehlo.constant dense<0> : tensor<i32>
    %247 = stablehlo.reshape %245 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %248 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<i32>
    %249 = stablehlo.constant dense<0> : tensor<i32>
    %250 = stablehlo.dynamic_update_slice %arg23, %247, %246, %246, %249, %248, %246 : (tensor<2x2x2x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %251 = stablehlo.multiply %243, %243 : tensor<1x64xf32>
    %252 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %253 = stablehlo.reduce(%251 init: %252) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %254 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %255 = stablehlo.divide %253, %254 : tensor<1xf32>
    %256 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %257 = stablehlo.add %255, %256 : tensor<1xf32>
    %258 = stablehlo.rsqrt %257 : tensor<1xf32>
    %259 = stablehlo.broadcast_in_dim %258, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %260 = stablehlo.multiply %243, %259 : tensor<1x64xf32>
    %261 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %262 = stablehlo.multiply %260, %261 : tensor<1x64xf32>
    %263 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %264 = stablehlo.concatenate %262, %263, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %265 = stablehlo.dot_general %264, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %266 = stablehlo.slice %265 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %267 = stablehlo.iota dim = 1 : tensor<1x512xi32>
    %268 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %269 = stablehlo.constant dense<0> : tensor<i32>
    %270:2 = stablehlo.reduce(%266 init: %268), (%267 init: %269) across dimensions = [1] : (tensor<1x512xf32>, tensor<1x512xi32>, tensor<f32>, tensor<i32>) -> (tensor<1xf32>, tensor<1xi32>)
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
    return %270#1, %250 : tensor<1xi32>, tensor<2x2x2x256x16xf32>
  }
}

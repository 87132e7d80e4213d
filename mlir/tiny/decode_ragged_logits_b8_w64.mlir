// decode_ragged_logits_b8_w64: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_ragged_logits_b8_w64 {
  func.func @decode_ragged_logits_b8_w64(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x16x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<8xi32>, %arg25: tensor<8xi32>) -> (tensor<8x512xf32>, tensor<2x2x16x256x16xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg24 : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
    %2 = stablehlo.reshape %arg25 : (tensor<8xi32>) -> tensor<8x1xi32>
    %3 = "stablehlo.gather"(%arg21, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<8x1xi32>) -> tensor<8x8xf32>
    %4 = stablehlo.reshape %arg25 : (tensor<8xi32>) -> tensor<8x1xi32>
    %5 = "stablehlo.gather"(%arg22, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<8x1xi32>) -> tensor<8x8xf32>
    // each row sees the cached keys before its position: s < pos[i]
    %6 = stablehlo.iota dim = 1 : tensor<8x64xi32>
    %7 = stablehlo.broadcast_in_dim %arg25, dims = [0] : (tensor<8xi32>) -> tensor<8x64xi32>
    %8 = stablehlo.compare LT, %6, %7 : (tensor<8x64xi32>, tensor<8x64xi32>) -> tensor<8x64xi1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 3] : (tensor<8x64xi1>) -> tensor<8x2x2x64xi1>
    %10 = stablehlo.reshape %9 : (tensor<8x2x2x64xi1>) -> tensor<16x2x64xi1>
    %11 = stablehlo.constant dense<0xFF800000> : tensor<16x2x64xf32>
    %12 = stablehlo.constant dense<2.5e-1> : tensor<16x2x64xf32>
    %13 = stablehlo.constant dense<2.5e-1> : tensor<16x2xf32>
    // layer 0: projections for all rows
    %14 = stablehlo.multiply %1, %1 : tensor<8x64xf32>
    %15 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %16 = stablehlo.reduce(%14 init: %15) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %17 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %18 = stablehlo.divide %16, %17 : tensor<8xf32>
    %19 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %20 = stablehlo.add %18, %19 : tensor<8xf32>
    %21 = stablehlo.rsqrt %20 : tensor<8xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %23 = stablehlo.multiply %1, %22 : tensor<8x64xf32>
    %24 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %25 = stablehlo.multiply %23, %24 : tensor<8x64xf32>
    %26 = stablehlo.dot_general %25, %arg2, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %27 = stablehlo.reshape %26 : (tensor<8x64xf32>) -> tensor<8x4x16xf32>
    %28 = stablehlo.reshape %27 : (tensor<8x4x16xf32>) -> tensor<8x4x2x8xf32>
    %29 = "stablehlo.reverse"(%28) {dimensions = array<i64: 2>} : (tensor<8x4x2x8xf32>) -> tensor<8x4x2x8xf32>
    %30 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x4x2x8xf32>
    %31 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x4x2x8xf32>
    %32 = stablehlo.iota dim = 2 : tensor<8x4x2x8xi32>
    %33 = stablehlo.convert %32 : (tensor<8x4x2x8xi32>) -> tensor<8x4x2x8xf32>
    %34 = stablehlo.constant dense<2.0e0> : tensor<8x4x2x8xf32>
    %35 = stablehlo.constant dense<1.0e0> : tensor<8x4x2x8xf32>
    %36 = stablehlo.multiply %33, %34 : tensor<8x4x2x8xf32>
    %37 = stablehlo.subtract %36, %35 : tensor<8x4x2x8xf32>
    %38 = stablehlo.multiply %31, %37 : tensor<8x4x2x8xf32>
    %39 = stablehlo.multiply %28, %30 : tensor<8x4x2x8xf32>
    %40 = stablehlo.multiply %29, %38 : tensor<8x4x2x8xf32>
    %41 = stablehlo.add %39, %40 : tensor<8x4x2x8xf32>
    %42 = stablehlo.reshape %41 : (tensor<8x4x2x8xf32>) -> tensor<8x4x16xf32>
    %43 = stablehlo.dot_general %25, %arg3, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %44 = stablehlo.reshape %43 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    %45 = stablehlo.reshape %44 : (tensor<8x2x16xf32>) -> tensor<8x2x2x8xf32>
    %46 = "stablehlo.reverse"(%45) {dimensions = array<i64: 2>} : (tensor<8x2x2x8xf32>) -> tensor<8x2x2x8xf32>
    %47 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x2x2x8xf32>
    %48 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x2x2x8xf32>
    %49 = stablehlo.iota dim = 2 : tensor<8x2x2x8xi32>
    %50 = stablehlo.convert %49 : (tensor<8x2x2x8xi32>) -> tensor<8x2x2x8xf32>
    %51 = stablehlo.constant dense<2.0e0> : tensor<8x2x2x8xf32>
    %52 = stablehlo.constant dense<1.0e0> : tensor<8x2x2x8xf32>
    %53 = stablehlo.multiply %50, %51 : tensor<8x2x2x8xf32>
    %54 = stablehlo.subtract %53, %52 : tensor<8x2x2x8xf32>
    %55 = stablehlo.multiply %48, %54 : tensor<8x2x2x8xf32>
    %56 = stablehlo.multiply %45, %47 : tensor<8x2x2x8xf32>
    %57 = stablehlo.multiply %46, %55 : tensor<8x2x2x8xf32>
    %58 = stablehlo.add %56, %57 : tensor<8x2x2x8xf32>
    %59 = stablehlo.reshape %58 : (tensor<8x2x2x8xf32>) -> tensor<8x2x16xf32>
    %60 = stablehlo.dot_general %25, %arg4, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %61 = stablehlo.reshape %60 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    // layer 0: every row attends to its cached positions and its own K/V
    %62 = stablehlo.slice %arg23 [0:1, 0:1, 0:16, 0:64, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x64x16xf32>
    %63 = stablehlo.reshape %62 : (tensor<1x1x16x64x16xf32>) -> tensor<16x64x16xf32>
    %64 = stablehlo.slice %arg23 [0:1, 1:2, 0:16, 0:64, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x64x16xf32>
    %65 = stablehlo.reshape %64 : (tensor<1x1x16x64x16xf32>) -> tensor<16x64x16xf32>
    %66 = stablehlo.reshape %42 : (tensor<8x4x16xf32>) -> tensor<16x2x16xf32>
    %67 = stablehlo.reshape %59 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %68 = stablehlo.reshape %61 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %69 = stablehlo.dot_general %66, %63, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<16x2x16xf32>, tensor<16x64x16xf32>) -> tensor<16x2x64xf32>
    %70 = stablehlo.multiply %69, %12 : tensor<16x2x64xf32>
    %71 = stablehlo.select %10, %70, %11 : tensor<16x2x64xi1>, tensor<16x2x64xf32>
    %72 = stablehlo.dot_general %66, %67, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x16xf32>, tensor<16x16xf32>) -> tensor<16x2xf32>
    %73 = stablehlo.multiply %72, %13 : tensor<16x2xf32>
    %74 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %75 = stablehlo.reduce(%71 init: %74) applies stablehlo.maximum across dimensions = [2] : (tensor<16x2x64xf32>, tensor<f32>) -> tensor<16x2xf32>
    %76 = stablehlo.maximum %75, %73 : tensor<16x2xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x64xf32>
    %78 = stablehlo.subtract %71, %77 : tensor<16x2x64xf32>
    %79 = stablehlo.exponential %78 : tensor<16x2x64xf32>
    %80 = stablehlo.subtract %73, %76 : tensor<16x2xf32>
    %81 = stablehlo.exponential %80 : tensor<16x2xf32>
    %82 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %83 = stablehlo.reduce(%79 init: %82) applies stablehlo.add across dimensions = [2] : (tensor<16x2x64xf32>, tensor<f32>) -> tensor<16x2xf32>
    %84 = stablehlo.add %83, %81 : tensor<16x2xf32>
    %85 = stablehlo.dot_general %79, %65, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x64xf32>, tensor<16x64x16xf32>) -> tensor<16x2x16xf32>
    %86 = stablehlo.broadcast_in_dim %81, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %87 = stablehlo.broadcast_in_dim %68, dims = [0, 2] : (tensor<16x16xf32>) -> tensor<16x2x16xf32>
    %88 = stablehlo.multiply %86, %87 : tensor<16x2x16xf32>
    %89 = stablehlo.add %85, %88 : tensor<16x2x16xf32>
    %90 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %91 = stablehlo.divide %89, %90 : tensor<16x2x16xf32>
    %92 = stablehlo.reshape %59 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %93 = stablehlo.reshape %61 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %94 = stablehlo.reshape %91 : (tensor<16x2x16xf32>) -> tensor<8x64xf32>
    %95 = stablehlo.dot_general %94, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %96 = stablehlo.add %1, %95 : tensor<8x64xf32>
    // layer 0: MLP
    %97 = stablehlo.multiply %96, %96 : tensor<8x64xf32>
    %98 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %99 = stablehlo.reduce(%97 init: %98) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %100 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %101 = stablehlo.divide %99, %100 : tensor<8xf32>
    %102 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %103 = stablehlo.add %101, %102 : tensor<8xf32>
    %104 = stablehlo.rsqrt %103 : tensor<8xf32>
    %105 = stablehlo.broadcast_in_dim %104, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %106 = stablehlo.multiply %96, %105 : tensor<8x64xf32>
    %107 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %108 = stablehlo.multiply %106, %107 : tensor<8x64xf32>
    %109 = stablehlo.dot_general %108, %arg7, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %110 = stablehlo.dot_general %108, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %111 = stablehlo.logistic %109 : tensor<8x128xf32>
    %112 = stablehlo.multiply %109, %111 : tensor<8x128xf32>
    %113 = stablehlo.multiply %112, %110 : tensor<8x128xf32>
    %114 = stablehlo.dot_general %113, %arg9, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %115 = stablehlo.add %96, %114 : tensor<8x64xf32>
    // layer 1: projections for all rows
    %116 = stablehlo.multiply %115, %115 : tensor<8x64xf32>
    %117 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %118 = stablehlo.reduce(%116 init: %117) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %119 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %120 = stablehlo.divide %118, %119 : tensor<8xf32>
    %121 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %122 = stablehlo.add %120, %121 : tensor<8xf32>
    %123 = stablehlo.rsqrt %122 : tensor<8xf32>
    %124 = stablehlo.broadcast_in_dim %123, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %125 = stablehlo.multiply %115, %124 : tensor<8x64xf32>
    %126 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %127 = stablehlo.multiply %125, %126 : tensor<8x64xf32>
    %128 = stablehlo.dot_general %127, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %129 = stablehlo.reshape %128 : (tensor<8x64xf32>) -> tensor<8x4x16xf32>
    %130 = stablehlo.reshape %129 : (tensor<8x4x16xf32>) -> tensor<8x4x2x8xf32>
    %131 = "stablehlo.reverse"(%130) {dimensions = array<i64: 2>} : (tensor<8x4x2x8xf32>) -> tensor<8x4x2x8xf32>
    %132 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x4x2x8xf32>
    %133 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x4x2x8xf32>
    %134 = stablehlo.iota dim = 2 : tensor<8x4x2x8xi32>
    %135 = stablehlo.convert %134 : (tensor<8x4x2x8xi32>) -> tensor<8x4x2x8xf32>
    %136 = stablehlo.constant dense<2.0e0> : tensor<8x4x2x8xf32>
    %137 = stablehlo.constant dense<1.0e0> : tensor<8x4x2x8xf32>
    %138 = stablehlo.multiply %135, %136 : tensor<8x4x2x8xf32>
    %139 = stablehlo.subtract %138, %137 : tensor<8x4x2x8xf32>
    %140 = stablehlo.multiply %133, %139 : tensor<8x4x2x8xf32>
    %141 = stablehlo.multiply %130, %132 : tensor<8x4x2x8xf32>
    %142 = stablehlo.multiply %131, %140 : tensor<8x4x2x8xf32>
    %143 = stablehlo.add %141, %142 : tensor<8x4x2x8xf32>
    %144 = stablehlo.reshape %143 : (tensor<8x4x2x8xf32>) -> tensor<8x4x16xf32>
    %145 = stablehlo.dot_general %127, %arg12, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %146 = stablehlo.reshape %145 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    %147 = stablehlo.reshape %146 : (tensor<8x2x16xf32>) -> tensor<8x2x2x8xf32>
    %148 = "stablehlo.reverse"(%147) {dimensions = array<i64: 2>} : (tensor<8x2x2x8xf32>) -> tensor<8x2x2x8xf32>
    %149 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x2x2x8xf32>
    %150 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x2x2x8xf32>
    %151 = stablehlo.iota dim = 2 : tensor<8x2x2x8xi32>
    %152 = stablehlo.convert %151 : (tensor<8x2x2x8xi32>) -> tensor<8x2x2x8xf32>
    %153 = stablehlo.constant dense<2.0e0> : tensor<8x2x2x8xf32>
    %154 = stablehlo.constant dense<1.0e0> : tensor<8x2x2x8xf32>
    %155 = stablehlo.multiply %152, %153 : tensor<8x2x2x8xf32>
    %156 = stablehlo.subtract %155, %154 : tensor<8x2x2x8xf32>
    %157 = stablehlo.multiply %150, %156 : tensor<8x2x2x8xf32>
    %158 = stablehlo.multiply %147, %149 : tensor<8x2x2x8xf32>
    %159 = stablehlo.multiply %148, %157 : tensor<8x2x2x8xf32>
    %160 = stablehlo.add %158, %159 : tensor<8x2x2x8xf32>
    %161 = stablehlo.reshape %160 : (tensor<8x2x2x8xf32>) -> tensor<8x2x16xf32>
    %162 = stablehlo.dot_general %127, %arg13, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %163 = stablehlo.reshape %162 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    // layer 1: every row attends to its cached positions and its own K/V
    %164 = stablehlo.slice %arg23 [1:2, 0:1, 0:16, 0:64, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x64x16xf32>
    %165 = stablehlo.reshape %164 : (tensor<1x1x16x64x16xf32>) -> tensor<16x64x16xf32>
    %166 = stablehlo.slice %arg23 [1:2, 1:2, 0:16, 0:64, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x64x16xf32>
    %167 = stablehlo.reshape %166 : (tensor<1x1x16x64x16xf32>) -> tensor<16x64x16xf32>
    %168 = stablehlo.reshape %144 : (tensor<8x4x16xf32>) -> tensor<16x2x16xf32>
    %169 = stablehlo.reshape %161 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %170 = stablehlo.reshape %163 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %171 = stablehlo.dot_general %168, %165, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<16x2x16xf32>, tensor<16x64x16xf32>) -> tensor<16x2x64xf32>
    %172 = stablehlo.multiply %171, %12 : tensor<16x2x64xf32>
    %173 = stablehlo.select %10, %172, %11 : tensor<16x2x64xi1>, tensor<16x2x64xf32>
    %174 = stablehlo.dot_general %168, %169, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x16xf32>, tensor<16x16xf32>) -> tensor<16x2xf32>
    %175 = stablehlo.multiply %174, %13 : tensor<16x2xf32>
    %176 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %177 = stablehlo.reduce(%173 init: %176) applies stablehlo.maximum across dimensions = [2] : (tensor<16x2x64xf32>, tensor<f32>) -> tensor<16x2xf32>
    %178 = stablehlo.maximum %177, %175 : tensor<16x2xf32>
    %179 = stablehlo.broadcast_in_dim %178, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x64xf32>
    %180 = stablehlo.subtract %173, %179 : tensor<16x2x64xf32>
    %181 = stablehlo.exponential %180 : tensor<16x2x64xf32>
    %182 = stablehlo.subtract %175, %178 : tensor<16x2xf32>
    %183 = stablehlo.exponential %182 : tensor<16x2xf32>
    %184 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %185 = stablehlo.reduce(%181 init: %184) applies stablehlo.add across dimensions = [2] : (tensor<16x2x64xf32>, tensor<f32>) -> tensor<16x2xf32>
    %186 = stablehlo.add %185, %183 : tensor<16x2xf32>
    %187 = stablehlo.dot_general %181, %167, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x64xf32>, tensor<16x64x16xf32>) -> tensor<16x2x16xf32>
    %188 = stablehlo.broadcast_in_dim %183, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %189 = stablehlo.broadcast_in_dim %170, dims = [0, 2] : (tensor<16x16xf32>) -> tensor<16x2x16xf32>
    %190 = stablehlo.multiply %188, %189 : tensor<16x2x16xf32>
    %191 = stablehlo.add %187, %190 : tensor<16x2x16xf32>
    %192 = stablehlo.broadcast_in_dim %186, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %193 = stablehlo.divide %191, %192 : tensor<16x2x16xf32>
    %194 = stablehlo.reshape %161 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %195 = stablehlo.reshape %163 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %196 = stablehlo.reshape %193 : (tensor<16x2x16xf32>) -> tensor<8x64xf32>
    %197 = stablehlo.dot_general %196, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %198 = stablehlo.add %115, %197 : tensor<8x64xf32>
    // layer 1: MLP
    %199 = stablehlo.multiply %198, %198 : tensor<8x64xf32>
    %200 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %201 = stablehlo.reduce(%199 init: %200) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %202 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %203 = stablehlo.divide %201, %202 : tensor<8xf32>
    %204 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %205 = stablehlo.add %203, %204 : tensor<8xf32>
    %206 = stablehlo.rsqrt %205 : tensor<8xf32>
    %207 = stablehlo.broadcast_in_dim %206, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %208 = stablehlo.multiply %198, %207 : tensor<8x64xf32>
    %209 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %210 = stablehlo.multiply %208, %209 : tensor<8x64xf32>
    %211 = stablehlo.dot_general %210, %arg16, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %212 = stablehlo.dot_general %210, %arg17, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %213 = stablehlo.logistic %211 : tensor<8x128xf32>
    %214 = stablehlo.multiply %211, %213 : tensor<8x128xf32>
    %215 = stablehlo.multiply %214, %212 : tensor<8x128xf32>
    %216 = stablehlo.dot_general %215, %arg18, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %217 = stablehlo.add %198, %216 : tensor<8x64xf32>
    // write every layer's K/V of row i at pos[i] of slot i
    %218 = stablehlo.concatenate %92, %93, %194, %195, dim = 0 : (tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>) -> tensor<4x1x16x16xf32>
    %219 = stablehlo.reshape %218 : (tensor<4x1x16x16xf32>) -> tensor<2x2x16x16xf32>
    %220 = stablehlo.constant dense<0> : tensor<i32>
    %221 = stablehlo.slice %219 [0:2, 0:2, 0:2, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %222 = stablehlo.reshape %221 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %223 = stablehlo.slice %arg25 [0:1] : (tensor<8xi32>) -> tensor<1xi32>
    %224 = stablehlo.reshape %223 : (tensor<1xi32>) -> tensor<i32>
    %225 = stablehlo.constant dense<0> : tensor<i32>
    %226 = stablehlo.dynamic_update_slice %arg23, %222, %220, %220, %225, %224, %220 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %227 = stablehlo.slice %219 [0:2, 0:2, 2:4, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %228 = stablehlo.reshape %227 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %229 = stablehlo.slice %arg25 [1:2] : (tensor<8xi32>) -> tensor<1xi32>
    %230 = stablehlo.reshape %229 : (tensor<1xi32>) -> tensor<i32>
    %231 = stablehlo.constant dense<2> : tensor<i32>
    %232 = stablehlo.dynamic_update_slice %226, %228, %220, %220, %231, %230, %220 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %233 = stablehlo.slice %219 [0:2, 0:2, 4:6, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %234 = stablehlo.reshape %233 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %235 = stablehlo.slice %arg25 [2:3] : (tensor<8xi32>) -> tensor<1xi32>
    %236 = stablehlo.reshape %235 : (tensor<1xi32>) -> tensor<i32>
    %237 = stablehlo.constant dense<4> : tensor<i32>
    %238 = stablehlo.dynamic_update_slice %232, %234, %220, %220, %237, %236, %220 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %239 = stablehlo.slice %219 [0:2, 0:2, 6:8, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %240 = stablehlo.reshape %239 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %241 = stablehlo.slice %arg25 [3:4] : (tensor<8xi32>) -> tensor<1xi32>
    %242 = stablehlo.reshape %241 : (tensor<1xi32>) -> tensor<i32>
    %243 = stablehlo.constant dense<6> : tensor<i32>
    %244 = stablehlo.dynamic_update_slice %238, %240, %220, %220, %243, %242, %220 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %245 = stablehlo.slice %219 [0:2, 0:2, 8:10, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %246 = stablehlo.reshape %245 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %247 = stablehlo.slice %arg25 [4:5] : (tensor<8xi32>) -> tensor<1xi32>
    %248 = stablehlo.reshape %247 : (tensor<1xi32>) -> tensor<i32>
    %249 = stablehlo.constant dense<8> : tensor<i32>
    %250 = stablehlo.dynamic_update_slice %244, %246, %220, %220, %249, %248, %220 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %251 = stablehlo.slice %219 [0:2, 0:2, 10:12, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %252 = stablehlo.reshape %251 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %253 = stablehlo.slice %arg25 [5:6] : (tensor<8xi32>) -> tensor<1xi32>
    %254 = stablehlo.reshape %253 : (tensor<1xi32>) -> tensor<i32>
    %255 = stablehlo.constant dense<10> : tensor<i32>
    %256 = stablehlo.dynamic_update_slice %250, %252, %220, %220, %255, %254, %220 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %257 = stablehlo.slice %219 [0:2, 0:2, 12:14, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %258 = stablehlo.reshape %257 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %259 = stablehlo.slice %arg25 [6:7] : (tensor<8xi32>) -> tensor<1xi32>
    %260 = stablehlo.reshape %259 : (tensor<1xi32>) -> tensor<i32>
    %261 = stablehlo.constant dense<12> : tensor<i32>
    %262 = stablehlo.dynamic_update_slice %256, %258, %220, %220, %261, %260, %220 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %263 = stablehlo.slice %219 [0:2, 0:2, 14:16, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %264 = stablehlo.reshape %263 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %265 = stablehlo.slice %arg25 [7:8] : (tensor<8xi32>) -> tensor<1xi32>
    %266 = stablehlo.reshape %265 : (tensor<1xi32>) -> tensor<i32>
    %267 = stablehlo.constant dense<14> : tensor<i32>
    %268 = stablehlo.dynamic_update_slice %262, %264, %220, %220, %267, %266, %220 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %269 = stablehlo.multiply %217, %217 : tensor<8x64xf32>
    %270 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %271 = stablehlo.reduce(%269 init: %270) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %272 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %273 = stablehlo.divide %271, %272 : tensor<8xf32>
    %274 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %275 = stablehlo.add %273, %274 : tensor<8xf32>
    %276 = stablehlo.rsqrt %275 : tensor<8xf32>
    %277 = stablehlo.broadcast_in_dim %276, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %278 = stablehlo.multiply %217, %277 : tensor<8x64xf32>
    %279 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %280 = stablehlo.multiply %278, %279 : tensor<8x64xf32>
    %281 = stablehlo.dot_general %280, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    return %281, %268 : tensor<8x512xf32>, tensor<2x2x16x256x16xf32>
  }
}

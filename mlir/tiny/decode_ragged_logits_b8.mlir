// decode_ragged_logits_b8: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_ragged_logits_b8 {
  func.func @decode_ragged_logits_b8(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x16x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<8xi32>, %arg25: tensor<8xi32>) -> (tensor<8x512xf32>, tensor<2x2x16x256x16xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg24 : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
    %2 = stablehlo.reshape %arg25 : (tensor<8xi32>) -> tensor<8x1xi32>
    %3 = "stablehlo.gather"(%arg21, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<8x1xi32>) -> tensor<8x8xf32>
    %4 = stablehlo.reshape %arg25 : (tensor<8xi32>) -> tensor<8x1xi32>
    %5 = "stablehlo.gather"(%arg22, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<8x1xi32>) -> tensor<8x8xf32>
    // each row sees the cached keys before its position: s < pos[i]
    %6 = stablehlo.iota dim = 1 : tensor<8x256xi32>
    %7 = stablehlo.broadcast_in_dim %arg25, dims = [0] : (tensor<8xi32>) -> tensor<8x256xi32>
    %8 = stablehlo.compare LT, %6, %7 : (tensor<8x256xi32>, tensor<8x256xi32>) -> tensor<8x256xi1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 3] : (tensor<8x256xi1>) -> tensor<8x2x2x256xi1>
    %10 = stablehlo.reshape %9 : (tensor<8x2x2x256xi1>) -> tensor<16x2x256xi1>
    %11 = stablehlo.constant dense<0xFF800000> : tensor<16x2x256xf32>
    %12 = stablehlo.constant dense<2.5e-1> : tensor<16x2x256xf32>
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
    %28 = stablehlo.slice %27 [0:8, 0:4, 0:8] : (tensor<8x4x16xf32>) -> tensor<8x4x8xf32>
    %29 = stablehlo.slice %27 [0:8, 0:4, 8:16] : (tensor<8x4x16xf32>) -> tensor<8x4x8xf32>
    %30 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x4x8xf32>
    %31 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x4x8xf32>
    %32 = stablehlo.multiply %28, %30 : tensor<8x4x8xf32>
    %33 = stablehlo.multiply %29, %31 : tensor<8x4x8xf32>
    %34 = stablehlo.subtract %32, %33 : tensor<8x4x8xf32>
    %35 = stablehlo.multiply %29, %30 : tensor<8x4x8xf32>
    %36 = stablehlo.multiply %28, %31 : tensor<8x4x8xf32>
    %37 = stablehlo.add %35, %36 : tensor<8x4x8xf32>
    %38 = stablehlo.concatenate %34, %37, dim = 2 : (tensor<8x4x8xf32>, tensor<8x4x8xf32>) -> tensor<8x4x16xf32>
    %39 = stablehlo.dot_general %25, %arg3, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %40 = stablehlo.reshape %39 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    %41 = stablehlo.slice %40 [0:8, 0:2, 0:8] : (tensor<8x2x16xf32>) -> tensor<8x2x8xf32>
    %42 = stablehlo.slice %40 [0:8, 0:2, 8:16] : (tensor<8x2x16xf32>) -> tensor<8x2x8xf32>
    %43 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %44 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %45 = stablehlo.multiply %41, %43 : tensor<8x2x8xf32>
    %46 = stablehlo.multiply %42, %44 : tensor<8x2x8xf32>
    %47 = stablehlo.subtract %45, %46 : tensor<8x2x8xf32>
    %48 = stablehlo.multiply %42, %43 : tensor<8x2x8xf32>
    %49 = stablehlo.multiply %41, %44 : tensor<8x2x8xf32>
    %50 = stablehlo.add %48, %49 : tensor<8x2x8xf32>
    %51 = stablehlo.concatenate %47, %50, dim = 2 : (tensor<8x2x8xf32>, tensor<8x2x8xf32>) -> tensor<8x2x16xf32>
    %52 = stablehlo.dot_general %25, %arg4, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %53 = stablehlo.reshape %52 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    // layer 0: every row attends to its cached positions and its own K/V
    %54 = stablehlo.slice %arg23 [0:1, 0:1, 0:16, 0:256, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x256x16xf32>
    %55 = stablehlo.reshape %54 : (tensor<1x1x16x256x16xf32>) -> tensor<16x256x16xf32>
    %56 = stablehlo.slice %arg23 [0:1, 1:2, 0:16, 0:256, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x256x16xf32>
    %57 = stablehlo.reshape %56 : (tensor<1x1x16x256x16xf32>) -> tensor<16x256x16xf32>
    %58 = stablehlo.reshape %38 : (tensor<8x4x16xf32>) -> tensor<16x2x16xf32>
    %59 = stablehlo.reshape %51 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %60 = stablehlo.reshape %53 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %61 = stablehlo.dot_general %58, %55, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<16x2x16xf32>, tensor<16x256x16xf32>) -> tensor<16x2x256xf32>
    %62 = stablehlo.multiply %61, %12 : tensor<16x2x256xf32>
    %63 = stablehlo.select %10, %62, %11 : tensor<16x2x256xi1>, tensor<16x2x256xf32>
    %64 = stablehlo.dot_general %58, %59, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x16xf32>, tensor<16x16xf32>) -> tensor<16x2xf32>
    %65 = stablehlo.multiply %64, %13 : tensor<16x2xf32>
    %66 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %67 = stablehlo.reduce(%63 init: %66) applies stablehlo.maximum across dimensions = [2] : (tensor<16x2x256xf32>, tensor<f32>) -> tensor<16x2xf32>
    %68 = stablehlo.maximum %67, %65 : tensor<16x2xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x256xf32>
    %70 = stablehlo.subtract %63, %69 : tensor<16x2x256xf32>
    %71 = stablehlo.exponential %70 : tensor<16x2x256xf32>
    %72 = stablehlo.subtract %65, %68 : tensor<16x2xf32>
    %73 = stablehlo.exponential %72 : tensor<16x2xf32>
    %74 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %75 = stablehlo.reduce(%71 init: %74) applies stablehlo.add across dimensions = [2] : (tensor<16x2x256xf32>, tensor<f32>) -> tensor<16x2xf32>
    %76 = stablehlo.add %75, %73 : tensor<16x2xf32>
    %77 = stablehlo.dot_general %71, %57, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x256xf32>, tensor<16x256x16xf32>) -> tensor<16x2x16xf32>
    %78 = stablehlo.broadcast_in_dim %73, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %79 = stablehlo.broadcast_in_dim %60, dims = [0, 2] : (tensor<16x16xf32>) -> tensor<16x2x16xf32>
    %80 = stablehlo.multiply %78, %79 : tensor<16x2x16xf32>
    %81 = stablehlo.add %77, %80 : tensor<16x2x16xf32>
    %82 = stablehlo.broadcast_in_dim %76, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %83 = stablehlo.divide %81, %82 : tensor<16x2x16xf32>
    %84 = stablehlo.reshape %51 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %85 = stablehlo.reshape %53 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %86 = stablehlo.reshape %83 : (tensor<16x2x16xf32>) -> tensor<8x64xf32>
    %87 = stablehlo.dot_general %86, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %88 = stablehlo.add %1, %87 : tensor<8x64xf32>
    // layer 0: MLP
    %89 = stablehlo.multiply %88, %88 : tensor<8x64xf32>
    %90 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %91 = stablehlo.reduce(%89 init: %90) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %92 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %93 = stablehlo.divide %91, %92 : tensor<8xf32>
    %94 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %95 = stablehlo.add %93, %94 : tensor<8xf32>
    %96 = stablehlo.rsqrt %95 : tensor<8xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %98 = stablehlo.multiply %88, %97 : tensor<8x64xf32>
    %99 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %100 = stablehlo.multiply %98, %99 : tensor<8x64xf32>
    %101 = stablehlo.dot_general %100, %arg7, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %102 = stablehlo.dot_general %100, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %103 = stablehlo.logistic %101 : tensor<8x128xf32>
    %104 = stablehlo.multiply %101, %103 : tensor<8x128xf32>
    %105 = stablehlo.multiply %104, %102 : tensor<8x128xf32>
    %106 = stablehlo.dot_general %105, %arg9, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %107 = stablehlo.add %88, %106 : tensor<8x64xf32>
    // layer 1: projections for all rows
    %108 = stablehlo.multiply %107, %107 : tensor<8x64xf32>
    %109 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %110 = stablehlo.reduce(%108 init: %109) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %111 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %112 = stablehlo.divide %110, %111 : tensor<8xf32>
    %113 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %114 = stablehlo.add %112, %113 : tensor<8xf32>
    %115 = stablehlo.rsqrt %114 : tensor<8xf32>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %117 = stablehlo.multiply %107, %116 : tensor<8x64xf32>
    %118 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %119 = stablehlo.multiply %117, %118 : tensor<8x64xf32>
    %120 = stablehlo.dot_general %119, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %121 = stablehlo.reshape %120 : (tensor<8x64xf32>) -> tensor<8x4x16xf32>
    %122 = stablehlo.slice %121 [0:8, 0:4, 0:8] : (tensor<8x4x16xf32>) -> tensor<8x4x8xf32>
    %123 = stablehlo.slice %121 [0:8, 0:4, 8:16] : (tensor<8x4x16xf32>) -> tensor<8x4x8xf32>
    %124 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x4x8xf32>
    %125 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x4x8xf32>
    %126 = stablehlo.multiply %122, %124 : tensor<8x4x8xf32>
    %127 = stablehlo.multiply %123, %125 : tensor<8x4x8xf32>
    %128 = stablehlo.subtract %126, %127 : tensor<8x4x8xf32>
    %129 = stablehlo.multiply %123, %124 : tensor<8x4x8xf32>
    %130 = stablehlo.multiply %122, %125 : tensor<8x4x8xf32>
    %131 = stablehlo.add %129, %130 : tensor<8x4x8xf32>
    %132 = stablehlo.concatenate %128, %131, dim = 2 : (tensor<8x4x8xf32>, tensor<8x4x8xf32>) -> tensor<8x4x16xf32>
    %133 = stablehlo.dot_general %119, %arg12, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %134 = stablehlo.reshape %133 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    %135 = stablehlo.slice %134 [0:8, 0:2, 0:8] : (tensor<8x2x16xf32>) -> tensor<8x2x8xf32>
    %136 = stablehlo.slice %134 [0:8, 0:2, 8:16] : (tensor<8x2x16xf32>) -> tensor<8x2x8xf32>
    %137 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %138 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %139 = stablehlo.multiply %135, %137 : tensor<8x2x8xf32>
    %140 = stablehlo.multiply %136, %138 : tensor<8x2x8xf32>
    %141 = stablehlo.subtract %139, %140 : tensor<8x2x8xf32>
    %142 = stablehlo.multiply %136, %137 : tensor<8x2x8xf32>
    %143 = stablehlo.multiply %135, %138 : tensor<8x2x8xf32>
    %144 = stablehlo.add %142, %143 : tensor<8x2x8xf32>
    %145 = stablehlo.concatenate %141, %144, dim = 2 : (tensor<8x2x8xf32>, tensor<8x2x8xf32>) -> tensor<8x2x16xf32>
    %146 = stablehlo.dot_general %119, %arg13, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %147 = stablehlo.reshape %146 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    // layer 1: every row attends to its cached positions and its own K/V
    %148 = stablehlo.slice %arg23 [1:2, 0:1, 0:16, 0:256, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x256x16xf32>
    %149 = stablehlo.reshape %148 : (tensor<1x1x16x256x16xf32>) -> tensor<16x256x16xf32>
    %150 = stablehlo.slice %arg23 [1:2, 1:2, 0:16, 0:256, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x256x16xf32>
    %151 = stablehlo.reshape %150 : (tensor<1x1x16x256x16xf32>) -> tensor<16x256x16xf32>
    %152 = stablehlo.reshape %132 : (tensor<8x4x16xf32>) -> tensor<16x2x16xf32>
    %153 = stablehlo.reshape %145 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %154 = stablehlo.reshape %147 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %155 = stablehlo.dot_general %152, %149, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<16x2x16xf32>, tensor<16x256x16xf32>) -> tensor<16x2x256xf32>
    %156 = stablehlo.multiply %155, %12 : tensor<16x2x256xf32>
    %157 = stablehlo.select %10, %156, %11 : tensor<16x2x256xi1>, tensor<16x2x256xf32>
    %158 = stablehlo.dot_general %152, %153, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x16xf32>, tensor<16x16xf32>) -> tensor<16x2xf32>
    %159 = stablehlo.multiply %158, %13 : tensor<16x2xf32>
    %160 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %161 = stablehlo.reduce(%157 init: %160) applies stablehlo.maximum across dimensions = [2] : (tensor<16x2x256xf32>, tensor<f32>) -> tensor<16x2xf32>
    %162 = stablehlo.maximum %161, %159 : tensor<16x2xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x256xf32>
    %164 = stablehlo.subtract %157, %163 : tensor<16x2x256xf32>
    %165 = stablehlo.exponential %164 : tensor<16x2x256xf32>
    %166 = stablehlo.subtract %159, %162 : tensor<16x2xf32>
    %167 = stablehlo.exponential %166 : tensor<16x2xf32>
    %168 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %169 = stablehlo.reduce(%165 init: %168) applies stablehlo.add across dimensions = [2] : (tensor<16x2x256xf32>, tensor<f32>) -> tensor<16x2xf32>
    %170 = stablehlo.add %169, %167 : tensor<16x2xf32>
    %171 = stablehlo.dot_general %165, %151, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x256xf32>, tensor<16x256x16xf32>) -> tensor<16x2x16xf32>
    %172 = stablehlo.broadcast_in_dim %167, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %173 = stablehlo.broadcast_in_dim %154, dims = [0, 2] : (tensor<16x16xf32>) -> tensor<16x2x16xf32>
    %174 = stablehlo.multiply %172, %173 : tensor<16x2x16xf32>
    %175 = stablehlo.add %171, %174 : tensor<16x2x16xf32>
    %176 = stablehlo.broadcast_in_dim %170, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %177 = stablehlo.divide %175, %176 : tensor<16x2x16xf32>
    %178 = stablehlo.reshape %145 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %179 = stablehlo.reshape %147 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %180 = stablehlo.reshape %177 : (tensor<16x2x16xf32>) -> tensor<8x64xf32>
    %181 = stablehlo.dot_general %180, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %182 = stablehlo.add %107, %181 : tensor<8x64xf32>
    // layer 1: MLP
    %183 = stablehlo.multiply %182, %182 : tensor<8x64xf32>
    %184 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %185 = stablehlo.reduce(%183 init: %184) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %186 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %187 = stablehlo.divide %185, %186 : tensor<8xf32>
    %188 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %189 = stablehlo.add %187, %188 : tensor<8xf32>
    %190 = stablehlo.rsqrt %189 : tensor<8xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %192 = stablehlo.multiply %182, %191 : tensor<8x64xf32>
    %193 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %194 = stablehlo.multiply %192, %193 : tensor<8x64xf32>
    %195 = stablehlo.dot_general %194, %arg16, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %196 = stablehlo.dot_general %194, %arg17, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %197 = stablehlo.logistic %195 : tensor<8x128xf32>
    %198 = stablehlo.multiply %195, %197 : tensor<8x128xf32>
    %199 = stablehlo.multiply %198, %196 : tensor<8x128xf32>
    %200 = stablehlo.dot_general %199, %arg18, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %201 = stablehlo.add %182, %200 : tensor<8x64xf32>
    // write every layer's K/V of row i at pos[i] of slot i
    %202 = stablehlo.concatenate %84, %85, %178, %179, dim = 0 : (tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>) -> tensor<4x1x16x16xf32>
    %203 = stablehlo.reshape %202 : (tensor<4x1x16x16xf32>) -> tensor<2x2x16x16xf32>
    %204 = stablehlo.constant dense<0> : tensor<i32>
    %205 = stablehlo.slice %203 [0:2, 0:2, 0:2, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %206 = stablehlo.reshape %205 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %207 = stablehlo.slice %arg25 [0:1] : (tensor<8xi32>) -> tensor<1xi32>
    %208 = stablehlo.reshape %207 : (tensor<1xi32>) -> tensor<i32>
    %209 = stablehlo.constant dense<0> : tensor<i32>
    %210 = stablehlo.dynamic_update_slice %arg23, %206, %204, %204, %209, %208, %204 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %211 = stablehlo.slice %203 [0:2, 0:2, 2:4, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %212 = stablehlo.reshape %211 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %213 = stablehlo.slice %arg25 [1:2] : (tensor<8xi32>) -> tensor<1xi32>
    %214 = stablehlo.reshape %213 : (tensor<1xi32>) -> tensor<i32>
    %215 = stablehlo.constant dense<2> : tensor<i32>
    %216 = stablehlo.dynamic_update_slice %210, %212, %204, %204, %215, %214, %204 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %217 = stablehlo.slice %203 [0:2, 0:2, 4:6, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %218 = stablehlo.reshape %217 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %219 = stablehlo.slice %arg25 [2:3] : (tensor<8xi32>) -> tensor<1xi32>
    %220 = stablehlo.reshape %219 : (tensor<1xi32>) -> tensor<i32>
    %221 = stablehlo.constant dense<4> : tensor<i32>
    %222 = stablehlo.dynamic_update_slice %216, %218, %204, %204, %221, %220, %204 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %223 = stablehlo.slice %203 [0:2, 0:2, 6:8, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %224 = stablehlo.reshape %223 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %225 = stablehlo.slice %arg25 [3:4] : (tensor<8xi32>) -> tensor<1xi32>
    %226 = stablehlo.reshape %225 : (tensor<1xi32>) -> tensor<i32>
    %227 = stablehlo.constant dense<6> : tensor<i32>
    %228 = stablehlo.dynamic_update_slice %222, %224, %204, %204, %227, %226, %204 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %229 = stablehlo.slice %203 [0:2, 0:2, 8:10, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %230 = stablehlo.reshape %229 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %231 = stablehlo.slice %arg25 [4:5] : (tensor<8xi32>) -> tensor<1xi32>
    %232 = stablehlo.reshape %231 : (tensor<1xi32>) -> tensor<i32>
    %233 = stablehlo.constant dense<8> : tensor<i32>
    %234 = stablehlo.dynamic_update_slice %228, %230, %204, %204, %233, %232, %204 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %235 = stablehlo.slice %203 [0:2, 0:2, 10:12, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %236 = stablehlo.reshape %235 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %237 = stablehlo.slice %arg25 [5:6] : (tensor<8xi32>) -> tensor<1xi32>
    %238 = stablehlo.reshape %237 : (tensor<1xi32>) -> tensor<i32>
    %239 = stablehlo.constant dense<10> : tensor<i32>
    %240 = stablehlo.dynamic_update_slice %234, %236, %204, %204, %239, %238, %204 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %241 = stablehlo.slice %203 [0:2, 0:2, 12:14, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %242 = stablehlo.reshape %241 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %243 = stablehlo.slice %arg25 [6:7] : (tensor<8xi32>) -> tensor<1xi32>
    %244 = stablehlo.reshape %243 : (tensor<1xi32>) -> tensor<i32>
    %245 = stablehlo.constant dense<12> : tensor<i32>
    %246 = stablehlo.dynamic_update_slice %240, %242, %204, %204, %245, %244, %204 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %247 = stablehlo.slice %203 [0:2, 0:2, 14:16, 0:16] : (tensor<2x2x16x16xf32>) -> tensor<2x2x2x16xf32>
    %248 = stablehlo.reshape %247 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %249 = stablehlo.slice %arg25 [7:8] : (tensor<8xi32>) -> tensor<1xi32>
    %250 = stablehlo.reshape %249 : (tensor<1xi32>) -> tensor<i32>
    %251 = stablehlo.constant dense<14> : tensor<i32>
    %252 = stablehlo.dynamic_update_slice %246, %248, %204, %204, %251, %250, %204 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %253 = stablehlo.multiply %201, %201 : tensor<8x64xf32>
    %254 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %255 = stablehlo.reduce(%253 init: %254) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %256 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %257 = stablehlo.divide %255, %256 : tensor<8xf32>
    %258 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %259 = stablehlo.add %257, %258 : tensor<8xf32>
    %260 = stablehlo.rsqrt %259 : tensor<8xf32>
    %261 = stablehlo.broadcast_in_dim %260, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %262 = stablehlo.multiply %201, %261 : tensor<8x64xf32>
    %263 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %264 = stablehlo.multiply %262, %263 : tensor<8x64xf32>
    %265 = stablehlo.dot_general %264, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    return %265, %252 : tensor<8x512xf32>, tensor<2x2x16x256x16xf32>
  }
}

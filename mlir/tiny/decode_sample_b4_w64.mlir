// decode_sample_b4_w64: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_sample_b4_w64 {
  func.func @decode_sample_b4_w64(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x8x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<4xi32>, %arg25: tensor<4xi32>, %arg26: tensor<4xf32>, %arg27: tensor<4x2xi32>) -> (tensor<4xi32>, tensor<2x2x8x256x16xf32>, tensor<4x512xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg24 : (tensor<4xi32>) -> tensor<4x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<4x1xi32>) -> tensor<4x64xf32>
    %2 = stablehlo.reshape %arg25 : (tensor<4xi32>) -> tensor<4x1xi32>
    %3 = "stablehlo.gather"(%arg21, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
    %4 = stablehlo.reshape %arg25 : (tensor<4xi32>) -> tensor<4x1xi32>
    %5 = "stablehlo.gather"(%arg22, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
    // each row sees the cached keys before its position: s < pos[i]
    %6 = stablehlo.iota dim = 1 : tensor<4x64xi32>
    %7 = stablehlo.broadcast_in_dim %arg25, dims = [0] : (tensor<4xi32>) -> tensor<4x64xi32>
    %8 = stablehlo.compare LT, %6, %7 : (tensor<4x64xi32>, tensor<4x64xi32>) -> tensor<4x64xi1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 3] : (tensor<4x64xi1>) -> tensor<4x2x2x64xi1>
    %10 = stablehlo.reshape %9 : (tensor<4x2x2x64xi1>) -> tensor<8x2x64xi1>
    %11 = stablehlo.constant dense<0xFF800000> : tensor<8x2x64xf32>
    %12 = stablehlo.constant dense<2.5e-1> : tensor<8x2x64xf32>
    %13 = stablehlo.constant dense<2.5e-1> : tensor<8x2xf32>
    // layer 0: projections for all rows
    %14 = stablehlo.multiply %1, %1 : tensor<4x64xf32>
    %15 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %16 = stablehlo.reduce(%14 init: %15) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %17 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %18 = stablehlo.divide %16, %17 : tensor<4xf32>
    %19 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %20 = stablehlo.add %18, %19 : tensor<4xf32>
    %21 = stablehlo.rsqrt %20 : tensor<4xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %23 = stablehlo.multiply %1, %22 : tensor<4x64xf32>
    %24 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %25 = stablehlo.multiply %23, %24 : tensor<4x64xf32>
    %26 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %27 = stablehlo.concatenate %25, %26, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %28 = stablehlo.dot_general %27, %arg2, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %29 = stablehlo.slice %28 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %30 = stablehlo.reshape %29 : (tensor<4x64xf32>) -> tensor<4x4x16xf32>
    %31 = stablehlo.reshape %30 : (tensor<4x4x16xf32>) -> tensor<4x4x2x8xf32>
    %32 = "stablehlo.reverse"(%31) {dimensions = array<i64: 2>} : (tensor<4x4x2x8xf32>) -> tensor<4x4x2x8xf32>
    %33 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x4x2x8xf32>
    %34 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x4x2x8xf32>
    %35 = stablehlo.iota dim = 2 : tensor<4x4x2x8xi32>
    %36 = stablehlo.convert %35 : (tensor<4x4x2x8xi32>) -> tensor<4x4x2x8xf32>
    %37 = stablehlo.constant dense<2.0e0> : tensor<4x4x2x8xf32>
    %38 = stablehlo.constant dense<1.0e0> : tensor<4x4x2x8xf32>
    %39 = stablehlo.multiply %36, %37 : tensor<4x4x2x8xf32>
    %40 = stablehlo.subtract %39, %38 : tensor<4x4x2x8xf32>
    %41 = stablehlo.multiply %34, %40 : tensor<4x4x2x8xf32>
    %42 = stablehlo.multiply %31, %33 : tensor<4x4x2x8xf32>
    %43 = stablehlo.multiply %32, %41 : tensor<4x4x2x8xf32>
    %44 = stablehlo.add %42, %43 : tensor<4x4x2x8xf32>
    %45 = stablehlo.reshape %44 : (tensor<4x4x2x8xf32>) -> tensor<4x4x16xf32>
    %46 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %47 = stablehlo.concatenate %25, %46, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %48 = stablehlo.dot_general %47, %arg3, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %49 = stablehlo.slice %48 [0:4, 0:32] : (tensor<8x32xf32>) -> tensor<4x32xf32>
    %50 = stablehlo.reshape %49 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %51 = stablehlo.reshape %50 : (tensor<4x2x16xf32>) -> tensor<4x2x2x8xf32>
    %52 = "stablehlo.reverse"(%51) {dimensions = array<i64: 2>} : (tensor<4x2x2x8xf32>) -> tensor<4x2x2x8xf32>
    %53 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x2x2x8xf32>
    %54 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x2x2x8xf32>
    %55 = stablehlo.iota dim = 2 : tensor<4x2x2x8xi32>
    %56 = stablehlo.convert %55 : (tensor<4x2x2x8xi32>) -> tensor<4x2x2x8xf32>
    %57 = stablehlo.constant dense<2.0e0> : tensor<4x2x2x8xf32>
    %58 = stablehlo.constant dense<1.0e0> : tensor<4x2x2x8xf32>
    %59 = stablehlo.multiply %56, %57 : tensor<4x2x2x8xf32>
    %60 = stablehlo.subtract %59, %58 : tensor<4x2x2x8xf32>
    %61 = stablehlo.multiply %54, %60 : tensor<4x2x2x8xf32>
    %62 = stablehlo.multiply %51, %53 : tensor<4x2x2x8xf32>
    %63 = stablehlo.multiply %52, %61 : tensor<4x2x2x8xf32>
    %64 = stablehlo.add %62, %63 : tensor<4x2x2x8xf32>
    %65 = stablehlo.reshape %64 : (tensor<4x2x2x8xf32>) -> tensor<4x2x16xf32>
    %66 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %67 = stablehlo.concatenate %25, %66, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %68 = stablehlo.dot_general %67, %arg4, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %69 = stablehlo.slice %68 [0:4, 0:32] : (tensor<8x32xf32>) -> tensor<4x32xf32>
    %70 = stablehlo.reshape %69 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    // layer 0: every row attends to its cached positions and its own K/V
    %71 = stablehlo.slice %arg23 [0:1, 0:1, 0:8, 0:64, 0:16] : (tensor<2x2x8x256x16xf32>) -> tensor<1x1x8x64x16xf32>
    %72 = stablehlo.reshape %71 : (tensor<1x1x8x64x16xf32>) -> tensor<8x64x16xf32>
    %73 = stablehlo.slice %arg23 [0:1, 1:2, 0:8, 0:64, 0:16] : (tensor<2x2x8x256x16xf32>) -> tensor<1x1x8x64x16xf32>
    %74 = stablehlo.reshape %73 : (tensor<1x1x8x64x16xf32>) -> tensor<8x64x16xf32>
    %75 = stablehlo.reshape %45 : (tensor<4x4x16xf32>) -> tensor<8x2x16xf32>
    %76 = stablehlo.reshape %65 : (tensor<4x2x16xf32>) -> tensor<8x16xf32>
    %77 = stablehlo.reshape %70 : (tensor<4x2x16xf32>) -> tensor<8x16xf32>
    %78 = stablehlo.dot_general %75, %72, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<8x2x16xf32>, tensor<8x64x16xf32>) -> tensor<8x2x64xf32>
    %79 = stablehlo.multiply %78, %12 : tensor<8x2x64xf32>
    %80 = stablehlo.select %10, %79, %11 : tensor<8x2x64xi1>, tensor<8x2x64xf32>
    %81 = stablehlo.dot_general %75, %76, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x2x16xf32>, tensor<8x16xf32>) -> tensor<8x2xf32>
    %82 = stablehlo.multiply %81, %13 : tensor<8x2xf32>
    %83 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %84 = stablehlo.reduce(%80 init: %83) applies stablehlo.maximum across dimensions = [2] : (tensor<8x2x64xf32>, tensor<f32>) -> tensor<8x2xf32>
    %85 = stablehlo.maximum %84, %82 : tensor<8x2xf32>
    %86 = stablehlo.broadcast_in_dim %85, dims = [0, 1] : (tensor<8x2xf32>) -> tensor<8x2x64xf32>
    %87 = stablehlo.subtract %80, %86 : tensor<8x2x64xf32>
    %88 = stablehlo.exponential %87 : tensor<8x2x64xf32>
    %89 = stablehlo.subtract %82, %85 : tensor<8x2xf32>
    %90 = stablehlo.exponential %89 : tensor<8x2xf32>
    %91 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %92 = stablehlo.reduce(%88 init: %91) applies stablehlo.add across dimensions = [2] : (tensor<8x2x64xf32>, tensor<f32>) -> tensor<8x2xf32>
    %93 = stablehlo.add %92, %90 : tensor<8x2xf32>
    %94 = stablehlo.dot_general %88, %74, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x2x64xf32>, tensor<8x64x16xf32>) -> tensor<8x2x16xf32>
    %95 = stablehlo.broadcast_in_dim %90, dims = [0, 1] : (tensor<8x2xf32>) -> tensor<8x2x16xf32>
    %96 = stablehlo.broadcast_in_dim %77, dims = [0, 2] : (tensor<8x16xf32>) -> tensor<8x2x16xf32>
    %97 = stablehlo.multiply %95, %96 : tensor<8x2x16xf32>
    %98 = stablehlo.add %94, %97 : tensor<8x2x16xf32>
    %99 = stablehlo.broadcast_in_dim %93, dims = [0, 1] : (tensor<8x2xf32>) -> tensor<8x2x16xf32>
    %100 = stablehlo.divide %98, %99 : tensor<8x2x16xf32>
    %101 = stablehlo.reshape %65 : (tensor<4x2x16xf32>) -> tensor<1x1x8x16xf32>
    %102 = stablehlo.reshape %70 : (tensor<4x2x16xf32>) -> tensor<1x1x8x16xf32>
    %103 = stablehlo.reshape %100 : (tensor<8x2x16xf32>) -> tensor<4x64xf32>
    %104 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %105 = stablehlo.concatenate %103, %104, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %106 = stablehlo.dot_general %105, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %107 = stablehlo.slice %106 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %108 = stablehlo.add %1, %107 : tensor<4x64xf32>
    // layer 0: MLP
    %109 = stablehlo.multiply %108, %108 : tensor<4x64xf32>
    %110 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %111 = stablehlo.reduce(%109 init: %110) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %112 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %113 = stablehlo.divide %111, %112 : tensor<4xf32>
    %114 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %115 = stablehlo.add %113, %114 : tensor<4xf32>
    %116 = stablehlo.rsqrt %115 : tensor<4xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %118 = stablehlo.multiply %108, %117 : tensor<4x64xf32>
    %119 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %120 = stablehlo.multiply %118, %119 : tensor<4x64xf32>
    %121 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %122 = stablehlo.concatenate %120, %121, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %123 = stablehlo.dot_general %122, %arg7, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %124 = stablehlo.slice %123 [0:4, 0:128] : (tensor<8x128xf32>) -> tensor<4x128xf32>
    %125 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %126 = stablehlo.concatenate %120, %125, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %127 = stablehlo.dot_general %126, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %128 = stablehlo.slice %127 [0:4, 0:128] : (tensor<8x128xf32>) -> tensor<4x128xf32>
    %129 = stablehlo.logistic %124 : tensor<4x128xf32>
    %130 = stablehlo.multiply %124, %129 : tensor<4x128xf32>
    %131 = stablehlo.multiply %130, %128 : tensor<4x128xf32>
    %132 = stablehlo.constant dense<0.0e0> : tensor<4x128xf32>
    %133 = stablehlo.concatenate %131, %132, dim = 0 : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<8x128xf32>
    %134 = stablehlo.dot_general %133, %arg9, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %135 = stablehlo.slice %134 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %136 = stablehlo.add %108, %135 : tensor<4x64xf32>
    // layer 1: projections for all rows
    %137 = stablehlo.multiply %136, %136 : tensor<4x64xf32>
    %138 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %139 = stablehlo.reduce(%137 init: %138) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %140 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %141 = stablehlo.divide %139, %140 : tensor<4xf32>
    %142 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %143 = stablehlo.add %141, %142 : tensor<4xf32>
    %144 = stablehlo.rsqrt %143 : tensor<4xf32>
    %145 = stablehlo.broadcast_in_dim %144, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %146 = stablehlo.multiply %136, %145 : tensor<4x64xf32>
    %147 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %148 = stablehlo.multiply %146, %147 : tensor<4x64xf32>
    %149 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %150 = stablehlo.concatenate %148, %149, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %151 = stablehlo.dot_general %150, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %152 = stablehlo.slice %151 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %153 = stablehlo.reshape %152 : (tensor<4x64xf32>) -> tensor<4x4x16xf32>
    %154 = stablehlo.reshape %153 : (tensor<4x4x16xf32>) -> tensor<4x4x2x8xf32>
    %155 = "stablehlo.reverse"(%154) {dimensions = array<i64: 2>} : (tensor<4x4x2x8xf32>) -> tensor<4x4x2x8xf32>
    %156 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x4x2x8xf32>
    %157 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x4x2x8xf32>
    %158 = stablehlo.iota dim = 2 : tensor<4x4x2x8xi32>
    %159 = stablehlo.convert %158 : (tensor<4x4x2x8xi32>) -> tensor<4x4x2x8xf32>
    %160 = stablehlo.constant dense<2.0e0> : tensor<4x4x2x8xf32>
    %161 = stablehlo.constant dense<1.0e0> : tensor<4x4x2x8xf32>
    %162 = stablehlo.multiply %159, %160 : tensor<4x4x2x8xf32>
    %163 = stablehlo.subtract %162, %161 : tensor<4x4x2x8xf32>
    %164 = stablehlo.multiply %157, %163 : tensor<4x4x2x8xf32>
    %165 = stablehlo.multiply %154, %156 : tensor<4x4x2x8xf32>
    %166 = stablehlo.multiply %155, %164 : tensor<4x4x2x8xf32>
    %167 = stablehlo.add %165, %166 : tensor<4x4x2x8xf32>
    %168 = stablehlo.reshape %167 : (tensor<4x4x2x8xf32>) -> tensor<4x4x16xf32>
    %169 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %170 = stablehlo.concatenate %148, %169, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %171 = stablehlo.dot_general %170, %arg12, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %172 = stablehlo.slice %171 [0:4, 0:32] : (tensor<8x32xf32>) -> tensor<4x32xf32>
    %173 = stablehlo.reshape %172 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    %174 = stablehlo.reshape %173 : (tensor<4x2x16xf32>) -> tensor<4x2x2x8xf32>
    %175 = "stablehlo.reverse"(%174) {dimensions = array<i64: 2>} : (tensor<4x2x2x8xf32>) -> tensor<4x2x2x8xf32>
    %176 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x2x2x8xf32>
    %177 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<4x8xf32>) -> tensor<4x2x2x8xf32>
    %178 = stablehlo.iota dim = 2 : tensor<4x2x2x8xi32>
    %179 = stablehlo.convert %178 : (tensor<4x2x2x8xi32>) -> tensor<4x2x2x8xf32>
    %180 = stablehlo.constant dense<2.0e0> : tensor<4x2x2x8xf32>
    %181 = stablehlo.constant dense<1.0e0> : tensor<4x2x2x8xf32>
    %182 = stablehlo.multiply %179, %180 : tensor<4x2x2x8xf32>
    %183 = stablehlo.subtract %182, %181 : tensor<4x2x2x8xf32>
    %184 = stablehlo.multiply %177, %183 : tensor<4x2x2x8xf32>
    %185 = stablehlo.multiply %174, %176 : tensor<4x2x2x8xf32>
    %186 = stablehlo.multiply %175, %184 : tensor<4x2x2x8xf32>
    %187 = stablehlo.add %185, %186 : tensor<4x2x2x8xf32>
    %188 = stablehlo.reshape %187 : (tensor<4x2x2x8xf32>) -> tensor<4x2x16xf32>
    %189 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %190 = stablehlo.concatenate %148, %189, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %191 = stablehlo.dot_general %190, %arg13, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %192 = stablehlo.slice %191 [0:4, 0:32] : (tensor<8x32xf32>) -> tensor<4x32xf32>
    %193 = stablehlo.reshape %192 : (tensor<4x32xf32>) -> tensor<4x2x16xf32>
    // layer 1: every row attends to its cached positions and its own K/V
    %194 = stablehlo.slice %arg23 [1:2, 0:1, 0:8, 0:64, 0:16] : (tensor<2x2x8x256x16xf32>) -> tensor<1x1x8x64x16xf32>
    %195 = stablehlo.reshape %194 : (tensor<1x1x8x64x16xf32>) -> tensor<8x64x16xf32>
    %196 = stablehlo.slice %arg23 [1:2, 1:2, 0:8, 0:64, 0:16] : (tensor<2x2x8x256x16xf32>) -> tensor<1x1x8x64x16xf32>
    %197 = stablehlo.reshape %196 : (tensor<1x1x8x64x16xf32>) -> tensor<8x64x16xf32>
    %198 = stablehlo.reshape %168 : (tensor<4x4x16xf32>) -> tensor<8x2x16xf32>
    %199 = stablehlo.reshape %188 : (tensor<4x2x16xf32>) -> tensor<8x16xf32>
    %200 = stablehlo.reshape %193 : (tensor<4x2x16xf32>) -> tensor<8x16xf32>
    %201 = stablehlo.dot_general %198, %195, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<8x2x16xf32>, tensor<8x64x16xf32>) -> tensor<8x2x64xf32>
    %202 = stablehlo.multiply %201, %12 : tensor<8x2x64xf32>
    %203 = stablehlo.select %10, %202, %11 : tensor<8x2x64xi1>, tensor<8x2x64xf32>
    %204 = stablehlo.dot_general %198, %199, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x2x16xf32>, tensor<8x16xf32>) -> tensor<8x2xf32>
    %205 = stablehlo.multiply %204, %13 : tensor<8x2xf32>
    %206 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %207 = stablehlo.reduce(%203 init: %206) applies stablehlo.maximum across dimensions = [2] : (tensor<8x2x64xf32>, tensor<f32>) -> tensor<8x2xf32>
    %208 = stablehlo.maximum %207, %205 : tensor<8x2xf32>
    %209 = stablehlo.broadcast_in_dim %208, dims = [0, 1] : (tensor<8x2xf32>) -> tensor<8x2x64xf32>
    %210 = stablehlo.subtract %203, %209 : tensor<8x2x64xf32>
    %211 = stablehlo.exponential %210 : tensor<8x2x64xf32>
    %212 = stablehlo.subtract %205, %208 : tensor<8x2xf32>
    %213 = stablehlo.exponential %212 : tensor<8x2xf32>
    %214 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %215 = stablehlo.reduce(%211 init: %214) applies stablehlo.add across dimensions = [2] : (tensor<8x2x64xf32>, tensor<f32>) -> tensor<8x2xf32>
    %216 = stablehlo.add %215, %213 : tensor<8x2xf32>
    %217 = stablehlo.dot_general %211, %197, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x2x64xf32>, tensor<8x64x16xf32>) -> tensor<8x2x16xf32>
    %218 = stablehlo.broadcast_in_dim %213, dims = [0, 1] : (tensor<8x2xf32>) -> tensor<8x2x16xf32>
    %219 = stablehlo.broadcast_in_dim %200, dims = [0, 2] : (tensor<8x16xf32>) -> tensor<8x2x16xf32>
    %220 = stablehlo.multiply %218, %219 : tensor<8x2x16xf32>
    %221 = stablehlo.add %217, %220 : tensor<8x2x16xf32>
    %222 = stablehlo.broadcast_in_dim %216, dims = [0, 1] : (tensor<8x2xf32>) -> tensor<8x2x16xf32>
    %223 = stablehlo.divide %221, %222 : tensor<8x2x16xf32>
    %224 = stablehlo.reshape %188 : (tensor<4x2x16xf32>) -> tensor<1x1x8x16xf32>
    %225 = stablehlo.reshape %193 : (tensor<4x2x16xf32>) -> tensor<1x1x8x16xf32>
    %226 = stablehlo.reshape %223 : (tensor<8x2x16xf32>) -> tensor<4x64xf32>
    %227 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %228 = stablehlo.concatenate %226, %227, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %229 = stablehlo.dot_general %228, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %230 = stablehlo.slice %229 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %231 = stablehlo.add %136, %230 : tensor<4x64xf32>
    // layer 1: MLP
    %232 = stablehlo.multiply %231, %231 : tensor<4x64xf32>
    %233 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %234 = stablehlo.reduce(%232 init: %233) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %235 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %236 = stablehlo.divide %234, %235 : tensor<4xf32>
    %237 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %238 = stablehlo.add %236, %237 : tensor<4xf32>
    %239 = stablehlo.rsqrt %238 : tensor<4xf32>
    %240 = stablehlo.broadcast_in_dim %239, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %241 = stablehlo.multiply %231, %240 : tensor<4x64xf32>
    %242 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %243 = stablehlo.multiply %241, %242 : tensor<4x64xf32>
    %244 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %245 = stablehlo.concatenate %243, %244, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %246 = stablehlo.dot_general %245, %arg16, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %247 = stablehlo.slice %246 [0:4, 0:128] : (tensor<8x128xf32>) -> tensor<4x128xf32>
    %248 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %249 = stablehlo.concatenate %243, %248, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %250 = stablehlo.dot_general %249, %arg17, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %251 = stablehlo.slice %250 [0:4, 0:128] : (tensor<8x128xf32>) -> tensor<4x128xf32>
    %252 = stablehlo.logistic %247 : tensor<4x128xf32>
    %253 = stablehlo.multiply %247, %252 : tensor<4x128xf32>
    %254 = stablehlo.multiply %253, %251 : tensor<4x128xf32>
    %255 = stablehlo.constant dense<0.0e0> : tensor<4x128xf32>
    %256 = stablehlo.concatenate %254, %255, dim = 0 : (tensor<4x128xf32>, tensor<4x128xf32>) -> tensor<8x128xf32>
    %257 = stablehlo.dot_general %256, %arg18, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %258 = stablehlo.slice %257 [0:4, 0:64] : (tensor<8x64xf32>) -> tensor<4x64xf32>
    %259 = stablehlo.add %231, %258 : tensor<4x64xf32>
    // write every layer's K/V of row i at pos[i] of slot i
    %260 = stablehlo.concatenate %101, %102, %224, %225, dim = 0 : (tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>) -> tensor<4x1x8x16xf32>
    %261 = stablehlo.reshape %260 : (tensor<4x1x8x16xf32>) -> tensor<2x2x8x16xf32>
    %262 = stablehlo.constant dense<0> : tensor<i32>
    %263 = stablehlo.slice %261 [0:2, 0:2, 0:2, 0:16] : (tensor<2x2x8x16xf32>) -> tensor<2x2x2x16xf32>
    %264 = stablehlo.reshape %263 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %265 = stablehlo.slice %arg25 [0:1] : (tensor<4xi32>) -> tensor<1xi32>
    %266 = stablehlo.reshape %265 : (tensor<1xi32>) -> tensor<i32>
    %267 = stablehlo.constant dense<0> : tensor<i32>
    %268 = stablehlo.dynamic_update_slice %arg23, %264, %262, %262, %267, %266, %262 : (tensor<2x2x8x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %269 = stablehlo.slice %261 [0:2, 0:2, 2:4, 0:16] : (tensor<2x2x8x16xf32>) -> tensor<2x2x2x16xf32>
    %270 = stablehlo.reshape %269 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %271 = stablehlo.slice %arg25 [1:2] : (tensor<4xi32>) -> tensor<1xi32>
    %272 = stablehlo.reshape %271 : (tensor<1xi32>) -> tensor<i32>
    %273 = stablehlo.constant dense<2> : tensor<i32>
    %274 = stablehlo.dynamic_update_slice %268, %270, %262, %262, %273, %272, %262 : (tensor<2x2x8x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %275 = stablehlo.slice %261 [0:2, 0:2, 4:6, 0:16] : (tensor<2x2x8x16xf32>) -> tensor<2x2x2x16xf32>
    %276 = stablehlo.reshape %275 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %277 = stablehlo.slice %arg25 [2:3] : (tensor<4xi32>) -> tensor<1xi32>
    %278 = stablehlo.reshape %277 : (tensor<1xi32>) -> tensor<i32>
    %279 = stablehlo.constant dense<4> : tensor<i32>
    %280 = stablehlo.dynamic_update_slice %274, %276, %262, %262, %279, %278, %262 : (tensor<2x2x8x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %281 = stablehlo.slice %261 [0:2, 0:2, 6:8, 0:16] : (tensor<2x2x8x16xf32>) -> tensor<2x2x2x16xf32>
    %282 = stablehlo.reshape %281 : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x1x16xf32>
    %283 = stablehlo.slice %arg25 [3:4] : (tensor<4xi32>) -> tensor<1xi32>
    %284 = stablehlo.reshape %283 : (tensor<1xi32>) -> tensor<i32>
    %285 = stablehlo.constant dense<6> : tensor<i32>
    %286 = stablehlo.dynamic_update_slice %280, %282, %262, %262, %285, %284, %262 : (tensor<2x2x8x256x16xf32>, tensor<2x2x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %287 = stablehlo.multiply %259, %259 : tensor<4x64xf32>
    %288 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %289 = stablehlo.reduce(%287 init: %288) applies stablehlo.add across dimensions = [1] : (tensor<4x64xf32>, tensor<f32>) -> tensor<4xf32>
    %290 = stablehlo.constant dense<6.4e1> : tensor<4xf32>
    %291 = stablehlo.divide %289, %290 : tensor<4xf32>
    %292 = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
    %293 = stablehlo.add %291, %292 : tensor<4xf32>
    %294 = stablehlo.rsqrt %293 : tensor<4xf32>
    %295 = stablehlo.broadcast_in_dim %294, dims = [0] : (tensor<4xf32>) -> tensor<4x64xf32>
    %296 = stablehlo.multiply %259, %295 : tensor<4x64xf32>
    %297 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<4x64xf32>
    %298 = stablehlo.multiply %296, %297 : tensor<4x64xf32>
    %299 = stablehlo.constant dense<0.0e0> : tensor<4x64xf32>
    %300 = stablehlo.concatenate %298, %299, dim = 0 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<8x64xf32>
    %301 = stablehlo.dot_general %300, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %302 = stablehlo.slice %301 [0:4, 0:512] : (tensor<8x512xf32>) -> tensor<4x512xf32>
    // sampling: argmax(logits / T + Gumbel noise), or argmax(logits) where T = 0
    %303 = stablehlo.slice %arg27 [0:4, 0:1] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %304 = stablehlo.reshape %303 : (tensor<4x1xi32>) -> tensor<4xi32>
    %305 = stablehlo.broadcast_in_dim %304, dims = [0] : (tensor<4xi32>) -> tensor<4x512xi32>
    %306 = stablehlo.slice %arg27 [0:4, 1:2] : (tensor<4x2xi32>) -> tensor<4x1xi32>
    %307 = stablehlo.reshape %306 : (tensor<4x1xi32>) -> tensor<4xi32>
    %308 = stablehlo.broadcast_in_dim %307, dims = [0] : (tensor<4xi32>) -> tensor<4x512xi32>
    %309 = stablehlo.iota dim = 1 : tensor<4x512xi32>
    %310 = stablehlo.xor %309, %305 : tensor<4x512xi32>
    %311 = stablehlo.constant dense<16> : tensor<4x512xi32>
    %312 = stablehlo.constant dense<15> : tensor<4x512xi32>
    %313 = stablehlo.constant dense<2146121005> : tensor<4x512xi32>
    %314 = stablehlo.constant dense<-2073254261> : tensor<4x512xi32>
    %315 = stablehlo.shift_right_logical %310, %311 : tensor<4x512xi32>
    %316 = stablehlo.xor %310, %315 : tensor<4x512xi32>
    %317 = stablehlo.multiply %316, %313 : tensor<4x512xi32>
    %318 = stablehlo.shift_right_logical %317, %312 : tensor<4x512xi32>
    %319 = stablehlo.xor %317, %318 : tensor<4x512xi32>
    %320 = stablehlo.multiply %319, %314 : tensor<4x512xi32>
    %321 = stablehlo.shift_right_logical %320, %311 : tensor<4x512xi32>
    %322 = stablehlo.xor %320, %321 : tensor<4x512xi32>
    %323 = stablehlo.add %322, %308 : tensor<4x512xi32>
    %324 = stablehlo.constant dense<16> : tensor<4x512xi32>
    %325 = stablehlo.constant dense<15> : tensor<4x512xi32>
    %326 = stablehlo.constant dense<2146121005> : tensor<4x512xi32>
    %327 = stablehlo.constant dense<-2073254261> : tensor<4x512xi32>
    %328 = stablehlo.shift_right_logical %323, %324 : tensor<4x512xi32>
    %329 = stablehlo.xor %323, %328 : tensor<4x512xi32>
    %330 = stablehlo.multiply %329, %326 : tensor<4x512xi32>
    %331 = stablehlo.shift_right_logical %330, %325 : tensor<4x512xi32>
    %332 = stablehlo.xor %330, %331 : tensor<4x512xi32>
    %333 = stablehlo.multiply %332, %327 : tensor<4x512xi32>
    %334 = stablehlo.shift_right_logical %333, %324 : tensor<4x512xi32>
    %335 = stablehlo.xor %333, %334 : tensor<4x512xi32>
    %336 = stablehlo.constant dense<9> : tensor<4x512xi32>
    %337 = stablehlo.shift_right_logical %335, %336 : tensor<4x512xi32>
    %338 = stablehlo.convert %337 : (tensor<4x512xi32>) -> tensor<4x512xf32>
    %339 = stablehlo.constant dense<5.0e-1> : tensor<4x512xf32>
    %340 = stablehlo.constant dense<1.1920929e-7> : tensor<4x512xf32>
    %341 = stablehlo.add %338, %339 : tensor<4x512xf32>
    %342 = stablehlo.multiply %341, %340 : tensor<4x512xf32>
    %343 = stablehlo.log %342 : tensor<4x512xf32>
    %344 = stablehlo.negate %343 : tensor<4x512xf32>
    %345 = stablehlo.log %344 : tensor<4x512xf32>
    %346 = stablehlo.negate %345 : tensor<4x512xf32>
    %347 = stablehlo.constant dense<0.0e0> : tensor<4xf32>
    %348 = stablehlo.constant dense<1.0e0> : tensor<4xf32>
    %349 = stablehlo.compare GT, %arg26, %347 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %350 = stablehlo.select %349, %arg26, %348 : tensor<4xi1>, tensor<4xf32>
    %351 = stablehlo.broadcast_in_dim %350, dims = [0] : (tensor<4xf32>) -> tensor<4x512xf32>
    %352 = stablehlo.divide %302, %351 : tensor<4x512xf32>
    %353 = stablehlo.add %352, %346 : tensor<4x512xf32>
    %354 = stablehlo.broadcast_in_dim %349, dims = [0] : (tensor<4xi1>) -> tensor<4x512xi1>
    %355 = stablehlo.select %354, %353, %302 : tensor<4x512xi1>, tensor<4x512xf32>
    %356 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %357 = stablehlo.reduce(%355 init: %356) applies stablehlo.maximum across dimensions = [1] : (tensor<4x512xf32>, tensor<f32>) -> tensor<4xf32>
    %358 = stablehlo.broadcast_in_dim %357, dims = [0] : (tensor<4xf32>) -> tensor<4x512xf32>
    %359 = stablehlo.compare EQ, %355, %358 : (tensor<4x512xf32>, tensor<4x512xf32>) -> tensor<4x512xi1>
    %360 = stablehlo.iota dim = 1 : tensor<4x512xi32>
    %361 = stablehlo.convert %360 : (tensor<4x512xi32>) -> tensor<4x512xf32>
    %362 = stablehlo.constant dense<5.12e2> : tensor<4x512xf32>
    %363 = stablehlo.select %359, %361, %362 : tensor<4x512xi1>, tensor<4x512xf32>
    %364 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %365 = stablehlo.reduce(%363 init: %364) applies stablehlo.minimum across dimensions = [1] : (tensor<4x512xf32>, tensor<f32>) -> tensor<4xf32>
    %366 = stablehlo.convert %365 : (tensor<4xf32>) -> tensor<4xi32>
    return %366, %286, %302 : tensor<4xi32>, tensor<2x2x8x256x16xf32>, tensor<4x512xf32>
  }
}

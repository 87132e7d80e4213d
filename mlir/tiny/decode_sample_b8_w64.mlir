// decode_sample_b8_w64: emitted by iree-llm 0.1.0 (graph format 4).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_sample_b8_w64 {
  func.func @decode_sample_b8_w64(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<256x64xf32>, %arg6: tensor<64x128xf32>, %arg7: tensor<64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<64xf32>, %arg14: tensor<512x64xf32>, %arg15: tensor<256x8xf32>, %arg16: tensor<256x8xf32>, %arg17: tensor<2x2x16x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg18: tensor<8xi32>, %arg19: tensor<8xi32>, %arg20: tensor<8xf32>, %arg21: tensor<8x2xi32>) -> (tensor<8xi32>, tensor<2x2x16x256x16xf32>, tensor<8x512xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg18 : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
    %2 = stablehlo.reshape %arg19 : (tensor<8xi32>) -> tensor<8x1xi32>
    %3 = "stablehlo.gather"(%arg15, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<8x1xi32>) -> tensor<8x8xf32>
    %4 = stablehlo.reshape %arg19 : (tensor<8xi32>) -> tensor<8x1xi32>
    %5 = "stablehlo.gather"(%arg16, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<8x1xi32>) -> tensor<8x8xf32>
    // each row sees the cached keys before its position: s < pos[i]
    %6 = stablehlo.iota dim = 1 : tensor<8x64xi32>
    %7 = stablehlo.broadcast_in_dim %arg19, dims = [0] : (tensor<8xi32>) -> tensor<8x64xi32>
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
    %26 = stablehlo.dot_general %25, %arg2, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %27 = stablehlo.reshape %26 : (tensor<8x128xf32>) -> tensor<8x8x16xf32>
    %28 = stablehlo.slice %27 [0:8, 0:6, 0:16] : (tensor<8x8x16xf32>) -> tensor<8x6x16xf32>
    %29 = stablehlo.reshape %28 : (tensor<8x6x16xf32>) -> tensor<8x6x2x8xf32>
    %30 = "stablehlo.reverse"(%29) {dimensions = array<i64: 2>} : (tensor<8x6x2x8xf32>) -> tensor<8x6x2x8xf32>
    %31 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x6x2x8xf32>
    %32 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x6x2x8xf32>
    %33 = stablehlo.iota dim = 2 : tensor<8x6x2x8xi32>
    %34 = stablehlo.convert %33 : (tensor<8x6x2x8xi32>) -> tensor<8x6x2x8xf32>
    %35 = stablehlo.constant dense<2.0e0> : tensor<8x6x2x8xf32>
    %36 = stablehlo.constant dense<1.0e0> : tensor<8x6x2x8xf32>
    %37 = stablehlo.multiply %34, %35 : tensor<8x6x2x8xf32>
    %38 = stablehlo.subtract %37, %36 : tensor<8x6x2x8xf32>
    %39 = stablehlo.multiply %32, %38 : tensor<8x6x2x8xf32>
    %40 = stablehlo.multiply %29, %31 : tensor<8x6x2x8xf32>
    %41 = stablehlo.multiply %30, %39 : tensor<8x6x2x8xf32>
    %42 = stablehlo.add %40, %41 : tensor<8x6x2x8xf32>
    %43 = stablehlo.reshape %42 : (tensor<8x6x2x8xf32>) -> tensor<8x6x16xf32>
    %44 = stablehlo.slice %43 [0:8, 0:4, 0:16] : (tensor<8x6x16xf32>) -> tensor<8x4x16xf32>
    %45 = stablehlo.slice %43 [0:8, 4:6, 0:16] : (tensor<8x6x16xf32>) -> tensor<8x2x16xf32>
    %46 = stablehlo.slice %27 [0:8, 6:8, 0:16] : (tensor<8x8x16xf32>) -> tensor<8x2x16xf32>
    // layer 0: every row attends to its cached positions and its own K/V
    %47 = stablehlo.slice %arg17 [0:1, 0:1, 0:16, 0:64, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x64x16xf32>
    %48 = stablehlo.reshape %47 : (tensor<1x1x16x64x16xf32>) -> tensor<16x64x16xf32>
    %49 = stablehlo.slice %arg17 [0:1, 1:2, 0:16, 0:64, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x64x16xf32>
    %50 = stablehlo.reshape %49 : (tensor<1x1x16x64x16xf32>) -> tensor<16x64x16xf32>
    %51 = stablehlo.reshape %44 : (tensor<8x4x16xf32>) -> tensor<16x2x16xf32>
    %52 = stablehlo.reshape %45 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %53 = stablehlo.reshape %46 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %54 = stablehlo.dot_general %51, %48, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<16x2x16xf32>, tensor<16x64x16xf32>) -> tensor<16x2x64xf32>
    %55 = stablehlo.multiply %54, %12 : tensor<16x2x64xf32>
    %56 = stablehlo.select %10, %55, %11 : tensor<16x2x64xi1>, tensor<16x2x64xf32>
    %57 = stablehlo.dot_general %51, %52, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x16xf32>, tensor<16x16xf32>) -> tensor<16x2xf32>
    %58 = stablehlo.multiply %57, %13 : tensor<16x2xf32>
    %59 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %60 = stablehlo.reduce(%56 init: %59) applies stablehlo.maximum across dimensions = [2] : (tensor<16x2x64xf32>, tensor<f32>) -> tensor<16x2xf32>
    %61 = stablehlo.maximum %60, %58 : tensor<16x2xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x64xf32>
    %63 = stablehlo.subtract %56, %62 : tensor<16x2x64xf32>
    %64 = stablehlo.exponential %63 : tensor<16x2x64xf32>
    %65 = stablehlo.subtract %58, %61 : tensor<16x2xf32>
    %66 = stablehlo.exponential %65 : tensor<16x2xf32>
    %67 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %68 = stablehlo.reduce(%64 init: %67) applies stablehlo.add across dimensions = [2] : (tensor<16x2x64xf32>, tensor<f32>) -> tensor<16x2xf32>
    %69 = stablehlo.add %68, %66 : tensor<16x2xf32>
    %70 = stablehlo.dot_general %64, %50, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x64xf32>, tensor<16x64x16xf32>) -> tensor<16x2x16xf32>
    %71 = stablehlo.broadcast_in_dim %66, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %72 = stablehlo.broadcast_in_dim %53, dims = [0, 2] : (tensor<16x16xf32>) -> tensor<16x2x16xf32>
    %73 = stablehlo.multiply %71, %72 : tensor<16x2x16xf32>
    %74 = stablehlo.add %70, %73 : tensor<16x2x16xf32>
    %75 = stablehlo.broadcast_in_dim %69, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %76 = stablehlo.divide %74, %75 : tensor<16x2x16xf32>
    %77 = stablehlo.reshape %45 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %78 = stablehlo.reshape %46 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %79 = stablehlo.reshape %76 : (tensor<16x2x16xf32>) -> tensor<8x64xf32>
    %80 = stablehlo.dot_general %79, %arg3, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %81 = stablehlo.add %1, %80 : tensor<8x64xf32>
    // layer 0: MLP
    %82 = stablehlo.multiply %81, %81 : tensor<8x64xf32>
    %83 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %84 = stablehlo.reduce(%82 init: %83) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %85 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %86 = stablehlo.divide %84, %85 : tensor<8xf32>
    %87 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %88 = stablehlo.add %86, %87 : tensor<8xf32>
    %89 = stablehlo.rsqrt %88 : tensor<8xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %91 = stablehlo.multiply %81, %90 : tensor<8x64xf32>
    %92 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %93 = stablehlo.multiply %91, %92 : tensor<8x64xf32>
    %94 = stablehlo.dot_general %93, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<256x64xf32>) -> tensor<8x256xf32>
    %95 = stablehlo.slice %94 [0:8, 0:128] : (tensor<8x256xf32>) -> tensor<8x128xf32>
    %96 = stablehlo.slice %94 [0:8, 128:256] : (tensor<8x256xf32>) -> tensor<8x128xf32>
    %97 = stablehlo.logistic %95 : tensor<8x128xf32>
    %98 = stablehlo.multiply %95, %97 : tensor<8x128xf32>
    %99 = stablehlo.multiply %98, %96 : tensor<8x128xf32>
    %100 = stablehlo.dot_general %99, %arg6, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %101 = stablehlo.add %81, %100 : tensor<8x64xf32>
    // layer 1: projections for all rows
    %102 = stablehlo.multiply %101, %101 : tensor<8x64xf32>
    %103 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %104 = stablehlo.reduce(%102 init: %103) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %105 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %106 = stablehlo.divide %104, %105 : tensor<8xf32>
    %107 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %108 = stablehlo.add %106, %107 : tensor<8xf32>
    %109 = stablehlo.rsqrt %108 : tensor<8xf32>
    %110 = stablehlo.broadcast_in_dim %109, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %111 = stablehlo.multiply %101, %110 : tensor<8x64xf32>
    %112 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %113 = stablehlo.multiply %111, %112 : tensor<8x64xf32>
    %114 = stablehlo.dot_general %113, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %115 = stablehlo.reshape %114 : (tensor<8x128xf32>) -> tensor<8x8x16xf32>
    %116 = stablehlo.slice %115 [0:8, 0:6, 0:16] : (tensor<8x8x16xf32>) -> tensor<8x6x16xf32>
    %117 = stablehlo.reshape %116 : (tensor<8x6x16xf32>) -> tensor<8x6x2x8xf32>
    %118 = "stablehlo.reverse"(%117) {dimensions = array<i64: 2>} : (tensor<8x6x2x8xf32>) -> tensor<8x6x2x8xf32>
    %119 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x6x2x8xf32>
    %120 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x6x2x8xf32>
    %121 = stablehlo.iota dim = 2 : tensor<8x6x2x8xi32>
    %122 = stablehlo.convert %121 : (tensor<8x6x2x8xi32>) -> tensor<8x6x2x8xf32>
    %123 = stablehlo.constant dense<2.0e0> : tensor<8x6x2x8xf32>
    %124 = stablehlo.constant dense<1.0e0> : tensor<8x6x2x8xf32>
    %125 = stablehlo.multiply %122, %123 : tensor<8x6x2x8xf32>
    %126 = stablehlo.subtract %125, %124 : tensor<8x6x2x8xf32>
    %127 = stablehlo.multiply %120, %126 : tensor<8x6x2x8xf32>
    %128 = stablehlo.multiply %117, %119 : tensor<8x6x2x8xf32>
    %129 = stablehlo.multiply %118, %127 : tensor<8x6x2x8xf32>
    %130 = stablehlo.add %128, %129 : tensor<8x6x2x8xf32>
    %131 = stablehlo.reshape %130 : (tensor<8x6x2x8xf32>) -> tensor<8x6x16xf32>
    %132 = stablehlo.slice %131 [0:8, 0:4, 0:16] : (tensor<8x6x16xf32>) -> tensor<8x4x16xf32>
    %133 = stablehlo.slice %131 [0:8, 4:6, 0:16] : (tensor<8x6x16xf32>) -> tensor<8x2x16xf32>
    %134 = stablehlo.slice %115 [0:8, 6:8, 0:16] : (tensor<8x8x16xf32>) -> tensor<8x2x16xf32>
    // layer 1: every row attends to its cached positions and its own K/V
    %135 = stablehlo.slice %arg17 [1:2, 0:1, 0:16, 0:64, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x64x16xf32>
    %136 = stablehlo.reshape %135 : (tensor<1x1x16x64x16xf32>) -> tensor<16x64x16xf32>
    %137 = stablehlo.slice %arg17 [1:2, 1:2, 0:16, 0:64, 0:16] : (tensor<2x2x16x256x16xf32>) -> tensor<1x1x16x64x16xf32>
    %138 = stablehlo.reshape %137 : (tensor<1x1x16x64x16xf32>) -> tensor<16x64x16xf32>
    %139 = stablehlo.reshape %132 : (tensor<8x4x16xf32>) -> tensor<16x2x16xf32>
    %140 = stablehlo.reshape %133 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %141 = stablehlo.reshape %134 : (tensor<8x2x16xf32>) -> tensor<16x16xf32>
    %142 = stablehlo.dot_general %139, %136, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<16x2x16xf32>, tensor<16x64x16xf32>) -> tensor<16x2x64xf32>
    %143 = stablehlo.multiply %142, %12 : tensor<16x2x64xf32>
    %144 = stablehlo.select %10, %143, %11 : tensor<16x2x64xi1>, tensor<16x2x64xf32>
    %145 = stablehlo.dot_general %139, %140, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x16xf32>, tensor<16x16xf32>) -> tensor<16x2xf32>
    %146 = stablehlo.multiply %145, %13 : tensor<16x2xf32>
    %147 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %148 = stablehlo.reduce(%144 init: %147) applies stablehlo.maximum across dimensions = [2] : (tensor<16x2x64xf32>, tensor<f32>) -> tensor<16x2xf32>
    %149 = stablehlo.maximum %148, %146 : tensor<16x2xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x64xf32>
    %151 = stablehlo.subtract %144, %150 : tensor<16x2x64xf32>
    %152 = stablehlo.exponential %151 : tensor<16x2x64xf32>
    %153 = stablehlo.subtract %146, %149 : tensor<16x2xf32>
    %154 = stablehlo.exponential %153 : tensor<16x2xf32>
    %155 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %156 = stablehlo.reduce(%152 init: %155) applies stablehlo.add across dimensions = [2] : (tensor<16x2x64xf32>, tensor<f32>) -> tensor<16x2xf32>
    %157 = stablehlo.add %156, %154 : tensor<16x2xf32>
    %158 = stablehlo.dot_general %152, %138, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<16x2x64xf32>, tensor<16x64x16xf32>) -> tensor<16x2x16xf32>
    %159 = stablehlo.broadcast_in_dim %154, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %160 = stablehlo.broadcast_in_dim %141, dims = [0, 2] : (tensor<16x16xf32>) -> tensor<16x2x16xf32>
    %161 = stablehlo.multiply %159, %160 : tensor<16x2x16xf32>
    %162 = stablehlo.add %158, %161 : tensor<16x2x16xf32>
    %163 = stablehlo.broadcast_in_dim %157, dims = [0, 1] : (tensor<16x2xf32>) -> tensor<16x2x16xf32>
    %164 = stablehlo.divide %162, %163 : tensor<16x2x16xf32>
    %165 = stablehlo.reshape %133 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %166 = stablehlo.reshape %134 : (tensor<8x2x16xf32>) -> tensor<1x1x16x16xf32>
    %167 = stablehlo.reshape %164 : (tensor<16x2x16xf32>) -> tensor<8x64xf32>
    %168 = stablehlo.dot_general %167, %arg9, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %169 = stablehlo.add %101, %168 : tensor<8x64xf32>
    // layer 1: MLP
    %170 = stablehlo.multiply %169, %169 : tensor<8x64xf32>
    %171 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %172 = stablehlo.reduce(%170 init: %171) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %173 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %174 = stablehlo.divide %172, %173 : tensor<8xf32>
    %175 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %176 = stablehlo.add %174, %175 : tensor<8xf32>
    %177 = stablehlo.rsqrt %176 : tensor<8xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %179 = stablehlo.multiply %169, %178 : tensor<8x64xf32>
    %180 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %181 = stablehlo.multiply %179, %180 : tensor<8x64xf32>
    %182 = stablehlo.dot_general %181, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<256x64xf32>) -> tensor<8x256xf32>
    %183 = stablehlo.slice %182 [0:8, 0:128] : (tensor<8x256xf32>) -> tensor<8x128xf32>
    %184 = stablehlo.slice %182 [0:8, 128:256] : (tensor<8x256xf32>) -> tensor<8x128xf32>
    %185 = stablehlo.logistic %183 : tensor<8x128xf32>
    %186 = stablehlo.multiply %183, %185 : tensor<8x128xf32>
    %187 = stablehlo.multiply %186, %184 : tensor<8x128xf32>
    %188 = stablehlo.dot_general %187, %arg12, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %189 = stablehlo.add %169, %188 : tensor<8x64xf32>
    // write every layer's K/V of row i at pos[i] of slot i
    %190 = stablehlo.concatenate %77, %78, %165, %166, dim = 0 : (tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>, tensor<1x1x16x16xf32>) -> tensor<4x1x16x16xf32>
    %191 = stablehlo.reshape %190 : (tensor<4x1x16x16xf32>) -> tensor<64x16xf32>
    %192 = stablehlo.iota dim = 3 : tensor<2x2x16x4xi32>
    %193 = stablehlo.broadcast_in_dim %arg19, dims = [2] : (tensor<8xi32>) -> tensor<2x2x8x2x4xi32>
    %194 = stablehlo.reshape %193 : (tensor<2x2x8x2x4xi32>) -> tensor<2x2x16x4xi32>
    %195 = stablehlo.constant dense<2> : tensor<2x2x16x4xi32>
    %196 = stablehlo.compare EQ, %192, %195 : (tensor<2x2x16x4xi32>, tensor<2x2x16x4xi32>) -> tensor<2x2x16x4xi1>
    %197 = stablehlo.iota dim = 2 : tensor<2x2x16x4xi32>
    %198 = stablehlo.select %196, %197, %194 : tensor<2x2x16x4xi1>, tensor<2x2x16x4xi32>
    %199 = stablehlo.constant dense<1> : tensor<2x2x16x4xi32>
    %200 = stablehlo.compare EQ, %192, %199 : (tensor<2x2x16x4xi32>, tensor<2x2x16x4xi32>) -> tensor<2x2x16x4xi1>
    %201 = stablehlo.iota dim = 1 : tensor<2x2x16x4xi32>
    %202 = stablehlo.select %200, %201, %198 : tensor<2x2x16x4xi1>, tensor<2x2x16x4xi32>
    %203 = stablehlo.constant dense<0> : tensor<2x2x16x4xi32>
    %204 = stablehlo.compare EQ, %192, %203 : (tensor<2x2x16x4xi32>, tensor<2x2x16x4xi32>) -> tensor<2x2x16x4xi1>
    %205 = stablehlo.iota dim = 0 : tensor<2x2x16x4xi32>
    %206 = stablehlo.select %204, %205, %202 : tensor<2x2x16x4xi1>, tensor<2x2x16x4xi32>
    %207 = stablehlo.reshape %206 : (tensor<2x2x16x4xi32>) -> tensor<64x4xi32>
    %208 = stablehlo.optimization_barrier %207 : tensor<64x4xi32>
    %209 = "stablehlo.scatter"(%arg17, %208, %191) ({
      ^bb0(%old: tensor<f32>, %new: tensor<f32>):
        stablehlo.return %new : tensor<f32>
    }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0, 1, 2, 3], scatter_dims_to_operand_dims = [0, 1, 2, 3], index_vector_dim = 1>, indices_are_sorted = false, unique_indices = true} : (tensor<2x2x16x256x16xf32>, tensor<64x4xi32>, tensor<64x16xf32>) -> tensor<2x2x16x256x16xf32>
    %210 = stablehlo.multiply %189, %189 : tensor<8x64xf32>
    %211 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %212 = stablehlo.reduce(%210 init: %211) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %213 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %214 = stablehlo.divide %212, %213 : tensor<8xf32>
    %215 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %216 = stablehlo.add %214, %215 : tensor<8xf32>
    %217 = stablehlo.rsqrt %216 : tensor<8xf32>
    %218 = stablehlo.broadcast_in_dim %217, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %219 = stablehlo.multiply %189, %218 : tensor<8x64xf32>
    %220 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %221 = stablehlo.multiply %219, %220 : tensor<8x64xf32>
    %222 = stablehlo.dot_general %221, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    // sampling: argmax(logits / T + Gumbel noise), or argmax(logits) where T = 0
    %223 = stablehlo.slice %arg21 [0:8, 0:1] : (tensor<8x2xi32>) -> tensor<8x1xi32>
    %224 = stablehlo.reshape %223 : (tensor<8x1xi32>) -> tensor<8xi32>
    %225 = stablehlo.broadcast_in_dim %224, dims = [0] : (tensor<8xi32>) -> tensor<8x512xi32>
    %226 = stablehlo.slice %arg21 [0:8, 1:2] : (tensor<8x2xi32>) -> tensor<8x1xi32>
    %227 = stablehlo.reshape %226 : (tensor<8x1xi32>) -> tensor<8xi32>
    %228 = stablehlo.broadcast_in_dim %227, dims = [0] : (tensor<8xi32>) -> tensor<8x512xi32>
    %229 = stablehlo.iota dim = 1 : tensor<8x512xi32>
    %230 = stablehlo.xor %229, %225 : tensor<8x512xi32>
    %231 = stablehlo.constant dense<16> : tensor<8x512xi32>
    %232 = stablehlo.constant dense<15> : tensor<8x512xi32>
    %233 = stablehlo.constant dense<2146121005> : tensor<8x512xi32>
    %234 = stablehlo.constant dense<-2073254261> : tensor<8x512xi32>
    %235 = stablehlo.shift_right_logical %230, %231 : tensor<8x512xi32>
    %236 = stablehlo.xor %230, %235 : tensor<8x512xi32>
    %237 = stablehlo.multiply %236, %233 : tensor<8x512xi32>
    %238 = stablehlo.shift_right_logical %237, %232 : tensor<8x512xi32>
    %239 = stablehlo.xor %237, %238 : tensor<8x512xi32>
    %240 = stablehlo.multiply %239, %234 : tensor<8x512xi32>
    %241 = stablehlo.shift_right_logical %240, %231 : tensor<8x512xi32>
    %242 = stablehlo.xor %240, %241 : tensor<8x512xi32>
    %243 = stablehlo.add %242, %228 : tensor<8x512xi32>
    %244 = stablehlo.constant dense<16> : tensor<8x512xi32>
    %245 = stablehlo.constant dense<15> : tensor<8x512xi32>
    %246 = stablehlo.constant dense<2146121005> : tensor<8x512xi32>
    %247 = stablehlo.constant dense<-2073254261> : tensor<8x512xi32>
    %248 = stablehlo.shift_right_logical %243, %244 : tensor<8x512xi32>
    %249 = stablehlo.xor %243, %248 : tensor<8x512xi32>
    %250 = stablehlo.multiply %249, %246 : tensor<8x512xi32>
    %251 = stablehlo.shift_right_logical %250, %245 : tensor<8x512xi32>
    %252 = stablehlo.xor %250, %251 : tensor<8x512xi32>
    %253 = stablehlo.multiply %252, %247 : tensor<8x512xi32>
    %254 = stablehlo.shift_right_logical %253, %244 : tensor<8x512xi32>
    %255 = stablehlo.xor %253, %254 : tensor<8x512xi32>
    %256 = stablehlo.constant dense<9> : tensor<8x512xi32>
    %257 = stablehlo.shift_right_logical %255, %256 : tensor<8x512xi32>
    %258 = stablehlo.convert %257 : (tensor<8x512xi32>) -> tensor<8x512xf32>
    %259 = stablehlo.constant dense<5.0e-1> : tensor<8x512xf32>
    %260 = stablehlo.constant dense<1.1920929e-7> : tensor<8x512xf32>
    %261 = stablehlo.add %258, %259 : tensor<8x512xf32>
    %262 = stablehlo.multiply %261, %260 : tensor<8x512xf32>
    %263 = stablehlo.log %262 : tensor<8x512xf32>
    %264 = stablehlo.negate %263 : tensor<8x512xf32>
    %265 = stablehlo.log %264 : tensor<8x512xf32>
    %266 = stablehlo.negate %265 : tensor<8x512xf32>
    %267 = stablehlo.constant dense<0.0e0> : tensor<8xf32>
    %268 = stablehlo.constant dense<1.0e0> : tensor<8xf32>
    %269 = stablehlo.compare GT, %arg20, %267 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %270 = stablehlo.select %269, %arg20, %268 : tensor<8xi1>, tensor<8xf32>
    %271 = stablehlo.broadcast_in_dim %270, dims = [0] : (tensor<8xf32>) -> tensor<8x512xf32>
    %272 = stablehlo.divide %222, %271 : tensor<8x512xf32>
    %273 = stablehlo.add %272, %266 : tensor<8x512xf32>
    %274 = stablehlo.broadcast_in_dim %269, dims = [0] : (tensor<8xi1>) -> tensor<8x512xi1>
    %275 = stablehlo.select %274, %273, %222 : tensor<8x512xi1>, tensor<8x512xf32>
    %276 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %277 = stablehlo.reduce(%275 init: %276) applies stablehlo.maximum across dimensions = [1] : (tensor<8x512xf32>, tensor<f32>) -> tensor<8xf32>
    %278 = stablehlo.broadcast_in_dim %277, dims = [0] : (tensor<8xf32>) -> tensor<8x512xf32>
    %279 = stablehlo.compare EQ, %275, %278 : (tensor<8x512xf32>, tensor<8x512xf32>) -> tensor<8x512xi1>
    %280 = stablehlo.iota dim = 1 : tensor<8x512xi32>
    %281 = stablehlo.convert %280 : (tensor<8x512xi32>) -> tensor<8x512xf32>
    %282 = stablehlo.constant dense<5.12e2> : tensor<8x512xf32>
    %283 = stablehlo.select %279, %281, %282 : tensor<8x512xi1>, tensor<8x512xf32>
    %284 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %285 = stablehlo.reduce(%283 init: %284) applies stablehlo.minimum across dimensions = [1] : (tensor<8x512xf32>, tensor<f32>) -> tensor<8xf32>
    %286 = stablehlo.convert %285 : (tensor<8xf32>) -> tensor<8xi32>
    return %286, %209, %222 : tensor<8xi32>, tensor<2x2x16x256x16xf32>, tensor<8x512xf32>
  }
}

// chunk_logits_t16_w0_s8: emitted by iree-llm 0.1.0 (graph format 4).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @chunk_logits_t16_w0_s8 {
  func.func @chunk_logits_t16_w0_s8(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<256x64xf32>, %arg6: tensor<64x128xf32>, %arg7: tensor<64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<64xf32>, %arg14: tensor<512x64xf32>, %arg15: tensor<256x8xf32>, %arg16: tensor<256x8xf32>, %arg17: tensor<2x2x16x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg18: tensor<16xi32>, %arg19: tensor<i32>, %arg20: tensor<i32>, %arg21: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x16x256x16xf32>) {
    // embeddings and the rotary angles of positions start..start + t
    %0 = stablehlo.reshape %arg18 : (tensor<16xi32>) -> tensor<16x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<16x1xi32>) -> tensor<16x64xf32>
    %2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.dynamic_slice %arg15, %arg21, %2, sizes = [16, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
    %5 = stablehlo.dynamic_slice %arg16, %arg21, %2, sizes = [16, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
    // query i sees cached keys j < start and chunk keys window + k, k <= i
    %6 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %7 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %8 = stablehlo.broadcast_in_dim %arg21, dims = [] : (tensor<i32>) -> tensor<16x16xi32>
    %9 = stablehlo.compare LT, %7, %8 : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %10 = stablehlo.constant dense<0> : tensor<16x16xi32>
    %11 = stablehlo.compare GE, %7, %10 : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %12 = stablehlo.subtract %7, %10 : tensor<16x16xi32>
    %13 = stablehlo.compare LE, %12, %6 : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %14 = stablehlo.and %11, %13 : tensor<16x16xi1>
    %15 = stablehlo.or %9, %14 : tensor<16x16xi1>
    %16 = stablehlo.broadcast_in_dim %15, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x2x16x16xi1>
    %17 = stablehlo.constant dense<2.5e-1> : tensor<2x2x16x16xf32>
    %18 = stablehlo.constant dense<2> : tensor<i32>
    %19 = stablehlo.multiply %arg20, %18 : tensor<i32>
    // layer 0: attention of the chunk
    %20 = stablehlo.multiply %1, %1 : tensor<16x64xf32>
    %21 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %22 = stablehlo.reduce(%20 init: %21) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %23 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %24 = stablehlo.divide %22, %23 : tensor<16xf32>
    %25 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %26 = stablehlo.add %24, %25 : tensor<16xf32>
    %27 = stablehlo.rsqrt %26 : tensor<16xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %29 = stablehlo.multiply %1, %28 : tensor<16x64xf32>
    %30 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %31 = stablehlo.multiply %29, %30 : tensor<16x64xf32>
    %32 = stablehlo.dot_general %31, %arg2, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %33 = stablehlo.reshape %32 : (tensor<16x128xf32>) -> tensor<16x8x16xf32>
    %34 = stablehlo.slice %33 [0:16, 0:6, 0:16] : (tensor<16x8x16xf32>) -> tensor<16x6x16xf32>
    %35 = stablehlo.reshape %34 : (tensor<16x6x16xf32>) -> tensor<16x6x2x8xf32>
    %36 = "stablehlo.reverse"(%35) {dimensions = array<i64: 2>} : (tensor<16x6x2x8xf32>) -> tensor<16x6x2x8xf32>
    %37 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x6x2x8xf32>
    %38 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x6x2x8xf32>
    %39 = stablehlo.iota dim = 2 : tensor<16x6x2x8xi32>
    %40 = stablehlo.convert %39 : (tensor<16x6x2x8xi32>) -> tensor<16x6x2x8xf32>
    %41 = stablehlo.constant dense<2.0e0> : tensor<16x6x2x8xf32>
    %42 = stablehlo.constant dense<1.0e0> : tensor<16x6x2x8xf32>
    %43 = stablehlo.multiply %40, %41 : tensor<16x6x2x8xf32>
    %44 = stablehlo.subtract %43, %42 : tensor<16x6x2x8xf32>
    %45 = stablehlo.multiply %38, %44 : tensor<16x6x2x8xf32>
    %46 = stablehlo.multiply %35, %37 : tensor<16x6x2x8xf32>
    %47 = stablehlo.multiply %36, %45 : tensor<16x6x2x8xf32>
    %48 = stablehlo.add %46, %47 : tensor<16x6x2x8xf32>
    %49 = stablehlo.reshape %48 : (tensor<16x6x2x8xf32>) -> tensor<16x6x16xf32>
    %50 = stablehlo.slice %49 [0:16, 0:4, 0:16] : (tensor<16x6x16xf32>) -> tensor<16x4x16xf32>
    %51 = stablehlo.slice %49 [0:16, 4:6, 0:16] : (tensor<16x6x16xf32>) -> tensor<16x2x16xf32>
    %52 = stablehlo.slice %33 [0:16, 6:8, 0:16] : (tensor<16x8x16xf32>) -> tensor<16x2x16xf32>
    %53 = stablehlo.transpose %51, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %54 = stablehlo.transpose %52, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %55 = stablehlo.reshape %50 : (tensor<16x4x16xf32>) -> tensor<16x2x2x16xf32>
    %56 = stablehlo.transpose %55, dims = [1, 2, 0, 3] : (tensor<16x2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %57 = stablehlo.reshape %56 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %58 = stablehlo.dot_general %57, %53, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %59 = stablehlo.reshape %58 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %60 = stablehlo.multiply %59, %17 : tensor<2x2x16x16xf32>
    %61 = stablehlo.constant dense<0xFF800000> : tensor<2x2x16x16xf32>
    %62 = stablehlo.select %16, %60, %61 : tensor<2x2x16x16xi1>, tensor<2x2x16x16xf32>
    %63 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %64 = stablehlo.reduce(%62 init: %63) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %66 = stablehlo.subtract %62, %65 : tensor<2x2x16x16xf32>
    %67 = stablehlo.exponential %66 : tensor<2x2x16x16xf32>
    %68 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %69 = stablehlo.reduce(%67 init: %68) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %71 = stablehlo.divide %67, %70 : tensor<2x2x16x16xf32>
    %72 = stablehlo.reshape %71 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %73 = stablehlo.dot_general %72, %54, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %74 = stablehlo.reshape %73 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %75 = stablehlo.transpose %74, dims = [2, 0, 1, 3] : (tensor<2x2x16x16xf32>) -> tensor<16x2x2x16xf32>
    %76 = stablehlo.reshape %53 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %77 = stablehlo.reshape %54 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %78 = stablehlo.reshape %75 : (tensor<16x2x2x16xf32>) -> tensor<16x64xf32>
    %79 = stablehlo.dot_general %78, %arg3, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %80 = stablehlo.add %1, %79 : tensor<16x64xf32>
    // layer 0: MLP
    %81 = stablehlo.multiply %80, %80 : tensor<16x64xf32>
    %82 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %83 = stablehlo.reduce(%81 init: %82) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %84 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %85 = stablehlo.divide %83, %84 : tensor<16xf32>
    %86 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %87 = stablehlo.add %85, %86 : tensor<16xf32>
    %88 = stablehlo.rsqrt %87 : tensor<16xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %90 = stablehlo.multiply %80, %89 : tensor<16x64xf32>
    %91 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %92 = stablehlo.multiply %90, %91 : tensor<16x64xf32>
    %93 = stablehlo.dot_general %92, %arg5, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<256x64xf32>) -> tensor<16x256xf32>
    %94 = stablehlo.slice %93 [0:16, 0:128] : (tensor<16x256xf32>) -> tensor<16x128xf32>
    %95 = stablehlo.slice %93 [0:16, 128:256] : (tensor<16x256xf32>) -> tensor<16x128xf32>
    %96 = stablehlo.logistic %94 : tensor<16x128xf32>
    %97 = stablehlo.multiply %94, %96 : tensor<16x128xf32>
    %98 = stablehlo.multiply %97, %95 : tensor<16x128xf32>
    %99 = stablehlo.dot_general %98, %arg6, contracting_dims = [1] x [1] : (tensor<16x128xf32>, tensor<64x128xf32>) -> tensor<16x64xf32>
    %100 = stablehlo.add %80, %99 : tensor<16x64xf32>
    // layer 1: attention of the chunk
    %101 = stablehlo.multiply %100, %100 : tensor<16x64xf32>
    %102 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %103 = stablehlo.reduce(%101 init: %102) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %104 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %105 = stablehlo.divide %103, %104 : tensor<16xf32>
    %106 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %107 = stablehlo.add %105, %106 : tensor<16xf32>
    %108 = stablehlo.rsqrt %107 : tensor<16xf32>
    %109 = stablehlo.broadcast_in_dim %108, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %110 = stablehlo.multiply %100, %109 : tensor<16x64xf32>
    %111 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %112 = stablehlo.multiply %110, %111 : tensor<16x64xf32>
    %113 = stablehlo.dot_general %112, %arg8, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %114 = stablehlo.reshape %113 : (tensor<16x128xf32>) -> tensor<16x8x16xf32>
    %115 = stablehlo.slice %114 [0:16, 0:6, 0:16] : (tensor<16x8x16xf32>) -> tensor<16x6x16xf32>
    %116 = stablehlo.reshape %115 : (tensor<16x6x16xf32>) -> tensor<16x6x2x8xf32>
    %117 = "stablehlo.reverse"(%116) {dimensions = array<i64: 2>} : (tensor<16x6x2x8xf32>) -> tensor<16x6x2x8xf32>
    %118 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x6x2x8xf32>
    %119 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x6x2x8xf32>
    %120 = stablehlo.iota dim = 2 : tensor<16x6x2x8xi32>
    %121 = stablehlo.convert %120 : (tensor<16x6x2x8xi32>) -> tensor<16x6x2x8xf32>
    %122 = stablehlo.constant dense<2.0e0> : tensor<16x6x2x8xf32>
    %123 = stablehlo.constant dense<1.0e0> : tensor<16x6x2x8xf32>
    %124 = stablehlo.multiply %121, %122 : tensor<16x6x2x8xf32>
    %125 = stablehlo.subtract %124, %123 : tensor<16x6x2x8xf32>
    %126 = stablehlo.multiply %119, %125 : tensor<16x6x2x8xf32>
    %127 = stablehlo.multiply %116, %118 : tensor<16x6x2x8xf32>
    %128 = stablehlo.multiply %117, %126 : tensor<16x6x2x8xf32>
    %129 = stablehlo.add %127, %128 : tensor<16x6x2x8xf32>
    %130 = stablehlo.reshape %129 : (tensor<16x6x2x8xf32>) -> tensor<16x6x16xf32>
    %131 = stablehlo.slice %130 [0:16, 0:4, 0:16] : (tensor<16x6x16xf32>) -> tensor<16x4x16xf32>
    %132 = stablehlo.slice %130 [0:16, 4:6, 0:16] : (tensor<16x6x16xf32>) -> tensor<16x2x16xf32>
    %133 = stablehlo.slice %114 [0:16, 6:8, 0:16] : (tensor<16x8x16xf32>) -> tensor<16x2x16xf32>
    %134 = stablehlo.transpose %132, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %135 = stablehlo.transpose %133, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %136 = stablehlo.reshape %131 : (tensor<16x4x16xf32>) -> tensor<16x2x2x16xf32>
    %137 = stablehlo.transpose %136, dims = [1, 2, 0, 3] : (tensor<16x2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %138 = stablehlo.reshape %137 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %139 = stablehlo.dot_general %138, %134, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %140 = stablehlo.reshape %139 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %141 = stablehlo.multiply %140, %17 : tensor<2x2x16x16xf32>
    %142 = stablehlo.constant dense<0xFF800000> : tensor<2x2x16x16xf32>
    %143 = stablehlo.select %16, %141, %142 : tensor<2x2x16x16xi1>, tensor<2x2x16x16xf32>
    %144 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %145 = stablehlo.reduce(%143 init: %144) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %147 = stablehlo.subtract %143, %146 : tensor<2x2x16x16xf32>
    %148 = stablehlo.exponential %147 : tensor<2x2x16x16xf32>
    %149 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %150 = stablehlo.reduce(%148 init: %149) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %151 = stablehlo.broadcast_in_dim %150, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %152 = stablehlo.divide %148, %151 : tensor<2x2x16x16xf32>
    %153 = stablehlo.reshape %152 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %154 = stablehlo.dot_general %153, %135, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %155 = stablehlo.reshape %154 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %156 = stablehlo.transpose %155, dims = [2, 0, 1, 3] : (tensor<2x2x16x16xf32>) -> tensor<16x2x2x16xf32>
    %157 = stablehlo.reshape %134 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %158 = stablehlo.reshape %135 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %159 = stablehlo.reshape %156 : (tensor<16x2x2x16xf32>) -> tensor<16x64xf32>
    %160 = stablehlo.dot_general %159, %arg9, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %161 = stablehlo.add %100, %160 : tensor<16x64xf32>
    // layer 1: MLP
    %162 = stablehlo.multiply %161, %161 : tensor<16x64xf32>
    %163 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %164 = stablehlo.reduce(%162 init: %163) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %165 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %166 = stablehlo.divide %164, %165 : tensor<16xf32>
    %167 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %168 = stablehlo.add %166, %167 : tensor<16xf32>
    %169 = stablehlo.rsqrt %168 : tensor<16xf32>
    %170 = stablehlo.broadcast_in_dim %169, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %171 = stablehlo.multiply %161, %170 : tensor<16x64xf32>
    %172 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %173 = stablehlo.multiply %171, %172 : tensor<16x64xf32>
    %174 = stablehlo.dot_general %173, %arg11, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<256x64xf32>) -> tensor<16x256xf32>
    %175 = stablehlo.slice %174 [0:16, 0:128] : (tensor<16x256xf32>) -> tensor<16x128xf32>
    %176 = stablehlo.slice %174 [0:16, 128:256] : (tensor<16x256xf32>) -> tensor<16x128xf32>
    %177 = stablehlo.logistic %175 : tensor<16x128xf32>
    %178 = stablehlo.multiply %175, %177 : tensor<16x128xf32>
    %179 = stablehlo.multiply %178, %176 : tensor<16x128xf32>
    %180 = stablehlo.dot_general %179, %arg12, contracting_dims = [1] x [1] : (tensor<16x128xf32>, tensor<64x128xf32>) -> tensor<16x64xf32>
    %181 = stablehlo.add %161, %180 : tensor<16x64xf32>
    // write every layer's K/V of the chunk at start.. of the slot
    %182 = stablehlo.concatenate %76, %77, %157, %158, dim = 0 : (tensor<1x1x2x16x16xf32>, tensor<1x1x2x16x16xf32>, tensor<1x1x2x16x16xf32>, tensor<1x1x2x16x16xf32>) -> tensor<4x1x2x16x16xf32>
    %183 = stablehlo.reshape %182 : (tensor<4x1x2x16x16xf32>) -> tensor<2x2x2x16x16xf32>
    %184 = stablehlo.dynamic_update_slice %arg17, %183, %2, %2, %19, %arg21, %2 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    // the last real token: row len - 1
    %185 = stablehlo.subtract %arg19, %3 : tensor<i32>
    %186 = stablehlo.dynamic_slice %181, %185, %2, sizes = [1, 64] : (tensor<16x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %187 = stablehlo.multiply %186, %186 : tensor<1x64xf32>
    %188 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %189 = stablehlo.reduce(%187 init: %188) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %190 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %191 = stablehlo.divide %189, %190 : tensor<1xf32>
    %192 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %193 = stablehlo.add %191, %192 : tensor<1xf32>
    %194 = stablehlo.rsqrt %193 : tensor<1xf32>
    %195 = stablehlo.broadcast_in_dim %194, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %196 = stablehlo.multiply %186, %195 : tensor<1x64xf32>
    %197 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %198 = stablehlo.multiply %196, %197 : tensor<1x64xf32>
    %199 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %200 = stablehlo.concatenate %198, %199, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %201 = stablehlo.dot_general %200, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %202 = stablehlo.slice %201 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %203 = stablehlo.reshape %202 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %203, %184 : tensor<512xf32>, tensor<2x2x16x256x16xf32>
  }
}

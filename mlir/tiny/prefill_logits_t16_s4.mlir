// prefill_logits_t16_s4: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @prefill_logits_t16_s4 {
  func.func @prefill_logits_t16_s4(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x8x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<16xi32>, %arg25: tensor<i32>, %arg26: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x8x256x16xf32>) {
    // embeddings and the rotary angles of positions 0..t
    %0 = stablehlo.reshape %arg24 : (tensor<16xi32>) -> tensor<16x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<16x1xi32>) -> tensor<16x64xf32>
    %2 = stablehlo.slice %arg21 [0:16, 0:8] : (tensor<256x8xf32>) -> tensor<16x8xf32>
    %3 = stablehlo.slice %arg22 [0:16, 0:8] : (tensor<256x8xf32>) -> tensor<16x8xf32>
    // causal mask: query i sees keys j <= i
    %4 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %5 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %6 = stablehlo.compare GE, %4, %5 : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x2x16x16xi1>
    %8 = stablehlo.constant dense<2.5e-1> : tensor<2x2x16x16xf32>
    %9 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.constant dense<1> : tensor<i32>
    %11 = stablehlo.constant dense<2> : tensor<i32>
    %12 = stablehlo.multiply %arg26, %11 : tensor<i32>
    // layer 0: attention
    %13 = stablehlo.multiply %1, %1 : tensor<16x64xf32>
    %14 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %15 = stablehlo.reduce(%13 init: %14) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %16 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %17 = stablehlo.divide %15, %16 : tensor<16xf32>
    %18 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %19 = stablehlo.add %17, %18 : tensor<16xf32>
    %20 = stablehlo.rsqrt %19 : tensor<16xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %22 = stablehlo.multiply %1, %21 : tensor<16x64xf32>
    %23 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %24 = stablehlo.multiply %22, %23 : tensor<16x64xf32>
    %25 = stablehlo.dot_general %24, %arg2, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %26 = stablehlo.reshape %25 : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %27 = stablehlo.slice %26 [0:16, 0:4, 0:8] : (tensor<16x4x16xf32>) -> tensor<16x4x8xf32>
    %28 = stablehlo.slice %26 [0:16, 0:4, 8:16] : (tensor<16x4x16xf32>) -> tensor<16x4x8xf32>
    %29 = stablehlo.broadcast_in_dim %2, dims = [0, 2] : (tensor<16x8xf32>) -> tensor<16x4x8xf32>
    %30 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<16x8xf32>) -> tensor<16x4x8xf32>
    %31 = stablehlo.multiply %27, %29 : tensor<16x4x8xf32>
    %32 = stablehlo.multiply %28, %30 : tensor<16x4x8xf32>
    %33 = stablehlo.subtract %31, %32 : tensor<16x4x8xf32>
    %34 = stablehlo.multiply %28, %29 : tensor<16x4x8xf32>
    %35 = stablehlo.multiply %27, %30 : tensor<16x4x8xf32>
    %36 = stablehlo.add %34, %35 : tensor<16x4x8xf32>
    %37 = stablehlo.concatenate %33, %36, dim = 2 : (tensor<16x4x8xf32>, tensor<16x4x8xf32>) -> tensor<16x4x16xf32>
    %38 = stablehlo.dot_general %24, %arg3, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %39 = stablehlo.reshape %38 : (tensor<16x32xf32>) -> tensor<16x2x16xf32>
    %40 = stablehlo.slice %39 [0:16, 0:2, 0:8] : (tensor<16x2x16xf32>) -> tensor<16x2x8xf32>
    %41 = stablehlo.slice %39 [0:16, 0:2, 8:16] : (tensor<16x2x16xf32>) -> tensor<16x2x8xf32>
    %42 = stablehlo.broadcast_in_dim %2, dims = [0, 2] : (tensor<16x8xf32>) -> tensor<16x2x8xf32>
    %43 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<16x8xf32>) -> tensor<16x2x8xf32>
    %44 = stablehlo.multiply %40, %42 : tensor<16x2x8xf32>
    %45 = stablehlo.multiply %41, %43 : tensor<16x2x8xf32>
    %46 = stablehlo.subtract %44, %45 : tensor<16x2x8xf32>
    %47 = stablehlo.multiply %41, %42 : tensor<16x2x8xf32>
    %48 = stablehlo.multiply %40, %43 : tensor<16x2x8xf32>
    %49 = stablehlo.add %47, %48 : tensor<16x2x8xf32>
    %50 = stablehlo.concatenate %46, %49, dim = 2 : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x16xf32>
    %51 = stablehlo.dot_general %24, %arg4, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %52 = stablehlo.reshape %51 : (tensor<16x32xf32>) -> tensor<16x2x16xf32>
    // layer 0: write K/V of positions 0..t into the slot's cache
    %53 = stablehlo.transpose %50, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %54 = stablehlo.transpose %52, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %55 = stablehlo.constant dense<0> : tensor<i32>
    %56 = stablehlo.reshape %53 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %57 = stablehlo.dynamic_update_slice %arg23, %56, %55, %9, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %58 = stablehlo.reshape %54 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %59 = stablehlo.dynamic_update_slice %57, %58, %55, %10, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    // layer 0: grouped-query attention over the prompt
    %60 = stablehlo.reshape %37 : (tensor<16x4x16xf32>) -> tensor<16x2x2x16xf32>
    %61 = stablehlo.transpose %60, dims = [1, 2, 0, 3] : (tensor<16x2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %62 = stablehlo.reshape %61 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %63 = stablehlo.dot_general %62, %53, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %64 = stablehlo.reshape %63 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %65 = stablehlo.multiply %64, %8 : tensor<2x2x16x16xf32>
    %66 = stablehlo.constant dense<0xFF800000> : tensor<2x2x16x16xf32>
    %67 = stablehlo.select %7, %65, %66 : tensor<2x2x16x16xi1>, tensor<2x2x16x16xf32>
    %68 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %69 = stablehlo.reduce(%67 init: %68) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %71 = stablehlo.subtract %67, %70 : tensor<2x2x16x16xf32>
    %72 = stablehlo.exponential %71 : tensor<2x2x16x16xf32>
    %73 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %74 = stablehlo.reduce(%72 init: %73) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %76 = stablehlo.divide %72, %75 : tensor<2x2x16x16xf32>
    %77 = stablehlo.reshape %76 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %78 = stablehlo.dot_general %77, %54, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %79 = stablehlo.reshape %78 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %80 = stablehlo.transpose %79, dims = [2, 0, 1, 3] : (tensor<2x2x16x16xf32>) -> tensor<16x2x2x16xf32>
    %81 = stablehlo.reshape %80 : (tensor<16x2x2x16xf32>) -> tensor<16x64xf32>
    %82 = stablehlo.dot_general %81, %arg5, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %83 = stablehlo.add %1, %82 : tensor<16x64xf32>
    // layer 0: MLP
    %84 = stablehlo.multiply %83, %83 : tensor<16x64xf32>
    %85 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %86 = stablehlo.reduce(%84 init: %85) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %87 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %88 = stablehlo.divide %86, %87 : tensor<16xf32>
    %89 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %90 = stablehlo.add %88, %89 : tensor<16xf32>
    %91 = stablehlo.rsqrt %90 : tensor<16xf32>
    %92 = stablehlo.broadcast_in_dim %91, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %93 = stablehlo.multiply %83, %92 : tensor<16x64xf32>
    %94 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %95 = stablehlo.multiply %93, %94 : tensor<16x64xf32>
    %96 = stablehlo.dot_general %95, %arg7, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %97 = stablehlo.dot_general %95, %arg8, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %98 = stablehlo.logistic %96 : tensor<16x128xf32>
    %99 = stablehlo.multiply %96, %98 : tensor<16x128xf32>
    %100 = stablehlo.multiply %99, %97 : tensor<16x128xf32>
    %101 = stablehlo.dot_general %100, %arg9, contracting_dims = [1] x [1] : (tensor<16x128xf32>, tensor<64x128xf32>) -> tensor<16x64xf32>
    %102 = stablehlo.add %83, %101 : tensor<16x64xf32>
    // layer 1: attention
    %103 = stablehlo.multiply %102, %102 : tensor<16x64xf32>
    %104 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %105 = stablehlo.reduce(%103 init: %104) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %106 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %107 = stablehlo.divide %105, %106 : tensor<16xf32>
    %108 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %109 = stablehlo.add %107, %108 : tensor<16xf32>
    %110 = stablehlo.rsqrt %109 : tensor<16xf32>
    %111 = stablehlo.broadcast_in_dim %110, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %112 = stablehlo.multiply %102, %111 : tensor<16x64xf32>
    %113 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %114 = stablehlo.multiply %112, %113 : tensor<16x64xf32>
    %115 = stablehlo.dot_general %114, %arg11, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %116 = stablehlo.reshape %115 : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %117 = stablehlo.slice %116 [0:16, 0:4, 0:8] : (tensor<16x4x16xf32>) -> tensor<16x4x8xf32>
    %118 = stablehlo.slice %116 [0:16, 0:4, 8:16] : (tensor<16x4x16xf32>) -> tensor<16x4x8xf32>
    %119 = stablehlo.broadcast_in_dim %2, dims = [0, 2] : (tensor<16x8xf32>) -> tensor<16x4x8xf32>
    %120 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<16x8xf32>) -> tensor<16x4x8xf32>
    %121 = stablehlo.multiply %117, %119 : tensor<16x4x8xf32>
    %122 = stablehlo.multiply %118, %120 : tensor<16x4x8xf32>
    %123 = stablehlo.subtract %121, %122 : tensor<16x4x8xf32>
    %124 = stablehlo.multiply %118, %119 : tensor<16x4x8xf32>
    %125 = stablehlo.multiply %117, %120 : tensor<16x4x8xf32>
    %126 = stablehlo.add %124, %125 : tensor<16x4x8xf32>
    %127 = stablehlo.concatenate %123, %126, dim = 2 : (tensor<16x4x8xf32>, tensor<16x4x8xf32>) -> tensor<16x4x16xf32>
    %128 = stablehlo.dot_general %114, %arg12, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %129 = stablehlo.reshape %128 : (tensor<16x32xf32>) -> tensor<16x2x16xf32>
    %130 = stablehlo.slice %129 [0:16, 0:2, 0:8] : (tensor<16x2x16xf32>) -> tensor<16x2x8xf32>
    %131 = stablehlo.slice %129 [0:16, 0:2, 8:16] : (tensor<16x2x16xf32>) -> tensor<16x2x8xf32>
    %132 = stablehlo.broadcast_in_dim %2, dims = [0, 2] : (tensor<16x8xf32>) -> tensor<16x2x8xf32>
    %133 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<16x8xf32>) -> tensor<16x2x8xf32>
    %134 = stablehlo.multiply %130, %132 : tensor<16x2x8xf32>
    %135 = stablehlo.multiply %131, %133 : tensor<16x2x8xf32>
    %136 = stablehlo.subtract %134, %135 : tensor<16x2x8xf32>
    %137 = stablehlo.multiply %131, %132 : tensor<16x2x8xf32>
    %138 = stablehlo.multiply %130, %133 : tensor<16x2x8xf32>
    %139 = stablehlo.add %137, %138 : tensor<16x2x8xf32>
    %140 = stablehlo.concatenate %136, %139, dim = 2 : (tensor<16x2x8xf32>, tensor<16x2x8xf32>) -> tensor<16x2x16xf32>
    %141 = stablehlo.dot_general %114, %arg13, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %142 = stablehlo.reshape %141 : (tensor<16x32xf32>) -> tensor<16x2x16xf32>
    // layer 1: write K/V of positions 0..t into the slot's cache
    %143 = stablehlo.transpose %140, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %144 = stablehlo.transpose %142, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %145 = stablehlo.constant dense<1> : tensor<i32>
    %146 = stablehlo.reshape %143 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %147 = stablehlo.dynamic_update_slice %59, %146, %145, %9, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %148 = stablehlo.reshape %144 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %149 = stablehlo.dynamic_update_slice %147, %148, %145, %10, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    // layer 1: grouped-query attention over the prompt
    %150 = stablehlo.reshape %127 : (tensor<16x4x16xf32>) -> tensor<16x2x2x16xf32>
    %151 = stablehlo.transpose %150, dims = [1, 2, 0, 3] : (tensor<16x2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %152 = stablehlo.reshape %151 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %153 = stablehlo.dot_general %152, %143, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %154 = stablehlo.reshape %153 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %155 = stablehlo.multiply %154, %8 : tensor<2x2x16x16xf32>
    %156 = stablehlo.constant dense<0xFF800000> : tensor<2x2x16x16xf32>
    %157 = stablehlo.select %7, %155, %156 : tensor<2x2x16x16xi1>, tensor<2x2x16x16xf32>
    %158 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %159 = stablehlo.reduce(%157 init: %158) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %160 = stablehlo.broadcast_in_dim %159, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %161 = stablehlo.subtract %157, %160 : tensor<2x2x16x16xf32>
    %162 = stablehlo.exponential %161 : tensor<2x2x16x16xf32>
    %163 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %164 = stablehlo.reduce(%162 init: %163) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %166 = stablehlo.divide %162, %165 : tensor<2x2x16x16xf32>
    %167 = stablehlo.reshape %166 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %168 = stablehlo.dot_general %167, %144, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %169 = stablehlo.reshape %168 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %170 = stablehlo.transpose %169, dims = [2, 0, 1, 3] : (tensor<2x2x16x16xf32>) -> tensor<16x2x2x16xf32>
    %171 = stablehlo.reshape %170 : (tensor<16x2x2x16xf32>) -> tensor<16x64xf32>
    %172 = stablehlo.dot_general %171, %arg14, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %173 = stablehlo.add %102, %172 : tensor<16x64xf32>
    // layer 1: MLP
    %174 = stablehlo.multiply %173, %173 : tensor<16x64xf32>
    %175 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %176 = stablehlo.reduce(%174 init: %175) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %177 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %178 = stablehlo.divide %176, %177 : tensor<16xf32>
    %179 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %180 = stablehlo.add %178, %179 : tensor<16xf32>
    %181 = stablehlo.rsqrt %180 : tensor<16xf32>
    %182 = stablehlo.broadcast_in_dim %181, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %183 = stablehlo.multiply %173, %182 : tensor<16x64xf32>
    %184 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %185 = stablehlo.multiply %183, %184 : tensor<16x64xf32>
    %186 = stablehlo.dot_general %185, %arg16, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %187 = stablehlo.dot_general %185, %arg17, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %188 = stablehlo.logistic %186 : tensor<16x128xf32>
    %189 = stablehlo.multiply %186, %188 : tensor<16x128xf32>
    %190 = stablehlo.multiply %189, %187 : tensor<16x128xf32>
    %191 = stablehlo.dot_general %190, %arg18, contracting_dims = [1] x [1] : (tensor<16x128xf32>, tensor<64x128xf32>) -> tensor<16x64xf32>
    %192 = stablehlo.add %173, %191 : tensor<16x64xf32>
    // the last real token: row len - 1
    %193 = stablehlo.subtract %arg25, %10 : tensor<i32>
    %194 = stablehlo.dynamic_slice %192, %193, %9, sizes = [1, 64] : (tensor<16x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %195 = stablehlo.multiply %194, %194 : tensor<1x64xf32>
    %196 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %197 = stablehlo.reduce(%195 init: %196) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %198 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %199 = stablehlo.divide %197, %198 : tensor<1xf32>
    %200 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %201 = stablehlo.add %199, %200 : tensor<1xf32>
    %202 = stablehlo.rsqrt %201 : tensor<1xf32>
    %203 = stablehlo.broadcast_in_dim %202, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %204 = stablehlo.multiply %194, %203 : tensor<1x64xf32>
    %205 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %206 = stablehlo.multiply %204, %205 : tensor<1x64xf32>
    %207 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %208 = stablehlo.concatenate %206, %207, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %209 = stablehlo.dot_general %208, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %210 = stablehlo.slice %209 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %211 = stablehlo.reshape %210 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %211, %149 : tensor<512xf32>, tensor<2x2x8x256x16xf32>
  }
}

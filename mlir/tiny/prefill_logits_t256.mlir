// prefill_logits_t256: emitted by iree-llm 0.1.0 (graph format 1).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @prefill_logits_t256 {
  func.func @prefill_logits_t256(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<256xi32>, %arg25: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x2x256x16xf32>) {
    // embeddings and the rotary angles of positions 0..t
    %0 = stablehlo.reshape %arg24 : (tensor<256xi32>) -> tensor<256x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<256x1xi32>) -> tensor<256x64xf32>
    // causal mask: query i sees keys j <= i
    %2 = stablehlo.iota dim = 0 : tensor<256x256xi32>
    %3 = stablehlo.iota dim = 1 : tensor<256x256xi32>
    %4 = stablehlo.compare GE, %2, %3 : (tensor<256x256xi32>, tensor<256x256xi32>) -> tensor<256x256xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [2, 3] : (tensor<256x256xi1>) -> tensor<2x2x256x256xi1>
    %6 = stablehlo.constant dense<2.5e-1> : tensor<2x2x256x256xf32>
    %7 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.constant dense<1> : tensor<i32>
    // layer 0: attention
    %9 = stablehlo.multiply %1, %1 : tensor<256x64xf32>
    %10 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %11 = stablehlo.reduce(%9 init: %10) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %12 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %13 = stablehlo.divide %11, %12 : tensor<256xf32>
    %14 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %15 = stablehlo.add %13, %14 : tensor<256xf32>
    %16 = stablehlo.rsqrt %15 : tensor<256xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %18 = stablehlo.multiply %1, %17 : tensor<256x64xf32>
    %19 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %20 = stablehlo.multiply %18, %19 : tensor<256x64xf32>
    %21 = stablehlo.dot_general %20, %arg2, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %22 = stablehlo.reshape %21 : (tensor<256x64xf32>) -> tensor<256x4x16xf32>
    %23 = stablehlo.slice %22 [0:256, 0:4, 0:8] : (tensor<256x4x16xf32>) -> tensor<256x4x8xf32>
    %24 = stablehlo.slice %22 [0:256, 0:4, 8:16] : (tensor<256x4x16xf32>) -> tensor<256x4x8xf32>
    %25 = stablehlo.broadcast_in_dim %arg21, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x4x8xf32>
    %26 = stablehlo.broadcast_in_dim %arg22, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x4x8xf32>
    %27 = stablehlo.multiply %23, %25 : tensor<256x4x8xf32>
    %28 = stablehlo.multiply %24, %26 : tensor<256x4x8xf32>
    %29 = stablehlo.subtract %27, %28 : tensor<256x4x8xf32>
    %30 = stablehlo.multiply %24, %25 : tensor<256x4x8xf32>
    %31 = stablehlo.multiply %23, %26 : tensor<256x4x8xf32>
    %32 = stablehlo.add %30, %31 : tensor<256x4x8xf32>
    %33 = stablehlo.concatenate %29, %32, dim = 2 : (tensor<256x4x8xf32>, tensor<256x4x8xf32>) -> tensor<256x4x16xf32>
    %34 = stablehlo.dot_general %20, %arg3, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %35 = stablehlo.reshape %34 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    %36 = stablehlo.slice %35 [0:256, 0:2, 0:8] : (tensor<256x2x16xf32>) -> tensor<256x2x8xf32>
    %37 = stablehlo.slice %35 [0:256, 0:2, 8:16] : (tensor<256x2x16xf32>) -> tensor<256x2x8xf32>
    %38 = stablehlo.broadcast_in_dim %arg21, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x2x8xf32>
    %39 = stablehlo.broadcast_in_dim %arg22, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x2x8xf32>
    %40 = stablehlo.multiply %36, %38 : tensor<256x2x8xf32>
    %41 = stablehlo.multiply %37, %39 : tensor<256x2x8xf32>
    %42 = stablehlo.subtract %40, %41 : tensor<256x2x8xf32>
    %43 = stablehlo.multiply %37, %38 : tensor<256x2x8xf32>
    %44 = stablehlo.multiply %36, %39 : tensor<256x2x8xf32>
    %45 = stablehlo.add %43, %44 : tensor<256x2x8xf32>
    %46 = stablehlo.concatenate %42, %45, dim = 2 : (tensor<256x2x8xf32>, tensor<256x2x8xf32>) -> tensor<256x2x16xf32>
    %47 = stablehlo.dot_general %20, %arg4, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %48 = stablehlo.reshape %47 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    // layer 0: write K/V of positions 0..t into the slot's cache
    %49 = stablehlo.transpose %46, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %50 = stablehlo.transpose %48, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %51 = stablehlo.constant dense<0> : tensor<i32>
    %52 = stablehlo.reshape %49 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %53 = stablehlo.dynamic_update_slice %arg23, %52, %51, %7, %7, %7, %7 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %54 = stablehlo.reshape %50 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %55 = stablehlo.dynamic_update_slice %53, %54, %51, %8, %7, %7, %7 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    // layer 0: grouped-query attention over the prompt
    %56 = stablehlo.reshape %33 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %57 = stablehlo.transpose %56, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %58 = stablehlo.reshape %57 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %59 = stablehlo.dot_general %58, %49, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %60 = stablehlo.reshape %59 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %61 = stablehlo.multiply %60, %6 : tensor<2x2x256x256xf32>
    %62 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %63 = stablehlo.select %5, %61, %62 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %64 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %65 = stablehlo.reduce(%63 init: %64) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %67 = stablehlo.subtract %63, %66 : tensor<2x2x256x256xf32>
    %68 = stablehlo.exponential %67 : tensor<2x2x256x256xf32>
    %69 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %70 = stablehlo.reduce(%68 init: %69) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %72 = stablehlo.divide %68, %71 : tensor<2x2x256x256xf32>
    %73 = stablehlo.reshape %72 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %74 = stablehlo.dot_general %73, %50, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %75 = stablehlo.reshape %74 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %76 = stablehlo.transpose %75, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %77 = stablehlo.reshape %76 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    %78 = stablehlo.dot_general %77, %arg5, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %79 = stablehlo.add %1, %78 : tensor<256x64xf32>
    // layer 0: MLP
    %80 = stablehlo.multiply %79, %79 : tensor<256x64xf32>
    %81 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %82 = stablehlo.reduce(%80 init: %81) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %83 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %84 = stablehlo.divide %82, %83 : tensor<256xf32>
    %85 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %86 = stablehlo.add %84, %85 : tensor<256xf32>
    %87 = stablehlo.rsqrt %86 : tensor<256xf32>
    %88 = stablehlo.broadcast_in_dim %87, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %89 = stablehlo.multiply %79, %88 : tensor<256x64xf32>
    %90 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %91 = stablehlo.multiply %89, %90 : tensor<256x64xf32>
    %92 = stablehlo.dot_general %91, %arg7, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %93 = stablehlo.dot_general %91, %arg8, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %94 = stablehlo.logistic %92 : tensor<256x128xf32>
    %95 = stablehlo.multiply %92, %94 : tensor<256x128xf32>
    %96 = stablehlo.multiply %95, %93 : tensor<256x128xf32>
    %97 = stablehlo.dot_general %96, %arg9, contracting_dims = [1] x [1] : (tensor<256x128xf32>, tensor<64x128xf32>) -> tensor<256x64xf32>
    %98 = stablehlo.add %79, %97 : tensor<256x64xf32>
    // layer 1: attention
    %99 = stablehlo.multiply %98, %98 : tensor<256x64xf32>
    %100 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %101 = stablehlo.reduce(%99 init: %100) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %102 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %103 = stablehlo.divide %101, %102 : tensor<256xf32>
    %104 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %105 = stablehlo.add %103, %104 : tensor<256xf32>
    %106 = stablehlo.rsqrt %105 : tensor<256xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %108 = stablehlo.multiply %98, %107 : tensor<256x64xf32>
    %109 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %110 = stablehlo.multiply %108, %109 : tensor<256x64xf32>
    %111 = stablehlo.dot_general %110, %arg11, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %112 = stablehlo.reshape %111 : (tensor<256x64xf32>) -> tensor<256x4x16xf32>
    %113 = stablehlo.slice %112 [0:256, 0:4, 0:8] : (tensor<256x4x16xf32>) -> tensor<256x4x8xf32>
    %114 = stablehlo.slice %112 [0:256, 0:4, 8:16] : (tensor<256x4x16xf32>) -> tensor<256x4x8xf32>
    %115 = stablehlo.broadcast_in_dim %arg21, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x4x8xf32>
    %116 = stablehlo.broadcast_in_dim %arg22, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x4x8xf32>
    %117 = stablehlo.multiply %113, %115 : tensor<256x4x8xf32>
    %118 = stablehlo.multiply %114, %116 : tensor<256x4x8xf32>
    %119 = stablehlo.subtract %117, %118 : tensor<256x4x8xf32>
    %120 = stablehlo.multiply %114, %115 : tensor<256x4x8xf32>
    %121 = stablehlo.multiply %113, %116 : tensor<256x4x8xf32>
    %122 = stablehlo.add %120, %121 : tensor<256x4x8xf32>
    %123 = stablehlo.concatenate %119, %122, dim = 2 : (tensor<256x4x8xf32>, tensor<256x4x8xf32>) -> tensor<256x4x16xf32>
    %124 = stablehlo.dot_general %110, %arg12, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %125 = stablehlo.reshape %124 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    %126 = stablehlo.slice %125 [0:256, 0:2, 0:8] : (tensor<256x2x16xf32>) -> tensor<256x2x8xf32>
    %127 = stablehlo.slice %125 [0:256, 0:2, 8:16] : (tensor<256x2x16xf32>) -> tensor<256x2x8xf32>
    %128 = stablehlo.broadcast_in_dim %arg21, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x2x8xf32>
    %129 = stablehlo.broadcast_in_dim %arg22, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x2x8xf32>
    %130 = stablehlo.multiply %126, %128 : tensor<256x2x8xf32>
    %131 = stablehlo.multiply %127, %129 : tensor<256x2x8xf32>
    %132 = stablehlo.subtract %130, %131 : tensor<256x2x8xf32>
    %133 = stablehlo.multiply %127, %128 : tensor<256x2x8xf32>
    %134 = stablehlo.multiply %126, %129 : tensor<256x2x8xf32>
    %135 = stablehlo.add %133, %134 : tensor<256x2x8xf32>
    %136 = stablehlo.concatenate %132, %135, dim = 2 : (tensor<256x2x8xf32>, tensor<256x2x8xf32>) -> tensor<256x2x16xf32>
    %137 = stablehlo.dot_general %110, %arg13, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %138 = stablehlo.reshape %137 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    // layer 1: write K/V of positions 0..t into the slot's cache
    %139 = stablehlo.transpose %136, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %140 = stablehlo.transpose %138, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %141 = stablehlo.constant dense<1> : tensor<i32>
    %142 = stablehlo.reshape %139 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %143 = stablehlo.dynamic_update_slice %55, %142, %141, %7, %7, %7, %7 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %144 = stablehlo.reshape %140 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %145 = stablehlo.dynamic_update_slice %143, %144, %141, %8, %7, %7, %7 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    // layer 1: grouped-query attention over the prompt
    %146 = stablehlo.reshape %123 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %147 = stablehlo.transpose %146, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %148 = stablehlo.reshape %147 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %149 = stablehlo.dot_general %148, %139, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %150 = stablehlo.reshape %149 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %151 = stablehlo.multiply %150, %6 : tensor<2x2x256x256xf32>
    %152 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %153 = stablehlo.select %5, %151, %152 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %154 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %155 = stablehlo.reduce(%153 init: %154) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %156 = stablehlo.broadcast_in_dim %155, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %157 = stablehlo.subtract %153, %156 : tensor<2x2x256x256xf32>
    %158 = stablehlo.exponential %157 : tensor<2x2x256x256xf32>
    %159 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %160 = stablehlo.reduce(%158 init: %159) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %162 = stablehlo.divide %158, %161 : tensor<2x2x256x256xf32>
    %163 = stablehlo.reshape %162 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %164 = stablehlo.dot_general %163, %140, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %165 = stablehlo.reshape %164 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %166 = stablehlo.transpose %165, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %167 = stablehlo.reshape %166 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    %168 = stablehlo.dot_general %167, %arg14, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %169 = stablehlo.add %98, %168 : tensor<256x64xf32>
    // layer 1: MLP
    %170 = stablehlo.multiply %169, %169 : tensor<256x64xf32>
    %171 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %172 = stablehlo.reduce(%170 init: %171) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %173 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %174 = stablehlo.divide %172, %173 : tensor<256xf32>
    %175 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %176 = stablehlo.add %174, %175 : tensor<256xf32>
    %177 = stablehlo.rsqrt %176 : tensor<256xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %179 = stablehlo.multiply %169, %178 : tensor<256x64xf32>
    %180 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %181 = stablehlo.multiply %179, %180 : tensor<256x64xf32>
    %182 = stablehlo.dot_general %181, %arg16, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %183 = stablehlo.dot_general %181, %arg17, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %184 = stablehlo.logistic %182 : tensor<256x128xf32>
    %185 = stablehlo.multiply %182, %184 : tensor<256x128xf32>
    %186 = stablehlo.multiply %185, %183 : tensor<256x128xf32>
    %187 = stablehlo.dot_general %186, %arg18, contracting_dims = [1] x [1] : (tensor<256x128xf32>, tensor<64x128xf32>) -> tensor<256x64xf32>
    %188 = stablehlo.add %169, %187 : tensor<256x64xf32>
    // the last real token: row len - 1
    %189 = stablehlo.subtract %arg25, %8 : tensor<i32>
    %190 = stablehlo.dynamic_slice %188, %189, %7, sizes = [1, 64] : (tensor<256x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %191 = stablehlo.multiply %190, %190 : tensor<1x64xf32>
    %192 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %193 = stablehlo.reduce(%191 init: %192) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %194 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %195 = stablehlo.divide %193, %194 : tensor<1xf32>
    %196 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %197 = stablehlo.add %195, %196 : tensor<1xf32>
    %198 = stablehlo.rsqrt %197 : tensor<1xf32>
    %199 = stablehlo.broadcast_in_dim %198, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %200 = stablehlo.multiply %190, %199 : tensor<1x64xf32>
    %201 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %202 = stablehlo.multiply %200, %201 : tensor<1x64xf32>
    %203 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %204 = stablehlo.concatenate %202, %203, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %205 = stablehlo.dot_general %204, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %206 = stablehlo.slice %205 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %207 = stablehlo.reshape %206 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %207, %145 : tensor<512xf32>, tensor<2x2x2x256x16xf32>
  }
}

// prefill_logits_t256_s8: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @prefill_logits_t256_s8 {
  func.func @prefill_logits_t256_s8(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x16x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<256xi32>, %arg25: tensor<i32>, %arg26: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x16x256x16xf32>) {
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
    %9 = stablehlo.constant dense<2> : tensor<i32>
    %10 = stablehlo.multiply %arg26, %9 : tensor<i32>
    // layer 0: attention
    %11 = stablehlo.multiply %1, %1 : tensor<256x64xf32>
    %12 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %13 = stablehlo.reduce(%11 init: %12) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %14 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %15 = stablehlo.divide %13, %14 : tensor<256xf32>
    %16 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %17 = stablehlo.add %15, %16 : tensor<256xf32>
    %18 = stablehlo.rsqrt %17 : tensor<256xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %20 = stablehlo.multiply %1, %19 : tensor<256x64xf32>
    %21 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %22 = stablehlo.multiply %20, %21 : tensor<256x64xf32>
    %23 = stablehlo.dot_general %22, %arg2, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %24 = stablehlo.reshape %23 : (tensor<256x64xf32>) -> tensor<256x4x16xf32>
    %25 = stablehlo.slice %24 [0:256, 0:4, 0:8] : (tensor<256x4x16xf32>) -> tensor<256x4x8xf32>
    %26 = stablehlo.slice %24 [0:256, 0:4, 8:16] : (tensor<256x4x16xf32>) -> tensor<256x4x8xf32>
    %27 = stablehlo.broadcast_in_dim %arg21, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x4x8xf32>
    %28 = stablehlo.broadcast_in_dim %arg22, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x4x8xf32>
    %29 = stablehlo.multiply %25, %27 : tensor<256x4x8xf32>
    %30 = stablehlo.multiply %26, %28 : tensor<256x4x8xf32>
    %31 = stablehlo.subtract %29, %30 : tensor<256x4x8xf32>
    %32 = stablehlo.multiply %26, %27 : tensor<256x4x8xf32>
    %33 = stablehlo.multiply %25, %28 : tensor<256x4x8xf32>
    %34 = stablehlo.add %32, %33 : tensor<256x4x8xf32>
    %35 = stablehlo.concatenate %31, %34, dim = 2 : (tensor<256x4x8xf32>, tensor<256x4x8xf32>) -> tensor<256x4x16xf32>
    %36 = stablehlo.dot_general %22, %arg3, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %37 = stablehlo.reshape %36 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    %38 = stablehlo.slice %37 [0:256, 0:2, 0:8] : (tensor<256x2x16xf32>) -> tensor<256x2x8xf32>
    %39 = stablehlo.slice %37 [0:256, 0:2, 8:16] : (tensor<256x2x16xf32>) -> tensor<256x2x8xf32>
    %40 = stablehlo.broadcast_in_dim %arg21, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x2x8xf32>
    %41 = stablehlo.broadcast_in_dim %arg22, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x2x8xf32>
    %42 = stablehlo.multiply %38, %40 : tensor<256x2x8xf32>
    %43 = stablehlo.multiply %39, %41 : tensor<256x2x8xf32>
    %44 = stablehlo.subtract %42, %43 : tensor<256x2x8xf32>
    %45 = stablehlo.multiply %39, %40 : tensor<256x2x8xf32>
    %46 = stablehlo.multiply %38, %41 : tensor<256x2x8xf32>
    %47 = stablehlo.add %45, %46 : tensor<256x2x8xf32>
    %48 = stablehlo.concatenate %44, %47, dim = 2 : (tensor<256x2x8xf32>, tensor<256x2x8xf32>) -> tensor<256x2x16xf32>
    %49 = stablehlo.dot_general %22, %arg4, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %50 = stablehlo.reshape %49 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    // layer 0: write K/V of positions 0..t into the slot's cache
    %51 = stablehlo.transpose %48, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %52 = stablehlo.transpose %50, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %53 = stablehlo.constant dense<0> : tensor<i32>
    %54 = stablehlo.reshape %51 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %55 = stablehlo.dynamic_update_slice %arg23, %54, %53, %7, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %56 = stablehlo.reshape %52 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %57 = stablehlo.dynamic_update_slice %55, %56, %53, %8, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    // layer 0: grouped-query attention over the prompt
    %58 = stablehlo.reshape %35 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %59 = stablehlo.transpose %58, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %60 = stablehlo.reshape %59 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %61 = stablehlo.dot_general %60, %51, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %62 = stablehlo.reshape %61 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %63 = stablehlo.multiply %62, %6 : tensor<2x2x256x256xf32>
    %64 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %65 = stablehlo.select %5, %63, %64 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %66 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %67 = stablehlo.reduce(%65 init: %66) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %69 = stablehlo.subtract %65, %68 : tensor<2x2x256x256xf32>
    %70 = stablehlo.exponential %69 : tensor<2x2x256x256xf32>
    %71 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %72 = stablehlo.reduce(%70 init: %71) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %74 = stablehlo.divide %70, %73 : tensor<2x2x256x256xf32>
    %75 = stablehlo.reshape %74 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %76 = stablehlo.dot_general %75, %52, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %77 = stablehlo.reshape %76 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %78 = stablehlo.transpose %77, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %79 = stablehlo.reshape %78 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    %80 = stablehlo.dot_general %79, %arg5, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %81 = stablehlo.add %1, %80 : tensor<256x64xf32>
    // layer 0: MLP
    %82 = stablehlo.multiply %81, %81 : tensor<256x64xf32>
    %83 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %84 = stablehlo.reduce(%82 init: %83) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %85 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %86 = stablehlo.divide %84, %85 : tensor<256xf32>
    %87 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %88 = stablehlo.add %86, %87 : tensor<256xf32>
    %89 = stablehlo.rsqrt %88 : tensor<256xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %91 = stablehlo.multiply %81, %90 : tensor<256x64xf32>
    %92 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %93 = stablehlo.multiply %91, %92 : tensor<256x64xf32>
    %94 = stablehlo.dot_general %93, %arg7, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %95 = stablehlo.dot_general %93, %arg8, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %96 = stablehlo.logistic %94 : tensor<256x128xf32>
    %97 = stablehlo.multiply %94, %96 : tensor<256x128xf32>
    %98 = stablehlo.multiply %97, %95 : tensor<256x128xf32>
    %99 = stablehlo.dot_general %98, %arg9, contracting_dims = [1] x [1] : (tensor<256x128xf32>, tensor<64x128xf32>) -> tensor<256x64xf32>
    %100 = stablehlo.add %81, %99 : tensor<256x64xf32>
    // layer 1: attention
    %101 = stablehlo.multiply %100, %100 : tensor<256x64xf32>
    %102 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %103 = stablehlo.reduce(%101 init: %102) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %104 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %105 = stablehlo.divide %103, %104 : tensor<256xf32>
    %106 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %107 = stablehlo.add %105, %106 : tensor<256xf32>
    %108 = stablehlo.rsqrt %107 : tensor<256xf32>
    %109 = stablehlo.broadcast_in_dim %108, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %110 = stablehlo.multiply %100, %109 : tensor<256x64xf32>
    %111 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %112 = stablehlo.multiply %110, %111 : tensor<256x64xf32>
    %113 = stablehlo.dot_general %112, %arg11, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %114 = stablehlo.reshape %113 : (tensor<256x64xf32>) -> tensor<256x4x16xf32>
    %115 = stablehlo.slice %114 [0:256, 0:4, 0:8] : (tensor<256x4x16xf32>) -> tensor<256x4x8xf32>
    %116 = stablehlo.slice %114 [0:256, 0:4, 8:16] : (tensor<256x4x16xf32>) -> tensor<256x4x8xf32>
    %117 = stablehlo.broadcast_in_dim %arg21, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x4x8xf32>
    %118 = stablehlo.broadcast_in_dim %arg22, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x4x8xf32>
    %119 = stablehlo.multiply %115, %117 : tensor<256x4x8xf32>
    %120 = stablehlo.multiply %116, %118 : tensor<256x4x8xf32>
    %121 = stablehlo.subtract %119, %120 : tensor<256x4x8xf32>
    %122 = stablehlo.multiply %116, %117 : tensor<256x4x8xf32>
    %123 = stablehlo.multiply %115, %118 : tensor<256x4x8xf32>
    %124 = stablehlo.add %122, %123 : tensor<256x4x8xf32>
    %125 = stablehlo.concatenate %121, %124, dim = 2 : (tensor<256x4x8xf32>, tensor<256x4x8xf32>) -> tensor<256x4x16xf32>
    %126 = stablehlo.dot_general %112, %arg12, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %127 = stablehlo.reshape %126 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    %128 = stablehlo.slice %127 [0:256, 0:2, 0:8] : (tensor<256x2x16xf32>) -> tensor<256x2x8xf32>
    %129 = stablehlo.slice %127 [0:256, 0:2, 8:16] : (tensor<256x2x16xf32>) -> tensor<256x2x8xf32>
    %130 = stablehlo.broadcast_in_dim %arg21, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x2x8xf32>
    %131 = stablehlo.broadcast_in_dim %arg22, dims = [0, 2] : (tensor<256x8xf32>) -> tensor<256x2x8xf32>
    %132 = stablehlo.multiply %128, %130 : tensor<256x2x8xf32>
    %133 = stablehlo.multiply %129, %131 : tensor<256x2x8xf32>
    %134 = stablehlo.subtract %132, %133 : tensor<256x2x8xf32>
    %135 = stablehlo.multiply %129, %130 : tensor<256x2x8xf32>
    %136 = stablehlo.multiply %128, %131 : tensor<256x2x8xf32>
    %137 = stablehlo.add %135, %136 : tensor<256x2x8xf32>
    %138 = stablehlo.concatenate %134, %137, dim = 2 : (tensor<256x2x8xf32>, tensor<256x2x8xf32>) -> tensor<256x2x16xf32>
    %139 = stablehlo.dot_general %112, %arg13, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %140 = stablehlo.reshape %139 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    // layer 1: write K/V of positions 0..t into the slot's cache
    %141 = stablehlo.transpose %138, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %142 = stablehlo.transpose %140, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %143 = stablehlo.constant dense<1> : tensor<i32>
    %144 = stablehlo.reshape %141 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %145 = stablehlo.dynamic_update_slice %57, %144, %143, %7, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %146 = stablehlo.reshape %142 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %147 = stablehlo.dynamic_update_slice %145, %146, %143, %8, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    // layer 1: grouped-query attention over the prompt
    %148 = stablehlo.reshape %125 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %149 = stablehlo.transpose %148, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %150 = stablehlo.reshape %149 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %151 = stablehlo.dot_general %150, %141, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %152 = stablehlo.reshape %151 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %153 = stablehlo.multiply %152, %6 : tensor<2x2x256x256xf32>
    %154 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %155 = stablehlo.select %5, %153, %154 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %156 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %157 = stablehlo.reduce(%155 init: %156) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %158 = stablehlo.broadcast_in_dim %157, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %159 = stablehlo.subtract %155, %158 : tensor<2x2x256x256xf32>
    %160 = stablehlo.exponential %159 : tensor<2x2x256x256xf32>
    %161 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %162 = stablehlo.reduce(%160 init: %161) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %164 = stablehlo.divide %160, %163 : tensor<2x2x256x256xf32>
    %165 = stablehlo.reshape %164 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %166 = stablehlo.dot_general %165, %142, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %167 = stablehlo.reshape %166 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %168 = stablehlo.transpose %167, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %169 = stablehlo.reshape %168 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    %170 = stablehlo.dot_general %169, %arg14, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %171 = stablehlo.add %100, %170 : tensor<256x64xf32>
    // layer 1: MLP
    %172 = stablehlo.multiply %171, %171 : tensor<256x64xf32>
    %173 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %174 = stablehlo.reduce(%172 init: %173) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %175 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %176 = stablehlo.divide %174, %175 : tensor<256xf32>
    %177 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %178 = stablehlo.add %176, %177 : tensor<256xf32>
    %179 = stablehlo.rsqrt %178 : tensor<256xf32>
    %180 = stablehlo.broadcast_in_dim %179, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %181 = stablehlo.multiply %171, %180 : tensor<256x64xf32>
    %182 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %183 = stablehlo.multiply %181, %182 : tensor<256x64xf32>
    %184 = stablehlo.dot_general %183, %arg16, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %185 = stablehlo.dot_general %183, %arg17, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %186 = stablehlo.logistic %184 : tensor<256x128xf32>
    %187 = stablehlo.multiply %184, %186 : tensor<256x128xf32>
    %188 = stablehlo.multiply %187, %185 : tensor<256x128xf32>
    %189 = stablehlo.dot_general %188, %arg18, contracting_dims = [1] x [1] : (tensor<256x128xf32>, tensor<64x128xf32>) -> tensor<256x64xf32>
    %190 = stablehlo.add %171, %189 : tensor<256x64xf32>
    // the last real token: row len - 1
    %191 = stablehlo.subtract %arg25, %8 : tensor<i32>
    %192 = stablehlo.dynamic_slice %190, %191, %7, sizes = [1, 64] : (tensor<256x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %193 = stablehlo.multiply %192, %192 : tensor<1x64xf32>
    %194 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %195 = stablehlo.reduce(%193 init: %194) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %196 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %197 = stablehlo.divide %195, %196 : tensor<1xf32>
    %198 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %199 = stablehlo.add %197, %198 : tensor<1xf32>
    %200 = stablehlo.rsqrt %199 : tensor<1xf32>
    %201 = stablehlo.broadcast_in_dim %200, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %202 = stablehlo.multiply %192, %201 : tensor<1x64xf32>
    %203 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %204 = stablehlo.multiply %202, %203 : tensor<1x64xf32>
    %205 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %206 = stablehlo.concatenate %204, %205, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %207 = stablehlo.dot_general %206, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %208 = stablehlo.slice %207 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %209 = stablehlo.reshape %208 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %209, %147 : tensor<512xf32>, tensor<2x2x16x256x16xf32>
  }
}

// prefill_logits_t256_s8: emitted by iree-llm 0.1.0 (graph format 4).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @prefill_logits_t256_s8 {
  func.func @prefill_logits_t256_s8(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<256x64xf32>, %arg6: tensor<64x128xf32>, %arg7: tensor<64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<64xf32>, %arg14: tensor<512x64xf32>, %arg15: tensor<256x8xf32>, %arg16: tensor<256x8xf32>, %arg17: tensor<2x2x16x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg18: tensor<256xi32>, %arg19: tensor<i32>, %arg20: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x16x256x16xf32>) {
    // embeddings and the rotary angles of positions 0..t
    %0 = stablehlo.reshape %arg18 : (tensor<256xi32>) -> tensor<256x1xi32>
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
    %10 = stablehlo.multiply %arg20, %9 : tensor<i32>
    // the last real token: row len - 1
    %11 = stablehlo.subtract %arg19, %8 : tensor<i32>
    // layer 0: attention
    %12 = stablehlo.multiply %1, %1 : tensor<256x64xf32>
    %13 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %14 = stablehlo.reduce(%12 init: %13) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %15 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %16 = stablehlo.divide %14, %15 : tensor<256xf32>
    %17 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %18 = stablehlo.add %16, %17 : tensor<256xf32>
    %19 = stablehlo.rsqrt %18 : tensor<256xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %21 = stablehlo.multiply %1, %20 : tensor<256x64xf32>
    %22 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %23 = stablehlo.multiply %21, %22 : tensor<256x64xf32>
    %24 = stablehlo.dot_general %23, %arg2, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %25 = stablehlo.reshape %24 : (tensor<256x128xf32>) -> tensor<256x8x16xf32>
    %26 = stablehlo.slice %25 [0:256, 0:6, 0:16] : (tensor<256x8x16xf32>) -> tensor<256x6x16xf32>
    %27 = stablehlo.reshape %26 : (tensor<256x6x16xf32>) -> tensor<256x6x2x8xf32>
    %28 = "stablehlo.reverse"(%27) {dimensions = array<i64: 2>} : (tensor<256x6x2x8xf32>) -> tensor<256x6x2x8xf32>
    %29 = stablehlo.broadcast_in_dim %arg15, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x6x2x8xf32>
    %30 = stablehlo.broadcast_in_dim %arg16, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x6x2x8xf32>
    %31 = stablehlo.iota dim = 2 : tensor<256x6x2x8xi32>
    %32 = stablehlo.convert %31 : (tensor<256x6x2x8xi32>) -> tensor<256x6x2x8xf32>
    %33 = stablehlo.constant dense<2.0e0> : tensor<256x6x2x8xf32>
    %34 = stablehlo.constant dense<1.0e0> : tensor<256x6x2x8xf32>
    %35 = stablehlo.multiply %32, %33 : tensor<256x6x2x8xf32>
    %36 = stablehlo.subtract %35, %34 : tensor<256x6x2x8xf32>
    %37 = stablehlo.multiply %30, %36 : tensor<256x6x2x8xf32>
    %38 = stablehlo.multiply %27, %29 : tensor<256x6x2x8xf32>
    %39 = stablehlo.multiply %28, %37 : tensor<256x6x2x8xf32>
    %40 = stablehlo.add %38, %39 : tensor<256x6x2x8xf32>
    %41 = stablehlo.reshape %40 : (tensor<256x6x2x8xf32>) -> tensor<256x6x16xf32>
    %42 = stablehlo.slice %41 [0:256, 0:4, 0:16] : (tensor<256x6x16xf32>) -> tensor<256x4x16xf32>
    %43 = stablehlo.slice %41 [0:256, 4:6, 0:16] : (tensor<256x6x16xf32>) -> tensor<256x2x16xf32>
    %44 = stablehlo.slice %25 [0:256, 6:8, 0:16] : (tensor<256x8x16xf32>) -> tensor<256x2x16xf32>
    // layer 0: write K/V of positions 0..t into the slot's cache
    %45 = stablehlo.transpose %43, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %46 = stablehlo.transpose %44, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %47 = stablehlo.constant dense<0> : tensor<i32>
    %48 = stablehlo.reshape %45 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %49 = stablehlo.dynamic_update_slice %arg17, %48, %47, %7, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %50 = stablehlo.reshape %46 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %51 = stablehlo.dynamic_update_slice %49, %50, %47, %8, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    // layer 0: grouped-query attention over the prompt
    %52 = stablehlo.reshape %42 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %53 = stablehlo.transpose %52, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %54 = stablehlo.reshape %53 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %55 = stablehlo.dot_general %54, %45, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %56 = stablehlo.reshape %55 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %57 = stablehlo.multiply %56, %6 : tensor<2x2x256x256xf32>
    %58 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %59 = stablehlo.select %5, %57, %58 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %60 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %61 = stablehlo.reduce(%59 init: %60) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %63 = stablehlo.subtract %59, %62 : tensor<2x2x256x256xf32>
    %64 = stablehlo.exponential %63 : tensor<2x2x256x256xf32>
    %65 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %66 = stablehlo.reduce(%64 init: %65) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %68 = stablehlo.divide %64, %67 : tensor<2x2x256x256xf32>
    %69 = stablehlo.reshape %68 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %70 = stablehlo.dot_general %69, %46, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %71 = stablehlo.reshape %70 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %72 = stablehlo.transpose %71, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %73 = stablehlo.reshape %72 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    %74 = stablehlo.dot_general %73, %arg3, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %75 = stablehlo.add %1, %74 : tensor<256x64xf32>
    // layer 0: MLP
    %76 = stablehlo.multiply %75, %75 : tensor<256x64xf32>
    %77 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %78 = stablehlo.reduce(%76 init: %77) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %79 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %80 = stablehlo.divide %78, %79 : tensor<256xf32>
    %81 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %82 = stablehlo.add %80, %81 : tensor<256xf32>
    %83 = stablehlo.rsqrt %82 : tensor<256xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %85 = stablehlo.multiply %75, %84 : tensor<256x64xf32>
    %86 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %87 = stablehlo.multiply %85, %86 : tensor<256x64xf32>
    %88 = stablehlo.dot_general %87, %arg5, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x256xf32>
    %89 = stablehlo.slice %88 [0:256, 0:128] : (tensor<256x256xf32>) -> tensor<256x128xf32>
    %90 = stablehlo.slice %88 [0:256, 128:256] : (tensor<256x256xf32>) -> tensor<256x128xf32>
    %91 = stablehlo.logistic %89 : tensor<256x128xf32>
    %92 = stablehlo.multiply %89, %91 : tensor<256x128xf32>
    %93 = stablehlo.multiply %92, %90 : tensor<256x128xf32>
    %94 = stablehlo.dot_general %93, %arg6, contracting_dims = [1] x [1] : (tensor<256x128xf32>, tensor<64x128xf32>) -> tensor<256x64xf32>
    %95 = stablehlo.add %75, %94 : tensor<256x64xf32>
    // layer 1: attention
    %96 = stablehlo.multiply %95, %95 : tensor<256x64xf32>
    %97 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %98 = stablehlo.reduce(%96 init: %97) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %99 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %100 = stablehlo.divide %98, %99 : tensor<256xf32>
    %101 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %102 = stablehlo.add %100, %101 : tensor<256xf32>
    %103 = stablehlo.rsqrt %102 : tensor<256xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %105 = stablehlo.multiply %95, %104 : tensor<256x64xf32>
    %106 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %107 = stablehlo.multiply %105, %106 : tensor<256x64xf32>
    %108 = stablehlo.dot_general %107, %arg8, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %109 = stablehlo.reshape %108 : (tensor<256x128xf32>) -> tensor<256x8x16xf32>
    %110 = stablehlo.slice %109 [0:256, 0:6, 0:16] : (tensor<256x8x16xf32>) -> tensor<256x6x16xf32>
    %111 = stablehlo.reshape %110 : (tensor<256x6x16xf32>) -> tensor<256x6x2x8xf32>
    %112 = "stablehlo.reverse"(%111) {dimensions = array<i64: 2>} : (tensor<256x6x2x8xf32>) -> tensor<256x6x2x8xf32>
    %113 = stablehlo.broadcast_in_dim %arg15, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x6x2x8xf32>
    %114 = stablehlo.broadcast_in_dim %arg16, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x6x2x8xf32>
    %115 = stablehlo.iota dim = 2 : tensor<256x6x2x8xi32>
    %116 = stablehlo.convert %115 : (tensor<256x6x2x8xi32>) -> tensor<256x6x2x8xf32>
    %117 = stablehlo.constant dense<2.0e0> : tensor<256x6x2x8xf32>
    %118 = stablehlo.constant dense<1.0e0> : tensor<256x6x2x8xf32>
    %119 = stablehlo.multiply %116, %117 : tensor<256x6x2x8xf32>
    %120 = stablehlo.subtract %119, %118 : tensor<256x6x2x8xf32>
    %121 = stablehlo.multiply %114, %120 : tensor<256x6x2x8xf32>
    %122 = stablehlo.multiply %111, %113 : tensor<256x6x2x8xf32>
    %123 = stablehlo.multiply %112, %121 : tensor<256x6x2x8xf32>
    %124 = stablehlo.add %122, %123 : tensor<256x6x2x8xf32>
    %125 = stablehlo.reshape %124 : (tensor<256x6x2x8xf32>) -> tensor<256x6x16xf32>
    %126 = stablehlo.slice %125 [0:256, 0:4, 0:16] : (tensor<256x6x16xf32>) -> tensor<256x4x16xf32>
    %127 = stablehlo.slice %125 [0:256, 4:6, 0:16] : (tensor<256x6x16xf32>) -> tensor<256x2x16xf32>
    %128 = stablehlo.slice %109 [0:256, 6:8, 0:16] : (tensor<256x8x16xf32>) -> tensor<256x2x16xf32>
    // layer 1: write K/V of positions 0..t into the slot's cache
    %129 = stablehlo.transpose %127, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %130 = stablehlo.transpose %128, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %131 = stablehlo.constant dense<1> : tensor<i32>
    %132 = stablehlo.reshape %129 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %133 = stablehlo.dynamic_update_slice %51, %132, %131, %7, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %134 = stablehlo.reshape %130 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %135 = stablehlo.dynamic_update_slice %133, %134, %131, %8, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    // layer 1: grouped-query attention over the prompt
    %136 = stablehlo.reshape %126 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %137 = stablehlo.transpose %136, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %138 = stablehlo.reshape %137 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %139 = stablehlo.dot_general %138, %129, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %140 = stablehlo.reshape %139 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %141 = stablehlo.multiply %140, %6 : tensor<2x2x256x256xf32>
    %142 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %143 = stablehlo.select %5, %141, %142 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %144 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %145 = stablehlo.reduce(%143 init: %144) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %147 = stablehlo.subtract %143, %146 : tensor<2x2x256x256xf32>
    %148 = stablehlo.exponential %147 : tensor<2x2x256x256xf32>
    %149 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %150 = stablehlo.reduce(%148 init: %149) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %151 = stablehlo.broadcast_in_dim %150, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %152 = stablehlo.divide %148, %151 : tensor<2x2x256x256xf32>
    %153 = stablehlo.reshape %152 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %154 = stablehlo.dot_general %153, %130, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %155 = stablehlo.reshape %154 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %156 = stablehlo.transpose %155, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %157 = stablehlo.reshape %156 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    // layer 1: one row goes on to o and the MLP
    %158 = stablehlo.constant dense<0> : tensor<i32>
    %159 = stablehlo.dynamic_slice %157, %11, %158, sizes = [1, 64] : (tensor<256x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %160 = stablehlo.dynamic_slice %95, %11, %158, sizes = [1, 64] : (tensor<256x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %161 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %162 = stablehlo.concatenate %159, %161, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %163 = stablehlo.dot_general %162, %arg9, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %164 = stablehlo.slice %163 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %165 = stablehlo.add %160, %164 : tensor<1x64xf32>
    // layer 1: MLP
    %166 = stablehlo.multiply %165, %165 : tensor<1x64xf32>
    %167 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %168 = stablehlo.reduce(%166 init: %167) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %169 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %170 = stablehlo.divide %168, %169 : tensor<1xf32>
    %171 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %172 = stablehlo.add %170, %171 : tensor<1xf32>
    %173 = stablehlo.rsqrt %172 : tensor<1xf32>
    %174 = stablehlo.broadcast_in_dim %173, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %175 = stablehlo.multiply %165, %174 : tensor<1x64xf32>
    %176 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %177 = stablehlo.multiply %175, %176 : tensor<1x64xf32>
    %178 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %179 = stablehlo.concatenate %177, %178, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %180 = stablehlo.dot_general %179, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<256x64xf32>) -> tensor<8x256xf32>
    %181 = stablehlo.slice %180 [0:1, 0:256] : (tensor<8x256xf32>) -> tensor<1x256xf32>
    %182 = stablehlo.slice %181 [0:1, 0:128] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %183 = stablehlo.slice %181 [0:1, 128:256] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %184 = stablehlo.logistic %182 : tensor<1x128xf32>
    %185 = stablehlo.multiply %182, %184 : tensor<1x128xf32>
    %186 = stablehlo.multiply %185, %183 : tensor<1x128xf32>
    %187 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %188 = stablehlo.concatenate %186, %187, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %189 = stablehlo.dot_general %188, %arg12, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %190 = stablehlo.slice %189 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %191 = stablehlo.add %165, %190 : tensor<1x64xf32>
    %192 = stablehlo.multiply %191, %191 : tensor<1x64xf32>
    %193 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %194 = stablehlo.reduce(%192 init: %193) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %195 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %196 = stablehlo.divide %194, %195 : tensor<1xf32>
    %197 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %198 = stablehlo.add %196, %197 : tensor<1xf32>
    %199 = stablehlo.rsqrt %198 : tensor<1xf32>
    %200 = stablehlo.broadcast_in_dim %199, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %201 = stablehlo.multiply %191, %200 : tensor<1x64xf32>
    %202 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %203 = stablehlo.multiply %201, %202 : tensor<1x64xf32>
    %204 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %205 = stablehlo.concatenate %203, %204, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %206 = stablehlo.dot_general %205, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %207 = stablehlo.slice %206 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %208 = stablehlo.reshape %207 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %208, %135 : tensor<512xf32>, tensor<2x2x16x256x16xf32>
  }
}

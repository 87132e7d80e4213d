// prefill_logits_t32_s4: emitted by iree-llm 0.1.0 (graph format 4).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @prefill_logits_t32_s4 {
  func.func @prefill_logits_t32_s4(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<256x64xf32>, %arg6: tensor<64x128xf32>, %arg7: tensor<64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<64xf32>, %arg14: tensor<512x64xf32>, %arg15: tensor<256x8xf32>, %arg16: tensor<256x8xf32>, %arg17: tensor<2x2x8x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg18: tensor<32xi32>, %arg19: tensor<i32>, %arg20: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x8x256x16xf32>) {
    // embeddings and the rotary angles of positions 0..t
    %0 = stablehlo.reshape %arg18 : (tensor<32xi32>) -> tensor<32x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<32x1xi32>) -> tensor<32x64xf32>
    %2 = stablehlo.slice %arg15 [0:32, 0:8] : (tensor<256x8xf32>) -> tensor<32x8xf32>
    %3 = stablehlo.slice %arg16 [0:32, 0:8] : (tensor<256x8xf32>) -> tensor<32x8xf32>
    // causal mask: query i sees keys j <= i
    %4 = stablehlo.iota dim = 0 : tensor<32x32xi32>
    %5 = stablehlo.iota dim = 1 : tensor<32x32xi32>
    %6 = stablehlo.compare GE, %4, %5 : (tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [2, 3] : (tensor<32x32xi1>) -> tensor<2x2x32x32xi1>
    %8 = stablehlo.constant dense<2.5e-1> : tensor<2x2x32x32xf32>
    %9 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.constant dense<1> : tensor<i32>
    %11 = stablehlo.constant dense<2> : tensor<i32>
    %12 = stablehlo.multiply %arg20, %11 : tensor<i32>
    // layer 0: attention
    %13 = stablehlo.multiply %1, %1 : tensor<32x64xf32>
    %14 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %15 = stablehlo.reduce(%13 init: %14) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %16 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %17 = stablehlo.divide %15, %16 : tensor<32xf32>
    %18 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %19 = stablehlo.add %17, %18 : tensor<32xf32>
    %20 = stablehlo.rsqrt %19 : tensor<32xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %22 = stablehlo.multiply %1, %21 : tensor<32x64xf32>
    %23 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %24 = stablehlo.multiply %22, %23 : tensor<32x64xf32>
    %25 = stablehlo.dot_general %24, %arg2, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %26 = stablehlo.reshape %25 : (tensor<32x128xf32>) -> tensor<32x8x16xf32>
    %27 = stablehlo.slice %26 [0:32, 0:6, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x6x16xf32>
    %28 = stablehlo.reshape %27 : (tensor<32x6x16xf32>) -> tensor<32x6x2x8xf32>
    %29 = "stablehlo.reverse"(%28) {dimensions = array<i64: 2>} : (tensor<32x6x2x8xf32>) -> tensor<32x6x2x8xf32>
    %30 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %31 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %32 = stablehlo.iota dim = 2 : tensor<32x6x2x8xi32>
    %33 = stablehlo.convert %32 : (tensor<32x6x2x8xi32>) -> tensor<32x6x2x8xf32>
    %34 = stablehlo.constant dense<2.0e0> : tensor<32x6x2x8xf32>
    %35 = stablehlo.constant dense<1.0e0> : tensor<32x6x2x8xf32>
    %36 = stablehlo.multiply %33, %34 : tensor<32x6x2x8xf32>
    %37 = stablehlo.subtract %36, %35 : tensor<32x6x2x8xf32>
    %38 = stablehlo.multiply %31, %37 : tensor<32x6x2x8xf32>
    %39 = stablehlo.multiply %28, %30 : tensor<32x6x2x8xf32>
    %40 = stablehlo.multiply %29, %38 : tensor<32x6x2x8xf32>
    %41 = stablehlo.add %39, %40 : tensor<32x6x2x8xf32>
    %42 = stablehlo.reshape %41 : (tensor<32x6x2x8xf32>) -> tensor<32x6x16xf32>
    %43 = stablehlo.slice %42 [0:32, 0:4, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x4x16xf32>
    %44 = stablehlo.slice %42 [0:32, 4:6, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x2x16xf32>
    %45 = stablehlo.slice %26 [0:32, 6:8, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x2x16xf32>
    // layer 0: write K/V of positions 0..t into the slot's cache
    %46 = stablehlo.transpose %44, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %47 = stablehlo.transpose %45, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %48 = stablehlo.constant dense<0> : tensor<i32>
    %49 = stablehlo.reshape %46 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %50 = stablehlo.dynamic_update_slice %arg17, %49, %48, %9, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %51 = stablehlo.reshape %47 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %52 = stablehlo.dynamic_update_slice %50, %51, %48, %10, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    // layer 0: grouped-query attention over the prompt
    %53 = stablehlo.reshape %43 : (tensor<32x4x16xf32>) -> tensor<32x2x2x16xf32>
    %54 = stablehlo.transpose %53, dims = [1, 2, 0, 3] : (tensor<32x2x2x16xf32>) -> tensor<2x2x32x16xf32>
    %55 = stablehlo.reshape %54 : (tensor<2x2x32x16xf32>) -> tensor<2x64x16xf32>
    %56 = stablehlo.dot_general %55, %46, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x64x32xf32>
    %57 = stablehlo.reshape %56 : (tensor<2x64x32xf32>) -> tensor<2x2x32x32xf32>
    %58 = stablehlo.multiply %57, %8 : tensor<2x2x32x32xf32>
    %59 = stablehlo.constant dense<0xFF800000> : tensor<2x2x32x32xf32>
    %60 = stablehlo.select %7, %58, %59 : tensor<2x2x32x32xi1>, tensor<2x2x32x32xf32>
    %61 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %62 = stablehlo.reduce(%60 init: %61) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x32xf32>
    %64 = stablehlo.subtract %60, %63 : tensor<2x2x32x32xf32>
    %65 = stablehlo.exponential %64 : tensor<2x2x32x32xf32>
    %66 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %67 = stablehlo.reduce(%65 init: %66) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x32xf32>
    %69 = stablehlo.divide %65, %68 : tensor<2x2x32x32xf32>
    %70 = stablehlo.reshape %69 : (tensor<2x2x32x32xf32>) -> tensor<2x64x32xf32>
    %71 = stablehlo.dot_general %70, %47, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x64x32xf32>, tensor<2x32x16xf32>) -> tensor<2x64x16xf32>
    %72 = stablehlo.reshape %71 : (tensor<2x64x16xf32>) -> tensor<2x2x32x16xf32>
    %73 = stablehlo.transpose %72, dims = [2, 0, 1, 3] : (tensor<2x2x32x16xf32>) -> tensor<32x2x2x16xf32>
    %74 = stablehlo.reshape %73 : (tensor<32x2x2x16xf32>) -> tensor<32x64xf32>
    %75 = stablehlo.dot_general %74, %arg3, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %76 = stablehlo.add %1, %75 : tensor<32x64xf32>
    // layer 0: MLP
    %77 = stablehlo.multiply %76, %76 : tensor<32x64xf32>
    %78 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %79 = stablehlo.reduce(%77 init: %78) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %80 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %81 = stablehlo.divide %79, %80 : tensor<32xf32>
    %82 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %83 = stablehlo.add %81, %82 : tensor<32xf32>
    %84 = stablehlo.rsqrt %83 : tensor<32xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %86 = stablehlo.multiply %76, %85 : tensor<32x64xf32>
    %87 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %88 = stablehlo.multiply %86, %87 : tensor<32x64xf32>
    %89 = stablehlo.dot_general %88, %arg5, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<256x64xf32>) -> tensor<32x256xf32>
    %90 = stablehlo.slice %89 [0:32, 0:128] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %91 = stablehlo.slice %89 [0:32, 128:256] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %92 = stablehlo.logistic %90 : tensor<32x128xf32>
    %93 = stablehlo.multiply %90, %92 : tensor<32x128xf32>
    %94 = stablehlo.multiply %93, %91 : tensor<32x128xf32>
    %95 = stablehlo.dot_general %94, %arg6, contracting_dims = [1] x [1] : (tensor<32x128xf32>, tensor<64x128xf32>) -> tensor<32x64xf32>
    %96 = stablehlo.add %76, %95 : tensor<32x64xf32>
    // layer 1: attention
    %97 = stablehlo.multiply %96, %96 : tensor<32x64xf32>
    %98 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %99 = stablehlo.reduce(%97 init: %98) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %100 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %101 = stablehlo.divide %99, %100 : tensor<32xf32>
    %102 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %103 = stablehlo.add %101, %102 : tensor<32xf32>
    %104 = stablehlo.rsqrt %103 : tensor<32xf32>
    %105 = stablehlo.broadcast_in_dim %104, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %106 = stablehlo.multiply %96, %105 : tensor<32x64xf32>
    %107 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %108 = stablehlo.multiply %106, %107 : tensor<32x64xf32>
    %109 = stablehlo.dot_general %108, %arg8, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %110 = stablehlo.reshape %109 : (tensor<32x128xf32>) -> tensor<32x8x16xf32>
    %111 = stablehlo.slice %110 [0:32, 0:6, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x6x16xf32>
    %112 = stablehlo.reshape %111 : (tensor<32x6x16xf32>) -> tensor<32x6x2x8xf32>
    %113 = "stablehlo.reverse"(%112) {dimensions = array<i64: 2>} : (tensor<32x6x2x8xf32>) -> tensor<32x6x2x8xf32>
    %114 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %115 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %116 = stablehlo.iota dim = 2 : tensor<32x6x2x8xi32>
    %117 = stablehlo.convert %116 : (tensor<32x6x2x8xi32>) -> tensor<32x6x2x8xf32>
    %118 = stablehlo.constant dense<2.0e0> : tensor<32x6x2x8xf32>
    %119 = stablehlo.constant dense<1.0e0> : tensor<32x6x2x8xf32>
    %120 = stablehlo.multiply %117, %118 : tensor<32x6x2x8xf32>
    %121 = stablehlo.subtract %120, %119 : tensor<32x6x2x8xf32>
    %122 = stablehlo.multiply %115, %121 : tensor<32x6x2x8xf32>
    %123 = stablehlo.multiply %112, %114 : tensor<32x6x2x8xf32>
    %124 = stablehlo.multiply %113, %122 : tensor<32x6x2x8xf32>
    %125 = stablehlo.add %123, %124 : tensor<32x6x2x8xf32>
    %126 = stablehlo.reshape %125 : (tensor<32x6x2x8xf32>) -> tensor<32x6x16xf32>
    %127 = stablehlo.slice %126 [0:32, 0:4, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x4x16xf32>
    %128 = stablehlo.slice %126 [0:32, 4:6, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x2x16xf32>
    %129 = stablehlo.slice %110 [0:32, 6:8, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x2x16xf32>
    // layer 1: write K/V of positions 0..t into the slot's cache
    %130 = stablehlo.transpose %128, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %131 = stablehlo.transpose %129, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %132 = stablehlo.constant dense<1> : tensor<i32>
    %133 = stablehlo.reshape %130 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %134 = stablehlo.dynamic_update_slice %52, %133, %132, %9, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %135 = stablehlo.reshape %131 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %136 = stablehlo.dynamic_update_slice %134, %135, %132, %10, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    // layer 1: grouped-query attention over the prompt
    %137 = stablehlo.reshape %127 : (tensor<32x4x16xf32>) -> tensor<32x2x2x16xf32>
    %138 = stablehlo.transpose %137, dims = [1, 2, 0, 3] : (tensor<32x2x2x16xf32>) -> tensor<2x2x32x16xf32>
    %139 = stablehlo.reshape %138 : (tensor<2x2x32x16xf32>) -> tensor<2x64x16xf32>
    %140 = stablehlo.dot_general %139, %130, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x64x32xf32>
    %141 = stablehlo.reshape %140 : (tensor<2x64x32xf32>) -> tensor<2x2x32x32xf32>
    %142 = stablehlo.multiply %141, %8 : tensor<2x2x32x32xf32>
    %143 = stablehlo.constant dense<0xFF800000> : tensor<2x2x32x32xf32>
    %144 = stablehlo.select %7, %142, %143 : tensor<2x2x32x32xi1>, tensor<2x2x32x32xf32>
    %145 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %146 = stablehlo.reduce(%144 init: %145) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %147 = stablehlo.broadcast_in_dim %146, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x32xf32>
    %148 = stablehlo.subtract %144, %147 : tensor<2x2x32x32xf32>
    %149 = stablehlo.exponential %148 : tensor<2x2x32x32xf32>
    %150 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %151 = stablehlo.reduce(%149 init: %150) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x32xf32>
    %153 = stablehlo.divide %149, %152 : tensor<2x2x32x32xf32>
    %154 = stablehlo.reshape %153 : (tensor<2x2x32x32xf32>) -> tensor<2x64x32xf32>
    %155 = stablehlo.dot_general %154, %131, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x64x32xf32>, tensor<2x32x16xf32>) -> tensor<2x64x16xf32>
    %156 = stablehlo.reshape %155 : (tensor<2x64x16xf32>) -> tensor<2x2x32x16xf32>
    %157 = stablehlo.transpose %156, dims = [2, 0, 1, 3] : (tensor<2x2x32x16xf32>) -> tensor<32x2x2x16xf32>
    %158 = stablehlo.reshape %157 : (tensor<32x2x2x16xf32>) -> tensor<32x64xf32>
    %159 = stablehlo.dot_general %158, %arg9, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %160 = stablehlo.add %96, %159 : tensor<32x64xf32>
    // layer 1: MLP
    %161 = stablehlo.multiply %160, %160 : tensor<32x64xf32>
    %162 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %163 = stablehlo.reduce(%161 init: %162) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %164 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %165 = stablehlo.divide %163, %164 : tensor<32xf32>
    %166 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %167 = stablehlo.add %165, %166 : tensor<32xf32>
    %168 = stablehlo.rsqrt %167 : tensor<32xf32>
    %169 = stablehlo.broadcast_in_dim %168, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %170 = stablehlo.multiply %160, %169 : tensor<32x64xf32>
    %171 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %172 = stablehlo.multiply %170, %171 : tensor<32x64xf32>
    %173 = stablehlo.dot_general %172, %arg11, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<256x64xf32>) -> tensor<32x256xf32>
    %174 = stablehlo.slice %173 [0:32, 0:128] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %175 = stablehlo.slice %173 [0:32, 128:256] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %176 = stablehlo.logistic %174 : tensor<32x128xf32>
    %177 = stablehlo.multiply %174, %176 : tensor<32x128xf32>
    %178 = stablehlo.multiply %177, %175 : tensor<32x128xf32>
    %179 = stablehlo.dot_general %178, %arg12, contracting_dims = [1] x [1] : (tensor<32x128xf32>, tensor<64x128xf32>) -> tensor<32x64xf32>
    %180 = stablehlo.add %160, %179 : tensor<32x64xf32>
    // the last real token: row len - 1
    %181 = stablehlo.subtract %arg19, %10 : tensor<i32>
    %182 = stablehlo.dynamic_slice %180, %181, %9, sizes = [1, 64] : (tensor<32x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %183 = stablehlo.multiply %182, %182 : tensor<1x64xf32>
    %184 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %185 = stablehlo.reduce(%183 init: %184) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %186 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %187 = stablehlo.divide %185, %186 : tensor<1xf32>
    %188 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %189 = stablehlo.add %187, %188 : tensor<1xf32>
    %190 = stablehlo.rsqrt %189 : tensor<1xf32>
    %191 = stablehlo.broadcast_in_dim %190, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %192 = stablehlo.multiply %182, %191 : tensor<1x64xf32>
    %193 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %194 = stablehlo.multiply %192, %193 : tensor<1x64xf32>
    %195 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %196 = stablehlo.concatenate %194, %195, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %197 = stablehlo.dot_general %196, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %198 = stablehlo.slice %197 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %199 = stablehlo.reshape %198 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %199, %136 : tensor<512xf32>, tensor<2x2x8x256x16xf32>
  }
}

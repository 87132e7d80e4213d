// prefill_logits_t256: emitted by iree-llm 0.1.0 (graph format 4).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @prefill_logits_t256 {
  func.func @prefill_logits_t256(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<256x64xf32>, %arg6: tensor<64x128xf32>, %arg7: tensor<64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<64xf32>, %arg14: tensor<512x64xf32>, %arg15: tensor<256x8xf32>, %arg16: tensor<256x8xf32>, %arg17: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg18: tensor<256xi32>, %arg19: tensor<i32>, %arg20: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x2x256x16xf32>) {
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
    %23 = stablehlo.dot_general %22, %arg2, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %24 = stablehlo.reshape %23 : (tensor<256x128xf32>) -> tensor<256x8x16xf32>
    %25 = stablehlo.slice %24 [0:256, 0:6, 0:16] : (tensor<256x8x16xf32>) -> tensor<256x6x16xf32>
    %26 = stablehlo.reshape %25 : (tensor<256x6x16xf32>) -> tensor<256x6x2x8xf32>
    %27 = "stablehlo.reverse"(%26) {dimensions = array<i64: 2>} : (tensor<256x6x2x8xf32>) -> tensor<256x6x2x8xf32>
    %28 = stablehlo.broadcast_in_dim %arg15, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x6x2x8xf32>
    %29 = stablehlo.broadcast_in_dim %arg16, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x6x2x8xf32>
    %30 = stablehlo.iota dim = 2 : tensor<256x6x2x8xi32>
    %31 = stablehlo.convert %30 : (tensor<256x6x2x8xi32>) -> tensor<256x6x2x8xf32>
    %32 = stablehlo.constant dense<2.0e0> : tensor<256x6x2x8xf32>
    %33 = stablehlo.constant dense<1.0e0> : tensor<256x6x2x8xf32>
    %34 = stablehlo.multiply %31, %32 : tensor<256x6x2x8xf32>
    %35 = stablehlo.subtract %34, %33 : tensor<256x6x2x8xf32>
    %36 = stablehlo.multiply %29, %35 : tensor<256x6x2x8xf32>
    %37 = stablehlo.multiply %26, %28 : tensor<256x6x2x8xf32>
    %38 = stablehlo.multiply %27, %36 : tensor<256x6x2x8xf32>
    %39 = stablehlo.add %37, %38 : tensor<256x6x2x8xf32>
    %40 = stablehlo.reshape %39 : (tensor<256x6x2x8xf32>) -> tensor<256x6x16xf32>
    %41 = stablehlo.slice %40 [0:256, 0:4, 0:16] : (tensor<256x6x16xf32>) -> tensor<256x4x16xf32>
    %42 = stablehlo.slice %40 [0:256, 4:6, 0:16] : (tensor<256x6x16xf32>) -> tensor<256x2x16xf32>
    %43 = stablehlo.slice %24 [0:256, 6:8, 0:16] : (tensor<256x8x16xf32>) -> tensor<256x2x16xf32>
    // layer 0: write K/V of positions 0..t into the slot's cache
    %44 = stablehlo.transpose %42, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %45 = stablehlo.transpose %43, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %46 = stablehlo.constant dense<0> : tensor<i32>
    %47 = stablehlo.reshape %44 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %48 = stablehlo.dynamic_update_slice %arg17, %47, %46, %7, %10, %7, %7 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %49 = stablehlo.reshape %45 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %50 = stablehlo.dynamic_update_slice %48, %49, %46, %8, %10, %7, %7 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    // layer 0: grouped-query attention over the prompt
    %51 = stablehlo.reshape %41 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %52 = stablehlo.transpose %51, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %53 = stablehlo.reshape %52 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %54 = stablehlo.dot_general %53, %44, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %55 = stablehlo.reshape %54 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %56 = stablehlo.multiply %55, %6 : tensor<2x2x256x256xf32>
    %57 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %58 = stablehlo.select %5, %56, %57 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %59 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %60 = stablehlo.reduce(%58 init: %59) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %61 = stablehlo.broadcast_in_dim %60, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %62 = stablehlo.subtract %58, %61 : tensor<2x2x256x256xf32>
    %63 = stablehlo.exponential %62 : tensor<2x2x256x256xf32>
    %64 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %65 = stablehlo.reduce(%63 init: %64) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %67 = stablehlo.divide %63, %66 : tensor<2x2x256x256xf32>
    %68 = stablehlo.reshape %67 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %69 = stablehlo.dot_general %68, %45, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %70 = stablehlo.reshape %69 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %71 = stablehlo.transpose %70, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %72 = stablehlo.reshape %71 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    %73 = stablehlo.dot_general %72, %arg3, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %74 = stablehlo.add %1, %73 : tensor<256x64xf32>
    // layer 0: MLP
    %75 = stablehlo.multiply %74, %74 : tensor<256x64xf32>
    %76 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %77 = stablehlo.reduce(%75 init: %76) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %78 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %79 = stablehlo.divide %77, %78 : tensor<256xf32>
    %80 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %81 = stablehlo.add %79, %80 : tensor<256xf32>
    %82 = stablehlo.rsqrt %81 : tensor<256xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %84 = stablehlo.multiply %74, %83 : tensor<256x64xf32>
    %85 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %86 = stablehlo.multiply %84, %85 : tensor<256x64xf32>
    %87 = stablehlo.dot_general %86, %arg5, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x256xf32>
    %88 = stablehlo.slice %87 [0:256, 0:128] : (tensor<256x256xf32>) -> tensor<256x128xf32>
    %89 = stablehlo.slice %87 [0:256, 128:256] : (tensor<256x256xf32>) -> tensor<256x128xf32>
    %90 = stablehlo.logistic %88 : tensor<256x128xf32>
    %91 = stablehlo.multiply %88, %90 : tensor<256x128xf32>
    %92 = stablehlo.multiply %91, %89 : tensor<256x128xf32>
    %93 = stablehlo.dot_general %92, %arg6, contracting_dims = [1] x [1] : (tensor<256x128xf32>, tensor<64x128xf32>) -> tensor<256x64xf32>
    %94 = stablehlo.add %74, %93 : tensor<256x64xf32>
    // layer 1: attention
    %95 = stablehlo.multiply %94, %94 : tensor<256x64xf32>
    %96 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %97 = stablehlo.reduce(%95 init: %96) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %98 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %99 = stablehlo.divide %97, %98 : tensor<256xf32>
    %100 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %101 = stablehlo.add %99, %100 : tensor<256xf32>
    %102 = stablehlo.rsqrt %101 : tensor<256xf32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %104 = stablehlo.multiply %94, %103 : tensor<256x64xf32>
    %105 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %106 = stablehlo.multiply %104, %105 : tensor<256x64xf32>
    %107 = stablehlo.dot_general %106, %arg8, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %108 = stablehlo.reshape %107 : (tensor<256x128xf32>) -> tensor<256x8x16xf32>
    %109 = stablehlo.slice %108 [0:256, 0:6, 0:16] : (tensor<256x8x16xf32>) -> tensor<256x6x16xf32>
    %110 = stablehlo.reshape %109 : (tensor<256x6x16xf32>) -> tensor<256x6x2x8xf32>
    %111 = "stablehlo.reverse"(%110) {dimensions = array<i64: 2>} : (tensor<256x6x2x8xf32>) -> tensor<256x6x2x8xf32>
    %112 = stablehlo.broadcast_in_dim %arg15, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x6x2x8xf32>
    %113 = stablehlo.broadcast_in_dim %arg16, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x6x2x8xf32>
    %114 = stablehlo.iota dim = 2 : tensor<256x6x2x8xi32>
    %115 = stablehlo.convert %114 : (tensor<256x6x2x8xi32>) -> tensor<256x6x2x8xf32>
    %116 = stablehlo.constant dense<2.0e0> : tensor<256x6x2x8xf32>
    %117 = stablehlo.constant dense<1.0e0> : tensor<256x6x2x8xf32>
    %118 = stablehlo.multiply %115, %116 : tensor<256x6x2x8xf32>
    %119 = stablehlo.subtract %118, %117 : tensor<256x6x2x8xf32>
    %120 = stablehlo.multiply %113, %119 : tensor<256x6x2x8xf32>
    %121 = stablehlo.multiply %110, %112 : tensor<256x6x2x8xf32>
    %122 = stablehlo.multiply %111, %120 : tensor<256x6x2x8xf32>
    %123 = stablehlo.add %121, %122 : tensor<256x6x2x8xf32>
    %124 = stablehlo.reshape %123 : (tensor<256x6x2x8xf32>) -> tensor<256x6x16xf32>
    %125 = stablehlo.slice %124 [0:256, 0:4, 0:16] : (tensor<256x6x16xf32>) -> tensor<256x4x16xf32>
    %126 = stablehlo.slice %124 [0:256, 4:6, 0:16] : (tensor<256x6x16xf32>) -> tensor<256x2x16xf32>
    %127 = stablehlo.slice %108 [0:256, 6:8, 0:16] : (tensor<256x8x16xf32>) -> tensor<256x2x16xf32>
    // layer 1: write K/V of positions 0..t into the slot's cache
    %128 = stablehlo.transpose %126, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %129 = stablehlo.transpose %127, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %130 = stablehlo.constant dense<1> : tensor<i32>
    %131 = stablehlo.reshape %128 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %132 = stablehlo.dynamic_update_slice %50, %131, %130, %7, %10, %7, %7 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %133 = stablehlo.reshape %129 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %134 = stablehlo.dynamic_update_slice %132, %133, %130, %8, %10, %7, %7 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    // layer 1: grouped-query attention over the prompt
    %135 = stablehlo.reshape %125 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %136 = stablehlo.transpose %135, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %137 = stablehlo.reshape %136 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %138 = stablehlo.dot_general %137, %128, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %139 = stablehlo.reshape %138 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %140 = stablehlo.multiply %139, %6 : tensor<2x2x256x256xf32>
    %141 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %142 = stablehlo.select %5, %140, %141 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %143 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %144 = stablehlo.reduce(%142 init: %143) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %145 = stablehlo.broadcast_in_dim %144, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %146 = stablehlo.subtract %142, %145 : tensor<2x2x256x256xf32>
    %147 = stablehlo.exponential %146 : tensor<2x2x256x256xf32>
    %148 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %149 = stablehlo.reduce(%147 init: %148) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %150 = stablehlo.broadcast_in_dim %149, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %151 = stablehlo.divide %147, %150 : tensor<2x2x256x256xf32>
    %152 = stablehlo.reshape %151 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %153 = stablehlo.dot_general %152, %129, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %154 = stablehlo.reshape %153 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %155 = stablehlo.transpose %154, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %156 = stablehlo.reshape %155 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    %157 = stablehlo.dot_general %156, %arg9, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %158 = stablehlo.add %94, %157 : tensor<256x64xf32>
    // layer 1: MLP
    %159 = stablehlo.multiply %158, %158 : tensor<256x64xf32>
    %160 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %161 = stablehlo.reduce(%159 init: %160) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %162 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %163 = stablehlo.divide %161, %162 : tensor<256xf32>
    %164 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %165 = stablehlo.add %163, %164 : tensor<256xf32>
    %166 = stablehlo.rsqrt %165 : tensor<256xf32>
    %167 = stablehlo.broadcast_in_dim %166, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %168 = stablehlo.multiply %158, %167 : tensor<256x64xf32>
    %169 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %170 = stablehlo.multiply %168, %169 : tensor<256x64xf32>
    %171 = stablehlo.dot_general %170, %arg11, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x256xf32>
    %172 = stablehlo.slice %171 [0:256, 0:128] : (tensor<256x256xf32>) -> tensor<256x128xf32>
    %173 = stablehlo.slice %171 [0:256, 128:256] : (tensor<256x256xf32>) -> tensor<256x128xf32>
    %174 = stablehlo.logistic %172 : tensor<256x128xf32>
    %175 = stablehlo.multiply %172, %174 : tensor<256x128xf32>
    %176 = stablehlo.multiply %175, %173 : tensor<256x128xf32>
    %177 = stablehlo.dot_general %176, %arg12, contracting_dims = [1] x [1] : (tensor<256x128xf32>, tensor<64x128xf32>) -> tensor<256x64xf32>
    %178 = stablehlo.add %158, %177 : tensor<256x64xf32>
    // the last real token: row len - 1
    %179 = stablehlo.subtract %arg19, %8 : tensor<i32>
    %180 = stablehlo.dynamic_slice %178, %179, %7, sizes = [1, 64] : (tensor<256x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %181 = stablehlo.multiply %180, %180 : tensor<1x64xf32>
    %182 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %183 = stablehlo.reduce(%181 init: %182) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %184 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %185 = stablehlo.divide %183, %184 : tensor<1xf32>
    %186 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %187 = stablehlo.add %185, %186 : tensor<1xf32>
    %188 = stablehlo.rsqrt %187 : tensor<1xf32>
    %189 = stablehlo.broadcast_in_dim %188, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %190 = stablehlo.multiply %180, %189 : tensor<1x64xf32>
    %191 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %192 = stablehlo.multiply %190, %191 : tensor<1x64xf32>
    %193 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %194 = stablehlo.concatenate %192, %193, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %195 = stablehlo.dot_general %194, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %196 = stablehlo.slice %195 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %197 = stablehlo.reshape %196 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %197, %134 : tensor<512xf32>, tensor<2x2x2x256x16xf32>
  }
}

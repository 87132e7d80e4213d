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
    %25 = stablehlo.reshape %24 : (tensor<256x4x16xf32>) -> tensor<256x4x2x8xf32>
    %26 = "stablehlo.reverse"(%25) {dimensions = array<i64: 2>} : (tensor<256x4x2x8xf32>) -> tensor<256x4x2x8xf32>
    %27 = stablehlo.broadcast_in_dim %arg21, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x4x2x8xf32>
    %28 = stablehlo.broadcast_in_dim %arg22, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x4x2x8xf32>
    %29 = stablehlo.iota dim = 2 : tensor<256x4x2x8xi32>
    %30 = stablehlo.convert %29 : (tensor<256x4x2x8xi32>) -> tensor<256x4x2x8xf32>
    %31 = stablehlo.constant dense<2.0e0> : tensor<256x4x2x8xf32>
    %32 = stablehlo.constant dense<1.0e0> : tensor<256x4x2x8xf32>
    %33 = stablehlo.multiply %30, %31 : tensor<256x4x2x8xf32>
    %34 = stablehlo.subtract %33, %32 : tensor<256x4x2x8xf32>
    %35 = stablehlo.multiply %28, %34 : tensor<256x4x2x8xf32>
    %36 = stablehlo.multiply %25, %27 : tensor<256x4x2x8xf32>
    %37 = stablehlo.multiply %26, %35 : tensor<256x4x2x8xf32>
    %38 = stablehlo.add %36, %37 : tensor<256x4x2x8xf32>
    %39 = stablehlo.reshape %38 : (tensor<256x4x2x8xf32>) -> tensor<256x4x16xf32>
    %40 = stablehlo.dot_general %22, %arg3, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %41 = stablehlo.reshape %40 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    %42 = stablehlo.reshape %41 : (tensor<256x2x16xf32>) -> tensor<256x2x2x8xf32>
    %43 = "stablehlo.reverse"(%42) {dimensions = array<i64: 2>} : (tensor<256x2x2x8xf32>) -> tensor<256x2x2x8xf32>
    %44 = stablehlo.broadcast_in_dim %arg21, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x2x2x8xf32>
    %45 = stablehlo.broadcast_in_dim %arg22, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x2x2x8xf32>
    %46 = stablehlo.iota dim = 2 : tensor<256x2x2x8xi32>
    %47 = stablehlo.convert %46 : (tensor<256x2x2x8xi32>) -> tensor<256x2x2x8xf32>
    %48 = stablehlo.constant dense<2.0e0> : tensor<256x2x2x8xf32>
    %49 = stablehlo.constant dense<1.0e0> : tensor<256x2x2x8xf32>
    %50 = stablehlo.multiply %47, %48 : tensor<256x2x2x8xf32>
    %51 = stablehlo.subtract %50, %49 : tensor<256x2x2x8xf32>
    %52 = stablehlo.multiply %45, %51 : tensor<256x2x2x8xf32>
    %53 = stablehlo.multiply %42, %44 : tensor<256x2x2x8xf32>
    %54 = stablehlo.multiply %43, %52 : tensor<256x2x2x8xf32>
    %55 = stablehlo.add %53, %54 : tensor<256x2x2x8xf32>
    %56 = stablehlo.reshape %55 : (tensor<256x2x2x8xf32>) -> tensor<256x2x16xf32>
    %57 = stablehlo.dot_general %22, %arg4, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %58 = stablehlo.reshape %57 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    // layer 0: write K/V of positions 0..t into the slot's cache
    %59 = stablehlo.transpose %56, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %60 = stablehlo.transpose %58, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %61 = stablehlo.constant dense<0> : tensor<i32>
    %62 = stablehlo.reshape %59 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %63 = stablehlo.dynamic_update_slice %arg23, %62, %61, %7, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %64 = stablehlo.reshape %60 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %65 = stablehlo.dynamic_update_slice %63, %64, %61, %8, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    // layer 0: grouped-query attention over the prompt
    %66 = stablehlo.reshape %39 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %67 = stablehlo.transpose %66, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %68 = stablehlo.reshape %67 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %69 = stablehlo.dot_general %68, %59, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %70 = stablehlo.reshape %69 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %71 = stablehlo.multiply %70, %6 : tensor<2x2x256x256xf32>
    %72 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %73 = stablehlo.select %5, %71, %72 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %74 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %75 = stablehlo.reduce(%73 init: %74) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %77 = stablehlo.subtract %73, %76 : tensor<2x2x256x256xf32>
    %78 = stablehlo.exponential %77 : tensor<2x2x256x256xf32>
    %79 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %80 = stablehlo.reduce(%78 init: %79) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %82 = stablehlo.divide %78, %81 : tensor<2x2x256x256xf32>
    %83 = stablehlo.reshape %82 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %84 = stablehlo.dot_general %83, %60, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %85 = stablehlo.reshape %84 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %86 = stablehlo.transpose %85, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %87 = stablehlo.reshape %86 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    %88 = stablehlo.dot_general %87, %arg5, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %89 = stablehlo.add %1, %88 : tensor<256x64xf32>
    // layer 0: MLP
    %90 = stablehlo.multiply %89, %89 : tensor<256x64xf32>
    %91 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %92 = stablehlo.reduce(%90 init: %91) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %93 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %94 = stablehlo.divide %92, %93 : tensor<256xf32>
    %95 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %96 = stablehlo.add %94, %95 : tensor<256xf32>
    %97 = stablehlo.rsqrt %96 : tensor<256xf32>
    %98 = stablehlo.broadcast_in_dim %97, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %99 = stablehlo.multiply %89, %98 : tensor<256x64xf32>
    %100 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %101 = stablehlo.multiply %99, %100 : tensor<256x64xf32>
    %102 = stablehlo.dot_general %101, %arg7, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %103 = stablehlo.dot_general %101, %arg8, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %104 = stablehlo.logistic %102 : tensor<256x128xf32>
    %105 = stablehlo.multiply %102, %104 : tensor<256x128xf32>
    %106 = stablehlo.multiply %105, %103 : tensor<256x128xf32>
    %107 = stablehlo.dot_general %106, %arg9, contracting_dims = [1] x [1] : (tensor<256x128xf32>, tensor<64x128xf32>) -> tensor<256x64xf32>
    %108 = stablehlo.add %89, %107 : tensor<256x64xf32>
    // layer 1: attention
    %109 = stablehlo.multiply %108, %108 : tensor<256x64xf32>
    %110 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %111 = stablehlo.reduce(%109 init: %110) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %112 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %113 = stablehlo.divide %111, %112 : tensor<256xf32>
    %114 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %115 = stablehlo.add %113, %114 : tensor<256xf32>
    %116 = stablehlo.rsqrt %115 : tensor<256xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %118 = stablehlo.multiply %108, %117 : tensor<256x64xf32>
    %119 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %120 = stablehlo.multiply %118, %119 : tensor<256x64xf32>
    %121 = stablehlo.dot_general %120, %arg11, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %122 = stablehlo.reshape %121 : (tensor<256x64xf32>) -> tensor<256x4x16xf32>
    %123 = stablehlo.reshape %122 : (tensor<256x4x16xf32>) -> tensor<256x4x2x8xf32>
    %124 = "stablehlo.reverse"(%123) {dimensions = array<i64: 2>} : (tensor<256x4x2x8xf32>) -> tensor<256x4x2x8xf32>
    %125 = stablehlo.broadcast_in_dim %arg21, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x4x2x8xf32>
    %126 = stablehlo.broadcast_in_dim %arg22, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x4x2x8xf32>
    %127 = stablehlo.iota dim = 2 : tensor<256x4x2x8xi32>
    %128 = stablehlo.convert %127 : (tensor<256x4x2x8xi32>) -> tensor<256x4x2x8xf32>
    %129 = stablehlo.constant dense<2.0e0> : tensor<256x4x2x8xf32>
    %130 = stablehlo.constant dense<1.0e0> : tensor<256x4x2x8xf32>
    %131 = stablehlo.multiply %128, %129 : tensor<256x4x2x8xf32>
    %132 = stablehlo.subtract %131, %130 : tensor<256x4x2x8xf32>
    %133 = stablehlo.multiply %126, %132 : tensor<256x4x2x8xf32>
    %134 = stablehlo.multiply %123, %125 : tensor<256x4x2x8xf32>
    %135 = stablehlo.multiply %124, %133 : tensor<256x4x2x8xf32>
    %136 = stablehlo.add %134, %135 : tensor<256x4x2x8xf32>
    %137 = stablehlo.reshape %136 : (tensor<256x4x2x8xf32>) -> tensor<256x4x16xf32>
    %138 = stablehlo.dot_general %120, %arg12, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %139 = stablehlo.reshape %138 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    %140 = stablehlo.reshape %139 : (tensor<256x2x16xf32>) -> tensor<256x2x2x8xf32>
    %141 = "stablehlo.reverse"(%140) {dimensions = array<i64: 2>} : (tensor<256x2x2x8xf32>) -> tensor<256x2x2x8xf32>
    %142 = stablehlo.broadcast_in_dim %arg21, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x2x2x8xf32>
    %143 = stablehlo.broadcast_in_dim %arg22, dims = [0, 3] : (tensor<256x8xf32>) -> tensor<256x2x2x8xf32>
    %144 = stablehlo.iota dim = 2 : tensor<256x2x2x8xi32>
    %145 = stablehlo.convert %144 : (tensor<256x2x2x8xi32>) -> tensor<256x2x2x8xf32>
    %146 = stablehlo.constant dense<2.0e0> : tensor<256x2x2x8xf32>
    %147 = stablehlo.constant dense<1.0e0> : tensor<256x2x2x8xf32>
    %148 = stablehlo.multiply %145, %146 : tensor<256x2x2x8xf32>
    %149 = stablehlo.subtract %148, %147 : tensor<256x2x2x8xf32>
    %150 = stablehlo.multiply %143, %149 : tensor<256x2x2x8xf32>
    %151 = stablehlo.multiply %140, %142 : tensor<256x2x2x8xf32>
    %152 = stablehlo.multiply %141, %150 : tensor<256x2x2x8xf32>
    %153 = stablehlo.add %151, %152 : tensor<256x2x2x8xf32>
    %154 = stablehlo.reshape %153 : (tensor<256x2x2x8xf32>) -> tensor<256x2x16xf32>
    %155 = stablehlo.dot_general %120, %arg13, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<32x64xf32>) -> tensor<256x32xf32>
    %156 = stablehlo.reshape %155 : (tensor<256x32xf32>) -> tensor<256x2x16xf32>
    // layer 1: write K/V of positions 0..t into the slot's cache
    %157 = stablehlo.transpose %154, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %158 = stablehlo.transpose %156, dims = [1, 0, 2] : (tensor<256x2x16xf32>) -> tensor<2x256x16xf32>
    %159 = stablehlo.constant dense<1> : tensor<i32>
    %160 = stablehlo.reshape %157 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %161 = stablehlo.dynamic_update_slice %65, %160, %159, %7, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    %162 = stablehlo.reshape %158 : (tensor<2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %163 = stablehlo.dynamic_update_slice %161, %162, %159, %8, %10, %7, %7 : (tensor<2x2x16x256x16xf32>, tensor<1x1x2x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    // layer 1: grouped-query attention over the prompt
    %164 = stablehlo.reshape %137 : (tensor<256x4x16xf32>) -> tensor<256x2x2x16xf32>
    %165 = stablehlo.transpose %164, dims = [1, 2, 0, 3] : (tensor<256x2x2x16xf32>) -> tensor<2x2x256x16xf32>
    %166 = stablehlo.reshape %165 : (tensor<2x2x256x16xf32>) -> tensor<2x512x16xf32>
    %167 = stablehlo.dot_general %166, %157, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x512x16xf32>, tensor<2x256x16xf32>) -> tensor<2x512x256xf32>
    %168 = stablehlo.reshape %167 : (tensor<2x512x256xf32>) -> tensor<2x2x256x256xf32>
    %169 = stablehlo.multiply %168, %6 : tensor<2x2x256x256xf32>
    %170 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256x256xf32>
    %171 = stablehlo.select %5, %169, %170 : tensor<2x2x256x256xi1>, tensor<2x2x256x256xf32>
    %172 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %173 = stablehlo.reduce(%171 init: %172) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %174 = stablehlo.broadcast_in_dim %173, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %175 = stablehlo.subtract %171, %174 : tensor<2x2x256x256xf32>
    %176 = stablehlo.exponential %175 : tensor<2x2x256x256xf32>
    %177 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %178 = stablehlo.reduce(%176 init: %177) applies stablehlo.add across dimensions = [3] : (tensor<2x2x256x256xf32>, tensor<f32>) -> tensor<2x2x256xf32>
    %179 = stablehlo.broadcast_in_dim %178, dims = [0, 1, 2] : (tensor<2x2x256xf32>) -> tensor<2x2x256x256xf32>
    %180 = stablehlo.divide %176, %179 : tensor<2x2x256x256xf32>
    %181 = stablehlo.reshape %180 : (tensor<2x2x256x256xf32>) -> tensor<2x512x256xf32>
    %182 = stablehlo.dot_general %181, %158, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x512x256xf32>, tensor<2x256x16xf32>) -> tensor<2x512x16xf32>
    %183 = stablehlo.reshape %182 : (tensor<2x512x16xf32>) -> tensor<2x2x256x16xf32>
    %184 = stablehlo.transpose %183, dims = [2, 0, 1, 3] : (tensor<2x2x256x16xf32>) -> tensor<256x2x2x16xf32>
    %185 = stablehlo.reshape %184 : (tensor<256x2x2x16xf32>) -> tensor<256x64xf32>
    %186 = stablehlo.dot_general %185, %arg14, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %187 = stablehlo.add %108, %186 : tensor<256x64xf32>
    // layer 1: MLP
    %188 = stablehlo.multiply %187, %187 : tensor<256x64xf32>
    %189 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %190 = stablehlo.reduce(%188 init: %189) applies stablehlo.add across dimensions = [1] : (tensor<256x64xf32>, tensor<f32>) -> tensor<256xf32>
    %191 = stablehlo.constant dense<6.4e1> : tensor<256xf32>
    %192 = stablehlo.divide %190, %191 : tensor<256xf32>
    %193 = stablehlo.constant dense<1.0e-5> : tensor<256xf32>
    %194 = stablehlo.add %192, %193 : tensor<256xf32>
    %195 = stablehlo.rsqrt %194 : tensor<256xf32>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0] : (tensor<256xf32>) -> tensor<256x64xf32>
    %197 = stablehlo.multiply %187, %196 : tensor<256x64xf32>
    %198 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<256x64xf32>
    %199 = stablehlo.multiply %197, %198 : tensor<256x64xf32>
    %200 = stablehlo.dot_general %199, %arg16, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %201 = stablehlo.dot_general %199, %arg17, contracting_dims = [1] x [1] : (tensor<256x64xf32>, tensor<128x64xf32>) -> tensor<256x128xf32>
    %202 = stablehlo.logistic %200 : tensor<256x128xf32>
    %203 = stablehlo.multiply %200, %202 : tensor<256x128xf32>
    %204 = stablehlo.multiply %203, %201 : tensor<256x128xf32>
    %205 = stablehlo.dot_general %204, %arg18, contracting_dims = [1] x [1] : (tensor<256x128xf32>, tensor<64x128xf32>) -> tensor<256x64xf32>
    %206 = stablehlo.add %187, %205 : tensor<256x64xf32>
    // the last real token: row len - 1
    %207 = stablehlo.subtract %arg25, %8 : tensor<i32>
    %208 = stablehlo.dynamic_slice %206, %207, %7, sizes = [1, 64] : (tensor<256x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %209 = stablehlo.multiply %208, %208 : tensor<1x64xf32>
    %210 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %211 = stablehlo.reduce(%209 init: %210) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %212 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %213 = stablehlo.divide %211, %212 : tensor<1xf32>
    %214 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %215 = stablehlo.add %213, %214 : tensor<1xf32>
    %216 = stablehlo.rsqrt %215 : tensor<1xf32>
    %217 = stablehlo.broadcast_in_dim %216, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %218 = stablehlo.multiply %208, %217 : tensor<1x64xf32>
    %219 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %220 = stablehlo.multiply %218, %219 : tensor<1x64xf32>
    %221 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %222 = stablehlo.concatenate %220, %221, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %223 = stablehlo.dot_general %222, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %224 = stablehlo.slice %223 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %225 = stablehlo.reshape %224 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %225, %163 : tensor<512xf32>, tensor<2x2x16x256x16xf32>
  }
}

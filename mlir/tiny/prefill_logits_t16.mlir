// prefill_logits_t16: emitted by iree-llm 0.1.0 (graph format 4).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @prefill_logits_t16 {
  func.func @prefill_logits_t16(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<256x64xf32>, %arg6: tensor<64x128xf32>, %arg7: tensor<64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<64xf32>, %arg14: tensor<512x64xf32>, %arg15: tensor<256x8xf32>, %arg16: tensor<256x8xf32>, %arg17: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg18: tensor<16xi32>, %arg19: tensor<i32>, %arg20: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x2x256x16xf32>) {
    // embeddings and the rotary angles of positions 0..t
    %0 = stablehlo.reshape %arg18 : (tensor<16xi32>) -> tensor<16x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<16x1xi32>) -> tensor<16x64xf32>
    %2 = stablehlo.slice %arg15 [0:16, 0:8] : (tensor<256x8xf32>) -> tensor<16x8xf32>
    %3 = stablehlo.slice %arg16 [0:16, 0:8] : (tensor<256x8xf32>) -> tensor<16x8xf32>
    // causal mask: query i sees keys j <= i
    %4 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %5 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %6 = stablehlo.compare GE, %4, %5 : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x2x16x16xi1>
    %8 = stablehlo.constant dense<2.5e-1> : tensor<2x2x16x16xf32>
    %9 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.constant dense<1> : tensor<i32>
    %11 = stablehlo.constant dense<2> : tensor<i32>
    %12 = stablehlo.multiply %arg20, %11 : tensor<i32>
    // the last real token: row len - 1
    %13 = stablehlo.subtract %arg19, %10 : tensor<i32>
    // layer 0: attention
    %14 = stablehlo.multiply %1, %1 : tensor<16x64xf32>
    %15 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %16 = stablehlo.reduce(%14 init: %15) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %17 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %18 = stablehlo.divide %16, %17 : tensor<16xf32>
    %19 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %20 = stablehlo.add %18, %19 : tensor<16xf32>
    %21 = stablehlo.rsqrt %20 : tensor<16xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %23 = stablehlo.multiply %1, %22 : tensor<16x64xf32>
    %24 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %25 = stablehlo.multiply %23, %24 : tensor<16x64xf32>
    %26 = stablehlo.dot_general %25, %arg2, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %27 = stablehlo.reshape %26 : (tensor<16x128xf32>) -> tensor<16x8x16xf32>
    %28 = stablehlo.slice %27 [0:16, 0:6, 0:16] : (tensor<16x8x16xf32>) -> tensor<16x6x16xf32>
    %29 = stablehlo.reshape %28 : (tensor<16x6x16xf32>) -> tensor<16x6x2x8xf32>
    %30 = "stablehlo.reverse"(%29) {dimensions = array<i64: 2>} : (tensor<16x6x2x8xf32>) -> tensor<16x6x2x8xf32>
    %31 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x6x2x8xf32>
    %32 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x6x2x8xf32>
    %33 = stablehlo.iota dim = 2 : tensor<16x6x2x8xi32>
    %34 = stablehlo.convert %33 : (tensor<16x6x2x8xi32>) -> tensor<16x6x2x8xf32>
    %35 = stablehlo.constant dense<2.0e0> : tensor<16x6x2x8xf32>
    %36 = stablehlo.constant dense<1.0e0> : tensor<16x6x2x8xf32>
    %37 = stablehlo.multiply %34, %35 : tensor<16x6x2x8xf32>
    %38 = stablehlo.subtract %37, %36 : tensor<16x6x2x8xf32>
    %39 = stablehlo.multiply %32, %38 : tensor<16x6x2x8xf32>
    %40 = stablehlo.multiply %29, %31 : tensor<16x6x2x8xf32>
    %41 = stablehlo.multiply %30, %39 : tensor<16x6x2x8xf32>
    %42 = stablehlo.add %40, %41 : tensor<16x6x2x8xf32>
    %43 = stablehlo.reshape %42 : (tensor<16x6x2x8xf32>) -> tensor<16x6x16xf32>
    %44 = stablehlo.slice %43 [0:16, 0:4, 0:16] : (tensor<16x6x16xf32>) -> tensor<16x4x16xf32>
    %45 = stablehlo.slice %43 [0:16, 4:6, 0:16] : (tensor<16x6x16xf32>) -> tensor<16x2x16xf32>
    %46 = stablehlo.slice %27 [0:16, 6:8, 0:16] : (tensor<16x8x16xf32>) -> tensor<16x2x16xf32>
    // layer 0: write K/V of positions 0..t into the slot's cache
    %47 = stablehlo.transpose %45, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %48 = stablehlo.transpose %46, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %49 = stablehlo.constant dense<0> : tensor<i32>
    %50 = stablehlo.reshape %47 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %51 = stablehlo.dynamic_update_slice %arg17, %50, %49, %9, %12, %9, %9 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %52 = stablehlo.reshape %48 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %53 = stablehlo.dynamic_update_slice %51, %52, %49, %10, %12, %9, %9 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    // layer 0: grouped-query attention over the prompt
    %54 = stablehlo.reshape %44 : (tensor<16x4x16xf32>) -> tensor<16x2x2x16xf32>
    %55 = stablehlo.transpose %54, dims = [1, 2, 0, 3] : (tensor<16x2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %56 = stablehlo.reshape %55 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %57 = stablehlo.dot_general %56, %47, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %58 = stablehlo.reshape %57 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %59 = stablehlo.multiply %58, %8 : tensor<2x2x16x16xf32>
    %60 = stablehlo.constant dense<0xFF800000> : tensor<2x2x16x16xf32>
    %61 = stablehlo.select %7, %59, %60 : tensor<2x2x16x16xi1>, tensor<2x2x16x16xf32>
    %62 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %63 = stablehlo.reduce(%61 init: %62) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %65 = stablehlo.subtract %61, %64 : tensor<2x2x16x16xf32>
    %66 = stablehlo.exponential %65 : tensor<2x2x16x16xf32>
    %67 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %68 = stablehlo.reduce(%66 init: %67) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %69 = stablehlo.broadcast_in_dim %68, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %70 = stablehlo.divide %66, %69 : tensor<2x2x16x16xf32>
    %71 = stablehlo.reshape %70 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %72 = stablehlo.dot_general %71, %48, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %73 = stablehlo.reshape %72 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %74 = stablehlo.transpose %73, dims = [2, 0, 1, 3] : (tensor<2x2x16x16xf32>) -> tensor<16x2x2x16xf32>
    %75 = stablehlo.reshape %74 : (tensor<16x2x2x16xf32>) -> tensor<16x64xf32>
    %76 = stablehlo.dot_general %75, %arg3, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %77 = stablehlo.add %1, %76 : tensor<16x64xf32>
    // layer 0: MLP
    %78 = stablehlo.multiply %77, %77 : tensor<16x64xf32>
    %79 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %80 = stablehlo.reduce(%78 init: %79) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %81 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %82 = stablehlo.divide %80, %81 : tensor<16xf32>
    %83 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %84 = stablehlo.add %82, %83 : tensor<16xf32>
    %85 = stablehlo.rsqrt %84 : tensor<16xf32>
    %86 = stablehlo.broadcast_in_dim %85, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %87 = stablehlo.multiply %77, %86 : tensor<16x64xf32>
    %88 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %89 = stablehlo.multiply %87, %88 : tensor<16x64xf32>
    %90 = stablehlo.dot_general %89, %arg5, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<256x64xf32>) -> tensor<16x256xf32>
    %91 = stablehlo.slice %90 [0:16, 0:128] : (tensor<16x256xf32>) -> tensor<16x128xf32>
    %92 = stablehlo.slice %90 [0:16, 128:256] : (tensor<16x256xf32>) -> tensor<16x128xf32>
    %93 = stablehlo.logistic %91 : tensor<16x128xf32>
    %94 = stablehlo.multiply %91, %93 : tensor<16x128xf32>
    %95 = stablehlo.multiply %94, %92 : tensor<16x128xf32>
    %96 = stablehlo.dot_general %95, %arg6, contracting_dims = [1] x [1] : (tensor<16x128xf32>, tensor<64x128xf32>) -> tensor<16x64xf32>
    %97 = stablehlo.add %77, %96 : tensor<16x64xf32>
    // layer 1: attention
    %98 = stablehlo.multiply %97, %97 : tensor<16x64xf32>
    %99 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %100 = stablehlo.reduce(%98 init: %99) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %101 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %102 = stablehlo.divide %100, %101 : tensor<16xf32>
    %103 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %104 = stablehlo.add %102, %103 : tensor<16xf32>
    %105 = stablehlo.rsqrt %104 : tensor<16xf32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %107 = stablehlo.multiply %97, %106 : tensor<16x64xf32>
    %108 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %109 = stablehlo.multiply %107, %108 : tensor<16x64xf32>
    %110 = stablehlo.dot_general %109, %arg8, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %111 = stablehlo.reshape %110 : (tensor<16x128xf32>) -> tensor<16x8x16xf32>
    %112 = stablehlo.slice %111 [0:16, 0:6, 0:16] : (tensor<16x8x16xf32>) -> tensor<16x6x16xf32>
    %113 = stablehlo.reshape %112 : (tensor<16x6x16xf32>) -> tensor<16x6x2x8xf32>
    %114 = "stablehlo.reverse"(%113) {dimensions = array<i64: 2>} : (tensor<16x6x2x8xf32>) -> tensor<16x6x2x8xf32>
    %115 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x6x2x8xf32>
    %116 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x6x2x8xf32>
    %117 = stablehlo.iota dim = 2 : tensor<16x6x2x8xi32>
    %118 = stablehlo.convert %117 : (tensor<16x6x2x8xi32>) -> tensor<16x6x2x8xf32>
    %119 = stablehlo.constant dense<2.0e0> : tensor<16x6x2x8xf32>
    %120 = stablehlo.constant dense<1.0e0> : tensor<16x6x2x8xf32>
    %121 = stablehlo.multiply %118, %119 : tensor<16x6x2x8xf32>
    %122 = stablehlo.subtract %121, %120 : tensor<16x6x2x8xf32>
    %123 = stablehlo.multiply %116, %122 : tensor<16x6x2x8xf32>
    %124 = stablehlo.multiply %113, %115 : tensor<16x6x2x8xf32>
    %125 = stablehlo.multiply %114, %123 : tensor<16x6x2x8xf32>
    %126 = stablehlo.add %124, %125 : tensor<16x6x2x8xf32>
    %127 = stablehlo.reshape %126 : (tensor<16x6x2x8xf32>) -> tensor<16x6x16xf32>
    %128 = stablehlo.slice %127 [0:16, 0:4, 0:16] : (tensor<16x6x16xf32>) -> tensor<16x4x16xf32>
    %129 = stablehlo.slice %127 [0:16, 4:6, 0:16] : (tensor<16x6x16xf32>) -> tensor<16x2x16xf32>
    %130 = stablehlo.slice %111 [0:16, 6:8, 0:16] : (tensor<16x8x16xf32>) -> tensor<16x2x16xf32>
    // layer 1: write K/V of positions 0..t into the slot's cache
    %131 = stablehlo.transpose %129, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %132 = stablehlo.transpose %130, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %133 = stablehlo.constant dense<1> : tensor<i32>
    %134 = stablehlo.reshape %131 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %135 = stablehlo.dynamic_update_slice %53, %134, %133, %9, %12, %9, %9 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %136 = stablehlo.reshape %132 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %137 = stablehlo.dynamic_update_slice %135, %136, %133, %10, %12, %9, %9 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    // layer 1: grouped-query attention over the prompt
    %138 = stablehlo.reshape %128 : (tensor<16x4x16xf32>) -> tensor<16x2x2x16xf32>
    %139 = stablehlo.transpose %138, dims = [1, 2, 0, 3] : (tensor<16x2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %140 = stablehlo.reshape %139 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %141 = stablehlo.dot_general %140, %131, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %142 = stablehlo.reshape %141 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %143 = stablehlo.multiply %142, %8 : tensor<2x2x16x16xf32>
    %144 = stablehlo.constant dense<0xFF800000> : tensor<2x2x16x16xf32>
    %145 = stablehlo.select %7, %143, %144 : tensor<2x2x16x16xi1>, tensor<2x2x16x16xf32>
    %146 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %147 = stablehlo.reduce(%145 init: %146) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %148 = stablehlo.broadcast_in_dim %147, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %149 = stablehlo.subtract %145, %148 : tensor<2x2x16x16xf32>
    %150 = stablehlo.exponential %149 : tensor<2x2x16x16xf32>
    %151 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %152 = stablehlo.reduce(%150 init: %151) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %153 = stablehlo.broadcast_in_dim %152, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %154 = stablehlo.divide %150, %153 : tensor<2x2x16x16xf32>
    %155 = stablehlo.reshape %154 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %156 = stablehlo.dot_general %155, %132, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %157 = stablehlo.reshape %156 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %158 = stablehlo.transpose %157, dims = [2, 0, 1, 3] : (tensor<2x2x16x16xf32>) -> tensor<16x2x2x16xf32>
    %159 = stablehlo.reshape %158 : (tensor<16x2x2x16xf32>) -> tensor<16x64xf32>
    // layer 1: one row goes on to o and the MLP
    %160 = stablehlo.constant dense<0> : tensor<i32>
    %161 = stablehlo.dynamic_slice %159, %13, %160, sizes = [1, 64] : (tensor<16x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %162 = stablehlo.dynamic_slice %97, %13, %160, sizes = [1, 64] : (tensor<16x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %163 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %164 = stablehlo.concatenate %161, %163, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %165 = stablehlo.dot_general %164, %arg9, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %166 = stablehlo.slice %165 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %167 = stablehlo.add %162, %166 : tensor<1x64xf32>
    // layer 1: MLP
    %168 = stablehlo.multiply %167, %167 : tensor<1x64xf32>
    %169 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %170 = stablehlo.reduce(%168 init: %169) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %171 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %172 = stablehlo.divide %170, %171 : tensor<1xf32>
    %173 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %174 = stablehlo.add %172, %173 : tensor<1xf32>
    %175 = stablehlo.rsqrt %174 : tensor<1xf32>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %177 = stablehlo.multiply %167, %176 : tensor<1x64xf32>
    %178 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %179 = stablehlo.multiply %177, %178 : tensor<1x64xf32>
    %180 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %181 = stablehlo.concatenate %179, %180, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %182 = stablehlo.dot_general %181, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<256x64xf32>) -> tensor<8x256xf32>
    %183 = stablehlo.slice %182 [0:1, 0:256] : (tensor<8x256xf32>) -> tensor<1x256xf32>
    %184 = stablehlo.slice %183 [0:1, 0:128] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %185 = stablehlo.slice %183 [0:1, 128:256] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %186 = stablehlo.logistic %184 : tensor<1x128xf32>
    %187 = stablehlo.multiply %184, %186 : tensor<1x128xf32>
    %188 = stablehlo.multiply %187, %185 : tensor<1x128xf32>
    %189 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %190 = stablehlo.concatenate %188, %189, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %191 = stablehlo.dot_general %190, %arg12, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %192 = stablehlo.slice %191 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %193 = stablehlo.add %167, %192 : tensor<1x64xf32>
    %194 = stablehlo.multiply %193, %193 : tensor<1x64xf32>
    %195 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %196 = stablehlo.reduce(%194 init: %195) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %197 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %198 = stablehlo.divide %196, %197 : tensor<1xf32>
    %199 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %200 = stablehlo.add %198, %199 : tensor<1xf32>
    %201 = stablehlo.rsqrt %200 : tensor<1xf32>
    %202 = stablehlo.broadcast_in_dim %201, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %203 = stablehlo.multiply %193, %202 : tensor<1x64xf32>
    %204 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %205 = stablehlo.multiply %203, %204 : tensor<1x64xf32>
    %206 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %207 = stablehlo.concatenate %205, %206, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %208 = stablehlo.dot_general %207, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %209 = stablehlo.slice %208 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %210 = stablehlo.reshape %209 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %210, %137 : tensor<512xf32>, tensor<2x2x2x256x16xf32>
  }
}

// prefill_logits_t128_s4: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @prefill_logits_t128_s4 {
  func.func @prefill_logits_t128_s4(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x8x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<128xi32>, %arg25: tensor<i32>, %arg26: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x8x256x16xf32>) {
    // embeddings and the rotary angles of positions 0..t
    %0 = stablehlo.reshape %arg24 : (tensor<128xi32>) -> tensor<128x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<128x1xi32>) -> tensor<128x64xf32>
    %2 = stablehlo.slice %arg21 [0:128, 0:8] : (tensor<256x8xf32>) -> tensor<128x8xf32>
    %3 = stablehlo.slice %arg22 [0:128, 0:8] : (tensor<256x8xf32>) -> tensor<128x8xf32>
    // causal mask: query i sees keys j <= i
    %4 = stablehlo.iota dim = 0 : tensor<128x128xi32>
    %5 = stablehlo.iota dim = 1 : tensor<128x128xi32>
    %6 = stablehlo.compare GE, %4, %5 : (tensor<128x128xi32>, tensor<128x128xi32>) -> tensor<128x128xi1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [2, 3] : (tensor<128x128xi1>) -> tensor<2x2x128x128xi1>
    %8 = stablehlo.constant dense<2.5e-1> : tensor<2x2x128x128xf32>
    %9 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.constant dense<1> : tensor<i32>
    %11 = stablehlo.constant dense<2> : tensor<i32>
    %12 = stablehlo.multiply %arg26, %11 : tensor<i32>
    // layer 0: attention
    %13 = stablehlo.multiply %1, %1 : tensor<128x64xf32>
    %14 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %15 = stablehlo.reduce(%13 init: %14) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %16 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %17 = stablehlo.divide %15, %16 : tensor<128xf32>
    %18 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %19 = stablehlo.add %17, %18 : tensor<128xf32>
    %20 = stablehlo.rsqrt %19 : tensor<128xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %22 = stablehlo.multiply %1, %21 : tensor<128x64xf32>
    %23 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %24 = stablehlo.multiply %22, %23 : tensor<128x64xf32>
    %25 = stablehlo.dot_general %24, %arg2, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %26 = stablehlo.reshape %25 : (tensor<128x64xf32>) -> tensor<128x4x16xf32>
    %27 = stablehlo.reshape %26 : (tensor<128x4x16xf32>) -> tensor<128x4x2x8xf32>
    %28 = "stablehlo.reverse"(%27) {dimensions = array<i64: 2>} : (tensor<128x4x2x8xf32>) -> tensor<128x4x2x8xf32>
    %29 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x4x2x8xf32>
    %30 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x4x2x8xf32>
    %31 = stablehlo.iota dim = 2 : tensor<128x4x2x8xi32>
    %32 = stablehlo.convert %31 : (tensor<128x4x2x8xi32>) -> tensor<128x4x2x8xf32>
    %33 = stablehlo.constant dense<2.0e0> : tensor<128x4x2x8xf32>
    %34 = stablehlo.constant dense<1.0e0> : tensor<128x4x2x8xf32>
    %35 = stablehlo.multiply %32, %33 : tensor<128x4x2x8xf32>
    %36 = stablehlo.subtract %35, %34 : tensor<128x4x2x8xf32>
    %37 = stablehlo.multiply %30, %36 : tensor<128x4x2x8xf32>
    %38 = stablehlo.multiply %27, %29 : tensor<128x4x2x8xf32>
    %39 = stablehlo.multiply %28, %37 : tensor<128x4x2x8xf32>
    %40 = stablehlo.add %38, %39 : tensor<128x4x2x8xf32>
    %41 = stablehlo.reshape %40 : (tensor<128x4x2x8xf32>) -> tensor<128x4x16xf32>
    %42 = stablehlo.dot_general %24, %arg3, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %43 = stablehlo.reshape %42 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %44 = stablehlo.reshape %43 : (tensor<128x2x16xf32>) -> tensor<128x2x2x8xf32>
    %45 = "stablehlo.reverse"(%44) {dimensions = array<i64: 2>} : (tensor<128x2x2x8xf32>) -> tensor<128x2x2x8xf32>
    %46 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x2x2x8xf32>
    %47 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x2x2x8xf32>
    %48 = stablehlo.iota dim = 2 : tensor<128x2x2x8xi32>
    %49 = stablehlo.convert %48 : (tensor<128x2x2x8xi32>) -> tensor<128x2x2x8xf32>
    %50 = stablehlo.constant dense<2.0e0> : tensor<128x2x2x8xf32>
    %51 = stablehlo.constant dense<1.0e0> : tensor<128x2x2x8xf32>
    %52 = stablehlo.multiply %49, %50 : tensor<128x2x2x8xf32>
    %53 = stablehlo.subtract %52, %51 : tensor<128x2x2x8xf32>
    %54 = stablehlo.multiply %47, %53 : tensor<128x2x2x8xf32>
    %55 = stablehlo.multiply %44, %46 : tensor<128x2x2x8xf32>
    %56 = stablehlo.multiply %45, %54 : tensor<128x2x2x8xf32>
    %57 = stablehlo.add %55, %56 : tensor<128x2x2x8xf32>
    %58 = stablehlo.reshape %57 : (tensor<128x2x2x8xf32>) -> tensor<128x2x16xf32>
    %59 = stablehlo.dot_general %24, %arg4, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %60 = stablehlo.reshape %59 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    // layer 0: write K/V of positions 0..t into the slot's cache
    %61 = stablehlo.transpose %58, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    %62 = stablehlo.transpose %60, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    %63 = stablehlo.constant dense<0> : tensor<i32>
    %64 = stablehlo.reshape %61 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %65 = stablehlo.dynamic_update_slice %arg23, %64, %63, %9, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x128x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %66 = stablehlo.reshape %62 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %67 = stablehlo.dynamic_update_slice %65, %66, %63, %10, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x128x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    // layer 0: grouped-query attention over the prompt
    %68 = stablehlo.reshape %41 : (tensor<128x4x16xf32>) -> tensor<128x2x2x16xf32>
    %69 = stablehlo.transpose %68, dims = [1, 2, 0, 3] : (tensor<128x2x2x16xf32>) -> tensor<2x2x128x16xf32>
    %70 = stablehlo.reshape %69 : (tensor<2x2x128x16xf32>) -> tensor<2x256x16xf32>
    %71 = stablehlo.dot_general %70, %61, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x256x128xf32>
    %72 = stablehlo.reshape %71 : (tensor<2x256x128xf32>) -> tensor<2x2x128x128xf32>
    %73 = stablehlo.multiply %72, %8 : tensor<2x2x128x128xf32>
    %74 = stablehlo.constant dense<0xFF800000> : tensor<2x2x128x128xf32>
    %75 = stablehlo.select %7, %73, %74 : tensor<2x2x128x128xi1>, tensor<2x2x128x128xf32>
    %76 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %77 = stablehlo.reduce(%75 init: %76) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x128x128xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x128xf32>
    %79 = stablehlo.subtract %75, %78 : tensor<2x2x128x128xf32>
    %80 = stablehlo.exponential %79 : tensor<2x2x128x128xf32>
    %81 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %82 = stablehlo.reduce(%80 init: %81) applies stablehlo.add across dimensions = [3] : (tensor<2x2x128x128xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x128xf32>
    %84 = stablehlo.divide %80, %83 : tensor<2x2x128x128xf32>
    %85 = stablehlo.reshape %84 : (tensor<2x2x128x128xf32>) -> tensor<2x256x128xf32>
    %86 = stablehlo.dot_general %85, %62, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x256x128xf32>, tensor<2x128x16xf32>) -> tensor<2x256x16xf32>
    %87 = stablehlo.reshape %86 : (tensor<2x256x16xf32>) -> tensor<2x2x128x16xf32>
    %88 = stablehlo.transpose %87, dims = [2, 0, 1, 3] : (tensor<2x2x128x16xf32>) -> tensor<128x2x2x16xf32>
    %89 = stablehlo.reshape %88 : (tensor<128x2x2x16xf32>) -> tensor<128x64xf32>
    %90 = stablehlo.dot_general %89, %arg5, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %91 = stablehlo.add %1, %90 : tensor<128x64xf32>
    // layer 0: MLP
    %92 = stablehlo.multiply %91, %91 : tensor<128x64xf32>
    %93 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %94 = stablehlo.reduce(%92 init: %93) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %95 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %96 = stablehlo.divide %94, %95 : tensor<128xf32>
    %97 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %98 = stablehlo.add %96, %97 : tensor<128xf32>
    %99 = stablehlo.rsqrt %98 : tensor<128xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %101 = stablehlo.multiply %91, %100 : tensor<128x64xf32>
    %102 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %103 = stablehlo.multiply %101, %102 : tensor<128x64xf32>
    %104 = stablehlo.dot_general %103, %arg7, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %105 = stablehlo.dot_general %103, %arg8, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %106 = stablehlo.logistic %104 : tensor<128x128xf32>
    %107 = stablehlo.multiply %104, %106 : tensor<128x128xf32>
    %108 = stablehlo.multiply %107, %105 : tensor<128x128xf32>
    %109 = stablehlo.dot_general %108, %arg9, contracting_dims = [1] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
    %110 = stablehlo.add %91, %109 : tensor<128x64xf32>
    // layer 1: attention
    %111 = stablehlo.multiply %110, %110 : tensor<128x64xf32>
    %112 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %113 = stablehlo.reduce(%111 init: %112) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %114 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %115 = stablehlo.divide %113, %114 : tensor<128xf32>
    %116 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %117 = stablehlo.add %115, %116 : tensor<128xf32>
    %118 = stablehlo.rsqrt %117 : tensor<128xf32>
    %119 = stablehlo.broadcast_in_dim %118, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %120 = stablehlo.multiply %110, %119 : tensor<128x64xf32>
    %121 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %122 = stablehlo.multiply %120, %121 : tensor<128x64xf32>
    %123 = stablehlo.dot_general %122, %arg11, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %124 = stablehlo.reshape %123 : (tensor<128x64xf32>) -> tensor<128x4x16xf32>
    %125 = stablehlo.reshape %124 : (tensor<128x4x16xf32>) -> tensor<128x4x2x8xf32>
    %126 = "stablehlo.reverse"(%125) {dimensions = array<i64: 2>} : (tensor<128x4x2x8xf32>) -> tensor<128x4x2x8xf32>
    %127 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x4x2x8xf32>
    %128 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x4x2x8xf32>
    %129 = stablehlo.iota dim = 2 : tensor<128x4x2x8xi32>
    %130 = stablehlo.convert %129 : (tensor<128x4x2x8xi32>) -> tensor<128x4x2x8xf32>
    %131 = stablehlo.constant dense<2.0e0> : tensor<128x4x2x8xf32>
    %132 = stablehlo.constant dense<1.0e0> : tensor<128x4x2x8xf32>
    %133 = stablehlo.multiply %130, %131 : tensor<128x4x2x8xf32>
    %134 = stablehlo.subtract %133, %132 : tensor<128x4x2x8xf32>
    %135 = stablehlo.multiply %128, %134 : tensor<128x4x2x8xf32>
    %136 = stablehlo.multiply %125, %127 : tensor<128x4x2x8xf32>
    %137 = stablehlo.multiply %126, %135 : tensor<128x4x2x8xf32>
    %138 = stablehlo.add %136, %137 : tensor<128x4x2x8xf32>
    %139 = stablehlo.reshape %138 : (tensor<128x4x2x8xf32>) -> tensor<128x4x16xf32>
    %140 = stablehlo.dot_general %122, %arg12, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %141 = stablehlo.reshape %140 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %142 = stablehlo.reshape %141 : (tensor<128x2x16xf32>) -> tensor<128x2x2x8xf32>
    %143 = "stablehlo.reverse"(%142) {dimensions = array<i64: 2>} : (tensor<128x2x2x8xf32>) -> tensor<128x2x2x8xf32>
    %144 = stablehlo.broadcast_in_dim %2, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x2x2x8xf32>
    %145 = stablehlo.broadcast_in_dim %3, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x2x2x8xf32>
    %146 = stablehlo.iota dim = 2 : tensor<128x2x2x8xi32>
    %147 = stablehlo.convert %146 : (tensor<128x2x2x8xi32>) -> tensor<128x2x2x8xf32>
    %148 = stablehlo.constant dense<2.0e0> : tensor<128x2x2x8xf32>
    %149 = stablehlo.constant dense<1.0e0> : tensor<128x2x2x8xf32>
    %150 = stablehlo.multiply %147, %148 : tensor<128x2x2x8xf32>
    %151 = stablehlo.subtract %150, %149 : tensor<128x2x2x8xf32>
    %152 = stablehlo.multiply %145, %151 : tensor<128x2x2x8xf32>
    %153 = stablehlo.multiply %142, %144 : tensor<128x2x2x8xf32>
    %154 = stablehlo.multiply %143, %152 : tensor<128x2x2x8xf32>
    %155 = stablehlo.add %153, %154 : tensor<128x2x2x8xf32>
    %156 = stablehlo.reshape %155 : (tensor<128x2x2x8xf32>) -> tensor<128x2x16xf32>
    %157 = stablehlo.dot_general %122, %arg13, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %158 = stablehlo.reshape %157 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    // layer 1: write K/V of positions 0..t into the slot's cache
    %159 = stablehlo.transpose %156, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    %160 = stablehlo.transpose %158, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    %161 = stablehlo.constant dense<1> : tensor<i32>
    %162 = stablehlo.reshape %159 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %163 = stablehlo.dynamic_update_slice %67, %162, %161, %9, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x128x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %164 = stablehlo.reshape %160 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %165 = stablehlo.dynamic_update_slice %163, %164, %161, %10, %12, %9, %9 : (tensor<2x2x8x256x16xf32>, tensor<1x1x2x128x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    // layer 1: grouped-query attention over the prompt
    %166 = stablehlo.reshape %139 : (tensor<128x4x16xf32>) -> tensor<128x2x2x16xf32>
    %167 = stablehlo.transpose %166, dims = [1, 2, 0, 3] : (tensor<128x2x2x16xf32>) -> tensor<2x2x128x16xf32>
    %168 = stablehlo.reshape %167 : (tensor<2x2x128x16xf32>) -> tensor<2x256x16xf32>
    %169 = stablehlo.dot_general %168, %159, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x256x128xf32>
    %170 = stablehlo.reshape %169 : (tensor<2x256x128xf32>) -> tensor<2x2x128x128xf32>
    %171 = stablehlo.multiply %170, %8 : tensor<2x2x128x128xf32>
    %172 = stablehlo.constant dense<0xFF800000> : tensor<2x2x128x128xf32>
    %173 = stablehlo.select %7, %171, %172 : tensor<2x2x128x128xi1>, tensor<2x2x128x128xf32>
    %174 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %175 = stablehlo.reduce(%173 init: %174) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x128x128xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x128xf32>
    %177 = stablehlo.subtract %173, %176 : tensor<2x2x128x128xf32>
    %178 = stablehlo.exponential %177 : tensor<2x2x128x128xf32>
    %179 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %180 = stablehlo.reduce(%178 init: %179) applies stablehlo.add across dimensions = [3] : (tensor<2x2x128x128xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %181 = stablehlo.broadcast_in_dim %180, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x128xf32>
    %182 = stablehlo.divide %178, %181 : tensor<2x2x128x128xf32>
    %183 = stablehlo.reshape %182 : (tensor<2x2x128x128xf32>) -> tensor<2x256x128xf32>
    %184 = stablehlo.dot_general %183, %160, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x256x128xf32>, tensor<2x128x16xf32>) -> tensor<2x256x16xf32>
    %185 = stablehlo.reshape %184 : (tensor<2x256x16xf32>) -> tensor<2x2x128x16xf32>
    %186 = stablehlo.transpose %185, dims = [2, 0, 1, 3] : (tensor<2x2x128x16xf32>) -> tensor<128x2x2x16xf32>
    %187 = stablehlo.reshape %186 : (tensor<128x2x2x16xf32>) -> tensor<128x64xf32>
    %188 = stablehlo.dot_general %187, %arg14, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %189 = stablehlo.add %110, %188 : tensor<128x64xf32>
    // layer 1: MLP
    %190 = stablehlo.multiply %189, %189 : tensor<128x64xf32>
    %191 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %192 = stablehlo.reduce(%190 init: %191) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %193 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %194 = stablehlo.divide %192, %193 : tensor<128xf32>
    %195 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %196 = stablehlo.add %194, %195 : tensor<128xf32>
    %197 = stablehlo.rsqrt %196 : tensor<128xf32>
    %198 = stablehlo.broadcast_in_dim %197, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %199 = stablehlo.multiply %189, %198 : tensor<128x64xf32>
    %200 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %201 = stablehlo.multiply %199, %200 : tensor<128x64xf32>
    %202 = stablehlo.dot_general %201, %arg16, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %203 = stablehlo.dot_general %201, %arg17, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %204 = stablehlo.logistic %202 : tensor<128x128xf32>
    %205 = stablehlo.multiply %202, %204 : tensor<128x128xf32>
    %206 = stablehlo.multiply %205, %203 : tensor<128x128xf32>
    %207 = stablehlo.dot_general %206, %arg18, contracting_dims = [1] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
    %208 = stablehlo.add %189, %207 : tensor<128x64xf32>
    // the last real token: row len - 1
    %209 = stablehlo.subtract %arg25, %10 : tensor<i32>
    %210 = stablehlo.dynamic_slice %208, %209, %9, sizes = [1, 64] : (tensor<128x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %211 = stablehlo.multiply %210, %210 : tensor<1x64xf32>
    %212 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %213 = stablehlo.reduce(%211 init: %212) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %214 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %215 = stablehlo.divide %213, %214 : tensor<1xf32>
    %216 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %217 = stablehlo.add %215, %216 : tensor<1xf32>
    %218 = stablehlo.rsqrt %217 : tensor<1xf32>
    %219 = stablehlo.broadcast_in_dim %218, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %220 = stablehlo.multiply %210, %219 : tensor<1x64xf32>
    %221 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %222 = stablehlo.multiply %220, %221 : tensor<1x64xf32>
    %223 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %224 = stablehlo.concatenate %222, %223, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %225 = stablehlo.dot_general %224, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %226 = stablehlo.slice %225 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %227 = stablehlo.reshape %226 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %227, %165 : tensor<512xf32>, tensor<2x2x8x256x16xf32>
  }
}

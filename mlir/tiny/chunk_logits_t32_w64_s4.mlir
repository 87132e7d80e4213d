// chunk_logits_t32_w64_s4: emitted by iree-llm 0.1.0 (graph format 4).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @chunk_logits_t32_w64_s4 {
  func.func @chunk_logits_t32_w64_s4(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<256x64xf32>, %arg6: tensor<64x128xf32>, %arg7: tensor<64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<64xf32>, %arg14: tensor<512x64xf32>, %arg15: tensor<256x8xf32>, %arg16: tensor<256x8xf32>, %arg17: tensor<2x2x8x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg18: tensor<32xi32>, %arg19: tensor<i32>, %arg20: tensor<i32>, %arg21: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x8x256x16xf32>) {
    // embeddings and the rotary angles of positions start..start + t
    %0 = stablehlo.reshape %arg18 : (tensor<32xi32>) -> tensor<32x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<32x1xi32>) -> tensor<32x64xf32>
    %2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.dynamic_slice %arg15, %arg21, %2, sizes = [32, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
    %5 = stablehlo.dynamic_slice %arg16, %arg21, %2, sizes = [32, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
    // query i sees cached keys j < start and chunk keys window + k, k <= i
    %6 = stablehlo.iota dim = 0 : tensor<32x96xi32>
    %7 = stablehlo.iota dim = 1 : tensor<32x96xi32>
    %8 = stablehlo.broadcast_in_dim %arg21, dims = [] : (tensor<i32>) -> tensor<32x96xi32>
    %9 = stablehlo.compare LT, %7, %8 : (tensor<32x96xi32>, tensor<32x96xi32>) -> tensor<32x96xi1>
    %10 = stablehlo.constant dense<64> : tensor<32x96xi32>
    %11 = stablehlo.compare GE, %7, %10 : (tensor<32x96xi32>, tensor<32x96xi32>) -> tensor<32x96xi1>
    %12 = stablehlo.subtract %7, %10 : tensor<32x96xi32>
    %13 = stablehlo.compare LE, %12, %6 : (tensor<32x96xi32>, tensor<32x96xi32>) -> tensor<32x96xi1>
    %14 = stablehlo.and %11, %13 : tensor<32x96xi1>
    %15 = stablehlo.or %9, %14 : tensor<32x96xi1>
    %16 = stablehlo.broadcast_in_dim %15, dims = [2, 3] : (tensor<32x96xi1>) -> tensor<2x2x32x96xi1>
    %17 = stablehlo.constant dense<2.5e-1> : tensor<2x2x32x96xf32>
    %18 = stablehlo.constant dense<2> : tensor<i32>
    %19 = stablehlo.multiply %arg20, %18 : tensor<i32>
    // the last real token: row len - 1
    %20 = stablehlo.subtract %arg19, %3 : tensor<i32>
    // layer 0: attention of the chunk
    %21 = stablehlo.multiply %1, %1 : tensor<32x64xf32>
    %22 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %23 = stablehlo.reduce(%21 init: %22) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %24 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %25 = stablehlo.divide %23, %24 : tensor<32xf32>
    %26 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %27 = stablehlo.add %25, %26 : tensor<32xf32>
    %28 = stablehlo.rsqrt %27 : tensor<32xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %30 = stablehlo.multiply %1, %29 : tensor<32x64xf32>
    %31 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %32 = stablehlo.multiply %30, %31 : tensor<32x64xf32>
    %33 = stablehlo.dot_general %32, %arg2, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %34 = stablehlo.reshape %33 : (tensor<32x128xf32>) -> tensor<32x8x16xf32>
    %35 = stablehlo.slice %34 [0:32, 0:6, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x6x16xf32>
    %36 = stablehlo.reshape %35 : (tensor<32x6x16xf32>) -> tensor<32x6x2x8xf32>
    %37 = "stablehlo.reverse"(%36) {dimensions = array<i64: 2>} : (tensor<32x6x2x8xf32>) -> tensor<32x6x2x8xf32>
    %38 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %39 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %40 = stablehlo.iota dim = 2 : tensor<32x6x2x8xi32>
    %41 = stablehlo.convert %40 : (tensor<32x6x2x8xi32>) -> tensor<32x6x2x8xf32>
    %42 = stablehlo.constant dense<2.0e0> : tensor<32x6x2x8xf32>
    %43 = stablehlo.constant dense<1.0e0> : tensor<32x6x2x8xf32>
    %44 = stablehlo.multiply %41, %42 : tensor<32x6x2x8xf32>
    %45 = stablehlo.subtract %44, %43 : tensor<32x6x2x8xf32>
    %46 = stablehlo.multiply %39, %45 : tensor<32x6x2x8xf32>
    %47 = stablehlo.multiply %36, %38 : tensor<32x6x2x8xf32>
    %48 = stablehlo.multiply %37, %46 : tensor<32x6x2x8xf32>
    %49 = stablehlo.add %47, %48 : tensor<32x6x2x8xf32>
    %50 = stablehlo.reshape %49 : (tensor<32x6x2x8xf32>) -> tensor<32x6x16xf32>
    %51 = stablehlo.slice %50 [0:32, 0:4, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x4x16xf32>
    %52 = stablehlo.slice %50 [0:32, 4:6, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x2x16xf32>
    %53 = stablehlo.slice %34 [0:32, 6:8, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x2x16xf32>
    %54 = stablehlo.transpose %52, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %55 = stablehlo.transpose %53, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    // layer 0: the slot's cached keys and values, then the chunk's
    %56 = stablehlo.constant dense<0> : tensor<i32>
    %57 = stablehlo.dynamic_slice %arg17, %56, %2, %19, %2, %2, sizes = [1, 1, 2, 64, 16] : (tensor<2x2x8x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x64x16xf32>
    %58 = stablehlo.reshape %57 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %59 = stablehlo.dynamic_slice %arg17, %56, %3, %19, %2, %2, sizes = [1, 1, 2, 64, 16] : (tensor<2x2x8x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x64x16xf32>
    %60 = stablehlo.reshape %59 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %61 = stablehlo.concatenate %58, %54, dim = 1 : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x96x16xf32>
    %62 = stablehlo.concatenate %60, %55, dim = 1 : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x96x16xf32>
    %63 = stablehlo.reshape %51 : (tensor<32x4x16xf32>) -> tensor<32x2x2x16xf32>
    %64 = stablehlo.transpose %63, dims = [1, 2, 0, 3] : (tensor<32x2x2x16xf32>) -> tensor<2x2x32x16xf32>
    %65 = stablehlo.reshape %64 : (tensor<2x2x32x16xf32>) -> tensor<2x64x16xf32>
    %66 = stablehlo.dot_general %65, %61, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x64x16xf32>, tensor<2x96x16xf32>) -> tensor<2x64x96xf32>
    %67 = stablehlo.reshape %66 : (tensor<2x64x96xf32>) -> tensor<2x2x32x96xf32>
    %68 = stablehlo.multiply %67, %17 : tensor<2x2x32x96xf32>
    %69 = stablehlo.constant dense<0xFF800000> : tensor<2x2x32x96xf32>
    %70 = stablehlo.select %16, %68, %69 : tensor<2x2x32x96xi1>, tensor<2x2x32x96xf32>
    %71 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %72 = stablehlo.reduce(%70 init: %71) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x96xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x96xf32>
    %74 = stablehlo.subtract %70, %73 : tensor<2x2x32x96xf32>
    %75 = stablehlo.exponential %74 : tensor<2x2x32x96xf32>
    %76 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %77 = stablehlo.reduce(%75 init: %76) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x96xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x96xf32>
    %79 = stablehlo.divide %75, %78 : tensor<2x2x32x96xf32>
    %80 = stablehlo.reshape %79 : (tensor<2x2x32x96xf32>) -> tensor<2x64x96xf32>
    %81 = stablehlo.dot_general %80, %62, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x64x96xf32>, tensor<2x96x16xf32>) -> tensor<2x64x16xf32>
    %82 = stablehlo.reshape %81 : (tensor<2x64x16xf32>) -> tensor<2x2x32x16xf32>
    %83 = stablehlo.transpose %82, dims = [2, 0, 1, 3] : (tensor<2x2x32x16xf32>) -> tensor<32x2x2x16xf32>
    %84 = stablehlo.reshape %54 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %85 = stablehlo.reshape %55 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %86 = stablehlo.reshape %83 : (tensor<32x2x2x16xf32>) -> tensor<32x64xf32>
    %87 = stablehlo.dot_general %86, %arg3, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %88 = stablehlo.add %1, %87 : tensor<32x64xf32>
    // layer 0: MLP
    %89 = stablehlo.multiply %88, %88 : tensor<32x64xf32>
    %90 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %91 = stablehlo.reduce(%89 init: %90) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %92 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %93 = stablehlo.divide %91, %92 : tensor<32xf32>
    %94 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %95 = stablehlo.add %93, %94 : tensor<32xf32>
    %96 = stablehlo.rsqrt %95 : tensor<32xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %98 = stablehlo.multiply %88, %97 : tensor<32x64xf32>
    %99 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %100 = stablehlo.multiply %98, %99 : tensor<32x64xf32>
    %101 = stablehlo.dot_general %100, %arg5, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<256x64xf32>) -> tensor<32x256xf32>
    %102 = stablehlo.slice %101 [0:32, 0:128] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %103 = stablehlo.slice %101 [0:32, 128:256] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %104 = stablehlo.logistic %102 : tensor<32x128xf32>
    %105 = stablehlo.multiply %102, %104 : tensor<32x128xf32>
    %106 = stablehlo.multiply %105, %103 : tensor<32x128xf32>
    %107 = stablehlo.dot_general %106, %arg6, contracting_dims = [1] x [1] : (tensor<32x128xf32>, tensor<64x128xf32>) -> tensor<32x64xf32>
    %108 = stablehlo.add %88, %107 : tensor<32x64xf32>
    // layer 1: attention of the chunk
    %109 = stablehlo.multiply %108, %108 : tensor<32x64xf32>
    %110 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %111 = stablehlo.reduce(%109 init: %110) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %112 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %113 = stablehlo.divide %111, %112 : tensor<32xf32>
    %114 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %115 = stablehlo.add %113, %114 : tensor<32xf32>
    %116 = stablehlo.rsqrt %115 : tensor<32xf32>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %118 = stablehlo.multiply %108, %117 : tensor<32x64xf32>
    %119 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %120 = stablehlo.multiply %118, %119 : tensor<32x64xf32>
    %121 = stablehlo.dot_general %120, %arg8, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %122 = stablehlo.reshape %121 : (tensor<32x128xf32>) -> tensor<32x8x16xf32>
    %123 = stablehlo.slice %122 [0:32, 0:6, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x6x16xf32>
    %124 = stablehlo.reshape %123 : (tensor<32x6x16xf32>) -> tensor<32x6x2x8xf32>
    %125 = "stablehlo.reverse"(%124) {dimensions = array<i64: 2>} : (tensor<32x6x2x8xf32>) -> tensor<32x6x2x8xf32>
    %126 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %127 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %128 = stablehlo.iota dim = 2 : tensor<32x6x2x8xi32>
    %129 = stablehlo.convert %128 : (tensor<32x6x2x8xi32>) -> tensor<32x6x2x8xf32>
    %130 = stablehlo.constant dense<2.0e0> : tensor<32x6x2x8xf32>
    %131 = stablehlo.constant dense<1.0e0> : tensor<32x6x2x8xf32>
    %132 = stablehlo.multiply %129, %130 : tensor<32x6x2x8xf32>
    %133 = stablehlo.subtract %132, %131 : tensor<32x6x2x8xf32>
    %134 = stablehlo.multiply %127, %133 : tensor<32x6x2x8xf32>
    %135 = stablehlo.multiply %124, %126 : tensor<32x6x2x8xf32>
    %136 = stablehlo.multiply %125, %134 : tensor<32x6x2x8xf32>
    %137 = stablehlo.add %135, %136 : tensor<32x6x2x8xf32>
    %138 = stablehlo.reshape %137 : (tensor<32x6x2x8xf32>) -> tensor<32x6x16xf32>
    %139 = stablehlo.slice %138 [0:32, 0:4, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x4x16xf32>
    %140 = stablehlo.slice %138 [0:32, 4:6, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x2x16xf32>
    %141 = stablehlo.slice %122 [0:32, 6:8, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x2x16xf32>
    %142 = stablehlo.transpose %140, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %143 = stablehlo.transpose %141, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    // layer 1: the slot's cached keys and values, then the chunk's
    %144 = stablehlo.constant dense<1> : tensor<i32>
    %145 = stablehlo.dynamic_slice %arg17, %144, %2, %19, %2, %2, sizes = [1, 1, 2, 64, 16] : (tensor<2x2x8x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x64x16xf32>
    %146 = stablehlo.reshape %145 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %147 = stablehlo.dynamic_slice %arg17, %144, %3, %19, %2, %2, sizes = [1, 1, 2, 64, 16] : (tensor<2x2x8x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x64x16xf32>
    %148 = stablehlo.reshape %147 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %149 = stablehlo.concatenate %146, %142, dim = 1 : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x96x16xf32>
    %150 = stablehlo.concatenate %148, %143, dim = 1 : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x96x16xf32>
    %151 = stablehlo.reshape %139 : (tensor<32x4x16xf32>) -> tensor<32x2x2x16xf32>
    %152 = stablehlo.transpose %151, dims = [1, 2, 0, 3] : (tensor<32x2x2x16xf32>) -> tensor<2x2x32x16xf32>
    %153 = stablehlo.reshape %152 : (tensor<2x2x32x16xf32>) -> tensor<2x64x16xf32>
    %154 = stablehlo.dot_general %153, %149, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x64x16xf32>, tensor<2x96x16xf32>) -> tensor<2x64x96xf32>
    %155 = stablehlo.reshape %154 : (tensor<2x64x96xf32>) -> tensor<2x2x32x96xf32>
    %156 = stablehlo.multiply %155, %17 : tensor<2x2x32x96xf32>
    %157 = stablehlo.constant dense<0xFF800000> : tensor<2x2x32x96xf32>
    %158 = stablehlo.select %16, %156, %157 : tensor<2x2x32x96xi1>, tensor<2x2x32x96xf32>
    %159 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %160 = stablehlo.reduce(%158 init: %159) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x96xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x96xf32>
    %162 = stablehlo.subtract %158, %161 : tensor<2x2x32x96xf32>
    %163 = stablehlo.exponential %162 : tensor<2x2x32x96xf32>
    %164 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %165 = stablehlo.reduce(%163 init: %164) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x96xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %166 = stablehlo.broadcast_in_dim %165, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x96xf32>
    %167 = stablehlo.divide %163, %166 : tensor<2x2x32x96xf32>
    %168 = stablehlo.reshape %167 : (tensor<2x2x32x96xf32>) -> tensor<2x64x96xf32>
    %169 = stablehlo.dot_general %168, %150, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x64x96xf32>, tensor<2x96x16xf32>) -> tensor<2x64x16xf32>
    %170 = stablehlo.reshape %169 : (tensor<2x64x16xf32>) -> tensor<2x2x32x16xf32>
    %171 = stablehlo.transpose %170, dims = [2, 0, 1, 3] : (tensor<2x2x32x16xf32>) -> tensor<32x2x2x16xf32>
    %172 = stablehlo.reshape %142 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %173 = stablehlo.reshape %143 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %174 = stablehlo.reshape %171 : (tensor<32x2x2x16xf32>) -> tensor<32x64xf32>
    // layer 1: one row goes on to o and the MLP
    %175 = stablehlo.constant dense<0> : tensor<i32>
    %176 = stablehlo.dynamic_slice %174, %20, %175, sizes = [1, 64] : (tensor<32x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %177 = stablehlo.dynamic_slice %108, %20, %175, sizes = [1, 64] : (tensor<32x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %178 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %179 = stablehlo.concatenate %176, %178, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %180 = stablehlo.dot_general %179, %arg9, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %181 = stablehlo.slice %180 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %182 = stablehlo.add %177, %181 : tensor<1x64xf32>
    // layer 1: MLP
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
    %193 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %194 = stablehlo.multiply %192, %193 : tensor<1x64xf32>
    %195 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %196 = stablehlo.concatenate %194, %195, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %197 = stablehlo.dot_general %196, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<256x64xf32>) -> tensor<8x256xf32>
    %198 = stablehlo.slice %197 [0:1, 0:256] : (tensor<8x256xf32>) -> tensor<1x256xf32>
    %199 = stablehlo.slice %198 [0:1, 0:128] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %200 = stablehlo.slice %198 [0:1, 128:256] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %201 = stablehlo.logistic %199 : tensor<1x128xf32>
    %202 = stablehlo.multiply %199, %201 : tensor<1x128xf32>
    %203 = stablehlo.multiply %202, %200 : tensor<1x128xf32>
    %204 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %205 = stablehlo.concatenate %203, %204, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %206 = stablehlo.dot_general %205, %arg12, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %207 = stablehlo.slice %206 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %208 = stablehlo.add %182, %207 : tensor<1x64xf32>
    // write every layer's K/V of the chunk at start.. of the slot
    %209 = stablehlo.concatenate %84, %85, %172, %173, dim = 0 : (tensor<1x1x2x32x16xf32>, tensor<1x1x2x32x16xf32>, tensor<1x1x2x32x16xf32>, tensor<1x1x2x32x16xf32>) -> tensor<4x1x2x32x16xf32>
    %210 = stablehlo.reshape %209 : (tensor<4x1x2x32x16xf32>) -> tensor<2x2x2x32x16xf32>
    %211 = stablehlo.dynamic_update_slice %arg17, %210, %2, %2, %19, %arg21, %2 : (tensor<2x2x8x256x16xf32>, tensor<2x2x2x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %212 = stablehlo.multiply %208, %208 : tensor<1x64xf32>
    %213 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %214 = stablehlo.reduce(%212 init: %213) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %215 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %216 = stablehlo.divide %214, %215 : tensor<1xf32>
    %217 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %218 = stablehlo.add %216, %217 : tensor<1xf32>
    %219 = stablehlo.rsqrt %218 : tensor<1xf32>
    %220 = stablehlo.broadcast_in_dim %219, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %221 = stablehlo.multiply %208, %220 : tensor<1x64xf32>
    %222 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %223 = stablehlo.multiply %221, %222 : tensor<1x64xf32>
    %224 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %225 = stablehlo.concatenate %223, %224, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %226 = stablehlo.dot_general %225, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %227 = stablehlo.slice %226 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %228 = stablehlo.reshape %227 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %228, %211 : tensor<512xf32>, tensor<2x2x8x256x16xf32>
  }
}

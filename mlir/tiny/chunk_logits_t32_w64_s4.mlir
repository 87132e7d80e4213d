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
    // layer 0: attention of the chunk
    %20 = stablehlo.multiply %1, %1 : tensor<32x64xf32>
    %21 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %22 = stablehlo.reduce(%20 init: %21) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %23 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %24 = stablehlo.divide %22, %23 : tensor<32xf32>
    %25 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %26 = stablehlo.add %24, %25 : tensor<32xf32>
    %27 = stablehlo.rsqrt %26 : tensor<32xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %29 = stablehlo.multiply %1, %28 : tensor<32x64xf32>
    %30 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %31 = stablehlo.multiply %29, %30 : tensor<32x64xf32>
    %32 = stablehlo.dot_general %31, %arg2, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %33 = stablehlo.reshape %32 : (tensor<32x128xf32>) -> tensor<32x8x16xf32>
    %34 = stablehlo.slice %33 [0:32, 0:6, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x6x16xf32>
    %35 = stablehlo.reshape %34 : (tensor<32x6x16xf32>) -> tensor<32x6x2x8xf32>
    %36 = "stablehlo.reverse"(%35) {dimensions = array<i64: 2>} : (tensor<32x6x2x8xf32>) -> tensor<32x6x2x8xf32>
    %37 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %38 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %39 = stablehlo.iota dim = 2 : tensor<32x6x2x8xi32>
    %40 = stablehlo.convert %39 : (tensor<32x6x2x8xi32>) -> tensor<32x6x2x8xf32>
    %41 = stablehlo.constant dense<2.0e0> : tensor<32x6x2x8xf32>
    %42 = stablehlo.constant dense<1.0e0> : tensor<32x6x2x8xf32>
    %43 = stablehlo.multiply %40, %41 : tensor<32x6x2x8xf32>
    %44 = stablehlo.subtract %43, %42 : tensor<32x6x2x8xf32>
    %45 = stablehlo.multiply %38, %44 : tensor<32x6x2x8xf32>
    %46 = stablehlo.multiply %35, %37 : tensor<32x6x2x8xf32>
    %47 = stablehlo.multiply %36, %45 : tensor<32x6x2x8xf32>
    %48 = stablehlo.add %46, %47 : tensor<32x6x2x8xf32>
    %49 = stablehlo.reshape %48 : (tensor<32x6x2x8xf32>) -> tensor<32x6x16xf32>
    %50 = stablehlo.slice %49 [0:32, 0:4, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x4x16xf32>
    %51 = stablehlo.slice %49 [0:32, 4:6, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x2x16xf32>
    %52 = stablehlo.slice %33 [0:32, 6:8, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x2x16xf32>
    %53 = stablehlo.transpose %51, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %54 = stablehlo.transpose %52, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    // layer 0: the slot's cached keys and values, then the chunk's
    %55 = stablehlo.constant dense<0> : tensor<i32>
    %56 = stablehlo.dynamic_slice %arg17, %55, %2, %19, %2, %2, sizes = [1, 1, 2, 64, 16] : (tensor<2x2x8x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x64x16xf32>
    %57 = stablehlo.reshape %56 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %58 = stablehlo.dynamic_slice %arg17, %55, %3, %19, %2, %2, sizes = [1, 1, 2, 64, 16] : (tensor<2x2x8x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x64x16xf32>
    %59 = stablehlo.reshape %58 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %60 = stablehlo.concatenate %57, %53, dim = 1 : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x96x16xf32>
    %61 = stablehlo.concatenate %59, %54, dim = 1 : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x96x16xf32>
    %62 = stablehlo.reshape %50 : (tensor<32x4x16xf32>) -> tensor<32x2x2x16xf32>
    %63 = stablehlo.transpose %62, dims = [1, 2, 0, 3] : (tensor<32x2x2x16xf32>) -> tensor<2x2x32x16xf32>
    %64 = stablehlo.reshape %63 : (tensor<2x2x32x16xf32>) -> tensor<2x64x16xf32>
    %65 = stablehlo.dot_general %64, %60, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x64x16xf32>, tensor<2x96x16xf32>) -> tensor<2x64x96xf32>
    %66 = stablehlo.reshape %65 : (tensor<2x64x96xf32>) -> tensor<2x2x32x96xf32>
    %67 = stablehlo.multiply %66, %17 : tensor<2x2x32x96xf32>
    %68 = stablehlo.constant dense<0xFF800000> : tensor<2x2x32x96xf32>
    %69 = stablehlo.select %16, %67, %68 : tensor<2x2x32x96xi1>, tensor<2x2x32x96xf32>
    %70 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %71 = stablehlo.reduce(%69 init: %70) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x96xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x96xf32>
    %73 = stablehlo.subtract %69, %72 : tensor<2x2x32x96xf32>
    %74 = stablehlo.exponential %73 : tensor<2x2x32x96xf32>
    %75 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %76 = stablehlo.reduce(%74 init: %75) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x96xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x96xf32>
    %78 = stablehlo.divide %74, %77 : tensor<2x2x32x96xf32>
    %79 = stablehlo.reshape %78 : (tensor<2x2x32x96xf32>) -> tensor<2x64x96xf32>
    %80 = stablehlo.dot_general %79, %61, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x64x96xf32>, tensor<2x96x16xf32>) -> tensor<2x64x16xf32>
    %81 = stablehlo.reshape %80 : (tensor<2x64x16xf32>) -> tensor<2x2x32x16xf32>
    %82 = stablehlo.transpose %81, dims = [2, 0, 1, 3] : (tensor<2x2x32x16xf32>) -> tensor<32x2x2x16xf32>
    %83 = stablehlo.reshape %53 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %84 = stablehlo.reshape %54 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %85 = stablehlo.reshape %82 : (tensor<32x2x2x16xf32>) -> tensor<32x64xf32>
    %86 = stablehlo.dot_general %85, %arg3, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %87 = stablehlo.add %1, %86 : tensor<32x64xf32>
    // layer 0: MLP
    %88 = stablehlo.multiply %87, %87 : tensor<32x64xf32>
    %89 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %90 = stablehlo.reduce(%88 init: %89) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %91 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %92 = stablehlo.divide %90, %91 : tensor<32xf32>
    %93 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %94 = stablehlo.add %92, %93 : tensor<32xf32>
    %95 = stablehlo.rsqrt %94 : tensor<32xf32>
    %96 = stablehlo.broadcast_in_dim %95, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %97 = stablehlo.multiply %87, %96 : tensor<32x64xf32>
    %98 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %99 = stablehlo.multiply %97, %98 : tensor<32x64xf32>
    %100 = stablehlo.dot_general %99, %arg5, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<256x64xf32>) -> tensor<32x256xf32>
    %101 = stablehlo.slice %100 [0:32, 0:128] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %102 = stablehlo.slice %100 [0:32, 128:256] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %103 = stablehlo.logistic %101 : tensor<32x128xf32>
    %104 = stablehlo.multiply %101, %103 : tensor<32x128xf32>
    %105 = stablehlo.multiply %104, %102 : tensor<32x128xf32>
    %106 = stablehlo.dot_general %105, %arg6, contracting_dims = [1] x [1] : (tensor<32x128xf32>, tensor<64x128xf32>) -> tensor<32x64xf32>
    %107 = stablehlo.add %87, %106 : tensor<32x64xf32>
    // layer 1: attention of the chunk
    %108 = stablehlo.multiply %107, %107 : tensor<32x64xf32>
    %109 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %110 = stablehlo.reduce(%108 init: %109) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %111 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %112 = stablehlo.divide %110, %111 : tensor<32xf32>
    %113 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %114 = stablehlo.add %112, %113 : tensor<32xf32>
    %115 = stablehlo.rsqrt %114 : tensor<32xf32>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %117 = stablehlo.multiply %107, %116 : tensor<32x64xf32>
    %118 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %119 = stablehlo.multiply %117, %118 : tensor<32x64xf32>
    %120 = stablehlo.dot_general %119, %arg8, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %121 = stablehlo.reshape %120 : (tensor<32x128xf32>) -> tensor<32x8x16xf32>
    %122 = stablehlo.slice %121 [0:32, 0:6, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x6x16xf32>
    %123 = stablehlo.reshape %122 : (tensor<32x6x16xf32>) -> tensor<32x6x2x8xf32>
    %124 = "stablehlo.reverse"(%123) {dimensions = array<i64: 2>} : (tensor<32x6x2x8xf32>) -> tensor<32x6x2x8xf32>
    %125 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %126 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<32x8xf32>) -> tensor<32x6x2x8xf32>
    %127 = stablehlo.iota dim = 2 : tensor<32x6x2x8xi32>
    %128 = stablehlo.convert %127 : (tensor<32x6x2x8xi32>) -> tensor<32x6x2x8xf32>
    %129 = stablehlo.constant dense<2.0e0> : tensor<32x6x2x8xf32>
    %130 = stablehlo.constant dense<1.0e0> : tensor<32x6x2x8xf32>
    %131 = stablehlo.multiply %128, %129 : tensor<32x6x2x8xf32>
    %132 = stablehlo.subtract %131, %130 : tensor<32x6x2x8xf32>
    %133 = stablehlo.multiply %126, %132 : tensor<32x6x2x8xf32>
    %134 = stablehlo.multiply %123, %125 : tensor<32x6x2x8xf32>
    %135 = stablehlo.multiply %124, %133 : tensor<32x6x2x8xf32>
    %136 = stablehlo.add %134, %135 : tensor<32x6x2x8xf32>
    %137 = stablehlo.reshape %136 : (tensor<32x6x2x8xf32>) -> tensor<32x6x16xf32>
    %138 = stablehlo.slice %137 [0:32, 0:4, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x4x16xf32>
    %139 = stablehlo.slice %137 [0:32, 4:6, 0:16] : (tensor<32x6x16xf32>) -> tensor<32x2x16xf32>
    %140 = stablehlo.slice %121 [0:32, 6:8, 0:16] : (tensor<32x8x16xf32>) -> tensor<32x2x16xf32>
    %141 = stablehlo.transpose %139, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %142 = stablehlo.transpose %140, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    // layer 1: the slot's cached keys and values, then the chunk's
    %143 = stablehlo.constant dense<1> : tensor<i32>
    %144 = stablehlo.dynamic_slice %arg17, %143, %2, %19, %2, %2, sizes = [1, 1, 2, 64, 16] : (tensor<2x2x8x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x64x16xf32>
    %145 = stablehlo.reshape %144 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %146 = stablehlo.dynamic_slice %arg17, %143, %3, %19, %2, %2, sizes = [1, 1, 2, 64, 16] : (tensor<2x2x8x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x64x16xf32>
    %147 = stablehlo.reshape %146 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %148 = stablehlo.concatenate %145, %141, dim = 1 : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x96x16xf32>
    %149 = stablehlo.concatenate %147, %142, dim = 1 : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x96x16xf32>
    %150 = stablehlo.reshape %138 : (tensor<32x4x16xf32>) -> tensor<32x2x2x16xf32>
    %151 = stablehlo.transpose %150, dims = [1, 2, 0, 3] : (tensor<32x2x2x16xf32>) -> tensor<2x2x32x16xf32>
    %152 = stablehlo.reshape %151 : (tensor<2x2x32x16xf32>) -> tensor<2x64x16xf32>
    %153 = stablehlo.dot_general %152, %148, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x64x16xf32>, tensor<2x96x16xf32>) -> tensor<2x64x96xf32>
    %154 = stablehlo.reshape %153 : (tensor<2x64x96xf32>) -> tensor<2x2x32x96xf32>
    %155 = stablehlo.multiply %154, %17 : tensor<2x2x32x96xf32>
    %156 = stablehlo.constant dense<0xFF800000> : tensor<2x2x32x96xf32>
    %157 = stablehlo.select %16, %155, %156 : tensor<2x2x32x96xi1>, tensor<2x2x32x96xf32>
    %158 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %159 = stablehlo.reduce(%157 init: %158) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x96xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %160 = stablehlo.broadcast_in_dim %159, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x96xf32>
    %161 = stablehlo.subtract %157, %160 : tensor<2x2x32x96xf32>
    %162 = stablehlo.exponential %161 : tensor<2x2x32x96xf32>
    %163 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %164 = stablehlo.reduce(%162 init: %163) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x96xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %165 = stablehlo.broadcast_in_dim %164, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x96xf32>
    %166 = stablehlo.divide %162, %165 : tensor<2x2x32x96xf32>
    %167 = stablehlo.reshape %166 : (tensor<2x2x32x96xf32>) -> tensor<2x64x96xf32>
    %168 = stablehlo.dot_general %167, %149, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x64x96xf32>, tensor<2x96x16xf32>) -> tensor<2x64x16xf32>
    %169 = stablehlo.reshape %168 : (tensor<2x64x16xf32>) -> tensor<2x2x32x16xf32>
    %170 = stablehlo.transpose %169, dims = [2, 0, 1, 3] : (tensor<2x2x32x16xf32>) -> tensor<32x2x2x16xf32>
    %171 = stablehlo.reshape %141 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %172 = stablehlo.reshape %142 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %173 = stablehlo.reshape %170 : (tensor<32x2x2x16xf32>) -> tensor<32x64xf32>
    %174 = stablehlo.dot_general %173, %arg9, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %175 = stablehlo.add %107, %174 : tensor<32x64xf32>
    // layer 1: MLP
    %176 = stablehlo.multiply %175, %175 : tensor<32x64xf32>
    %177 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %178 = stablehlo.reduce(%176 init: %177) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %179 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %180 = stablehlo.divide %178, %179 : tensor<32xf32>
    %181 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %182 = stablehlo.add %180, %181 : tensor<32xf32>
    %183 = stablehlo.rsqrt %182 : tensor<32xf32>
    %184 = stablehlo.broadcast_in_dim %183, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %185 = stablehlo.multiply %175, %184 : tensor<32x64xf32>
    %186 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %187 = stablehlo.multiply %185, %186 : tensor<32x64xf32>
    %188 = stablehlo.dot_general %187, %arg11, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<256x64xf32>) -> tensor<32x256xf32>
    %189 = stablehlo.slice %188 [0:32, 0:128] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %190 = stablehlo.slice %188 [0:32, 128:256] : (tensor<32x256xf32>) -> tensor<32x128xf32>
    %191 = stablehlo.logistic %189 : tensor<32x128xf32>
    %192 = stablehlo.multiply %189, %191 : tensor<32x128xf32>
    %193 = stablehlo.multiply %192, %190 : tensor<32x128xf32>
    %194 = stablehlo.dot_general %193, %arg12, contracting_dims = [1] x [1] : (tensor<32x128xf32>, tensor<64x128xf32>) -> tensor<32x64xf32>
    %195 = stablehlo.add %175, %194 : tensor<32x64xf32>
    // write every layer's K/V of the chunk at start.. of the slot
    %196 = stablehlo.concatenate %83, %84, %171, %172, dim = 0 : (tensor<1x1x2x32x16xf32>, tensor<1x1x2x32x16xf32>, tensor<1x1x2x32x16xf32>, tensor<1x1x2x32x16xf32>) -> tensor<4x1x2x32x16xf32>
    %197 = stablehlo.reshape %196 : (tensor<4x1x2x32x16xf32>) -> tensor<2x2x2x32x16xf32>
    %198 = stablehlo.dynamic_update_slice %arg17, %197, %2, %2, %19, %arg21, %2 : (tensor<2x2x8x256x16xf32>, tensor<2x2x2x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    // the last real token: row len - 1
    %199 = stablehlo.subtract %arg19, %3 : tensor<i32>
    %200 = stablehlo.dynamic_slice %195, %199, %2, sizes = [1, 64] : (tensor<32x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %201 = stablehlo.multiply %200, %200 : tensor<1x64xf32>
    %202 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %203 = stablehlo.reduce(%201 init: %202) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %204 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %205 = stablehlo.divide %203, %204 : tensor<1xf32>
    %206 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %207 = stablehlo.add %205, %206 : tensor<1xf32>
    %208 = stablehlo.rsqrt %207 : tensor<1xf32>
    %209 = stablehlo.broadcast_in_dim %208, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %210 = stablehlo.multiply %200, %209 : tensor<1x64xf32>
    %211 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %212 = stablehlo.multiply %210, %211 : tensor<1x64xf32>
    %213 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %214 = stablehlo.concatenate %212, %213, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %215 = stablehlo.dot_general %214, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %216 = stablehlo.slice %215 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %217 = stablehlo.reshape %216 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %217, %198 : tensor<512xf32>, tensor<2x2x8x256x16xf32>
  }
}

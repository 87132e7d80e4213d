// chunk_logits_t8_w0_s4: emitted by iree-llm 0.1.0 (graph format 4).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @chunk_logits_t8_w0_s4 {
  func.func @chunk_logits_t8_w0_s4(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<128x64xf32>, %arg3: tensor<64x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<256x64xf32>, %arg6: tensor<64x128xf32>, %arg7: tensor<64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x64xf32>, %arg10: tensor<64xf32>, %arg11: tensor<256x64xf32>, %arg12: tensor<64x128xf32>, %arg13: tensor<64xf32>, %arg14: tensor<512x64xf32>, %arg15: tensor<256x8xf32>, %arg16: tensor<256x8xf32>, %arg17: tensor<2x2x8x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg18: tensor<8xi32>, %arg19: tensor<i32>, %arg20: tensor<i32>, %arg21: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x8x256x16xf32>) {
    // embeddings and the rotary angles of positions start..start + t
    %0 = stablehlo.reshape %arg18 : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
    %2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.dynamic_slice %arg15, %arg21, %2, sizes = [8, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    %5 = stablehlo.dynamic_slice %arg16, %arg21, %2, sizes = [8, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    // query i sees cached keys j < start and chunk keys window + k, k <= i
    %6 = stablehlo.iota dim = 0 : tensor<8x8xi32>
    %7 = stablehlo.iota dim = 1 : tensor<8x8xi32>
    %8 = stablehlo.broadcast_in_dim %arg21, dims = [] : (tensor<i32>) -> tensor<8x8xi32>
    %9 = stablehlo.compare LT, %7, %8 : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %10 = stablehlo.constant dense<0> : tensor<8x8xi32>
    %11 = stablehlo.compare GE, %7, %10 : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %12 = stablehlo.subtract %7, %10 : tensor<8x8xi32>
    %13 = stablehlo.compare LE, %12, %6 : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
    %14 = stablehlo.and %11, %13 : tensor<8x8xi1>
    %15 = stablehlo.or %9, %14 : tensor<8x8xi1>
    %16 = stablehlo.broadcast_in_dim %15, dims = [2, 3] : (tensor<8x8xi1>) -> tensor<2x2x8x8xi1>
    %17 = stablehlo.constant dense<2.5e-1> : tensor<2x2x8x8xf32>
    %18 = stablehlo.constant dense<2> : tensor<i32>
    %19 = stablehlo.multiply %arg20, %18 : tensor<i32>
    // the last real token: row len - 1
    %20 = stablehlo.subtract %arg19, %3 : tensor<i32>
    // layer 0: attention of the chunk
    %21 = stablehlo.multiply %1, %1 : tensor<8x64xf32>
    %22 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %23 = stablehlo.reduce(%21 init: %22) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %24 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %25 = stablehlo.divide %23, %24 : tensor<8xf32>
    %26 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %27 = stablehlo.add %25, %26 : tensor<8xf32>
    %28 = stablehlo.rsqrt %27 : tensor<8xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %30 = stablehlo.multiply %1, %29 : tensor<8x64xf32>
    %31 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %32 = stablehlo.multiply %30, %31 : tensor<8x64xf32>
    %33 = stablehlo.dot_general %32, %arg2, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %34 = stablehlo.reshape %33 : (tensor<8x128xf32>) -> tensor<8x8x16xf32>
    %35 = stablehlo.slice %34 [0:8, 0:6, 0:16] : (tensor<8x8x16xf32>) -> tensor<8x6x16xf32>
    %36 = stablehlo.reshape %35 : (tensor<8x6x16xf32>) -> tensor<8x6x2x8xf32>
    %37 = "stablehlo.reverse"(%36) {dimensions = array<i64: 2>} : (tensor<8x6x2x8xf32>) -> tensor<8x6x2x8xf32>
    %38 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x6x2x8xf32>
    %39 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x6x2x8xf32>
    %40 = stablehlo.iota dim = 2 : tensor<8x6x2x8xi32>
    %41 = stablehlo.convert %40 : (tensor<8x6x2x8xi32>) -> tensor<8x6x2x8xf32>
    %42 = stablehlo.constant dense<2.0e0> : tensor<8x6x2x8xf32>
    %43 = stablehlo.constant dense<1.0e0> : tensor<8x6x2x8xf32>
    %44 = stablehlo.multiply %41, %42 : tensor<8x6x2x8xf32>
    %45 = stablehlo.subtract %44, %43 : tensor<8x6x2x8xf32>
    %46 = stablehlo.multiply %39, %45 : tensor<8x6x2x8xf32>
    %47 = stablehlo.multiply %36, %38 : tensor<8x6x2x8xf32>
    %48 = stablehlo.multiply %37, %46 : tensor<8x6x2x8xf32>
    %49 = stablehlo.add %47, %48 : tensor<8x6x2x8xf32>
    %50 = stablehlo.reshape %49 : (tensor<8x6x2x8xf32>) -> tensor<8x6x16xf32>
    %51 = stablehlo.slice %50 [0:8, 0:4, 0:16] : (tensor<8x6x16xf32>) -> tensor<8x4x16xf32>
    %52 = stablehlo.slice %50 [0:8, 4:6, 0:16] : (tensor<8x6x16xf32>) -> tensor<8x2x16xf32>
    %53 = stablehlo.slice %34 [0:8, 6:8, 0:16] : (tensor<8x8x16xf32>) -> tensor<8x2x16xf32>
    %54 = stablehlo.transpose %52, dims = [1, 0, 2] : (tensor<8x2x16xf32>) -> tensor<2x8x16xf32>
    %55 = stablehlo.transpose %53, dims = [1, 0, 2] : (tensor<8x2x16xf32>) -> tensor<2x8x16xf32>
    %56 = stablehlo.reshape %51 : (tensor<8x4x16xf32>) -> tensor<8x2x2x16xf32>
    %57 = stablehlo.transpose %56, dims = [1, 2, 0, 3] : (tensor<8x2x2x16xf32>) -> tensor<2x2x8x16xf32>
    %58 = stablehlo.reshape %57 : (tensor<2x2x8x16xf32>) -> tensor<2x16x16xf32>
    %59 = stablehlo.dot_general %58, %54, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x16x16xf32>, tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
    %60 = stablehlo.reshape %59 : (tensor<2x16x8xf32>) -> tensor<2x2x8x8xf32>
    %61 = stablehlo.multiply %60, %17 : tensor<2x2x8x8xf32>
    %62 = stablehlo.constant dense<0xFF800000> : tensor<2x2x8x8xf32>
    %63 = stablehlo.select %16, %61, %62 : tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>
    %64 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %65 = stablehlo.reduce(%63 init: %64) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x8xf32>
    %67 = stablehlo.subtract %63, %66 : tensor<2x2x8x8xf32>
    %68 = stablehlo.exponential %67 : tensor<2x2x8x8xf32>
    %69 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %70 = stablehlo.reduce(%68 init: %69) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x8xf32>
    %72 = stablehlo.divide %68, %71 : tensor<2x2x8x8xf32>
    %73 = stablehlo.reshape %72 : (tensor<2x2x8x8xf32>) -> tensor<2x16x8xf32>
    %74 = stablehlo.dot_general %73, %55, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x16x8xf32>, tensor<2x8x16xf32>) -> tensor<2x16x16xf32>
    %75 = stablehlo.reshape %74 : (tensor<2x16x16xf32>) -> tensor<2x2x8x16xf32>
    %76 = stablehlo.transpose %75, dims = [2, 0, 1, 3] : (tensor<2x2x8x16xf32>) -> tensor<8x2x2x16xf32>
    %77 = stablehlo.reshape %54 : (tensor<2x8x16xf32>) -> tensor<1x1x2x8x16xf32>
    %78 = stablehlo.reshape %55 : (tensor<2x8x16xf32>) -> tensor<1x1x2x8x16xf32>
    %79 = stablehlo.reshape %76 : (tensor<8x2x2x16xf32>) -> tensor<8x64xf32>
    %80 = stablehlo.dot_general %79, %arg3, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %81 = stablehlo.add %1, %80 : tensor<8x64xf32>
    // layer 0: MLP
    %82 = stablehlo.multiply %81, %81 : tensor<8x64xf32>
    %83 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %84 = stablehlo.reduce(%82 init: %83) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %85 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %86 = stablehlo.divide %84, %85 : tensor<8xf32>
    %87 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %88 = stablehlo.add %86, %87 : tensor<8xf32>
    %89 = stablehlo.rsqrt %88 : tensor<8xf32>
    %90 = stablehlo.broadcast_in_dim %89, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %91 = stablehlo.multiply %81, %90 : tensor<8x64xf32>
    %92 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %93 = stablehlo.multiply %91, %92 : tensor<8x64xf32>
    %94 = stablehlo.dot_general %93, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<256x64xf32>) -> tensor<8x256xf32>
    %95 = stablehlo.slice %94 [0:8, 0:128] : (tensor<8x256xf32>) -> tensor<8x128xf32>
    %96 = stablehlo.slice %94 [0:8, 128:256] : (tensor<8x256xf32>) -> tensor<8x128xf32>
    %97 = stablehlo.logistic %95 : tensor<8x128xf32>
    %98 = stablehlo.multiply %95, %97 : tensor<8x128xf32>
    %99 = stablehlo.multiply %98, %96 : tensor<8x128xf32>
    %100 = stablehlo.dot_general %99, %arg6, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %101 = stablehlo.add %81, %100 : tensor<8x64xf32>
    // layer 1: attention of the chunk
    %102 = stablehlo.multiply %101, %101 : tensor<8x64xf32>
    %103 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %104 = stablehlo.reduce(%102 init: %103) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %105 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %106 = stablehlo.divide %104, %105 : tensor<8xf32>
    %107 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %108 = stablehlo.add %106, %107 : tensor<8xf32>
    %109 = stablehlo.rsqrt %108 : tensor<8xf32>
    %110 = stablehlo.broadcast_in_dim %109, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %111 = stablehlo.multiply %101, %110 : tensor<8x64xf32>
    %112 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %113 = stablehlo.multiply %111, %112 : tensor<8x64xf32>
    %114 = stablehlo.dot_general %113, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %115 = stablehlo.reshape %114 : (tensor<8x128xf32>) -> tensor<8x8x16xf32>
    %116 = stablehlo.slice %115 [0:8, 0:6, 0:16] : (tensor<8x8x16xf32>) -> tensor<8x6x16xf32>
    %117 = stablehlo.reshape %116 : (tensor<8x6x16xf32>) -> tensor<8x6x2x8xf32>
    %118 = "stablehlo.reverse"(%117) {dimensions = array<i64: 2>} : (tensor<8x6x2x8xf32>) -> tensor<8x6x2x8xf32>
    %119 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x6x2x8xf32>
    %120 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x6x2x8xf32>
    %121 = stablehlo.iota dim = 2 : tensor<8x6x2x8xi32>
    %122 = stablehlo.convert %121 : (tensor<8x6x2x8xi32>) -> tensor<8x6x2x8xf32>
    %123 = stablehlo.constant dense<2.0e0> : tensor<8x6x2x8xf32>
    %124 = stablehlo.constant dense<1.0e0> : tensor<8x6x2x8xf32>
    %125 = stablehlo.multiply %122, %123 : tensor<8x6x2x8xf32>
    %126 = stablehlo.subtract %125, %124 : tensor<8x6x2x8xf32>
    %127 = stablehlo.multiply %120, %126 : tensor<8x6x2x8xf32>
    %128 = stablehlo.multiply %117, %119 : tensor<8x6x2x8xf32>
    %129 = stablehlo.multiply %118, %127 : tensor<8x6x2x8xf32>
    %130 = stablehlo.add %128, %129 : tensor<8x6x2x8xf32>
    %131 = stablehlo.reshape %130 : (tensor<8x6x2x8xf32>) -> tensor<8x6x16xf32>
    %132 = stablehlo.slice %131 [0:8, 0:4, 0:16] : (tensor<8x6x16xf32>) -> tensor<8x4x16xf32>
    %133 = stablehlo.slice %131 [0:8, 4:6, 0:16] : (tensor<8x6x16xf32>) -> tensor<8x2x16xf32>
    %134 = stablehlo.slice %115 [0:8, 6:8, 0:16] : (tensor<8x8x16xf32>) -> tensor<8x2x16xf32>
    %135 = stablehlo.transpose %133, dims = [1, 0, 2] : (tensor<8x2x16xf32>) -> tensor<2x8x16xf32>
    %136 = stablehlo.transpose %134, dims = [1, 0, 2] : (tensor<8x2x16xf32>) -> tensor<2x8x16xf32>
    %137 = stablehlo.reshape %132 : (tensor<8x4x16xf32>) -> tensor<8x2x2x16xf32>
    %138 = stablehlo.transpose %137, dims = [1, 2, 0, 3] : (tensor<8x2x2x16xf32>) -> tensor<2x2x8x16xf32>
    %139 = stablehlo.reshape %138 : (tensor<2x2x8x16xf32>) -> tensor<2x16x16xf32>
    %140 = stablehlo.dot_general %139, %135, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x16x16xf32>, tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
    %141 = stablehlo.reshape %140 : (tensor<2x16x8xf32>) -> tensor<2x2x8x8xf32>
    %142 = stablehlo.multiply %141, %17 : tensor<2x2x8x8xf32>
    %143 = stablehlo.constant dense<0xFF800000> : tensor<2x2x8x8xf32>
    %144 = stablehlo.select %16, %142, %143 : tensor<2x2x8x8xi1>, tensor<2x2x8x8xf32>
    %145 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %146 = stablehlo.reduce(%144 init: %145) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %147 = stablehlo.broadcast_in_dim %146, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x8xf32>
    %148 = stablehlo.subtract %144, %147 : tensor<2x2x8x8xf32>
    %149 = stablehlo.exponential %148 : tensor<2x2x8x8xf32>
    %150 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %151 = stablehlo.reduce(%149 init: %150) applies stablehlo.add across dimensions = [3] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0, 1, 2] : (tensor<2x2x8xf32>) -> tensor<2x2x8x8xf32>
    %153 = stablehlo.divide %149, %152 : tensor<2x2x8x8xf32>
    %154 = stablehlo.reshape %153 : (tensor<2x2x8x8xf32>) -> tensor<2x16x8xf32>
    %155 = stablehlo.dot_general %154, %136, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x16x8xf32>, tensor<2x8x16xf32>) -> tensor<2x16x16xf32>
    %156 = stablehlo.reshape %155 : (tensor<2x16x16xf32>) -> tensor<2x2x8x16xf32>
    %157 = stablehlo.transpose %156, dims = [2, 0, 1, 3] : (tensor<2x2x8x16xf32>) -> tensor<8x2x2x16xf32>
    %158 = stablehlo.reshape %135 : (tensor<2x8x16xf32>) -> tensor<1x1x2x8x16xf32>
    %159 = stablehlo.reshape %136 : (tensor<2x8x16xf32>) -> tensor<1x1x2x8x16xf32>
    %160 = stablehlo.reshape %157 : (tensor<8x2x2x16xf32>) -> tensor<8x64xf32>
    // layer 1: one row goes on to o and the MLP
    %161 = stablehlo.constant dense<0> : tensor<i32>
    %162 = stablehlo.dynamic_slice %160, %20, %161, sizes = [1, 64] : (tensor<8x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %163 = stablehlo.dynamic_slice %101, %20, %161, sizes = [1, 64] : (tensor<8x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %164 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %165 = stablehlo.concatenate %162, %164, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %166 = stablehlo.dot_general %165, %arg9, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %167 = stablehlo.slice %166 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %168 = stablehlo.add %163, %167 : tensor<1x64xf32>
    // layer 1: MLP
    %169 = stablehlo.multiply %168, %168 : tensor<1x64xf32>
    %170 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %171 = stablehlo.reduce(%169 init: %170) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %172 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %173 = stablehlo.divide %171, %172 : tensor<1xf32>
    %174 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %175 = stablehlo.add %173, %174 : tensor<1xf32>
    %176 = stablehlo.rsqrt %175 : tensor<1xf32>
    %177 = stablehlo.broadcast_in_dim %176, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %178 = stablehlo.multiply %168, %177 : tensor<1x64xf32>
    %179 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %180 = stablehlo.multiply %178, %179 : tensor<1x64xf32>
    %181 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %182 = stablehlo.concatenate %180, %181, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %183 = stablehlo.dot_general %182, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<256x64xf32>) -> tensor<8x256xf32>
    %184 = stablehlo.slice %183 [0:1, 0:256] : (tensor<8x256xf32>) -> tensor<1x256xf32>
    %185 = stablehlo.slice %184 [0:1, 0:128] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %186 = stablehlo.slice %184 [0:1, 128:256] : (tensor<1x256xf32>) -> tensor<1x128xf32>
    %187 = stablehlo.logistic %185 : tensor<1x128xf32>
    %188 = stablehlo.multiply %185, %187 : tensor<1x128xf32>
    %189 = stablehlo.multiply %188, %186 : tensor<1x128xf32>
    %190 = stablehlo.constant dense<0.0e0> : tensor<7x128xf32>
    %191 = stablehlo.concatenate %189, %190, dim = 0 : (tensor<1x128xf32>, tensor<7x128xf32>) -> tensor<8x128xf32>
    %192 = stablehlo.dot_general %191, %arg12, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %193 = stablehlo.slice %192 [0:1, 0:64] : (tensor<8x64xf32>) -> tensor<1x64xf32>
    %194 = stablehlo.add %168, %193 : tensor<1x64xf32>
    // write every layer's K/V of the chunk at start.. of the slot
    %195 = stablehlo.concatenate %77, %78, %158, %159, dim = 0 : (tensor<1x1x2x8x16xf32>, tensor<1x1x2x8x16xf32>, tensor<1x1x2x8x16xf32>, tensor<1x1x2x8x16xf32>) -> tensor<4x1x2x8x16xf32>
    %196 = stablehlo.reshape %195 : (tensor<4x1x2x8x16xf32>) -> tensor<2x2x2x8x16xf32>
    %197 = stablehlo.dynamic_update_slice %arg17, %196, %2, %2, %19, %arg21, %2 : (tensor<2x2x8x256x16xf32>, tensor<2x2x2x8x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    %198 = stablehlo.multiply %194, %194 : tensor<1x64xf32>
    %199 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %200 = stablehlo.reduce(%198 init: %199) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %201 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %202 = stablehlo.divide %200, %201 : tensor<1xf32>
    %203 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %204 = stablehlo.add %202, %203 : tensor<1xf32>
    %205 = stablehlo.rsqrt %204 : tensor<1xf32>
    %206 = stablehlo.broadcast_in_dim %205, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %207 = stablehlo.multiply %194, %206 : tensor<1x64xf32>
    %208 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %209 = stablehlo.multiply %207, %208 : tensor<1x64xf32>
    %210 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %211 = stablehlo.concatenate %209, %210, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %212 = stablehlo.dot_general %211, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %213 = stablehlo.slice %212 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %214 = stablehlo.reshape %213 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %214, %197 : tensor<512xf32>, tensor<2x2x8x256x16xf32>
  }
}

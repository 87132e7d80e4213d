// chunk_logits_t128_w256_s8: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @chunk_logits_t128_w256_s8 {
  func.func @chunk_logits_t128_w256_s8(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x16x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<128xi32>, %arg25: tensor<i32>, %arg26: tensor<i32>, %arg27: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x16x256x16xf32>) {
    // embeddings and the rotary angles of positions start..start + t
    %0 = stablehlo.reshape %arg24 : (tensor<128xi32>) -> tensor<128x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<128x1xi32>) -> tensor<128x64xf32>
    %2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.dynamic_slice %arg21, %arg27, %2, sizes = [128, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<128x8xf32>
    %5 = stablehlo.dynamic_slice %arg22, %arg27, %2, sizes = [128, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<128x8xf32>
    // query i sees cached keys j < start and chunk keys window + k, k <= i
    %6 = stablehlo.iota dim = 0 : tensor<128x384xi32>
    %7 = stablehlo.iota dim = 1 : tensor<128x384xi32>
    %8 = stablehlo.broadcast_in_dim %arg27, dims = [] : (tensor<i32>) -> tensor<128x384xi32>
    %9 = stablehlo.compare LT, %7, %8 : (tensor<128x384xi32>, tensor<128x384xi32>) -> tensor<128x384xi1>
    %10 = stablehlo.constant dense<256> : tensor<128x384xi32>
    %11 = stablehlo.compare GE, %7, %10 : (tensor<128x384xi32>, tensor<128x384xi32>) -> tensor<128x384xi1>
    %12 = stablehlo.subtract %7, %10 : tensor<128x384xi32>
    %13 = stablehlo.compare LE, %12, %6 : (tensor<128x384xi32>, tensor<128x384xi32>) -> tensor<128x384xi1>
    %14 = stablehlo.and %11, %13 : tensor<128x384xi1>
    %15 = stablehlo.or %9, %14 : tensor<128x384xi1>
    %16 = stablehlo.broadcast_in_dim %15, dims = [2, 3] : (tensor<128x384xi1>) -> tensor<2x2x128x384xi1>
    %17 = stablehlo.constant dense<2.5e-1> : tensor<2x2x128x384xf32>
    %18 = stablehlo.constant dense<2> : tensor<i32>
    %19 = stablehlo.multiply %arg26, %18 : tensor<i32>
    // layer 0: attention of the chunk
    %20 = stablehlo.multiply %1, %1 : tensor<128x64xf32>
    %21 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %22 = stablehlo.reduce(%20 init: %21) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %23 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %24 = stablehlo.divide %22, %23 : tensor<128xf32>
    %25 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %26 = stablehlo.add %24, %25 : tensor<128xf32>
    %27 = stablehlo.rsqrt %26 : tensor<128xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %29 = stablehlo.multiply %1, %28 : tensor<128x64xf32>
    %30 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %31 = stablehlo.multiply %29, %30 : tensor<128x64xf32>
    %32 = stablehlo.dot_general %31, %arg2, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %33 = stablehlo.reshape %32 : (tensor<128x64xf32>) -> tensor<128x4x16xf32>
    %34 = stablehlo.slice %33 [0:128, 0:4, 0:8] : (tensor<128x4x16xf32>) -> tensor<128x4x8xf32>
    %35 = stablehlo.slice %33 [0:128, 0:4, 8:16] : (tensor<128x4x16xf32>) -> tensor<128x4x8xf32>
    %36 = stablehlo.broadcast_in_dim %4, dims = [0, 2] : (tensor<128x8xf32>) -> tensor<128x4x8xf32>
    %37 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<128x8xf32>) -> tensor<128x4x8xf32>
    %38 = stablehlo.multiply %34, %36 : tensor<128x4x8xf32>
    %39 = stablehlo.multiply %35, %37 : tensor<128x4x8xf32>
    %40 = stablehlo.subtract %38, %39 : tensor<128x4x8xf32>
    %41 = stablehlo.multiply %35, %36 : tensor<128x4x8xf32>
    %42 = stablehlo.multiply %34, %37 : tensor<128x4x8xf32>
    %43 = stablehlo.add %41, %42 : tensor<128x4x8xf32>
    %44 = stablehlo.concatenate %40, %43, dim = 2 : (tensor<128x4x8xf32>, tensor<128x4x8xf32>) -> tensor<128x4x16xf32>
    %45 = stablehlo.dot_general %31, %arg3, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %46 = stablehlo.reshape %45 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %47 = stablehlo.slice %46 [0:128, 0:2, 0:8] : (tensor<128x2x16xf32>) -> tensor<128x2x8xf32>
    %48 = stablehlo.slice %46 [0:128, 0:2, 8:16] : (tensor<128x2x16xf32>) -> tensor<128x2x8xf32>
    %49 = stablehlo.broadcast_in_dim %4, dims = [0, 2] : (tensor<128x8xf32>) -> tensor<128x2x8xf32>
    %50 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<128x8xf32>) -> tensor<128x2x8xf32>
    %51 = stablehlo.multiply %47, %49 : tensor<128x2x8xf32>
    %52 = stablehlo.multiply %48, %50 : tensor<128x2x8xf32>
    %53 = stablehlo.subtract %51, %52 : tensor<128x2x8xf32>
    %54 = stablehlo.multiply %48, %49 : tensor<128x2x8xf32>
    %55 = stablehlo.multiply %47, %50 : tensor<128x2x8xf32>
    %56 = stablehlo.add %54, %55 : tensor<128x2x8xf32>
    %57 = stablehlo.concatenate %53, %56, dim = 2 : (tensor<128x2x8xf32>, tensor<128x2x8xf32>) -> tensor<128x2x16xf32>
    %58 = stablehlo.dot_general %31, %arg4, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %59 = stablehlo.reshape %58 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %60 = stablehlo.transpose %57, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    %61 = stablehlo.transpose %59, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    // layer 0: the slot's cached keys and values, then the chunk's
    %62 = stablehlo.constant dense<0> : tensor<i32>
    %63 = stablehlo.dynamic_slice %arg23, %62, %2, %19, %2, %2, sizes = [1, 1, 2, 256, 16] : (tensor<2x2x16x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x256x16xf32>
    %64 = stablehlo.reshape %63 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %65 = stablehlo.dynamic_slice %arg23, %62, %3, %19, %2, %2, sizes = [1, 1, 2, 256, 16] : (tensor<2x2x16x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x256x16xf32>
    %66 = stablehlo.reshape %65 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %67 = stablehlo.concatenate %64, %60, dim = 1 : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x384x16xf32>
    %68 = stablehlo.concatenate %66, %61, dim = 1 : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x384x16xf32>
    %69 = stablehlo.reshape %44 : (tensor<128x4x16xf32>) -> tensor<128x2x2x16xf32>
    %70 = stablehlo.transpose %69, dims = [1, 2, 0, 3] : (tensor<128x2x2x16xf32>) -> tensor<2x2x128x16xf32>
    %71 = stablehlo.reshape %70 : (tensor<2x2x128x16xf32>) -> tensor<2x256x16xf32>
    %72 = stablehlo.dot_general %71, %67, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x256x16xf32>, tensor<2x384x16xf32>) -> tensor<2x256x384xf32>
    %73 = stablehlo.reshape %72 : (tensor<2x256x384xf32>) -> tensor<2x2x128x384xf32>
    %74 = stablehlo.multiply %73, %17 : tensor<2x2x128x384xf32>
    %75 = stablehlo.constant dense<0xFF800000> : tensor<2x2x128x384xf32>
    %76 = stablehlo.select %16, %74, %75 : tensor<2x2x128x384xi1>, tensor<2x2x128x384xf32>
    %77 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %78 = stablehlo.reduce(%76 init: %77) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x128x384xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %79 = stablehlo.broadcast_in_dim %78, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x384xf32>
    %80 = stablehlo.subtract %76, %79 : tensor<2x2x128x384xf32>
    %81 = stablehlo.exponential %80 : tensor<2x2x128x384xf32>
    %82 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %83 = stablehlo.reduce(%81 init: %82) applies stablehlo.add across dimensions = [3] : (tensor<2x2x128x384xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %84 = stablehlo.broadcast_in_dim %83, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x384xf32>
    %85 = stablehlo.divide %81, %84 : tensor<2x2x128x384xf32>
    %86 = stablehlo.reshape %85 : (tensor<2x2x128x384xf32>) -> tensor<2x256x384xf32>
    %87 = stablehlo.dot_general %86, %68, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x256x384xf32>, tensor<2x384x16xf32>) -> tensor<2x256x16xf32>
    %88 = stablehlo.reshape %87 : (tensor<2x256x16xf32>) -> tensor<2x2x128x16xf32>
    %89 = stablehlo.transpose %88, dims = [2, 0, 1, 3] : (tensor<2x2x128x16xf32>) -> tensor<128x2x2x16xf32>
    %90 = stablehlo.reshape %60 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %91 = stablehlo.reshape %61 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %92 = stablehlo.reshape %89 : (tensor<128x2x2x16xf32>) -> tensor<128x64xf32>
    %93 = stablehlo.dot_general %92, %arg5, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %94 = stablehlo.add %1, %93 : tensor<128x64xf32>
    // layer 0: MLP
    %95 = stablehlo.multiply %94, %94 : tensor<128x64xf32>
    %96 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %97 = stablehlo.reduce(%95 init: %96) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %98 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %99 = stablehlo.divide %97, %98 : tensor<128xf32>
    %100 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %101 = stablehlo.add %99, %100 : tensor<128xf32>
    %102 = stablehlo.rsqrt %101 : tensor<128xf32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %104 = stablehlo.multiply %94, %103 : tensor<128x64xf32>
    %105 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %106 = stablehlo.multiply %104, %105 : tensor<128x64xf32>
    %107 = stablehlo.dot_general %106, %arg7, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %108 = stablehlo.dot_general %106, %arg8, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %109 = stablehlo.logistic %107 : tensor<128x128xf32>
    %110 = stablehlo.multiply %107, %109 : tensor<128x128xf32>
    %111 = stablehlo.multiply %110, %108 : tensor<128x128xf32>
    %112 = stablehlo.dot_general %111, %arg9, contracting_dims = [1] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
    %113 = stablehlo.add %94, %112 : tensor<128x64xf32>
    // layer 1: attention of the chunk
    %114 = stablehlo.multiply %113, %113 : tensor<128x64xf32>
    %115 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %116 = stablehlo.reduce(%114 init: %115) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %117 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %118 = stablehlo.divide %116, %117 : tensor<128xf32>
    %119 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %120 = stablehlo.add %118, %119 : tensor<128xf32>
    %121 = stablehlo.rsqrt %120 : tensor<128xf32>
    %122 = stablehlo.broadcast_in_dim %121, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %123 = stablehlo.multiply %113, %122 : tensor<128x64xf32>
    %124 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %125 = stablehlo.multiply %123, %124 : tensor<128x64xf32>
    %126 = stablehlo.dot_general %125, %arg11, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %127 = stablehlo.reshape %126 : (tensor<128x64xf32>) -> tensor<128x4x16xf32>
    %128 = stablehlo.slice %127 [0:128, 0:4, 0:8] : (tensor<128x4x16xf32>) -> tensor<128x4x8xf32>
    %129 = stablehlo.slice %127 [0:128, 0:4, 8:16] : (tensor<128x4x16xf32>) -> tensor<128x4x8xf32>
    %130 = stablehlo.broadcast_in_dim %4, dims = [0, 2] : (tensor<128x8xf32>) -> tensor<128x4x8xf32>
    %131 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<128x8xf32>) -> tensor<128x4x8xf32>
    %132 = stablehlo.multiply %128, %130 : tensor<128x4x8xf32>
    %133 = stablehlo.multiply %129, %131 : tensor<128x4x8xf32>
    %134 = stablehlo.subtract %132, %133 : tensor<128x4x8xf32>
    %135 = stablehlo.multiply %129, %130 : tensor<128x4x8xf32>
    %136 = stablehlo.multiply %128, %131 : tensor<128x4x8xf32>
    %137 = stablehlo.add %135, %136 : tensor<128x4x8xf32>
    %138 = stablehlo.concatenate %134, %137, dim = 2 : (tensor<128x4x8xf32>, tensor<128x4x8xf32>) -> tensor<128x4x16xf32>
    %139 = stablehlo.dot_general %125, %arg12, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %140 = stablehlo.reshape %139 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %141 = stablehlo.slice %140 [0:128, 0:2, 0:8] : (tensor<128x2x16xf32>) -> tensor<128x2x8xf32>
    %142 = stablehlo.slice %140 [0:128, 0:2, 8:16] : (tensor<128x2x16xf32>) -> tensor<128x2x8xf32>
    %143 = stablehlo.broadcast_in_dim %4, dims = [0, 2] : (tensor<128x8xf32>) -> tensor<128x2x8xf32>
    %144 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<128x8xf32>) -> tensor<128x2x8xf32>
    %145 = stablehlo.multiply %141, %143 : tensor<128x2x8xf32>
    %146 = stablehlo.multiply %142, %144 : tensor<128x2x8xf32>
    %147 = stablehlo.subtract %145, %146 : tensor<128x2x8xf32>
    %148 = stablehlo.multiply %142, %143 : tensor<128x2x8xf32>
    %149 = stablehlo.multiply %141, %144 : tensor<128x2x8xf32>
    %150 = stablehlo.add %148, %149 : tensor<128x2x8xf32>
    %151 = stablehlo.concatenate %147, %150, dim = 2 : (tensor<128x2x8xf32>, tensor<128x2x8xf32>) -> tensor<128x2x16xf32>
    %152 = stablehlo.dot_general %125, %arg13, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %153 = stablehlo.reshape %152 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %154 = stablehlo.transpose %151, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    %155 = stablehlo.transpose %153, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    // layer 1: the slot's cached keys and values, then the chunk's
    %156 = stablehlo.constant dense<1> : tensor<i32>
    %157 = stablehlo.dynamic_slice %arg23, %156, %2, %19, %2, %2, sizes = [1, 1, 2, 256, 16] : (tensor<2x2x16x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x256x16xf32>
    %158 = stablehlo.reshape %157 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %159 = stablehlo.dynamic_slice %arg23, %156, %3, %19, %2, %2, sizes = [1, 1, 2, 256, 16] : (tensor<2x2x16x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x256x16xf32>
    %160 = stablehlo.reshape %159 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %161 = stablehlo.concatenate %158, %154, dim = 1 : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x384x16xf32>
    %162 = stablehlo.concatenate %160, %155, dim = 1 : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x384x16xf32>
    %163 = stablehlo.reshape %138 : (tensor<128x4x16xf32>) -> tensor<128x2x2x16xf32>
    %164 = stablehlo.transpose %163, dims = [1, 2, 0, 3] : (tensor<128x2x2x16xf32>) -> tensor<2x2x128x16xf32>
    %165 = stablehlo.reshape %164 : (tensor<2x2x128x16xf32>) -> tensor<2x256x16xf32>
    %166 = stablehlo.dot_general %165, %161, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x256x16xf32>, tensor<2x384x16xf32>) -> tensor<2x256x384xf32>
    %167 = stablehlo.reshape %166 : (tensor<2x256x384xf32>) -> tensor<2x2x128x384xf32>
    %168 = stablehlo.multiply %167, %17 : tensor<2x2x128x384xf32>
    %169 = stablehlo.constant dense<0xFF800000> : tensor<2x2x128x384xf32>
    %170 = stablehlo.select %16, %168, %169 : tensor<2x2x128x384xi1>, tensor<2x2x128x384xf32>
    %171 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %172 = stablehlo.reduce(%170 init: %171) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x128x384xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %173 = stablehlo.broadcast_in_dim %172, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x384xf32>
    %174 = stablehlo.subtract %170, %173 : tensor<2x2x128x384xf32>
    %175 = stablehlo.exponential %174 : tensor<2x2x128x384xf32>
    %176 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %177 = stablehlo.reduce(%175 init: %176) applies stablehlo.add across dimensions = [3] : (tensor<2x2x128x384xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x384xf32>
    %179 = stablehlo.divide %175, %178 : tensor<2x2x128x384xf32>
    %180 = stablehlo.reshape %179 : (tensor<2x2x128x384xf32>) -> tensor<2x256x384xf32>
    %181 = stablehlo.dot_general %180, %162, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x256x384xf32>, tensor<2x384x16xf32>) -> tensor<2x256x16xf32>
    %182 = stablehlo.reshape %181 : (tensor<2x256x16xf32>) -> tensor<2x2x128x16xf32>
    %183 = stablehlo.transpose %182, dims = [2, 0, 1, 3] : (tensor<2x2x128x16xf32>) -> tensor<128x2x2x16xf32>
    %184 = stablehlo.reshape %154 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %185 = stablehlo.reshape %155 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %186 = stablehlo.reshape %183 : (tensor<128x2x2x16xf32>) -> tensor<128x64xf32>
    %187 = stablehlo.dot_general %186, %arg14, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %188 = stablehlo.add %113, %187 : tensor<128x64xf32>
    // layer 1: MLP
    %189 = stablehlo.multiply %188, %188 : tensor<128x64xf32>
    %190 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %191 = stablehlo.reduce(%189 init: %190) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %192 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %193 = stablehlo.divide %191, %192 : tensor<128xf32>
    %194 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %195 = stablehlo.add %193, %194 : tensor<128xf32>
    %196 = stablehlo.rsqrt %195 : tensor<128xf32>
    %197 = stablehlo.broadcast_in_dim %196, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %198 = stablehlo.multiply %188, %197 : tensor<128x64xf32>
    %199 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %200 = stablehlo.multiply %198, %199 : tensor<128x64xf32>
    %201 = stablehlo.dot_general %200, %arg16, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %202 = stablehlo.dot_general %200, %arg17, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %203 = stablehlo.logistic %201 : tensor<128x128xf32>
    %204 = stablehlo.multiply %201, %203 : tensor<128x128xf32>
    %205 = stablehlo.multiply %204, %202 : tensor<128x128xf32>
    %206 = stablehlo.dot_general %205, %arg18, contracting_dims = [1] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
    %207 = stablehlo.add %188, %206 : tensor<128x64xf32>
    // write every layer's K/V of the chunk at start.. of the slot
    %208 = stablehlo.concatenate %90, %91, %184, %185, dim = 0 : (tensor<1x1x2x128x16xf32>, tensor<1x1x2x128x16xf32>, tensor<1x1x2x128x16xf32>, tensor<1x1x2x128x16xf32>) -> tensor<4x1x2x128x16xf32>
    %209 = stablehlo.reshape %208 : (tensor<4x1x2x128x16xf32>) -> tensor<2x2x2x128x16xf32>
    %210 = stablehlo.dynamic_update_slice %arg23, %209, %2, %2, %19, %arg27, %2 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x128x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    // the last real token: row len - 1
    %211 = stablehlo.subtract %arg25, %3 : tensor<i32>
    %212 = stablehlo.dynamic_slice %207, %211, %2, sizes = [1, 64] : (tensor<128x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %213 = stablehlo.multiply %212, %212 : tensor<1x64xf32>
    %214 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %215 = stablehlo.reduce(%213 init: %214) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %216 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %217 = stablehlo.divide %215, %216 : tensor<1xf32>
    %218 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %219 = stablehlo.add %217, %218 : tensor<1xf32>
    %220 = stablehlo.rsqrt %219 : tensor<1xf32>
    %221 = stablehlo.broadcast_in_dim %220, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %222 = stablehlo.multiply %212, %221 : tensor<1x64xf32>
    %223 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %224 = stablehlo.multiply %222, %223 : tensor<1x64xf32>
    %225 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %226 = stablehlo.concatenate %224, %225, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %227 = stablehlo.dot_general %226, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %228 = stablehlo.slice %227 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %229 = stablehlo.reshape %228 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %229, %210 : tensor<512xf32>, tensor<2x2x16x256x16xf32>
  }
}

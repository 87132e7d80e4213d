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
    %34 = stablehlo.reshape %33 : (tensor<128x4x16xf32>) -> tensor<128x4x2x8xf32>
    %35 = "stablehlo.reverse"(%34) {dimensions = array<i64: 2>} : (tensor<128x4x2x8xf32>) -> tensor<128x4x2x8xf32>
    %36 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x4x2x8xf32>
    %37 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x4x2x8xf32>
    %38 = stablehlo.iota dim = 2 : tensor<128x4x2x8xi32>
    %39 = stablehlo.convert %38 : (tensor<128x4x2x8xi32>) -> tensor<128x4x2x8xf32>
    %40 = stablehlo.constant dense<2.0e0> : tensor<128x4x2x8xf32>
    %41 = stablehlo.constant dense<1.0e0> : tensor<128x4x2x8xf32>
    %42 = stablehlo.multiply %39, %40 : tensor<128x4x2x8xf32>
    %43 = stablehlo.subtract %42, %41 : tensor<128x4x2x8xf32>
    %44 = stablehlo.multiply %37, %43 : tensor<128x4x2x8xf32>
    %45 = stablehlo.multiply %34, %36 : tensor<128x4x2x8xf32>
    %46 = stablehlo.multiply %35, %44 : tensor<128x4x2x8xf32>
    %47 = stablehlo.add %45, %46 : tensor<128x4x2x8xf32>
    %48 = stablehlo.reshape %47 : (tensor<128x4x2x8xf32>) -> tensor<128x4x16xf32>
    %49 = stablehlo.dot_general %31, %arg3, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %50 = stablehlo.reshape %49 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %51 = stablehlo.reshape %50 : (tensor<128x2x16xf32>) -> tensor<128x2x2x8xf32>
    %52 = "stablehlo.reverse"(%51) {dimensions = array<i64: 2>} : (tensor<128x2x2x8xf32>) -> tensor<128x2x2x8xf32>
    %53 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x2x2x8xf32>
    %54 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x2x2x8xf32>
    %55 = stablehlo.iota dim = 2 : tensor<128x2x2x8xi32>
    %56 = stablehlo.convert %55 : (tensor<128x2x2x8xi32>) -> tensor<128x2x2x8xf32>
    %57 = stablehlo.constant dense<2.0e0> : tensor<128x2x2x8xf32>
    %58 = stablehlo.constant dense<1.0e0> : tensor<128x2x2x8xf32>
    %59 = stablehlo.multiply %56, %57 : tensor<128x2x2x8xf32>
    %60 = stablehlo.subtract %59, %58 : tensor<128x2x2x8xf32>
    %61 = stablehlo.multiply %54, %60 : tensor<128x2x2x8xf32>
    %62 = stablehlo.multiply %51, %53 : tensor<128x2x2x8xf32>
    %63 = stablehlo.multiply %52, %61 : tensor<128x2x2x8xf32>
    %64 = stablehlo.add %62, %63 : tensor<128x2x2x8xf32>
    %65 = stablehlo.reshape %64 : (tensor<128x2x2x8xf32>) -> tensor<128x2x16xf32>
    %66 = stablehlo.dot_general %31, %arg4, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %67 = stablehlo.reshape %66 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %68 = stablehlo.transpose %65, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    %69 = stablehlo.transpose %67, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    // layer 0: the slot's cached keys and values, then the chunk's
    %70 = stablehlo.constant dense<0> : tensor<i32>
    %71 = stablehlo.dynamic_slice %arg23, %70, %2, %19, %2, %2, sizes = [1, 1, 2, 256, 16] : (tensor<2x2x16x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x256x16xf32>
    %72 = stablehlo.reshape %71 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %73 = stablehlo.dynamic_slice %arg23, %70, %3, %19, %2, %2, sizes = [1, 1, 2, 256, 16] : (tensor<2x2x16x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x256x16xf32>
    %74 = stablehlo.reshape %73 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %75 = stablehlo.concatenate %72, %68, dim = 1 : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x384x16xf32>
    %76 = stablehlo.concatenate %74, %69, dim = 1 : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x384x16xf32>
    %77 = stablehlo.reshape %48 : (tensor<128x4x16xf32>) -> tensor<128x2x2x16xf32>
    %78 = stablehlo.transpose %77, dims = [1, 2, 0, 3] : (tensor<128x2x2x16xf32>) -> tensor<2x2x128x16xf32>
    %79 = stablehlo.reshape %78 : (tensor<2x2x128x16xf32>) -> tensor<2x256x16xf32>
    %80 = stablehlo.dot_general %79, %75, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x256x16xf32>, tensor<2x384x16xf32>) -> tensor<2x256x384xf32>
    %81 = stablehlo.reshape %80 : (tensor<2x256x384xf32>) -> tensor<2x2x128x384xf32>
    %82 = stablehlo.multiply %81, %17 : tensor<2x2x128x384xf32>
    %83 = stablehlo.constant dense<0xFF800000> : tensor<2x2x128x384xf32>
    %84 = stablehlo.select %16, %82, %83 : tensor<2x2x128x384xi1>, tensor<2x2x128x384xf32>
    %85 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %86 = stablehlo.reduce(%84 init: %85) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x128x384xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x384xf32>
    %88 = stablehlo.subtract %84, %87 : tensor<2x2x128x384xf32>
    %89 = stablehlo.exponential %88 : tensor<2x2x128x384xf32>
    %90 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %91 = stablehlo.reduce(%89 init: %90) applies stablehlo.add across dimensions = [3] : (tensor<2x2x128x384xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %92 = stablehlo.broadcast_in_dim %91, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x384xf32>
    %93 = stablehlo.divide %89, %92 : tensor<2x2x128x384xf32>
    %94 = stablehlo.reshape %93 : (tensor<2x2x128x384xf32>) -> tensor<2x256x384xf32>
    %95 = stablehlo.dot_general %94, %76, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x256x384xf32>, tensor<2x384x16xf32>) -> tensor<2x256x16xf32>
    %96 = stablehlo.reshape %95 : (tensor<2x256x16xf32>) -> tensor<2x2x128x16xf32>
    %97 = stablehlo.transpose %96, dims = [2, 0, 1, 3] : (tensor<2x2x128x16xf32>) -> tensor<128x2x2x16xf32>
    %98 = stablehlo.reshape %68 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %99 = stablehlo.reshape %69 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %100 = stablehlo.reshape %97 : (tensor<128x2x2x16xf32>) -> tensor<128x64xf32>
    %101 = stablehlo.dot_general %100, %arg5, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %102 = stablehlo.add %1, %101 : tensor<128x64xf32>
    // layer 0: MLP
    %103 = stablehlo.multiply %102, %102 : tensor<128x64xf32>
    %104 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %105 = stablehlo.reduce(%103 init: %104) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %106 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %107 = stablehlo.divide %105, %106 : tensor<128xf32>
    %108 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %109 = stablehlo.add %107, %108 : tensor<128xf32>
    %110 = stablehlo.rsqrt %109 : tensor<128xf32>
    %111 = stablehlo.broadcast_in_dim %110, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %112 = stablehlo.multiply %102, %111 : tensor<128x64xf32>
    %113 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %114 = stablehlo.multiply %112, %113 : tensor<128x64xf32>
    %115 = stablehlo.dot_general %114, %arg7, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %116 = stablehlo.dot_general %114, %arg8, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %117 = stablehlo.logistic %115 : tensor<128x128xf32>
    %118 = stablehlo.multiply %115, %117 : tensor<128x128xf32>
    %119 = stablehlo.multiply %118, %116 : tensor<128x128xf32>
    %120 = stablehlo.dot_general %119, %arg9, contracting_dims = [1] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
    %121 = stablehlo.add %102, %120 : tensor<128x64xf32>
    // layer 1: attention of the chunk
    %122 = stablehlo.multiply %121, %121 : tensor<128x64xf32>
    %123 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %124 = stablehlo.reduce(%122 init: %123) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %125 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %126 = stablehlo.divide %124, %125 : tensor<128xf32>
    %127 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %128 = stablehlo.add %126, %127 : tensor<128xf32>
    %129 = stablehlo.rsqrt %128 : tensor<128xf32>
    %130 = stablehlo.broadcast_in_dim %129, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %131 = stablehlo.multiply %121, %130 : tensor<128x64xf32>
    %132 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %133 = stablehlo.multiply %131, %132 : tensor<128x64xf32>
    %134 = stablehlo.dot_general %133, %arg11, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %135 = stablehlo.reshape %134 : (tensor<128x64xf32>) -> tensor<128x4x16xf32>
    %136 = stablehlo.reshape %135 : (tensor<128x4x16xf32>) -> tensor<128x4x2x8xf32>
    %137 = "stablehlo.reverse"(%136) {dimensions = array<i64: 2>} : (tensor<128x4x2x8xf32>) -> tensor<128x4x2x8xf32>
    %138 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x4x2x8xf32>
    %139 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x4x2x8xf32>
    %140 = stablehlo.iota dim = 2 : tensor<128x4x2x8xi32>
    %141 = stablehlo.convert %140 : (tensor<128x4x2x8xi32>) -> tensor<128x4x2x8xf32>
    %142 = stablehlo.constant dense<2.0e0> : tensor<128x4x2x8xf32>
    %143 = stablehlo.constant dense<1.0e0> : tensor<128x4x2x8xf32>
    %144 = stablehlo.multiply %141, %142 : tensor<128x4x2x8xf32>
    %145 = stablehlo.subtract %144, %143 : tensor<128x4x2x8xf32>
    %146 = stablehlo.multiply %139, %145 : tensor<128x4x2x8xf32>
    %147 = stablehlo.multiply %136, %138 : tensor<128x4x2x8xf32>
    %148 = stablehlo.multiply %137, %146 : tensor<128x4x2x8xf32>
    %149 = stablehlo.add %147, %148 : tensor<128x4x2x8xf32>
    %150 = stablehlo.reshape %149 : (tensor<128x4x2x8xf32>) -> tensor<128x4x16xf32>
    %151 = stablehlo.dot_general %133, %arg12, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %152 = stablehlo.reshape %151 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %153 = stablehlo.reshape %152 : (tensor<128x2x16xf32>) -> tensor<128x2x2x8xf32>
    %154 = "stablehlo.reverse"(%153) {dimensions = array<i64: 2>} : (tensor<128x2x2x8xf32>) -> tensor<128x2x2x8xf32>
    %155 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x2x2x8xf32>
    %156 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<128x8xf32>) -> tensor<128x2x2x8xf32>
    %157 = stablehlo.iota dim = 2 : tensor<128x2x2x8xi32>
    %158 = stablehlo.convert %157 : (tensor<128x2x2x8xi32>) -> tensor<128x2x2x8xf32>
    %159 = stablehlo.constant dense<2.0e0> : tensor<128x2x2x8xf32>
    %160 = stablehlo.constant dense<1.0e0> : tensor<128x2x2x8xf32>
    %161 = stablehlo.multiply %158, %159 : tensor<128x2x2x8xf32>
    %162 = stablehlo.subtract %161, %160 : tensor<128x2x2x8xf32>
    %163 = stablehlo.multiply %156, %162 : tensor<128x2x2x8xf32>
    %164 = stablehlo.multiply %153, %155 : tensor<128x2x2x8xf32>
    %165 = stablehlo.multiply %154, %163 : tensor<128x2x2x8xf32>
    %166 = stablehlo.add %164, %165 : tensor<128x2x2x8xf32>
    %167 = stablehlo.reshape %166 : (tensor<128x2x2x8xf32>) -> tensor<128x2x16xf32>
    %168 = stablehlo.dot_general %133, %arg13, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<32x64xf32>) -> tensor<128x32xf32>
    %169 = stablehlo.reshape %168 : (tensor<128x32xf32>) -> tensor<128x2x16xf32>
    %170 = stablehlo.transpose %167, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    %171 = stablehlo.transpose %169, dims = [1, 0, 2] : (tensor<128x2x16xf32>) -> tensor<2x128x16xf32>
    // layer 1: the slot's cached keys and values, then the chunk's
    %172 = stablehlo.constant dense<1> : tensor<i32>
    %173 = stablehlo.dynamic_slice %arg23, %172, %2, %19, %2, %2, sizes = [1, 1, 2, 256, 16] : (tensor<2x2x16x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x256x16xf32>
    %174 = stablehlo.reshape %173 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %175 = stablehlo.dynamic_slice %arg23, %172, %3, %19, %2, %2, sizes = [1, 1, 2, 256, 16] : (tensor<2x2x16x256x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x1x2x256x16xf32>
    %176 = stablehlo.reshape %175 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %177 = stablehlo.concatenate %174, %170, dim = 1 : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x384x16xf32>
    %178 = stablehlo.concatenate %176, %171, dim = 1 : (tensor<2x256x16xf32>, tensor<2x128x16xf32>) -> tensor<2x384x16xf32>
    %179 = stablehlo.reshape %150 : (tensor<128x4x16xf32>) -> tensor<128x2x2x16xf32>
    %180 = stablehlo.transpose %179, dims = [1, 2, 0, 3] : (tensor<128x2x2x16xf32>) -> tensor<2x2x128x16xf32>
    %181 = stablehlo.reshape %180 : (tensor<2x2x128x16xf32>) -> tensor<2x256x16xf32>
    %182 = stablehlo.dot_general %181, %177, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x256x16xf32>, tensor<2x384x16xf32>) -> tensor<2x256x384xf32>
    %183 = stablehlo.reshape %182 : (tensor<2x256x384xf32>) -> tensor<2x2x128x384xf32>
    %184 = stablehlo.multiply %183, %17 : tensor<2x2x128x384xf32>
    %185 = stablehlo.constant dense<0xFF800000> : tensor<2x2x128x384xf32>
    %186 = stablehlo.select %16, %184, %185 : tensor<2x2x128x384xi1>, tensor<2x2x128x384xf32>
    %187 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %188 = stablehlo.reduce(%186 init: %187) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x128x384xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %189 = stablehlo.broadcast_in_dim %188, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x384xf32>
    %190 = stablehlo.subtract %186, %189 : tensor<2x2x128x384xf32>
    %191 = stablehlo.exponential %190 : tensor<2x2x128x384xf32>
    %192 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %193 = stablehlo.reduce(%191 init: %192) applies stablehlo.add across dimensions = [3] : (tensor<2x2x128x384xf32>, tensor<f32>) -> tensor<2x2x128xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [0, 1, 2] : (tensor<2x2x128xf32>) -> tensor<2x2x128x384xf32>
    %195 = stablehlo.divide %191, %194 : tensor<2x2x128x384xf32>
    %196 = stablehlo.reshape %195 : (tensor<2x2x128x384xf32>) -> tensor<2x256x384xf32>
    %197 = stablehlo.dot_general %196, %178, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x256x384xf32>, tensor<2x384x16xf32>) -> tensor<2x256x16xf32>
    %198 = stablehlo.reshape %197 : (tensor<2x256x16xf32>) -> tensor<2x2x128x16xf32>
    %199 = stablehlo.transpose %198, dims = [2, 0, 1, 3] : (tensor<2x2x128x16xf32>) -> tensor<128x2x2x16xf32>
    %200 = stablehlo.reshape %170 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %201 = stablehlo.reshape %171 : (tensor<2x128x16xf32>) -> tensor<1x1x2x128x16xf32>
    %202 = stablehlo.reshape %199 : (tensor<128x2x2x16xf32>) -> tensor<128x64xf32>
    %203 = stablehlo.dot_general %202, %arg14, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<64x64xf32>) -> tensor<128x64xf32>
    %204 = stablehlo.add %121, %203 : tensor<128x64xf32>
    // layer 1: MLP
    %205 = stablehlo.multiply %204, %204 : tensor<128x64xf32>
    %206 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %207 = stablehlo.reduce(%205 init: %206) applies stablehlo.add across dimensions = [1] : (tensor<128x64xf32>, tensor<f32>) -> tensor<128xf32>
    %208 = stablehlo.constant dense<6.4e1> : tensor<128xf32>
    %209 = stablehlo.divide %207, %208 : tensor<128xf32>
    %210 = stablehlo.constant dense<1.0e-5> : tensor<128xf32>
    %211 = stablehlo.add %209, %210 : tensor<128xf32>
    %212 = stablehlo.rsqrt %211 : tensor<128xf32>
    %213 = stablehlo.broadcast_in_dim %212, dims = [0] : (tensor<128xf32>) -> tensor<128x64xf32>
    %214 = stablehlo.multiply %204, %213 : tensor<128x64xf32>
    %215 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<128x64xf32>
    %216 = stablehlo.multiply %214, %215 : tensor<128x64xf32>
    %217 = stablehlo.dot_general %216, %arg16, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %218 = stablehlo.dot_general %216, %arg17, contracting_dims = [1] x [1] : (tensor<128x64xf32>, tensor<128x64xf32>) -> tensor<128x128xf32>
    %219 = stablehlo.logistic %217 : tensor<128x128xf32>
    %220 = stablehlo.multiply %217, %219 : tensor<128x128xf32>
    %221 = stablehlo.multiply %220, %218 : tensor<128x128xf32>
    %222 = stablehlo.dot_general %221, %arg18, contracting_dims = [1] x [1] : (tensor<128x128xf32>, tensor<64x128xf32>) -> tensor<128x64xf32>
    %223 = stablehlo.add %204, %222 : tensor<128x64xf32>
    // write every layer's K/V of the chunk at start.. of the slot
    %224 = stablehlo.concatenate %98, %99, %200, %201, dim = 0 : (tensor<1x1x2x128x16xf32>, tensor<1x1x2x128x16xf32>, tensor<1x1x2x128x16xf32>, tensor<1x1x2x128x16xf32>) -> tensor<4x1x2x128x16xf32>
    %225 = stablehlo.reshape %224 : (tensor<4x1x2x128x16xf32>) -> tensor<2x2x2x128x16xf32>
    %226 = stablehlo.dynamic_update_slice %arg23, %225, %2, %2, %19, %arg27, %2 : (tensor<2x2x16x256x16xf32>, tensor<2x2x2x128x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x16x256x16xf32>
    // the last real token: row len - 1
    %227 = stablehlo.subtract %arg25, %3 : tensor<i32>
    %228 = stablehlo.dynamic_slice %223, %227, %2, sizes = [1, 64] : (tensor<128x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %229 = stablehlo.multiply %228, %228 : tensor<1x64xf32>
    %230 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %231 = stablehlo.reduce(%229 init: %230) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %232 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %233 = stablehlo.divide %231, %232 : tensor<1xf32>
    %234 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %235 = stablehlo.add %233, %234 : tensor<1xf32>
    %236 = stablehlo.rsqrt %235 : tensor<1xf32>
    %237 = stablehlo.broadcast_in_dim %236, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %238 = stablehlo.multiply %228, %237 : tensor<1x64xf32>
    %239 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %240 = stablehlo.multiply %238, %239 : tensor<1x64xf32>
    %241 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %242 = stablehlo.concatenate %240, %241, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %243 = stablehlo.dot_general %242, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %244 = stablehlo.slice %243 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %245 = stablehlo.reshape %244 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %245, %226 : tensor<512xf32>, tensor<2x2x16x256x16xf32>
  }
}

// chunk_logits_t16_w0_s4: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @chunk_logits_t16_w0_s4 {
  func.func @chunk_logits_t16_w0_s4(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x8x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<16xi32>, %arg25: tensor<i32>, %arg26: tensor<i32>, %arg27: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x8x256x16xf32>) {
    // embeddings and the rotary angles of positions start..start + t
    %0 = stablehlo.reshape %arg24 : (tensor<16xi32>) -> tensor<16x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<16x1xi32>) -> tensor<16x64xf32>
    %2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.dynamic_slice %arg21, %arg27, %2, sizes = [16, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
    %5 = stablehlo.dynamic_slice %arg22, %arg27, %2, sizes = [16, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<16x8xf32>
    // query i sees cached keys j < start and chunk keys window + k, k <= i
    %6 = stablehlo.iota dim = 0 : tensor<16x16xi32>
    %7 = stablehlo.iota dim = 1 : tensor<16x16xi32>
    %8 = stablehlo.broadcast_in_dim %arg27, dims = [] : (tensor<i32>) -> tensor<16x16xi32>
    %9 = stablehlo.compare LT, %7, %8 : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %10 = stablehlo.constant dense<0> : tensor<16x16xi32>
    %11 = stablehlo.compare GE, %7, %10 : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %12 = stablehlo.subtract %7, %10 : tensor<16x16xi32>
    %13 = stablehlo.compare LE, %12, %6 : (tensor<16x16xi32>, tensor<16x16xi32>) -> tensor<16x16xi1>
    %14 = stablehlo.and %11, %13 : tensor<16x16xi1>
    %15 = stablehlo.or %9, %14 : tensor<16x16xi1>
    %16 = stablehlo.broadcast_in_dim %15, dims = [2, 3] : (tensor<16x16xi1>) -> tensor<2x2x16x16xi1>
    %17 = stablehlo.constant dense<2.5e-1> : tensor<2x2x16x16xf32>
    %18 = stablehlo.constant dense<2> : tensor<i32>
    %19 = stablehlo.multiply %arg26, %18 : tensor<i32>
    // layer 0: attention of the chunk
    %20 = stablehlo.multiply %1, %1 : tensor<16x64xf32>
    %21 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %22 = stablehlo.reduce(%20 init: %21) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %23 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %24 = stablehlo.divide %22, %23 : tensor<16xf32>
    %25 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %26 = stablehlo.add %24, %25 : tensor<16xf32>
    %27 = stablehlo.rsqrt %26 : tensor<16xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %29 = stablehlo.multiply %1, %28 : tensor<16x64xf32>
    %30 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %31 = stablehlo.multiply %29, %30 : tensor<16x64xf32>
    %32 = stablehlo.dot_general %31, %arg2, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %33 = stablehlo.reshape %32 : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %34 = stablehlo.reshape %33 : (tensor<16x4x16xf32>) -> tensor<16x4x2x8xf32>
    %35 = "stablehlo.reverse"(%34) {dimensions = array<i64: 2>} : (tensor<16x4x2x8xf32>) -> tensor<16x4x2x8xf32>
    %36 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x4x2x8xf32>
    %37 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x4x2x8xf32>
    %38 = stablehlo.iota dim = 2 : tensor<16x4x2x8xi32>
    %39 = stablehlo.convert %38 : (tensor<16x4x2x8xi32>) -> tensor<16x4x2x8xf32>
    %40 = stablehlo.constant dense<2.0e0> : tensor<16x4x2x8xf32>
    %41 = stablehlo.constant dense<1.0e0> : tensor<16x4x2x8xf32>
    %42 = stablehlo.multiply %39, %40 : tensor<16x4x2x8xf32>
    %43 = stablehlo.subtract %42, %41 : tensor<16x4x2x8xf32>
    %44 = stablehlo.multiply %37, %43 : tensor<16x4x2x8xf32>
    %45 = stablehlo.multiply %34, %36 : tensor<16x4x2x8xf32>
    %46 = stablehlo.multiply %35, %44 : tensor<16x4x2x8xf32>
    %47 = stablehlo.add %45, %46 : tensor<16x4x2x8xf32>
    %48 = stablehlo.reshape %47 : (tensor<16x4x2x8xf32>) -> tensor<16x4x16xf32>
    %49 = stablehlo.dot_general %31, %arg3, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %50 = stablehlo.reshape %49 : (tensor<16x32xf32>) -> tensor<16x2x16xf32>
    %51 = stablehlo.reshape %50 : (tensor<16x2x16xf32>) -> tensor<16x2x2x8xf32>
    %52 = "stablehlo.reverse"(%51) {dimensions = array<i64: 2>} : (tensor<16x2x2x8xf32>) -> tensor<16x2x2x8xf32>
    %53 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x2x2x8xf32>
    %54 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x2x2x8xf32>
    %55 = stablehlo.iota dim = 2 : tensor<16x2x2x8xi32>
    %56 = stablehlo.convert %55 : (tensor<16x2x2x8xi32>) -> tensor<16x2x2x8xf32>
    %57 = stablehlo.constant dense<2.0e0> : tensor<16x2x2x8xf32>
    %58 = stablehlo.constant dense<1.0e0> : tensor<16x2x2x8xf32>
    %59 = stablehlo.multiply %56, %57 : tensor<16x2x2x8xf32>
    %60 = stablehlo.subtract %59, %58 : tensor<16x2x2x8xf32>
    %61 = stablehlo.multiply %54, %60 : tensor<16x2x2x8xf32>
    %62 = stablehlo.multiply %51, %53 : tensor<16x2x2x8xf32>
    %63 = stablehlo.multiply %52, %61 : tensor<16x2x2x8xf32>
    %64 = stablehlo.add %62, %63 : tensor<16x2x2x8xf32>
    %65 = stablehlo.reshape %64 : (tensor<16x2x2x8xf32>) -> tensor<16x2x16xf32>
    %66 = stablehlo.dot_general %31, %arg4, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %67 = stablehlo.reshape %66 : (tensor<16x32xf32>) -> tensor<16x2x16xf32>
    %68 = stablehlo.transpose %65, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %69 = stablehlo.transpose %67, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %70 = stablehlo.reshape %48 : (tensor<16x4x16xf32>) -> tensor<16x2x2x16xf32>
    %71 = stablehlo.transpose %70, dims = [1, 2, 0, 3] : (tensor<16x2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %72 = stablehlo.reshape %71 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %73 = stablehlo.dot_general %72, %68, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %74 = stablehlo.reshape %73 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %75 = stablehlo.multiply %74, %17 : tensor<2x2x16x16xf32>
    %76 = stablehlo.constant dense<0xFF800000> : tensor<2x2x16x16xf32>
    %77 = stablehlo.select %16, %75, %76 : tensor<2x2x16x16xi1>, tensor<2x2x16x16xf32>
    %78 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %79 = stablehlo.reduce(%77 init: %78) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %81 = stablehlo.subtract %77, %80 : tensor<2x2x16x16xf32>
    %82 = stablehlo.exponential %81 : tensor<2x2x16x16xf32>
    %83 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %84 = stablehlo.reduce(%82 init: %83) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %85 = stablehlo.broadcast_in_dim %84, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %86 = stablehlo.divide %82, %85 : tensor<2x2x16x16xf32>
    %87 = stablehlo.reshape %86 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %88 = stablehlo.dot_general %87, %69, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %89 = stablehlo.reshape %88 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %90 = stablehlo.transpose %89, dims = [2, 0, 1, 3] : (tensor<2x2x16x16xf32>) -> tensor<16x2x2x16xf32>
    %91 = stablehlo.reshape %68 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %92 = stablehlo.reshape %69 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %93 = stablehlo.reshape %90 : (tensor<16x2x2x16xf32>) -> tensor<16x64xf32>
    %94 = stablehlo.dot_general %93, %arg5, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %95 = stablehlo.add %1, %94 : tensor<16x64xf32>
    // layer 0: MLP
    %96 = stablehlo.multiply %95, %95 : tensor<16x64xf32>
    %97 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %98 = stablehlo.reduce(%96 init: %97) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %99 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %100 = stablehlo.divide %98, %99 : tensor<16xf32>
    %101 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %102 = stablehlo.add %100, %101 : tensor<16xf32>
    %103 = stablehlo.rsqrt %102 : tensor<16xf32>
    %104 = stablehlo.broadcast_in_dim %103, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %105 = stablehlo.multiply %95, %104 : tensor<16x64xf32>
    %106 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %107 = stablehlo.multiply %105, %106 : tensor<16x64xf32>
    %108 = stablehlo.dot_general %107, %arg7, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %109 = stablehlo.dot_general %107, %arg8, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %110 = stablehlo.logistic %108 : tensor<16x128xf32>
    %111 = stablehlo.multiply %108, %110 : tensor<16x128xf32>
    %112 = stablehlo.multiply %111, %109 : tensor<16x128xf32>
    %113 = stablehlo.dot_general %112, %arg9, contracting_dims = [1] x [1] : (tensor<16x128xf32>, tensor<64x128xf32>) -> tensor<16x64xf32>
    %114 = stablehlo.add %95, %113 : tensor<16x64xf32>
    // layer 1: attention of the chunk
    %115 = stablehlo.multiply %114, %114 : tensor<16x64xf32>
    %116 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %117 = stablehlo.reduce(%115 init: %116) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %118 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %119 = stablehlo.divide %117, %118 : tensor<16xf32>
    %120 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %121 = stablehlo.add %119, %120 : tensor<16xf32>
    %122 = stablehlo.rsqrt %121 : tensor<16xf32>
    %123 = stablehlo.broadcast_in_dim %122, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %124 = stablehlo.multiply %114, %123 : tensor<16x64xf32>
    %125 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %126 = stablehlo.multiply %124, %125 : tensor<16x64xf32>
    %127 = stablehlo.dot_general %126, %arg11, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %128 = stablehlo.reshape %127 : (tensor<16x64xf32>) -> tensor<16x4x16xf32>
    %129 = stablehlo.reshape %128 : (tensor<16x4x16xf32>) -> tensor<16x4x2x8xf32>
    %130 = "stablehlo.reverse"(%129) {dimensions = array<i64: 2>} : (tensor<16x4x2x8xf32>) -> tensor<16x4x2x8xf32>
    %131 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x4x2x8xf32>
    %132 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x4x2x8xf32>
    %133 = stablehlo.iota dim = 2 : tensor<16x4x2x8xi32>
    %134 = stablehlo.convert %133 : (tensor<16x4x2x8xi32>) -> tensor<16x4x2x8xf32>
    %135 = stablehlo.constant dense<2.0e0> : tensor<16x4x2x8xf32>
    %136 = stablehlo.constant dense<1.0e0> : tensor<16x4x2x8xf32>
    %137 = stablehlo.multiply %134, %135 : tensor<16x4x2x8xf32>
    %138 = stablehlo.subtract %137, %136 : tensor<16x4x2x8xf32>
    %139 = stablehlo.multiply %132, %138 : tensor<16x4x2x8xf32>
    %140 = stablehlo.multiply %129, %131 : tensor<16x4x2x8xf32>
    %141 = stablehlo.multiply %130, %139 : tensor<16x4x2x8xf32>
    %142 = stablehlo.add %140, %141 : tensor<16x4x2x8xf32>
    %143 = stablehlo.reshape %142 : (tensor<16x4x2x8xf32>) -> tensor<16x4x16xf32>
    %144 = stablehlo.dot_general %126, %arg12, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %145 = stablehlo.reshape %144 : (tensor<16x32xf32>) -> tensor<16x2x16xf32>
    %146 = stablehlo.reshape %145 : (tensor<16x2x16xf32>) -> tensor<16x2x2x8xf32>
    %147 = "stablehlo.reverse"(%146) {dimensions = array<i64: 2>} : (tensor<16x2x2x8xf32>) -> tensor<16x2x2x8xf32>
    %148 = stablehlo.broadcast_in_dim %4, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x2x2x8xf32>
    %149 = stablehlo.broadcast_in_dim %5, dims = [0, 3] : (tensor<16x8xf32>) -> tensor<16x2x2x8xf32>
    %150 = stablehlo.iota dim = 2 : tensor<16x2x2x8xi32>
    %151 = stablehlo.convert %150 : (tensor<16x2x2x8xi32>) -> tensor<16x2x2x8xf32>
    %152 = stablehlo.constant dense<2.0e0> : tensor<16x2x2x8xf32>
    %153 = stablehlo.constant dense<1.0e0> : tensor<16x2x2x8xf32>
    %154 = stablehlo.multiply %151, %152 : tensor<16x2x2x8xf32>
    %155 = stablehlo.subtract %154, %153 : tensor<16x2x2x8xf32>
    %156 = stablehlo.multiply %149, %155 : tensor<16x2x2x8xf32>
    %157 = stablehlo.multiply %146, %148 : tensor<16x2x2x8xf32>
    %158 = stablehlo.multiply %147, %156 : tensor<16x2x2x8xf32>
    %159 = stablehlo.add %157, %158 : tensor<16x2x2x8xf32>
    %160 = stablehlo.reshape %159 : (tensor<16x2x2x8xf32>) -> tensor<16x2x16xf32>
    %161 = stablehlo.dot_general %126, %arg13, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<32x64xf32>) -> tensor<16x32xf32>
    %162 = stablehlo.reshape %161 : (tensor<16x32xf32>) -> tensor<16x2x16xf32>
    %163 = stablehlo.transpose %160, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %164 = stablehlo.transpose %162, dims = [1, 0, 2] : (tensor<16x2x16xf32>) -> tensor<2x16x16xf32>
    %165 = stablehlo.reshape %143 : (tensor<16x4x16xf32>) -> tensor<16x2x2x16xf32>
    %166 = stablehlo.transpose %165, dims = [1, 2, 0, 3] : (tensor<16x2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %167 = stablehlo.reshape %166 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %168 = stablehlo.dot_general %167, %163, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %169 = stablehlo.reshape %168 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %170 = stablehlo.multiply %169, %17 : tensor<2x2x16x16xf32>
    %171 = stablehlo.constant dense<0xFF800000> : tensor<2x2x16x16xf32>
    %172 = stablehlo.select %16, %170, %171 : tensor<2x2x16x16xi1>, tensor<2x2x16x16xf32>
    %173 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %174 = stablehlo.reduce(%172 init: %173) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %175 = stablehlo.broadcast_in_dim %174, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %176 = stablehlo.subtract %172, %175 : tensor<2x2x16x16xf32>
    %177 = stablehlo.exponential %176 : tensor<2x2x16x16xf32>
    %178 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %179 = stablehlo.reduce(%177 init: %178) applies stablehlo.add across dimensions = [3] : (tensor<2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x16xf32>
    %180 = stablehlo.broadcast_in_dim %179, dims = [0, 1, 2] : (tensor<2x2x16xf32>) -> tensor<2x2x16x16xf32>
    %181 = stablehlo.divide %177, %180 : tensor<2x2x16x16xf32>
    %182 = stablehlo.reshape %181 : (tensor<2x2x16x16xf32>) -> tensor<2x32x16xf32>
    %183 = stablehlo.dot_general %182, %164, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x32x16xf32>, tensor<2x16x16xf32>) -> tensor<2x32x16xf32>
    %184 = stablehlo.reshape %183 : (tensor<2x32x16xf32>) -> tensor<2x2x16x16xf32>
    %185 = stablehlo.transpose %184, dims = [2, 0, 1, 3] : (tensor<2x2x16x16xf32>) -> tensor<16x2x2x16xf32>
    %186 = stablehlo.reshape %163 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %187 = stablehlo.reshape %164 : (tensor<2x16x16xf32>) -> tensor<1x1x2x16x16xf32>
    %188 = stablehlo.reshape %185 : (tensor<16x2x2x16xf32>) -> tensor<16x64xf32>
    %189 = stablehlo.dot_general %188, %arg14, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<16x64xf32>
    %190 = stablehlo.add %114, %189 : tensor<16x64xf32>
    // layer 1: MLP
    %191 = stablehlo.multiply %190, %190 : tensor<16x64xf32>
    %192 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %193 = stablehlo.reduce(%191 init: %192) applies stablehlo.add across dimensions = [1] : (tensor<16x64xf32>, tensor<f32>) -> tensor<16xf32>
    %194 = stablehlo.constant dense<6.4e1> : tensor<16xf32>
    %195 = stablehlo.divide %193, %194 : tensor<16xf32>
    %196 = stablehlo.constant dense<1.0e-5> : tensor<16xf32>
    %197 = stablehlo.add %195, %196 : tensor<16xf32>
    %198 = stablehlo.rsqrt %197 : tensor<16xf32>
    %199 = stablehlo.broadcast_in_dim %198, dims = [0] : (tensor<16xf32>) -> tensor<16x64xf32>
    %200 = stablehlo.multiply %190, %199 : tensor<16x64xf32>
    %201 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<16x64xf32>
    %202 = stablehlo.multiply %200, %201 : tensor<16x64xf32>
    %203 = stablehlo.dot_general %202, %arg16, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %204 = stablehlo.dot_general %202, %arg17, contracting_dims = [1] x [1] : (tensor<16x64xf32>, tensor<128x64xf32>) -> tensor<16x128xf32>
    %205 = stablehlo.logistic %203 : tensor<16x128xf32>
    %206 = stablehlo.multiply %203, %205 : tensor<16x128xf32>
    %207 = stablehlo.multiply %206, %204 : tensor<16x128xf32>
    %208 = stablehlo.dot_general %207, %arg18, contracting_dims = [1] x [1] : (tensor<16x128xf32>, tensor<64x128xf32>) -> tensor<16x64xf32>
    %209 = stablehlo.add %190, %208 : tensor<16x64xf32>
    // write every layer's K/V of the chunk at start.. of the slot
    %210 = stablehlo.concatenate %91, %92, %186, %187, dim = 0 : (tensor<1x1x2x16x16xf32>, tensor<1x1x2x16x16xf32>, tensor<1x1x2x16x16xf32>, tensor<1x1x2x16x16xf32>) -> tensor<4x1x2x16x16xf32>
    %211 = stablehlo.reshape %210 : (tensor<4x1x2x16x16xf32>) -> tensor<2x2x2x16x16xf32>
    %212 = stablehlo.dynamic_update_slice %arg23, %211, %2, %2, %19, %arg27, %2 : (tensor<2x2x8x256x16xf32>, tensor<2x2x2x16x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    // the last real token: row len - 1
    %213 = stablehlo.subtract %arg25, %3 : tensor<i32>
    %214 = stablehlo.dynamic_slice %209, %213, %2, sizes = [1, 64] : (tensor<16x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %215 = stablehlo.multiply %214, %214 : tensor<1x64xf32>
    %216 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %217 = stablehlo.reduce(%215 init: %216) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %218 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %219 = stablehlo.divide %217, %218 : tensor<1xf32>
    %220 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %221 = stablehlo.add %219, %220 : tensor<1xf32>
    %222 = stablehlo.rsqrt %221 : tensor<1xf32>
    %223 = stablehlo.broadcast_in_dim %222, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %224 = stablehlo.multiply %214, %223 : tensor<1x64xf32>
    %225 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %226 = stablehlo.multiply %224, %225 : tensor<1x64xf32>
    %227 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %228 = stablehlo.concatenate %226, %227, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %229 = stablehlo.dot_general %228, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %230 = stablehlo.slice %229 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %231 = stablehlo.reshape %230 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %231, %212 : tensor<512xf32>, tensor<2x2x8x256x16xf32>
  }
}

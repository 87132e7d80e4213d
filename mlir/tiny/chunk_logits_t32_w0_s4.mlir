// chunk_logits_t32_w0_s4: emitted by iree-llm 0.1.0 (graph format 3).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @chunk_logits_t32_w0_s4 {
  func.func @chunk_logits_t32_w0_s4(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x8x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<32xi32>, %arg25: tensor<i32>, %arg26: tensor<i32>, %arg27: tensor<i32>) -> (tensor<512xf32>, tensor<2x2x8x256x16xf32>) {
    // embeddings and the rotary angles of positions start..start + t
    %0 = stablehlo.reshape %arg24 : (tensor<32xi32>) -> tensor<32x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<32x1xi32>) -> tensor<32x64xf32>
    %2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.dynamic_slice %arg21, %arg27, %2, sizes = [32, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
    %5 = stablehlo.dynamic_slice %arg22, %arg27, %2, sizes = [32, 8] : (tensor<256x8xf32>, tensor<i32>, tensor<i32>) -> tensor<32x8xf32>
    // query i sees cached keys j < start and chunk keys window + k, k <= i
    %6 = stablehlo.iota dim = 0 : tensor<32x32xi32>
    %7 = stablehlo.iota dim = 1 : tensor<32x32xi32>
    %8 = stablehlo.broadcast_in_dim %arg27, dims = [] : (tensor<i32>) -> tensor<32x32xi32>
    %9 = stablehlo.compare LT, %7, %8 : (tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi1>
    %10 = stablehlo.constant dense<0> : tensor<32x32xi32>
    %11 = stablehlo.compare GE, %7, %10 : (tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi1>
    %12 = stablehlo.subtract %7, %10 : tensor<32x32xi32>
    %13 = stablehlo.compare LE, %12, %6 : (tensor<32x32xi32>, tensor<32x32xi32>) -> tensor<32x32xi1>
    %14 = stablehlo.and %11, %13 : tensor<32x32xi1>
    %15 = stablehlo.or %9, %14 : tensor<32x32xi1>
    %16 = stablehlo.broadcast_in_dim %15, dims = [2, 3] : (tensor<32x32xi1>) -> tensor<2x2x32x32xi1>
    %17 = stablehlo.constant dense<2.5e-1> : tensor<2x2x32x32xf32>
    %18 = stablehlo.constant dense<2> : tensor<i32>
    %19 = stablehlo.multiply %arg26, %18 : tensor<i32>
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
    %32 = stablehlo.dot_general %31, %arg2, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %33 = stablehlo.reshape %32 : (tensor<32x64xf32>) -> tensor<32x4x16xf32>
    %34 = stablehlo.slice %33 [0:32, 0:4, 0:8] : (tensor<32x4x16xf32>) -> tensor<32x4x8xf32>
    %35 = stablehlo.slice %33 [0:32, 0:4, 8:16] : (tensor<32x4x16xf32>) -> tensor<32x4x8xf32>
    %36 = stablehlo.broadcast_in_dim %4, dims = [0, 2] : (tensor<32x8xf32>) -> tensor<32x4x8xf32>
    %37 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<32x8xf32>) -> tensor<32x4x8xf32>
    %38 = stablehlo.multiply %34, %36 : tensor<32x4x8xf32>
    %39 = stablehlo.multiply %35, %37 : tensor<32x4x8xf32>
    %40 = stablehlo.subtract %38, %39 : tensor<32x4x8xf32>
    %41 = stablehlo.multiply %35, %36 : tensor<32x4x8xf32>
    %42 = stablehlo.multiply %34, %37 : tensor<32x4x8xf32>
    %43 = stablehlo.add %41, %42 : tensor<32x4x8xf32>
    %44 = stablehlo.concatenate %40, %43, dim = 2 : (tensor<32x4x8xf32>, tensor<32x4x8xf32>) -> tensor<32x4x16xf32>
    %45 = stablehlo.dot_general %31, %arg3, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x32xf32>
    %46 = stablehlo.reshape %45 : (tensor<32x32xf32>) -> tensor<32x2x16xf32>
    %47 = stablehlo.slice %46 [0:32, 0:2, 0:8] : (tensor<32x2x16xf32>) -> tensor<32x2x8xf32>
    %48 = stablehlo.slice %46 [0:32, 0:2, 8:16] : (tensor<32x2x16xf32>) -> tensor<32x2x8xf32>
    %49 = stablehlo.broadcast_in_dim %4, dims = [0, 2] : (tensor<32x8xf32>) -> tensor<32x2x8xf32>
    %50 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<32x8xf32>) -> tensor<32x2x8xf32>
    %51 = stablehlo.multiply %47, %49 : tensor<32x2x8xf32>
    %52 = stablehlo.multiply %48, %50 : tensor<32x2x8xf32>
    %53 = stablehlo.subtract %51, %52 : tensor<32x2x8xf32>
    %54 = stablehlo.multiply %48, %49 : tensor<32x2x8xf32>
    %55 = stablehlo.multiply %47, %50 : tensor<32x2x8xf32>
    %56 = stablehlo.add %54, %55 : tensor<32x2x8xf32>
    %57 = stablehlo.concatenate %53, %56, dim = 2 : (tensor<32x2x8xf32>, tensor<32x2x8xf32>) -> tensor<32x2x16xf32>
    %58 = stablehlo.dot_general %31, %arg4, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x32xf32>
    %59 = stablehlo.reshape %58 : (tensor<32x32xf32>) -> tensor<32x2x16xf32>
    %60 = stablehlo.transpose %57, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %61 = stablehlo.transpose %59, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %62 = stablehlo.reshape %44 : (tensor<32x4x16xf32>) -> tensor<32x2x2x16xf32>
    %63 = stablehlo.transpose %62, dims = [1, 2, 0, 3] : (tensor<32x2x2x16xf32>) -> tensor<2x2x32x16xf32>
    %64 = stablehlo.reshape %63 : (tensor<2x2x32x16xf32>) -> tensor<2x64x16xf32>
    %65 = stablehlo.dot_general %64, %60, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x64x32xf32>
    %66 = stablehlo.reshape %65 : (tensor<2x64x32xf32>) -> tensor<2x2x32x32xf32>
    %67 = stablehlo.multiply %66, %17 : tensor<2x2x32x32xf32>
    %68 = stablehlo.constant dense<0xFF800000> : tensor<2x2x32x32xf32>
    %69 = stablehlo.select %16, %67, %68 : tensor<2x2x32x32xi1>, tensor<2x2x32x32xf32>
    %70 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %71 = stablehlo.reduce(%69 init: %70) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x32xf32>
    %73 = stablehlo.subtract %69, %72 : tensor<2x2x32x32xf32>
    %74 = stablehlo.exponential %73 : tensor<2x2x32x32xf32>
    %75 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %76 = stablehlo.reduce(%74 init: %75) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x32xf32>
    %78 = stablehlo.divide %74, %77 : tensor<2x2x32x32xf32>
    %79 = stablehlo.reshape %78 : (tensor<2x2x32x32xf32>) -> tensor<2x64x32xf32>
    %80 = stablehlo.dot_general %79, %61, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x64x32xf32>, tensor<2x32x16xf32>) -> tensor<2x64x16xf32>
    %81 = stablehlo.reshape %80 : (tensor<2x64x16xf32>) -> tensor<2x2x32x16xf32>
    %82 = stablehlo.transpose %81, dims = [2, 0, 1, 3] : (tensor<2x2x32x16xf32>) -> tensor<32x2x2x16xf32>
    %83 = stablehlo.reshape %60 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %84 = stablehlo.reshape %61 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %85 = stablehlo.reshape %82 : (tensor<32x2x2x16xf32>) -> tensor<32x64xf32>
    %86 = stablehlo.dot_general %85, %arg5, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
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
    %98 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %99 = stablehlo.multiply %97, %98 : tensor<32x64xf32>
    %100 = stablehlo.dot_general %99, %arg7, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %101 = stablehlo.dot_general %99, %arg8, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %102 = stablehlo.logistic %100 : tensor<32x128xf32>
    %103 = stablehlo.multiply %100, %102 : tensor<32x128xf32>
    %104 = stablehlo.multiply %103, %101 : tensor<32x128xf32>
    %105 = stablehlo.dot_general %104, %arg9, contracting_dims = [1] x [1] : (tensor<32x128xf32>, tensor<64x128xf32>) -> tensor<32x64xf32>
    %106 = stablehlo.add %87, %105 : tensor<32x64xf32>
    // layer 1: attention of the chunk
    %107 = stablehlo.multiply %106, %106 : tensor<32x64xf32>
    %108 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %109 = stablehlo.reduce(%107 init: %108) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %110 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %111 = stablehlo.divide %109, %110 : tensor<32xf32>
    %112 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %113 = stablehlo.add %111, %112 : tensor<32xf32>
    %114 = stablehlo.rsqrt %113 : tensor<32xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %116 = stablehlo.multiply %106, %115 : tensor<32x64xf32>
    %117 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %118 = stablehlo.multiply %116, %117 : tensor<32x64xf32>
    %119 = stablehlo.dot_general %118, %arg11, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %120 = stablehlo.reshape %119 : (tensor<32x64xf32>) -> tensor<32x4x16xf32>
    %121 = stablehlo.slice %120 [0:32, 0:4, 0:8] : (tensor<32x4x16xf32>) -> tensor<32x4x8xf32>
    %122 = stablehlo.slice %120 [0:32, 0:4, 8:16] : (tensor<32x4x16xf32>) -> tensor<32x4x8xf32>
    %123 = stablehlo.broadcast_in_dim %4, dims = [0, 2] : (tensor<32x8xf32>) -> tensor<32x4x8xf32>
    %124 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<32x8xf32>) -> tensor<32x4x8xf32>
    %125 = stablehlo.multiply %121, %123 : tensor<32x4x8xf32>
    %126 = stablehlo.multiply %122, %124 : tensor<32x4x8xf32>
    %127 = stablehlo.subtract %125, %126 : tensor<32x4x8xf32>
    %128 = stablehlo.multiply %122, %123 : tensor<32x4x8xf32>
    %129 = stablehlo.multiply %121, %124 : tensor<32x4x8xf32>
    %130 = stablehlo.add %128, %129 : tensor<32x4x8xf32>
    %131 = stablehlo.concatenate %127, %130, dim = 2 : (tensor<32x4x8xf32>, tensor<32x4x8xf32>) -> tensor<32x4x16xf32>
    %132 = stablehlo.dot_general %118, %arg12, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x32xf32>
    %133 = stablehlo.reshape %132 : (tensor<32x32xf32>) -> tensor<32x2x16xf32>
    %134 = stablehlo.slice %133 [0:32, 0:2, 0:8] : (tensor<32x2x16xf32>) -> tensor<32x2x8xf32>
    %135 = stablehlo.slice %133 [0:32, 0:2, 8:16] : (tensor<32x2x16xf32>) -> tensor<32x2x8xf32>
    %136 = stablehlo.broadcast_in_dim %4, dims = [0, 2] : (tensor<32x8xf32>) -> tensor<32x2x8xf32>
    %137 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<32x8xf32>) -> tensor<32x2x8xf32>
    %138 = stablehlo.multiply %134, %136 : tensor<32x2x8xf32>
    %139 = stablehlo.multiply %135, %137 : tensor<32x2x8xf32>
    %140 = stablehlo.subtract %138, %139 : tensor<32x2x8xf32>
    %141 = stablehlo.multiply %135, %136 : tensor<32x2x8xf32>
    %142 = stablehlo.multiply %134, %137 : tensor<32x2x8xf32>
    %143 = stablehlo.add %141, %142 : tensor<32x2x8xf32>
    %144 = stablehlo.concatenate %140, %143, dim = 2 : (tensor<32x2x8xf32>, tensor<32x2x8xf32>) -> tensor<32x2x16xf32>
    %145 = stablehlo.dot_general %118, %arg13, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x32xf32>
    %146 = stablehlo.reshape %145 : (tensor<32x32xf32>) -> tensor<32x2x16xf32>
    %147 = stablehlo.transpose %144, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %148 = stablehlo.transpose %146, dims = [1, 0, 2] : (tensor<32x2x16xf32>) -> tensor<2x32x16xf32>
    %149 = stablehlo.reshape %131 : (tensor<32x4x16xf32>) -> tensor<32x2x2x16xf32>
    %150 = stablehlo.transpose %149, dims = [1, 2, 0, 3] : (tensor<32x2x2x16xf32>) -> tensor<2x2x32x16xf32>
    %151 = stablehlo.reshape %150 : (tensor<2x2x32x16xf32>) -> tensor<2x64x16xf32>
    %152 = stablehlo.dot_general %151, %147, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x64x16xf32>, tensor<2x32x16xf32>) -> tensor<2x64x32xf32>
    %153 = stablehlo.reshape %152 : (tensor<2x64x32xf32>) -> tensor<2x2x32x32xf32>
    %154 = stablehlo.multiply %153, %17 : tensor<2x2x32x32xf32>
    %155 = stablehlo.constant dense<0xFF800000> : tensor<2x2x32x32xf32>
    %156 = stablehlo.select %16, %154, %155 : tensor<2x2x32x32xi1>, tensor<2x2x32x32xf32>
    %157 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %158 = stablehlo.reduce(%156 init: %157) applies stablehlo.maximum across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x32xf32>
    %160 = stablehlo.subtract %156, %159 : tensor<2x2x32x32xf32>
    %161 = stablehlo.exponential %160 : tensor<2x2x32x32xf32>
    %162 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %163 = stablehlo.reduce(%161 init: %162) applies stablehlo.add across dimensions = [3] : (tensor<2x2x32x32xf32>, tensor<f32>) -> tensor<2x2x32xf32>
    %164 = stablehlo.broadcast_in_dim %163, dims = [0, 1, 2] : (tensor<2x2x32xf32>) -> tensor<2x2x32x32xf32>
    %165 = stablehlo.divide %161, %164 : tensor<2x2x32x32xf32>
    %166 = stablehlo.reshape %165 : (tensor<2x2x32x32xf32>) -> tensor<2x64x32xf32>
    %167 = stablehlo.dot_general %166, %148, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x64x32xf32>, tensor<2x32x16xf32>) -> tensor<2x64x16xf32>
    %168 = stablehlo.reshape %167 : (tensor<2x64x16xf32>) -> tensor<2x2x32x16xf32>
    %169 = stablehlo.transpose %168, dims = [2, 0, 1, 3] : (tensor<2x2x32x16xf32>) -> tensor<32x2x2x16xf32>
    %170 = stablehlo.reshape %147 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %171 = stablehlo.reshape %148 : (tensor<2x32x16xf32>) -> tensor<1x1x2x32x16xf32>
    %172 = stablehlo.reshape %169 : (tensor<32x2x2x16xf32>) -> tensor<32x64xf32>
    %173 = stablehlo.dot_general %172, %arg14, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<64x64xf32>) -> tensor<32x64xf32>
    %174 = stablehlo.add %106, %173 : tensor<32x64xf32>
    // layer 1: MLP
    %175 = stablehlo.multiply %174, %174 : tensor<32x64xf32>
    %176 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %177 = stablehlo.reduce(%175 init: %176) applies stablehlo.add across dimensions = [1] : (tensor<32x64xf32>, tensor<f32>) -> tensor<32xf32>
    %178 = stablehlo.constant dense<6.4e1> : tensor<32xf32>
    %179 = stablehlo.divide %177, %178 : tensor<32xf32>
    %180 = stablehlo.constant dense<1.0e-5> : tensor<32xf32>
    %181 = stablehlo.add %179, %180 : tensor<32xf32>
    %182 = stablehlo.rsqrt %181 : tensor<32xf32>
    %183 = stablehlo.broadcast_in_dim %182, dims = [0] : (tensor<32xf32>) -> tensor<32x64xf32>
    %184 = stablehlo.multiply %174, %183 : tensor<32x64xf32>
    %185 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
    %186 = stablehlo.multiply %184, %185 : tensor<32x64xf32>
    %187 = stablehlo.dot_general %186, %arg16, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %188 = stablehlo.dot_general %186, %arg17, contracting_dims = [1] x [1] : (tensor<32x64xf32>, tensor<128x64xf32>) -> tensor<32x128xf32>
    %189 = stablehlo.logistic %187 : tensor<32x128xf32>
    %190 = stablehlo.multiply %187, %189 : tensor<32x128xf32>
    %191 = stablehlo.multiply %190, %188 : tensor<32x128xf32>
    %192 = stablehlo.dot_general %191, %arg18, contracting_dims = [1] x [1] : (tensor<32x128xf32>, tensor<64x128xf32>) -> tensor<32x64xf32>
    %193 = stablehlo.add %174, %192 : tensor<32x64xf32>
    // write every layer's K/V of the chunk at start.. of the slot
    %194 = stablehlo.concatenate %83, %84, %170, %171, dim = 0 : (tensor<1x1x2x32x16xf32>, tensor<1x1x2x32x16xf32>, tensor<1x1x2x32x16xf32>, tensor<1x1x2x32x16xf32>) -> tensor<4x1x2x32x16xf32>
    %195 = stablehlo.reshape %194 : (tensor<4x1x2x32x16xf32>) -> tensor<2x2x2x32x16xf32>
    %196 = stablehlo.dynamic_update_slice %arg23, %195, %2, %2, %19, %arg27, %2 : (tensor<2x2x8x256x16xf32>, tensor<2x2x2x32x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x8x256x16xf32>
    // the last real token: row len - 1
    %197 = stablehlo.subtract %arg25, %3 : tensor<i32>
    %198 = stablehlo.dynamic_slice %193, %197, %2, sizes = [1, 64] : (tensor<32x64xf32>, tensor<i32>, tensor<i32>) -> tensor<1x64xf32>
    %199 = stablehlo.multiply %198, %198 : tensor<1x64xf32>
    %200 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %201 = stablehlo.reduce(%199 init: %200) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %202 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %203 = stablehlo.divide %201, %202 : tensor<1xf32>
    %204 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %205 = stablehlo.add %203, %204 : tensor<1xf32>
    %206 = stablehlo.rsqrt %205 : tensor<1xf32>
    %207 = stablehlo.broadcast_in_dim %206, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %208 = stablehlo.multiply %198, %207 : tensor<1x64xf32>
    %209 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %210 = stablehlo.multiply %208, %209 : tensor<1x64xf32>
    %211 = stablehlo.constant dense<0.0e0> : tensor<7x64xf32>
    %212 = stablehlo.concatenate %210, %211, dim = 0 : (tensor<1x64xf32>, tensor<7x64xf32>) -> tensor<8x64xf32>
    %213 = stablehlo.dot_general %212, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    %214 = stablehlo.slice %213 [0:1, 0:512] : (tensor<8x512xf32>) -> tensor<1x512xf32>
    %215 = stablehlo.reshape %214 : (tensor<1x512xf32>) -> tensor<512xf32>
    return %215, %196 : tensor<512xf32>, tensor<2x2x8x256x16xf32>
  }
}

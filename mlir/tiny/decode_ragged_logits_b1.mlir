// decode_ragged_logits_b1: emitted by iree-llm 0.1.0 (graph format 1).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_ragged_logits_b1 {
  func.func @decode_ragged_logits_b1(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<1xi32>, %arg25: tensor<1xi32>) -> (tensor<1x512xf32>, tensor<2x2x2x256x16xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg24 : (tensor<1xi32>) -> tensor<1x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<1x1xi32>) -> tensor<1x64xf32>
    %2 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<1x1xi32>
    %3 = "stablehlo.gather"(%arg21, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    %4 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<1x1xi32>
    %5 = "stablehlo.gather"(%arg22, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    // per row: its position as a scalar and its visibility mask (key s <= pos)
    %6 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.iota dim = 0 : tensor<256xi32>
    %9 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<i32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %11 = stablehlo.compare LE, %8, %10 : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi1>
    %12 = stablehlo.broadcast_in_dim %11, dims = [2] : (tensor<256xi1>) -> tensor<2x2x256xi1>
    %13 = stablehlo.constant dense<2.5e-1> : tensor<2x2x256xf32>
    // layer 0: projections for all rows
    %14 = stablehlo.multiply %1, %1 : tensor<1x64xf32>
    %15 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %16 = stablehlo.reduce(%14 init: %15) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %17 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %18 = stablehlo.divide %16, %17 : tensor<1xf32>
    %19 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %20 = stablehlo.add %18, %19 : tensor<1xf32>
    %21 = stablehlo.rsqrt %20 : tensor<1xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %23 = stablehlo.multiply %1, %22 : tensor<1x64xf32>
    %24 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %25 = stablehlo.multiply %23, %24 : tensor<1x64xf32>
    %26 = stablehlo.dot_general %25, %arg2, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    %27 = stablehlo.reshape %26 : (tensor<1x64xf32>) -> tensor<1x4x16xf32>
    %28 = stablehlo.slice %27 [0:1, 0:4, 0:8] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %29 = stablehlo.slice %27 [0:1, 0:4, 8:16] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %30 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %31 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %32 = stablehlo.multiply %28, %30 : tensor<1x4x8xf32>
    %33 = stablehlo.multiply %29, %31 : tensor<1x4x8xf32>
    %34 = stablehlo.subtract %32, %33 : tensor<1x4x8xf32>
    %35 = stablehlo.multiply %29, %30 : tensor<1x4x8xf32>
    %36 = stablehlo.multiply %28, %31 : tensor<1x4x8xf32>
    %37 = stablehlo.add %35, %36 : tensor<1x4x8xf32>
    %38 = stablehlo.concatenate %34, %37, dim = 2 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x16xf32>
    %39 = stablehlo.dot_general %25, %arg3, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<32x64xf32>) -> tensor<1x32xf32>
    %40 = stablehlo.reshape %39 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %41 = stablehlo.slice %40 [0:1, 0:2, 0:8] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %42 = stablehlo.slice %40 [0:1, 0:2, 8:16] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %43 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %44 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %45 = stablehlo.multiply %41, %43 : tensor<1x2x8xf32>
    %46 = stablehlo.multiply %42, %44 : tensor<1x2x8xf32>
    %47 = stablehlo.subtract %45, %46 : tensor<1x2x8xf32>
    %48 = stablehlo.multiply %42, %43 : tensor<1x2x8xf32>
    %49 = stablehlo.multiply %41, %44 : tensor<1x2x8xf32>
    %50 = stablehlo.add %48, %49 : tensor<1x2x8xf32>
    %51 = stablehlo.concatenate %47, %50, dim = 2 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x16xf32>
    %52 = stablehlo.dot_general %25, %arg4, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<32x64xf32>) -> tensor<1x32xf32>
    %53 = stablehlo.reshape %52 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %54 = stablehlo.constant dense<0> : tensor<i32>
    // layer 0, row 0: write K/V at pos, attend to 0..=pos
    %55 = stablehlo.reshape %51 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %56 = stablehlo.reshape %53 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %57 = stablehlo.dynamic_update_slice %arg23, %55, %54, %6, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %58 = stablehlo.dynamic_update_slice %57, %56, %54, %7, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %59 = stablehlo.slice %58 [0:1, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %60 = stablehlo.reshape %59 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %61 = stablehlo.slice %58 [0:1, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %62 = stablehlo.reshape %61 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %63 = stablehlo.reshape %38 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %64 = stablehlo.dot_general %63, %60, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %65 = stablehlo.multiply %64, %13 : tensor<2x2x256xf32>
    %66 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %67 = stablehlo.select %12, %65, %66 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %68 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %69 = stablehlo.reduce(%67 init: %68) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %71 = stablehlo.subtract %67, %70 : tensor<2x2x256xf32>
    %72 = stablehlo.exponential %71 : tensor<2x2x256xf32>
    %73 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %74 = stablehlo.reduce(%72 init: %73) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %76 = stablehlo.divide %72, %75 : tensor<2x2x256xf32>
    %77 = stablehlo.dot_general %76, %62, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %78 = stablehlo.reshape %77 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %79 = stablehlo.dot_general %78, %arg5, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    %80 = stablehlo.add %1, %79 : tensor<1x64xf32>
    // layer 0: MLP
    %81 = stablehlo.multiply %80, %80 : tensor<1x64xf32>
    %82 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %83 = stablehlo.reduce(%81 init: %82) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %84 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %85 = stablehlo.divide %83, %84 : tensor<1xf32>
    %86 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %87 = stablehlo.add %85, %86 : tensor<1xf32>
    %88 = stablehlo.rsqrt %87 : tensor<1xf32>
    %89 = stablehlo.broadcast_in_dim %88, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %90 = stablehlo.multiply %80, %89 : tensor<1x64xf32>
    %91 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %92 = stablehlo.multiply %90, %91 : tensor<1x64xf32>
    %93 = stablehlo.dot_general %92, %arg7, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<128x64xf32>) -> tensor<1x128xf32>
    %94 = stablehlo.dot_general %92, %arg8, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<128x64xf32>) -> tensor<1x128xf32>
    %95 = stablehlo.logistic %93 : tensor<1x128xf32>
    %96 = stablehlo.multiply %93, %95 : tensor<1x128xf32>
    %97 = stablehlo.multiply %96, %94 : tensor<1x128xf32>
    %98 = stablehlo.dot_general %97, %arg9, contracting_dims = [1] x [1] : (tensor<1x128xf32>, tensor<64x128xf32>) -> tensor<1x64xf32>
    %99 = stablehlo.add %80, %98 : tensor<1x64xf32>
    // layer 1: projections for all rows
    %100 = stablehlo.multiply %99, %99 : tensor<1x64xf32>
    %101 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %102 = stablehlo.reduce(%100 init: %101) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %103 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %104 = stablehlo.divide %102, %103 : tensor<1xf32>
    %105 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %106 = stablehlo.add %104, %105 : tensor<1xf32>
    %107 = stablehlo.rsqrt %106 : tensor<1xf32>
    %108 = stablehlo.broadcast_in_dim %107, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %109 = stablehlo.multiply %99, %108 : tensor<1x64xf32>
    %110 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %111 = stablehlo.multiply %109, %110 : tensor<1x64xf32>
    %112 = stablehlo.dot_general %111, %arg11, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    %113 = stablehlo.reshape %112 : (tensor<1x64xf32>) -> tensor<1x4x16xf32>
    %114 = stablehlo.slice %113 [0:1, 0:4, 0:8] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %115 = stablehlo.slice %113 [0:1, 0:4, 8:16] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %116 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %117 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %118 = stablehlo.multiply %114, %116 : tensor<1x4x8xf32>
    %119 = stablehlo.multiply %115, %117 : tensor<1x4x8xf32>
    %120 = stablehlo.subtract %118, %119 : tensor<1x4x8xf32>
    %121 = stablehlo.multiply %115, %116 : tensor<1x4x8xf32>
    %122 = stablehlo.multiply %114, %117 : tensor<1x4x8xf32>
    %123 = stablehlo.add %121, %122 : tensor<1x4x8xf32>
    %124 = stablehlo.concatenate %120, %123, dim = 2 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x16xf32>
    %125 = stablehlo.dot_general %111, %arg12, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<32x64xf32>) -> tensor<1x32xf32>
    %126 = stablehlo.reshape %125 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %127 = stablehlo.slice %126 [0:1, 0:2, 0:8] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %128 = stablehlo.slice %126 [0:1, 0:2, 8:16] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %129 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %130 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %131 = stablehlo.multiply %127, %129 : tensor<1x2x8xf32>
    %132 = stablehlo.multiply %128, %130 : tensor<1x2x8xf32>
    %133 = stablehlo.subtract %131, %132 : tensor<1x2x8xf32>
    %134 = stablehlo.multiply %128, %129 : tensor<1x2x8xf32>
    %135 = stablehlo.multiply %127, %130 : tensor<1x2x8xf32>
    %136 = stablehlo.add %134, %135 : tensor<1x2x8xf32>
    %137 = stablehlo.concatenate %133, %136, dim = 2 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x16xf32>
    %138 = stablehlo.dot_general %111, %arg13, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<32x64xf32>) -> tensor<1x32xf32>
    %139 = stablehlo.reshape %138 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %140 = stablehlo.constant dense<1> : tensor<i32>
    // layer 1, row 0: write K/V at pos, attend to 0..=pos
    %141 = stablehlo.reshape %137 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %142 = stablehlo.reshape %139 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %143 = stablehlo.dynamic_update_slice %58, %141, %140, %6, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %144 = stablehlo.dynamic_update_slice %143, %142, %140, %7, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %145 = stablehlo.slice %144 [1:2, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %146 = stablehlo.reshape %145 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %147 = stablehlo.slice %144 [1:2, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %148 = stablehlo.reshape %147 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %149 = stablehlo.reshape %124 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %150 = stablehlo.dot_general %149, %146, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %151 = stablehlo.multiply %150, %13 : tensor<2x2x256xf32>
    %152 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %153 = stablehlo.select %12, %151, %152 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %154 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %155 = stablehlo.reduce(%153 init: %154) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %156 = stablehlo.broadcast_in_dim %155, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %157 = stablehlo.subtract %153, %156 : tensor<2x2x256xf32>
    %158 = stablehlo.exponential %157 : tensor<2x2x256xf32>
    %159 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %160 = stablehlo.reduce(%158 init: %159) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %162 = stablehlo.divide %158, %161 : tensor<2x2x256xf32>
    %163 = stablehlo.dot_general %162, %148, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %164 = stablehlo.reshape %163 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %165 = stablehlo.dot_general %164, %arg14, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<64x64xf32>) -> tensor<1x64xf32>
    %166 = stablehlo.add %99, %165 : tensor<1x64xf32>
    // layer 1: MLP
    %167 = stablehlo.multiply %166, %166 : tensor<1x64xf32>
    %168 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %169 = stablehlo.reduce(%167 init: %168) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %170 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %171 = stablehlo.divide %169, %170 : tensor<1xf32>
    %172 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %173 = stablehlo.add %171, %172 : tensor<1xf32>
    %174 = stablehlo.rsqrt %173 : tensor<1xf32>
    %175 = stablehlo.broadcast_in_dim %174, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %176 = stablehlo.multiply %166, %175 : tensor<1x64xf32>
    %177 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %178 = stablehlo.multiply %176, %177 : tensor<1x64xf32>
    %179 = stablehlo.dot_general %178, %arg16, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<128x64xf32>) -> tensor<1x128xf32>
    %180 = stablehlo.dot_general %178, %arg17, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<128x64xf32>) -> tensor<1x128xf32>
    %181 = stablehlo.logistic %179 : tensor<1x128xf32>
    %182 = stablehlo.multiply %179, %181 : tensor<1x128xf32>
    %183 = stablehlo.multiply %182, %180 : tensor<1x128xf32>
    %184 = stablehlo.dot_general %183, %arg18, contracting_dims = [1] x [1] : (tensor<1x128xf32>, tensor<64x128xf32>) -> tensor<1x64xf32>
    %185 = stablehlo.add %166, %184 : tensor<1x64xf32>
    %186 = stablehlo.multiply %185, %185 : tensor<1x64xf32>
    %187 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %188 = stablehlo.reduce(%186 init: %187) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %189 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %190 = stablehlo.divide %188, %189 : tensor<1xf32>
    %191 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %192 = stablehlo.add %190, %191 : tensor<1xf32>
    %193 = stablehlo.rsqrt %192 : tensor<1xf32>
    %194 = stablehlo.broadcast_in_dim %193, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %195 = stablehlo.multiply %185, %194 : tensor<1x64xf32>
    %196 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %197 = stablehlo.multiply %195, %196 : tensor<1x64xf32>
    %198 = stablehlo.dot_general %197, %arg20, contracting_dims = [1] x [1] : (tensor<1x64xf32>, tensor<512x64xf32>) -> tensor<1x512xf32>
    return %198, %144 : tensor<1x512xf32>, tensor<2x2x2x256x16xf32>
  }
}

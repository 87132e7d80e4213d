// decode_argmax_b1: emitted by iree-llm 0.1.0 (graph format 1).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_argmax_b1 {
  func.func @decode_argmax_b1(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<1xi32>, %arg25: tensor<1xi32>) -> (tensor<1xi32>, tensor<2x2x2x256x16xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg24 : (tensor<1xi32>) -> tensor<1x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<1x1xi32>) -> tensor<1x64xf32>
    %2 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<1x1xi32>
    %3 = "stablehlo.gather"(%arg21, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    %4 = stablehlo.reshape %arg25 : (tensor<1xi32>) -> tensor<1x1xi32>
    %5 = "stablehlo.gather"(%arg22, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<1x1xi32>) -> tensor<1x8xf32>
    // per row: its position as a scalar and its visibility mask (key s <= pos) over the window
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
    %26 = stablehlo.reshape %25 : (tensor<1x64xf32>) -> tensor<64xf32>
    %27 = stablehlo.dot_general %arg2, %26, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %28 = stablehlo.reshape %27 : (tensor<64xf32>) -> tensor<1x64xf32>
    %29 = stablehlo.reshape %28 : (tensor<1x64xf32>) -> tensor<1x4x16xf32>
    %30 = stablehlo.slice %29 [0:1, 0:4, 0:8] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %31 = stablehlo.slice %29 [0:1, 0:4, 8:16] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %32 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %33 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %34 = stablehlo.multiply %30, %32 : tensor<1x4x8xf32>
    %35 = stablehlo.multiply %31, %33 : tensor<1x4x8xf32>
    %36 = stablehlo.subtract %34, %35 : tensor<1x4x8xf32>
    %37 = stablehlo.multiply %31, %32 : tensor<1x4x8xf32>
    %38 = stablehlo.multiply %30, %33 : tensor<1x4x8xf32>
    %39 = stablehlo.add %37, %38 : tensor<1x4x8xf32>
    %40 = stablehlo.concatenate %36, %39, dim = 2 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x16xf32>
    %41 = stablehlo.reshape %25 : (tensor<1x64xf32>) -> tensor<64xf32>
    %42 = stablehlo.dot_general %arg3, %41, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64xf32>) -> tensor<32xf32>
    %43 = stablehlo.reshape %42 : (tensor<32xf32>) -> tensor<1x32xf32>
    %44 = stablehlo.reshape %43 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %45 = stablehlo.slice %44 [0:1, 0:2, 0:8] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %46 = stablehlo.slice %44 [0:1, 0:2, 8:16] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %47 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %48 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %49 = stablehlo.multiply %45, %47 : tensor<1x2x8xf32>
    %50 = stablehlo.multiply %46, %48 : tensor<1x2x8xf32>
    %51 = stablehlo.subtract %49, %50 : tensor<1x2x8xf32>
    %52 = stablehlo.multiply %46, %47 : tensor<1x2x8xf32>
    %53 = stablehlo.multiply %45, %48 : tensor<1x2x8xf32>
    %54 = stablehlo.add %52, %53 : tensor<1x2x8xf32>
    %55 = stablehlo.concatenate %51, %54, dim = 2 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x16xf32>
    %56 = stablehlo.reshape %25 : (tensor<1x64xf32>) -> tensor<64xf32>
    %57 = stablehlo.dot_general %arg4, %56, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64xf32>) -> tensor<32xf32>
    %58 = stablehlo.reshape %57 : (tensor<32xf32>) -> tensor<1x32xf32>
    %59 = stablehlo.reshape %58 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %60 = stablehlo.constant dense<0> : tensor<i32>
    // layer 0, row 0: write K/V at pos, attend to 0..=pos
    %61 = stablehlo.reshape %55 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %62 = stablehlo.reshape %59 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %63 = stablehlo.dynamic_update_slice %arg23, %61, %60, %6, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %64 = stablehlo.dynamic_update_slice %63, %62, %60, %7, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %65 = stablehlo.slice %64 [0:1, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %66 = stablehlo.reshape %65 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %67 = stablehlo.slice %64 [0:1, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %68 = stablehlo.reshape %67 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %69 = stablehlo.reshape %40 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %70 = stablehlo.dot_general %69, %66, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %71 = stablehlo.multiply %70, %13 : tensor<2x2x256xf32>
    %72 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %73 = stablehlo.select %12, %71, %72 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %74 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %75 = stablehlo.reduce(%73 init: %74) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %77 = stablehlo.subtract %73, %76 : tensor<2x2x256xf32>
    %78 = stablehlo.exponential %77 : tensor<2x2x256xf32>
    %79 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %80 = stablehlo.reduce(%78 init: %79) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %82 = stablehlo.divide %78, %81 : tensor<2x2x256xf32>
    %83 = stablehlo.dot_general %82, %68, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %84 = stablehlo.reshape %83 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %85 = stablehlo.reshape %84 : (tensor<1x64xf32>) -> tensor<64xf32>
    %86 = stablehlo.dot_general %arg5, %85, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %87 = stablehlo.reshape %86 : (tensor<64xf32>) -> tensor<1x64xf32>
    %88 = stablehlo.add %1, %87 : tensor<1x64xf32>
    // layer 0: MLP
    %89 = stablehlo.multiply %88, %88 : tensor<1x64xf32>
    %90 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %91 = stablehlo.reduce(%89 init: %90) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %92 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %93 = stablehlo.divide %91, %92 : tensor<1xf32>
    %94 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %95 = stablehlo.add %93, %94 : tensor<1xf32>
    %96 = stablehlo.rsqrt %95 : tensor<1xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %98 = stablehlo.multiply %88, %97 : tensor<1x64xf32>
    %99 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %100 = stablehlo.multiply %98, %99 : tensor<1x64xf32>
    %101 = stablehlo.reshape %100 : (tensor<1x64xf32>) -> tensor<64xf32>
    %102 = stablehlo.dot_general %arg7, %101, contracting_dims = [1] x [0] : (tensor<128x64xf32>, tensor<64xf32>) -> tensor<128xf32>
    %103 = stablehlo.reshape %102 : (tensor<128xf32>) -> tensor<1x128xf32>
    %104 = stablehlo.reshape %100 : (tensor<1x64xf32>) -> tensor<64xf32>
    %105 = stablehlo.dot_general %arg8, %104, contracting_dims = [1] x [0] : (tensor<128x64xf32>, tensor<64xf32>) -> tensor<128xf32>
    %106 = stablehlo.reshape %105 : (tensor<128xf32>) -> tensor<1x128xf32>
    %107 = stablehlo.logistic %103 : tensor<1x128xf32>
    %108 = stablehlo.multiply %103, %107 : tensor<1x128xf32>
    %109 = stablehlo.multiply %108, %106 : tensor<1x128xf32>
    %110 = stablehlo.reshape %109 : (tensor<1x128xf32>) -> tensor<128xf32>
    %111 = stablehlo.dot_general %arg9, %110, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128xf32>) -> tensor<64xf32>
    %112 = stablehlo.reshape %111 : (tensor<64xf32>) -> tensor<1x64xf32>
    %113 = stablehlo.add %88, %112 : tensor<1x64xf32>
    // layer 1: projections for all rows
    %114 = stablehlo.multiply %113, %113 : tensor<1x64xf32>
    %115 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %116 = stablehlo.reduce(%114 init: %115) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %117 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %118 = stablehlo.divide %116, %117 : tensor<1xf32>
    %119 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %120 = stablehlo.add %118, %119 : tensor<1xf32>
    %121 = stablehlo.rsqrt %120 : tensor<1xf32>
    %122 = stablehlo.broadcast_in_dim %121, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %123 = stablehlo.multiply %113, %122 : tensor<1x64xf32>
    %124 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %125 = stablehlo.multiply %123, %124 : tensor<1x64xf32>
    %126 = stablehlo.reshape %125 : (tensor<1x64xf32>) -> tensor<64xf32>
    %127 = stablehlo.dot_general %arg11, %126, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %128 = stablehlo.reshape %127 : (tensor<64xf32>) -> tensor<1x64xf32>
    %129 = stablehlo.reshape %128 : (tensor<1x64xf32>) -> tensor<1x4x16xf32>
    %130 = stablehlo.slice %129 [0:1, 0:4, 0:8] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %131 = stablehlo.slice %129 [0:1, 0:4, 8:16] : (tensor<1x4x16xf32>) -> tensor<1x4x8xf32>
    %132 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %133 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x4x8xf32>
    %134 = stablehlo.multiply %130, %132 : tensor<1x4x8xf32>
    %135 = stablehlo.multiply %131, %133 : tensor<1x4x8xf32>
    %136 = stablehlo.subtract %134, %135 : tensor<1x4x8xf32>
    %137 = stablehlo.multiply %131, %132 : tensor<1x4x8xf32>
    %138 = stablehlo.multiply %130, %133 : tensor<1x4x8xf32>
    %139 = stablehlo.add %137, %138 : tensor<1x4x8xf32>
    %140 = stablehlo.concatenate %136, %139, dim = 2 : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x16xf32>
    %141 = stablehlo.reshape %125 : (tensor<1x64xf32>) -> tensor<64xf32>
    %142 = stablehlo.dot_general %arg12, %141, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64xf32>) -> tensor<32xf32>
    %143 = stablehlo.reshape %142 : (tensor<32xf32>) -> tensor<1x32xf32>
    %144 = stablehlo.reshape %143 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %145 = stablehlo.slice %144 [0:1, 0:2, 0:8] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %146 = stablehlo.slice %144 [0:1, 0:2, 8:16] : (tensor<1x2x16xf32>) -> tensor<1x2x8xf32>
    %147 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %148 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<1x8xf32>) -> tensor<1x2x8xf32>
    %149 = stablehlo.multiply %145, %147 : tensor<1x2x8xf32>
    %150 = stablehlo.multiply %146, %148 : tensor<1x2x8xf32>
    %151 = stablehlo.subtract %149, %150 : tensor<1x2x8xf32>
    %152 = stablehlo.multiply %146, %147 : tensor<1x2x8xf32>
    %153 = stablehlo.multiply %145, %148 : tensor<1x2x8xf32>
    %154 = stablehlo.add %152, %153 : tensor<1x2x8xf32>
    %155 = stablehlo.concatenate %151, %154, dim = 2 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x16xf32>
    %156 = stablehlo.reshape %125 : (tensor<1x64xf32>) -> tensor<64xf32>
    %157 = stablehlo.dot_general %arg13, %156, contracting_dims = [1] x [0] : (tensor<32x64xf32>, tensor<64xf32>) -> tensor<32xf32>
    %158 = stablehlo.reshape %157 : (tensor<32xf32>) -> tensor<1x32xf32>
    %159 = stablehlo.reshape %158 : (tensor<1x32xf32>) -> tensor<1x2x16xf32>
    %160 = stablehlo.constant dense<1> : tensor<i32>
    // layer 1, row 0: write K/V at pos, attend to 0..=pos
    %161 = stablehlo.reshape %155 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %162 = stablehlo.reshape %159 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %163 = stablehlo.dynamic_update_slice %64, %161, %160, %6, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %164 = stablehlo.dynamic_update_slice %163, %162, %160, %7, %6, %9, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %165 = stablehlo.slice %164 [1:2, 0:1, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %166 = stablehlo.reshape %165 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %167 = stablehlo.slice %164 [1:2, 1:2, 0:2, 0:256, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x256x16xf32>
    %168 = stablehlo.reshape %167 : (tensor<1x1x2x256x16xf32>) -> tensor<2x256x16xf32>
    %169 = stablehlo.reshape %140 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %170 = stablehlo.dot_general %169, %166, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x256x16xf32>) -> tensor<2x2x256xf32>
    %171 = stablehlo.multiply %170, %13 : tensor<2x2x256xf32>
    %172 = stablehlo.constant dense<0xFF800000> : tensor<2x2x256xf32>
    %173 = stablehlo.select %12, %171, %172 : tensor<2x2x256xi1>, tensor<2x2x256xf32>
    %174 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %175 = stablehlo.reduce(%173 init: %174) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %176 = stablehlo.broadcast_in_dim %175, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %177 = stablehlo.subtract %173, %176 : tensor<2x2x256xf32>
    %178 = stablehlo.exponential %177 : tensor<2x2x256xf32>
    %179 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %180 = stablehlo.reduce(%178 init: %179) applies stablehlo.add across dimensions = [2] : (tensor<2x2x256xf32>, tensor<f32>) -> tensor<2x2xf32>
    %181 = stablehlo.broadcast_in_dim %180, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x256xf32>
    %182 = stablehlo.divide %178, %181 : tensor<2x2x256xf32>
    %183 = stablehlo.dot_general %182, %168, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x256xf32>, tensor<2x256x16xf32>) -> tensor<2x2x16xf32>
    %184 = stablehlo.reshape %183 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %185 = stablehlo.reshape %184 : (tensor<1x64xf32>) -> tensor<64xf32>
    %186 = stablehlo.dot_general %arg14, %185, contracting_dims = [1] x [0] : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %187 = stablehlo.reshape %186 : (tensor<64xf32>) -> tensor<1x64xf32>
    %188 = stablehlo.add %113, %187 : tensor<1x64xf32>
    // layer 1: MLP
    %189 = stablehlo.multiply %188, %188 : tensor<1x64xf32>
    %190 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %191 = stablehlo.reduce(%189 init: %190) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %192 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %193 = stablehlo.divide %191, %192 : tensor<1xf32>
    %194 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %195 = stablehlo.add %193, %194 : tensor<1xf32>
    %196 = stablehlo.rsqrt %195 : tensor<1xf32>
    %197 = stablehlo.broadcast_in_dim %196, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %198 = stablehlo.multiply %188, %197 : tensor<1x64xf32>
    %199 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %200 = stablehlo.multiply %198, %199 : tensor<1x64xf32>
    %201 = stablehlo.reshape %200 : (tensor<1x64xf32>) -> tensor<64xf32>
    %202 = stablehlo.dot_general %arg16, %201, contracting_dims = [1] x [0] : (tensor<128x64xf32>, tensor<64xf32>) -> tensor<128xf32>
    %203 = stablehlo.reshape %202 : (tensor<128xf32>) -> tensor<1x128xf32>
    %204 = stablehlo.reshape %200 : (tensor<1x64xf32>) -> tensor<64xf32>
    %205 = stablehlo.dot_general %arg17, %204, contracting_dims = [1] x [0] : (tensor<128x64xf32>, tensor<64xf32>) -> tensor<128xf32>
    %206 = stablehlo.reshape %205 : (tensor<128xf32>) -> tensor<1x128xf32>
    %207 = stablehlo.logistic %203 : tensor<1x128xf32>
    %208 = stablehlo.multiply %203, %207 : tensor<1x128xf32>
    %209 = stablehlo.multiply %208, %206 : tensor<1x128xf32>
    %210 = stablehlo.reshape %209 : (tensor<1x128xf32>) -> tensor<128xf32>
    %211 = stablehlo.dot_general %arg18, %210, contracting_dims = [1] x [0] : (tensor<64x128xf32>, tensor<128xf32>) -> tensor<64xf32>
    %212 = stablehlo.reshape %211 : (tensor<64xf32>) -> tensor<1x64xf32>
    %213 = stablehlo.add %188, %212 : tensor<1x64xf32>
    %214 = stablehlo.multiply %213, %213 : tensor<1x64xf32>
    %215 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %216 = stablehlo.reduce(%214 init: %215) applies stablehlo.add across dimensions = [1] : (tensor<1x64xf32>, tensor<f32>) -> tensor<1xf32>
    %217 = stablehlo.constant dense<6.4e1> : tensor<1xf32>
    %218 = stablehlo.divide %216, %217 : tensor<1xf32>
    %219 = stablehlo.constant dense<1.0e-5> : tensor<1xf32>
    %220 = stablehlo.add %218, %219 : tensor<1xf32>
    %221 = stablehlo.rsqrt %220 : tensor<1xf32>
    %222 = stablehlo.broadcast_in_dim %221, dims = [0] : (tensor<1xf32>) -> tensor<1x64xf32>
    %223 = stablehlo.multiply %213, %222 : tensor<1x64xf32>
    %224 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %225 = stablehlo.multiply %223, %224 : tensor<1x64xf32>
    %226 = stablehlo.reshape %225 : (tensor<1x64xf32>) -> tensor<64xf32>
    %227 = stablehlo.dot_general %arg20, %226, contracting_dims = [1] x [0] : (tensor<512x64xf32>, tensor<64xf32>) -> tensor<512xf32>
    %228 = stablehlo.reshape %227 : (tensor<512xf32>) -> tensor<1x512xf32>
    %229 = stablehlo.iota dim = 1 : tensor<1x512xi32>
    %230 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %231 = stablehlo.constant dense<0> : tensor<i32>
    %232:2 = stablehlo.reduce(%228 init: %230), (%229 init: %231) across dimensions = [1] : (tensor<1x512xf32>, tensor<1x512xi32>, tensor<f32>, tensor<i32>) -> (tensor<1xf32>, tensor<1xi32>)
     reducer(%lhs_v: tensor<f32>, %rhs_v: tensor<f32>) (%lhs_i: tensor<i32>, %rhs_i: tensor<i32>) {
      %gt = stablehlo.compare GT, %lhs_v, %rhs_v : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %eq = stablehlo.compare EQ, %lhs_v, %rhs_v : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %lt = stablehlo.compare LT, %lhs_i, %rhs_i : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %tie = stablehlo.and %eq, %lt : tensor<i1>
      %pick = stablehlo.or %gt, %tie : tensor<i1>
      %v = stablehlo.select %pick, %lhs_v, %rhs_v : tensor<i1>, tensor<f32>
      %i = stablehlo.select %pick, %lhs_i, %rhs_i : tensor<i1>, tensor<i32>
      stablehlo.return %v, %i : tensor<f32>, tensor<i32>
    }
    return %232#1, %164 : tensor<1xi32>, tensor<2x2x2x256x16xf32>
  }
}

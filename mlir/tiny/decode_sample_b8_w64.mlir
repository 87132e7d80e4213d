// decode_sample_b8_w64: emitted by iree-llm 0.1.0 (graph format 1).
// Llama: vocab 512, hidden 64, layers 2, heads 4/2 kv, head_dim 16, context 256.
module @decode_sample_b8_w64 {
  func.func @decode_sample_b8_w64(%arg0: tensor<512x64xf32>, %arg1: tensor<64xf32>, %arg2: tensor<64x64xf32>, %arg3: tensor<32x64xf32>, %arg4: tensor<32x64xf32>, %arg5: tensor<64x64xf32>, %arg6: tensor<64xf32>, %arg7: tensor<128x64xf32>, %arg8: tensor<128x64xf32>, %arg9: tensor<64x128xf32>, %arg10: tensor<64xf32>, %arg11: tensor<64x64xf32>, %arg12: tensor<32x64xf32>, %arg13: tensor<32x64xf32>, %arg14: tensor<64x64xf32>, %arg15: tensor<64xf32>, %arg16: tensor<128x64xf32>, %arg17: tensor<128x64xf32>, %arg18: tensor<64x128xf32>, %arg19: tensor<64xf32>, %arg20: tensor<512x64xf32>, %arg21: tensor<256x8xf32>, %arg22: tensor<256x8xf32>, %arg23: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 1 : i32}, %arg24: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 2 : i32}, %arg25: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 3 : i32}, %arg26: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 4 : i32}, %arg27: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 5 : i32}, %arg28: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 6 : i32}, %arg29: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 7 : i32}, %arg30: tensor<2x2x2x256x16xf32> {tf.aliasing_output = 8 : i32}, %arg31: tensor<8xi32>, %arg32: tensor<8xi32>, %arg33: tensor<8xf32>, %arg34: tensor<8x2xi32>) -> (tensor<8xi32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<8x512xf32>) {
    // embeddings and each row's rotary angles at its own position
    %0 = stablehlo.reshape %arg31 : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 64>, indices_are_sorted = false} : (tensor<512x64xf32>, tensor<8x1xi32>) -> tensor<8x64xf32>
    %2 = stablehlo.reshape %arg32 : (tensor<8xi32>) -> tensor<8x1xi32>
    %3 = "stablehlo.gather"(%arg21, %2) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<8x1xi32>) -> tensor<8x8xf32>
    %4 = stablehlo.reshape %arg32 : (tensor<8xi32>) -> tensor<8x1xi32>
    %5 = "stablehlo.gather"(%arg22, %4) {dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>, indices_are_sorted = false} : (tensor<256x8xf32>, tensor<8x1xi32>) -> tensor<8x8xf32>
    // per row: its position as a scalar and its visibility mask (key s <= pos) over the window
    %6 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.iota dim = 0 : tensor<64xi32>
    %9 = stablehlo.slice %arg32 [0:1] : (tensor<8xi32>) -> tensor<1xi32>
    %10 = stablehlo.reshape %9 : (tensor<1xi32>) -> tensor<i32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %12 = stablehlo.compare LE, %8, %11 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %13 = stablehlo.broadcast_in_dim %12, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %14 = stablehlo.slice %arg32 [1:2] : (tensor<8xi32>) -> tensor<1xi32>
    %15 = stablehlo.reshape %14 : (tensor<1xi32>) -> tensor<i32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %17 = stablehlo.compare LE, %8, %16 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %18 = stablehlo.broadcast_in_dim %17, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %19 = stablehlo.slice %arg32 [2:3] : (tensor<8xi32>) -> tensor<1xi32>
    %20 = stablehlo.reshape %19 : (tensor<1xi32>) -> tensor<i32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %22 = stablehlo.compare LE, %8, %21 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %23 = stablehlo.broadcast_in_dim %22, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %24 = stablehlo.slice %arg32 [3:4] : (tensor<8xi32>) -> tensor<1xi32>
    %25 = stablehlo.reshape %24 : (tensor<1xi32>) -> tensor<i32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %27 = stablehlo.compare LE, %8, %26 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %28 = stablehlo.broadcast_in_dim %27, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %29 = stablehlo.slice %arg32 [4:5] : (tensor<8xi32>) -> tensor<1xi32>
    %30 = stablehlo.reshape %29 : (tensor<1xi32>) -> tensor<i32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %32 = stablehlo.compare LE, %8, %31 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %33 = stablehlo.broadcast_in_dim %32, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %34 = stablehlo.slice %arg32 [5:6] : (tensor<8xi32>) -> tensor<1xi32>
    %35 = stablehlo.reshape %34 : (tensor<1xi32>) -> tensor<i32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %37 = stablehlo.compare LE, %8, %36 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %38 = stablehlo.broadcast_in_dim %37, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %39 = stablehlo.slice %arg32 [6:7] : (tensor<8xi32>) -> tensor<1xi32>
    %40 = stablehlo.reshape %39 : (tensor<1xi32>) -> tensor<i32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %42 = stablehlo.compare LE, %8, %41 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %43 = stablehlo.broadcast_in_dim %42, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %44 = stablehlo.slice %arg32 [7:8] : (tensor<8xi32>) -> tensor<1xi32>
    %45 = stablehlo.reshape %44 : (tensor<1xi32>) -> tensor<i32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [] : (tensor<i32>) -> tensor<64xi32>
    %47 = stablehlo.compare LE, %8, %46 : (tensor<64xi32>, tensor<64xi32>) -> tensor<64xi1>
    %48 = stablehlo.broadcast_in_dim %47, dims = [2] : (tensor<64xi1>) -> tensor<2x2x64xi1>
    %49 = stablehlo.constant dense<2.5e-1> : tensor<2x2x64xf32>
    // layer 0: projections for all rows
    %50 = stablehlo.multiply %1, %1 : tensor<8x64xf32>
    %51 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %52 = stablehlo.reduce(%50 init: %51) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %53 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %54 = stablehlo.divide %52, %53 : tensor<8xf32>
    %55 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %56 = stablehlo.add %54, %55 : tensor<8xf32>
    %57 = stablehlo.rsqrt %56 : tensor<8xf32>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %59 = stablehlo.multiply %1, %58 : tensor<8x64xf32>
    %60 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %61 = stablehlo.multiply %59, %60 : tensor<8x64xf32>
    %62 = stablehlo.dot_general %61, %arg2, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %63 = stablehlo.reshape %62 : (tensor<8x64xf32>) -> tensor<8x4x16xf32>
    %64 = stablehlo.slice %63 [0:8, 0:4, 0:8] : (tensor<8x4x16xf32>) -> tensor<8x4x8xf32>
    %65 = stablehlo.slice %63 [0:8, 0:4, 8:16] : (tensor<8x4x16xf32>) -> tensor<8x4x8xf32>
    %66 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x4x8xf32>
    %67 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x4x8xf32>
    %68 = stablehlo.multiply %64, %66 : tensor<8x4x8xf32>
    %69 = stablehlo.multiply %65, %67 : tensor<8x4x8xf32>
    %70 = stablehlo.subtract %68, %69 : tensor<8x4x8xf32>
    %71 = stablehlo.multiply %65, %66 : tensor<8x4x8xf32>
    %72 = stablehlo.multiply %64, %67 : tensor<8x4x8xf32>
    %73 = stablehlo.add %71, %72 : tensor<8x4x8xf32>
    %74 = stablehlo.concatenate %70, %73, dim = 2 : (tensor<8x4x8xf32>, tensor<8x4x8xf32>) -> tensor<8x4x16xf32>
    %75 = stablehlo.dot_general %61, %arg3, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %76 = stablehlo.reshape %75 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    %77 = stablehlo.slice %76 [0:8, 0:2, 0:8] : (tensor<8x2x16xf32>) -> tensor<8x2x8xf32>
    %78 = stablehlo.slice %76 [0:8, 0:2, 8:16] : (tensor<8x2x16xf32>) -> tensor<8x2x8xf32>
    %79 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %80 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %81 = stablehlo.multiply %77, %79 : tensor<8x2x8xf32>
    %82 = stablehlo.multiply %78, %80 : tensor<8x2x8xf32>
    %83 = stablehlo.subtract %81, %82 : tensor<8x2x8xf32>
    %84 = stablehlo.multiply %78, %79 : tensor<8x2x8xf32>
    %85 = stablehlo.multiply %77, %80 : tensor<8x2x8xf32>
    %86 = stablehlo.add %84, %85 : tensor<8x2x8xf32>
    %87 = stablehlo.concatenate %83, %86, dim = 2 : (tensor<8x2x8xf32>, tensor<8x2x8xf32>) -> tensor<8x2x16xf32>
    %88 = stablehlo.dot_general %61, %arg4, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %89 = stablehlo.reshape %88 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    %90 = stablehlo.constant dense<0> : tensor<i32>
    // layer 0, row 0: write K/V at pos, attend to 0..=pos
    %91 = stablehlo.slice %87 [0:1, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %92 = stablehlo.reshape %91 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %93 = stablehlo.slice %89 [0:1, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %94 = stablehlo.reshape %93 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %95 = stablehlo.dynamic_update_slice %arg23, %92, %90, %6, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %96 = stablehlo.dynamic_update_slice %95, %94, %90, %7, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %97 = stablehlo.slice %96 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %98 = stablehlo.reshape %97 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %99 = stablehlo.slice %96 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %100 = stablehlo.reshape %99 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %101 = stablehlo.slice %74 [0:1, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %102 = stablehlo.reshape %101 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %103 = stablehlo.dot_general %102, %98, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %104 = stablehlo.multiply %103, %49 : tensor<2x2x64xf32>
    %105 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %106 = stablehlo.select %13, %104, %105 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %107 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %108 = stablehlo.reduce(%106 init: %107) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %109 = stablehlo.broadcast_in_dim %108, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %110 = stablehlo.subtract %106, %109 : tensor<2x2x64xf32>
    %111 = stablehlo.exponential %110 : tensor<2x2x64xf32>
    %112 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %113 = stablehlo.reduce(%111 init: %112) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %114 = stablehlo.broadcast_in_dim %113, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %115 = stablehlo.divide %111, %114 : tensor<2x2x64xf32>
    %116 = stablehlo.dot_general %115, %100, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %117 = stablehlo.reshape %116 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 1: write K/V at pos, attend to 0..=pos
    %118 = stablehlo.slice %87 [1:2, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %119 = stablehlo.reshape %118 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %120 = stablehlo.slice %89 [1:2, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %121 = stablehlo.reshape %120 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %122 = stablehlo.dynamic_update_slice %arg24, %119, %90, %6, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %123 = stablehlo.dynamic_update_slice %122, %121, %90, %7, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %124 = stablehlo.slice %123 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %125 = stablehlo.reshape %124 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %126 = stablehlo.slice %123 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %127 = stablehlo.reshape %126 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %128 = stablehlo.slice %74 [1:2, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %129 = stablehlo.reshape %128 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %130 = stablehlo.dot_general %129, %125, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %131 = stablehlo.multiply %130, %49 : tensor<2x2x64xf32>
    %132 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %133 = stablehlo.select %18, %131, %132 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %134 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %135 = stablehlo.reduce(%133 init: %134) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %136 = stablehlo.broadcast_in_dim %135, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %137 = stablehlo.subtract %133, %136 : tensor<2x2x64xf32>
    %138 = stablehlo.exponential %137 : tensor<2x2x64xf32>
    %139 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %140 = stablehlo.reduce(%138 init: %139) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %141 = stablehlo.broadcast_in_dim %140, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %142 = stablehlo.divide %138, %141 : tensor<2x2x64xf32>
    %143 = stablehlo.dot_general %142, %127, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %144 = stablehlo.reshape %143 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 2: write K/V at pos, attend to 0..=pos
    %145 = stablehlo.slice %87 [2:3, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %146 = stablehlo.reshape %145 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %147 = stablehlo.slice %89 [2:3, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %148 = stablehlo.reshape %147 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %149 = stablehlo.dynamic_update_slice %arg25, %146, %90, %6, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %150 = stablehlo.dynamic_update_slice %149, %148, %90, %7, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %151 = stablehlo.slice %150 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %152 = stablehlo.reshape %151 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %153 = stablehlo.slice %150 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %154 = stablehlo.reshape %153 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %155 = stablehlo.slice %74 [2:3, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %156 = stablehlo.reshape %155 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %157 = stablehlo.dot_general %156, %152, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %158 = stablehlo.multiply %157, %49 : tensor<2x2x64xf32>
    %159 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %160 = stablehlo.select %23, %158, %159 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %161 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %162 = stablehlo.reduce(%160 init: %161) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %164 = stablehlo.subtract %160, %163 : tensor<2x2x64xf32>
    %165 = stablehlo.exponential %164 : tensor<2x2x64xf32>
    %166 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %167 = stablehlo.reduce(%165 init: %166) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %168 = stablehlo.broadcast_in_dim %167, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %169 = stablehlo.divide %165, %168 : tensor<2x2x64xf32>
    %170 = stablehlo.dot_general %169, %154, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %171 = stablehlo.reshape %170 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 3: write K/V at pos, attend to 0..=pos
    %172 = stablehlo.slice %87 [3:4, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %173 = stablehlo.reshape %172 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %174 = stablehlo.slice %89 [3:4, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %175 = stablehlo.reshape %174 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %176 = stablehlo.dynamic_update_slice %arg26, %173, %90, %6, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %177 = stablehlo.dynamic_update_slice %176, %175, %90, %7, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %178 = stablehlo.slice %177 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %179 = stablehlo.reshape %178 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %180 = stablehlo.slice %177 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %181 = stablehlo.reshape %180 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %182 = stablehlo.slice %74 [3:4, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %183 = stablehlo.reshape %182 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %184 = stablehlo.dot_general %183, %179, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %185 = stablehlo.multiply %184, %49 : tensor<2x2x64xf32>
    %186 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %187 = stablehlo.select %28, %185, %186 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %188 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %189 = stablehlo.reduce(%187 init: %188) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %190 = stablehlo.broadcast_in_dim %189, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %191 = stablehlo.subtract %187, %190 : tensor<2x2x64xf32>
    %192 = stablehlo.exponential %191 : tensor<2x2x64xf32>
    %193 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %194 = stablehlo.reduce(%192 init: %193) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %195 = stablehlo.broadcast_in_dim %194, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %196 = stablehlo.divide %192, %195 : tensor<2x2x64xf32>
    %197 = stablehlo.dot_general %196, %181, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %198 = stablehlo.reshape %197 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 4: write K/V at pos, attend to 0..=pos
    %199 = stablehlo.slice %87 [4:5, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %200 = stablehlo.reshape %199 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %201 = stablehlo.slice %89 [4:5, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %202 = stablehlo.reshape %201 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %203 = stablehlo.dynamic_update_slice %arg27, %200, %90, %6, %6, %30, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %204 = stablehlo.dynamic_update_slice %203, %202, %90, %7, %6, %30, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %205 = stablehlo.slice %204 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %206 = stablehlo.reshape %205 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %207 = stablehlo.slice %204 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %208 = stablehlo.reshape %207 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %209 = stablehlo.slice %74 [4:5, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %210 = stablehlo.reshape %209 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %211 = stablehlo.dot_general %210, %206, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %212 = stablehlo.multiply %211, %49 : tensor<2x2x64xf32>
    %213 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %214 = stablehlo.select %33, %212, %213 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %215 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %216 = stablehlo.reduce(%214 init: %215) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %217 = stablehlo.broadcast_in_dim %216, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %218 = stablehlo.subtract %214, %217 : tensor<2x2x64xf32>
    %219 = stablehlo.exponential %218 : tensor<2x2x64xf32>
    %220 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %221 = stablehlo.reduce(%219 init: %220) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %222 = stablehlo.broadcast_in_dim %221, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %223 = stablehlo.divide %219, %222 : tensor<2x2x64xf32>
    %224 = stablehlo.dot_general %223, %208, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %225 = stablehlo.reshape %224 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 5: write K/V at pos, attend to 0..=pos
    %226 = stablehlo.slice %87 [5:6, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %227 = stablehlo.reshape %226 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %228 = stablehlo.slice %89 [5:6, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %229 = stablehlo.reshape %228 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %230 = stablehlo.dynamic_update_slice %arg28, %227, %90, %6, %6, %35, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %231 = stablehlo.dynamic_update_slice %230, %229, %90, %7, %6, %35, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %232 = stablehlo.slice %231 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %233 = stablehlo.reshape %232 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %234 = stablehlo.slice %231 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %235 = stablehlo.reshape %234 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %236 = stablehlo.slice %74 [5:6, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %237 = stablehlo.reshape %236 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %238 = stablehlo.dot_general %237, %233, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %239 = stablehlo.multiply %238, %49 : tensor<2x2x64xf32>
    %240 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %241 = stablehlo.select %38, %239, %240 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %242 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %243 = stablehlo.reduce(%241 init: %242) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %244 = stablehlo.broadcast_in_dim %243, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %245 = stablehlo.subtract %241, %244 : tensor<2x2x64xf32>
    %246 = stablehlo.exponential %245 : tensor<2x2x64xf32>
    %247 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %248 = stablehlo.reduce(%246 init: %247) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %249 = stablehlo.broadcast_in_dim %248, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %250 = stablehlo.divide %246, %249 : tensor<2x2x64xf32>
    %251 = stablehlo.dot_general %250, %235, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %252 = stablehlo.reshape %251 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 6: write K/V at pos, attend to 0..=pos
    %253 = stablehlo.slice %87 [6:7, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %254 = stablehlo.reshape %253 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %255 = stablehlo.slice %89 [6:7, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %256 = stablehlo.reshape %255 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %257 = stablehlo.dynamic_update_slice %arg29, %254, %90, %6, %6, %40, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %258 = stablehlo.dynamic_update_slice %257, %256, %90, %7, %6, %40, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %259 = stablehlo.slice %258 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %260 = stablehlo.reshape %259 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %261 = stablehlo.slice %258 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %262 = stablehlo.reshape %261 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %263 = stablehlo.slice %74 [6:7, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %264 = stablehlo.reshape %263 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %265 = stablehlo.dot_general %264, %260, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %266 = stablehlo.multiply %265, %49 : tensor<2x2x64xf32>
    %267 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %268 = stablehlo.select %43, %266, %267 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %269 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %270 = stablehlo.reduce(%268 init: %269) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %271 = stablehlo.broadcast_in_dim %270, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %272 = stablehlo.subtract %268, %271 : tensor<2x2x64xf32>
    %273 = stablehlo.exponential %272 : tensor<2x2x64xf32>
    %274 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %275 = stablehlo.reduce(%273 init: %274) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %276 = stablehlo.broadcast_in_dim %275, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %277 = stablehlo.divide %273, %276 : tensor<2x2x64xf32>
    %278 = stablehlo.dot_general %277, %262, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %279 = stablehlo.reshape %278 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 0, row 7: write K/V at pos, attend to 0..=pos
    %280 = stablehlo.slice %87 [7:8, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %281 = stablehlo.reshape %280 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %282 = stablehlo.slice %89 [7:8, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %283 = stablehlo.reshape %282 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %284 = stablehlo.dynamic_update_slice %arg30, %281, %90, %6, %6, %45, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %285 = stablehlo.dynamic_update_slice %284, %283, %90, %7, %6, %45, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %286 = stablehlo.slice %285 [0:1, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %287 = stablehlo.reshape %286 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %288 = stablehlo.slice %285 [0:1, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %289 = stablehlo.reshape %288 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %290 = stablehlo.slice %74 [7:8, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %291 = stablehlo.reshape %290 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %292 = stablehlo.dot_general %291, %287, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %293 = stablehlo.multiply %292, %49 : tensor<2x2x64xf32>
    %294 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %295 = stablehlo.select %48, %293, %294 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %296 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %297 = stablehlo.reduce(%295 init: %296) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %298 = stablehlo.broadcast_in_dim %297, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %299 = stablehlo.subtract %295, %298 : tensor<2x2x64xf32>
    %300 = stablehlo.exponential %299 : tensor<2x2x64xf32>
    %301 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %302 = stablehlo.reduce(%300 init: %301) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %303 = stablehlo.broadcast_in_dim %302, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %304 = stablehlo.divide %300, %303 : tensor<2x2x64xf32>
    %305 = stablehlo.dot_general %304, %289, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %306 = stablehlo.reshape %305 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %307 = stablehlo.concatenate %117, %144, %171, %198, %225, %252, %279, %306, dim = 0 : (tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32>
    %308 = stablehlo.dot_general %307, %arg5, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %309 = stablehlo.add %1, %308 : tensor<8x64xf32>
    // layer 0: MLP
    %310 = stablehlo.multiply %309, %309 : tensor<8x64xf32>
    %311 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %312 = stablehlo.reduce(%310 init: %311) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %313 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %314 = stablehlo.divide %312, %313 : tensor<8xf32>
    %315 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %316 = stablehlo.add %314, %315 : tensor<8xf32>
    %317 = stablehlo.rsqrt %316 : tensor<8xf32>
    %318 = stablehlo.broadcast_in_dim %317, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %319 = stablehlo.multiply %309, %318 : tensor<8x64xf32>
    %320 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %321 = stablehlo.multiply %319, %320 : tensor<8x64xf32>
    %322 = stablehlo.dot_general %321, %arg7, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %323 = stablehlo.dot_general %321, %arg8, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %324 = stablehlo.logistic %322 : tensor<8x128xf32>
    %325 = stablehlo.multiply %322, %324 : tensor<8x128xf32>
    %326 = stablehlo.multiply %325, %323 : tensor<8x128xf32>
    %327 = stablehlo.dot_general %326, %arg9, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %328 = stablehlo.add %309, %327 : tensor<8x64xf32>
    // layer 1: projections for all rows
    %329 = stablehlo.multiply %328, %328 : tensor<8x64xf32>
    %330 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %331 = stablehlo.reduce(%329 init: %330) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %332 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %333 = stablehlo.divide %331, %332 : tensor<8xf32>
    %334 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %335 = stablehlo.add %333, %334 : tensor<8xf32>
    %336 = stablehlo.rsqrt %335 : tensor<8xf32>
    %337 = stablehlo.broadcast_in_dim %336, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %338 = stablehlo.multiply %328, %337 : tensor<8x64xf32>
    %339 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %340 = stablehlo.multiply %338, %339 : tensor<8x64xf32>
    %341 = stablehlo.dot_general %340, %arg11, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %342 = stablehlo.reshape %341 : (tensor<8x64xf32>) -> tensor<8x4x16xf32>
    %343 = stablehlo.slice %342 [0:8, 0:4, 0:8] : (tensor<8x4x16xf32>) -> tensor<8x4x8xf32>
    %344 = stablehlo.slice %342 [0:8, 0:4, 8:16] : (tensor<8x4x16xf32>) -> tensor<8x4x8xf32>
    %345 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x4x8xf32>
    %346 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x4x8xf32>
    %347 = stablehlo.multiply %343, %345 : tensor<8x4x8xf32>
    %348 = stablehlo.multiply %344, %346 : tensor<8x4x8xf32>
    %349 = stablehlo.subtract %347, %348 : tensor<8x4x8xf32>
    %350 = stablehlo.multiply %344, %345 : tensor<8x4x8xf32>
    %351 = stablehlo.multiply %343, %346 : tensor<8x4x8xf32>
    %352 = stablehlo.add %350, %351 : tensor<8x4x8xf32>
    %353 = stablehlo.concatenate %349, %352, dim = 2 : (tensor<8x4x8xf32>, tensor<8x4x8xf32>) -> tensor<8x4x16xf32>
    %354 = stablehlo.dot_general %340, %arg12, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %355 = stablehlo.reshape %354 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    %356 = stablehlo.slice %355 [0:8, 0:2, 0:8] : (tensor<8x2x16xf32>) -> tensor<8x2x8xf32>
    %357 = stablehlo.slice %355 [0:8, 0:2, 8:16] : (tensor<8x2x16xf32>) -> tensor<8x2x8xf32>
    %358 = stablehlo.broadcast_in_dim %3, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %359 = stablehlo.broadcast_in_dim %5, dims = [0, 2] : (tensor<8x8xf32>) -> tensor<8x2x8xf32>
    %360 = stablehlo.multiply %356, %358 : tensor<8x2x8xf32>
    %361 = stablehlo.multiply %357, %359 : tensor<8x2x8xf32>
    %362 = stablehlo.subtract %360, %361 : tensor<8x2x8xf32>
    %363 = stablehlo.multiply %357, %358 : tensor<8x2x8xf32>
    %364 = stablehlo.multiply %356, %359 : tensor<8x2x8xf32>
    %365 = stablehlo.add %363, %364 : tensor<8x2x8xf32>
    %366 = stablehlo.concatenate %362, %365, dim = 2 : (tensor<8x2x8xf32>, tensor<8x2x8xf32>) -> tensor<8x2x16xf32>
    %367 = stablehlo.dot_general %340, %arg13, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<32x64xf32>) -> tensor<8x32xf32>
    %368 = stablehlo.reshape %367 : (tensor<8x32xf32>) -> tensor<8x2x16xf32>
    %369 = stablehlo.constant dense<1> : tensor<i32>
    // layer 1, row 0: write K/V at pos, attend to 0..=pos
    %370 = stablehlo.slice %366 [0:1, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %371 = stablehlo.reshape %370 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %372 = stablehlo.slice %368 [0:1, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %373 = stablehlo.reshape %372 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %374 = stablehlo.dynamic_update_slice %96, %371, %369, %6, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %375 = stablehlo.dynamic_update_slice %374, %373, %369, %7, %6, %10, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %376 = stablehlo.slice %375 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %377 = stablehlo.reshape %376 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %378 = stablehlo.slice %375 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %379 = stablehlo.reshape %378 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %380 = stablehlo.slice %353 [0:1, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %381 = stablehlo.reshape %380 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %382 = stablehlo.dot_general %381, %377, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %383 = stablehlo.multiply %382, %49 : tensor<2x2x64xf32>
    %384 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %385 = stablehlo.select %13, %383, %384 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %386 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %387 = stablehlo.reduce(%385 init: %386) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %388 = stablehlo.broadcast_in_dim %387, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %389 = stablehlo.subtract %385, %388 : tensor<2x2x64xf32>
    %390 = stablehlo.exponential %389 : tensor<2x2x64xf32>
    %391 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %392 = stablehlo.reduce(%390 init: %391) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %393 = stablehlo.broadcast_in_dim %392, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %394 = stablehlo.divide %390, %393 : tensor<2x2x64xf32>
    %395 = stablehlo.dot_general %394, %379, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %396 = stablehlo.reshape %395 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 1: write K/V at pos, attend to 0..=pos
    %397 = stablehlo.slice %366 [1:2, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %398 = stablehlo.reshape %397 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %399 = stablehlo.slice %368 [1:2, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %400 = stablehlo.reshape %399 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %401 = stablehlo.dynamic_update_slice %123, %398, %369, %6, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %402 = stablehlo.dynamic_update_slice %401, %400, %369, %7, %6, %15, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %403 = stablehlo.slice %402 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %404 = stablehlo.reshape %403 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %405 = stablehlo.slice %402 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %406 = stablehlo.reshape %405 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %407 = stablehlo.slice %353 [1:2, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %408 = stablehlo.reshape %407 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %409 = stablehlo.dot_general %408, %404, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %410 = stablehlo.multiply %409, %49 : tensor<2x2x64xf32>
    %411 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %412 = stablehlo.select %18, %410, %411 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %413 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %414 = stablehlo.reduce(%412 init: %413) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %415 = stablehlo.broadcast_in_dim %414, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %416 = stablehlo.subtract %412, %415 : tensor<2x2x64xf32>
    %417 = stablehlo.exponential %416 : tensor<2x2x64xf32>
    %418 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %419 = stablehlo.reduce(%417 init: %418) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %420 = stablehlo.broadcast_in_dim %419, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %421 = stablehlo.divide %417, %420 : tensor<2x2x64xf32>
    %422 = stablehlo.dot_general %421, %406, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %423 = stablehlo.reshape %422 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 2: write K/V at pos, attend to 0..=pos
    %424 = stablehlo.slice %366 [2:3, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %425 = stablehlo.reshape %424 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %426 = stablehlo.slice %368 [2:3, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %427 = stablehlo.reshape %426 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %428 = stablehlo.dynamic_update_slice %150, %425, %369, %6, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %429 = stablehlo.dynamic_update_slice %428, %427, %369, %7, %6, %20, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %430 = stablehlo.slice %429 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %431 = stablehlo.reshape %430 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %432 = stablehlo.slice %429 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %433 = stablehlo.reshape %432 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %434 = stablehlo.slice %353 [2:3, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %435 = stablehlo.reshape %434 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %436 = stablehlo.dot_general %435, %431, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %437 = stablehlo.multiply %436, %49 : tensor<2x2x64xf32>
    %438 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %439 = stablehlo.select %23, %437, %438 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %440 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %441 = stablehlo.reduce(%439 init: %440) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %442 = stablehlo.broadcast_in_dim %441, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %443 = stablehlo.subtract %439, %442 : tensor<2x2x64xf32>
    %444 = stablehlo.exponential %443 : tensor<2x2x64xf32>
    %445 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %446 = stablehlo.reduce(%444 init: %445) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %447 = stablehlo.broadcast_in_dim %446, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %448 = stablehlo.divide %444, %447 : tensor<2x2x64xf32>
    %449 = stablehlo.dot_general %448, %433, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %450 = stablehlo.reshape %449 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 3: write K/V at pos, attend to 0..=pos
    %451 = stablehlo.slice %366 [3:4, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %452 = stablehlo.reshape %451 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %453 = stablehlo.slice %368 [3:4, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %454 = stablehlo.reshape %453 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %455 = stablehlo.dynamic_update_slice %177, %452, %369, %6, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %456 = stablehlo.dynamic_update_slice %455, %454, %369, %7, %6, %25, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %457 = stablehlo.slice %456 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %458 = stablehlo.reshape %457 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %459 = stablehlo.slice %456 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %460 = stablehlo.reshape %459 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %461 = stablehlo.slice %353 [3:4, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %462 = stablehlo.reshape %461 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %463 = stablehlo.dot_general %462, %458, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %464 = stablehlo.multiply %463, %49 : tensor<2x2x64xf32>
    %465 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %466 = stablehlo.select %28, %464, %465 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %467 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %468 = stablehlo.reduce(%466 init: %467) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %469 = stablehlo.broadcast_in_dim %468, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %470 = stablehlo.subtract %466, %469 : tensor<2x2x64xf32>
    %471 = stablehlo.exponential %470 : tensor<2x2x64xf32>
    %472 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %473 = stablehlo.reduce(%471 init: %472) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %474 = stablehlo.broadcast_in_dim %473, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %475 = stablehlo.divide %471, %474 : tensor<2x2x64xf32>
    %476 = stablehlo.dot_general %475, %460, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %477 = stablehlo.reshape %476 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 4: write K/V at pos, attend to 0..=pos
    %478 = stablehlo.slice %366 [4:5, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %479 = stablehlo.reshape %478 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %480 = stablehlo.slice %368 [4:5, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %481 = stablehlo.reshape %480 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %482 = stablehlo.dynamic_update_slice %204, %479, %369, %6, %6, %30, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %483 = stablehlo.dynamic_update_slice %482, %481, %369, %7, %6, %30, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %484 = stablehlo.slice %483 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %485 = stablehlo.reshape %484 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %486 = stablehlo.slice %483 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %487 = stablehlo.reshape %486 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %488 = stablehlo.slice %353 [4:5, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %489 = stablehlo.reshape %488 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %490 = stablehlo.dot_general %489, %485, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %491 = stablehlo.multiply %490, %49 : tensor<2x2x64xf32>
    %492 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %493 = stablehlo.select %33, %491, %492 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %494 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %495 = stablehlo.reduce(%493 init: %494) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %496 = stablehlo.broadcast_in_dim %495, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %497 = stablehlo.subtract %493, %496 : tensor<2x2x64xf32>
    %498 = stablehlo.exponential %497 : tensor<2x2x64xf32>
    %499 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %500 = stablehlo.reduce(%498 init: %499) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %501 = stablehlo.broadcast_in_dim %500, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %502 = stablehlo.divide %498, %501 : tensor<2x2x64xf32>
    %503 = stablehlo.dot_general %502, %487, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %504 = stablehlo.reshape %503 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 5: write K/V at pos, attend to 0..=pos
    %505 = stablehlo.slice %366 [5:6, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %506 = stablehlo.reshape %505 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %507 = stablehlo.slice %368 [5:6, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %508 = stablehlo.reshape %507 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %509 = stablehlo.dynamic_update_slice %231, %506, %369, %6, %6, %35, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %510 = stablehlo.dynamic_update_slice %509, %508, %369, %7, %6, %35, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %511 = stablehlo.slice %510 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %512 = stablehlo.reshape %511 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %513 = stablehlo.slice %510 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %514 = stablehlo.reshape %513 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %515 = stablehlo.slice %353 [5:6, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %516 = stablehlo.reshape %515 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %517 = stablehlo.dot_general %516, %512, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %518 = stablehlo.multiply %517, %49 : tensor<2x2x64xf32>
    %519 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %520 = stablehlo.select %38, %518, %519 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %521 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %522 = stablehlo.reduce(%520 init: %521) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %523 = stablehlo.broadcast_in_dim %522, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %524 = stablehlo.subtract %520, %523 : tensor<2x2x64xf32>
    %525 = stablehlo.exponential %524 : tensor<2x2x64xf32>
    %526 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %527 = stablehlo.reduce(%525 init: %526) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %528 = stablehlo.broadcast_in_dim %527, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %529 = stablehlo.divide %525, %528 : tensor<2x2x64xf32>
    %530 = stablehlo.dot_general %529, %514, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %531 = stablehlo.reshape %530 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 6: write K/V at pos, attend to 0..=pos
    %532 = stablehlo.slice %366 [6:7, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %533 = stablehlo.reshape %532 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %534 = stablehlo.slice %368 [6:7, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %535 = stablehlo.reshape %534 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %536 = stablehlo.dynamic_update_slice %258, %533, %369, %6, %6, %40, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %537 = stablehlo.dynamic_update_slice %536, %535, %369, %7, %6, %40, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %538 = stablehlo.slice %537 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %539 = stablehlo.reshape %538 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %540 = stablehlo.slice %537 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %541 = stablehlo.reshape %540 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %542 = stablehlo.slice %353 [6:7, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %543 = stablehlo.reshape %542 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %544 = stablehlo.dot_general %543, %539, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %545 = stablehlo.multiply %544, %49 : tensor<2x2x64xf32>
    %546 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %547 = stablehlo.select %43, %545, %546 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %548 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %549 = stablehlo.reduce(%547 init: %548) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %550 = stablehlo.broadcast_in_dim %549, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %551 = stablehlo.subtract %547, %550 : tensor<2x2x64xf32>
    %552 = stablehlo.exponential %551 : tensor<2x2x64xf32>
    %553 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %554 = stablehlo.reduce(%552 init: %553) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %555 = stablehlo.broadcast_in_dim %554, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %556 = stablehlo.divide %552, %555 : tensor<2x2x64xf32>
    %557 = stablehlo.dot_general %556, %541, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %558 = stablehlo.reshape %557 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    // layer 1, row 7: write K/V at pos, attend to 0..=pos
    %559 = stablehlo.slice %366 [7:8, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %560 = stablehlo.reshape %559 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %561 = stablehlo.slice %368 [7:8, 0:2, 0:16] : (tensor<8x2x16xf32>) -> tensor<1x2x16xf32>
    %562 = stablehlo.reshape %561 : (tensor<1x2x16xf32>) -> tensor<1x1x2x1x16xf32>
    %563 = stablehlo.dynamic_update_slice %285, %560, %369, %6, %6, %45, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %564 = stablehlo.dynamic_update_slice %563, %562, %369, %7, %6, %45, %6 : (tensor<2x2x2x256x16xf32>, tensor<1x1x2x1x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2x256x16xf32>
    %565 = stablehlo.slice %564 [1:2, 0:1, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %566 = stablehlo.reshape %565 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %567 = stablehlo.slice %564 [1:2, 1:2, 0:2, 0:64, 0:16] : (tensor<2x2x2x256x16xf32>) -> tensor<1x1x2x64x16xf32>
    %568 = stablehlo.reshape %567 : (tensor<1x1x2x64x16xf32>) -> tensor<2x64x16xf32>
    %569 = stablehlo.slice %353 [7:8, 0:4, 0:16] : (tensor<8x4x16xf32>) -> tensor<1x4x16xf32>
    %570 = stablehlo.reshape %569 : (tensor<1x4x16xf32>) -> tensor<2x2x16xf32>
    %571 = stablehlo.dot_general %570, %566, batching_dims = [0] x [0], contracting_dims = [2] x [2] : (tensor<2x2x16xf32>, tensor<2x64x16xf32>) -> tensor<2x2x64xf32>
    %572 = stablehlo.multiply %571, %49 : tensor<2x2x64xf32>
    %573 = stablehlo.constant dense<0xFF800000> : tensor<2x2x64xf32>
    %574 = stablehlo.select %48, %572, %573 : tensor<2x2x64xi1>, tensor<2x2x64xf32>
    %575 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %576 = stablehlo.reduce(%574 init: %575) applies stablehlo.maximum across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %577 = stablehlo.broadcast_in_dim %576, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %578 = stablehlo.subtract %574, %577 : tensor<2x2x64xf32>
    %579 = stablehlo.exponential %578 : tensor<2x2x64xf32>
    %580 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %581 = stablehlo.reduce(%579 init: %580) applies stablehlo.add across dimensions = [2] : (tensor<2x2x64xf32>, tensor<f32>) -> tensor<2x2xf32>
    %582 = stablehlo.broadcast_in_dim %581, dims = [0, 1] : (tensor<2x2xf32>) -> tensor<2x2x64xf32>
    %583 = stablehlo.divide %579, %582 : tensor<2x2x64xf32>
    %584 = stablehlo.dot_general %583, %568, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x2x64xf32>, tensor<2x64x16xf32>) -> tensor<2x2x16xf32>
    %585 = stablehlo.reshape %584 : (tensor<2x2x16xf32>) -> tensor<1x64xf32>
    %586 = stablehlo.concatenate %396, %423, %450, %477, %504, %531, %558, %585, dim = 0 : (tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<8x64xf32>
    %587 = stablehlo.dot_general %586, %arg14, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>
    %588 = stablehlo.add %328, %587 : tensor<8x64xf32>
    // layer 1: MLP
    %589 = stablehlo.multiply %588, %588 : tensor<8x64xf32>
    %590 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %591 = stablehlo.reduce(%589 init: %590) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %592 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %593 = stablehlo.divide %591, %592 : tensor<8xf32>
    %594 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %595 = stablehlo.add %593, %594 : tensor<8xf32>
    %596 = stablehlo.rsqrt %595 : tensor<8xf32>
    %597 = stablehlo.broadcast_in_dim %596, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %598 = stablehlo.multiply %588, %597 : tensor<8x64xf32>
    %599 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %600 = stablehlo.multiply %598, %599 : tensor<8x64xf32>
    %601 = stablehlo.dot_general %600, %arg16, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %602 = stablehlo.dot_general %600, %arg17, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<128x64xf32>) -> tensor<8x128xf32>
    %603 = stablehlo.logistic %601 : tensor<8x128xf32>
    %604 = stablehlo.multiply %601, %603 : tensor<8x128xf32>
    %605 = stablehlo.multiply %604, %602 : tensor<8x128xf32>
    %606 = stablehlo.dot_general %605, %arg18, contracting_dims = [1] x [1] : (tensor<8x128xf32>, tensor<64x128xf32>) -> tensor<8x64xf32>
    %607 = stablehlo.add %588, %606 : tensor<8x64xf32>
    %608 = stablehlo.multiply %607, %607 : tensor<8x64xf32>
    %609 = stablehlo.constant dense<0.0e0> : tensor<f32>
    %610 = stablehlo.reduce(%608 init: %609) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    %611 = stablehlo.constant dense<6.4e1> : tensor<8xf32>
    %612 = stablehlo.divide %610, %611 : tensor<8xf32>
    %613 = stablehlo.constant dense<1.0e-5> : tensor<8xf32>
    %614 = stablehlo.add %612, %613 : tensor<8xf32>
    %615 = stablehlo.rsqrt %614 : tensor<8xf32>
    %616 = stablehlo.broadcast_in_dim %615, dims = [0] : (tensor<8xf32>) -> tensor<8x64xf32>
    %617 = stablehlo.multiply %607, %616 : tensor<8x64xf32>
    %618 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %619 = stablehlo.multiply %617, %618 : tensor<8x64xf32>
    %620 = stablehlo.dot_general %619, %arg20, contracting_dims = [1] x [1] : (tensor<8x64xf32>, tensor<512x64xf32>) -> tensor<8x512xf32>
    // sampling: argmax(logits / T + Gumbel noise), or argmax(logits) where T = 0
    %621 = stablehlo.slice %arg34 [0:8, 0:1] : (tensor<8x2xi32>) -> tensor<8x1xi32>
    %622 = stablehlo.reshape %621 : (tensor<8x1xi32>) -> tensor<8xi32>
    %623 = stablehlo.broadcast_in_dim %622, dims = [0] : (tensor<8xi32>) -> tensor<8x512xi32>
    %624 = stablehlo.slice %arg34 [0:8, 1:2] : (tensor<8x2xi32>) -> tensor<8x1xi32>
    %625 = stablehlo.reshape %624 : (tensor<8x1xi32>) -> tensor<8xi32>
    %626 = stablehlo.broadcast_in_dim %625, dims = [0] : (tensor<8xi32>) -> tensor<8x512xi32>
    %627 = stablehlo.iota dim = 1 : tensor<8x512xi32>
    %628 = stablehlo.xor %627, %623 : tensor<8x512xi32>
    %629 = stablehlo.constant dense<16> : tensor<8x512xi32>
    %630 = stablehlo.constant dense<15> : tensor<8x512xi32>
    %631 = stablehlo.constant dense<2146121005> : tensor<8x512xi32>
    %632 = stablehlo.constant dense<-2073254261> : tensor<8x512xi32>
    %633 = stablehlo.shift_right_logical %628, %629 : tensor<8x512xi32>
    %634 = stablehlo.xor %628, %633 : tensor<8x512xi32>
    %635 = stablehlo.multiply %634, %631 : tensor<8x512xi32>
    %636 = stablehlo.shift_right_logical %635, %630 : tensor<8x512xi32>
    %637 = stablehlo.xor %635, %636 : tensor<8x512xi32>
    %638 = stablehlo.multiply %637, %632 : tensor<8x512xi32>
    %639 = stablehlo.shift_right_logical %638, %629 : tensor<8x512xi32>
    %640 = stablehlo.xor %638, %639 : tensor<8x512xi32>
    %641 = stablehlo.add %640, %626 : tensor<8x512xi32>
    %642 = stablehlo.constant dense<16> : tensor<8x512xi32>
    %643 = stablehlo.constant dense<15> : tensor<8x512xi32>
    %644 = stablehlo.constant dense<2146121005> : tensor<8x512xi32>
    %645 = stablehlo.constant dense<-2073254261> : tensor<8x512xi32>
    %646 = stablehlo.shift_right_logical %641, %642 : tensor<8x512xi32>
    %647 = stablehlo.xor %641, %646 : tensor<8x512xi32>
    %648 = stablehlo.multiply %647, %644 : tensor<8x512xi32>
    %649 = stablehlo.shift_right_logical %648, %643 : tensor<8x512xi32>
    %650 = stablehlo.xor %648, %649 : tensor<8x512xi32>
    %651 = stablehlo.multiply %650, %645 : tensor<8x512xi32>
    %652 = stablehlo.shift_right_logical %651, %642 : tensor<8x512xi32>
    %653 = stablehlo.xor %651, %652 : tensor<8x512xi32>
    %654 = stablehlo.constant dense<9> : tensor<8x512xi32>
    %655 = stablehlo.shift_right_logical %653, %654 : tensor<8x512xi32>
    %656 = stablehlo.convert %655 : (tensor<8x512xi32>) -> tensor<8x512xf32>
    %657 = stablehlo.constant dense<5.0e-1> : tensor<8x512xf32>
    %658 = stablehlo.constant dense<1.1920929e-7> : tensor<8x512xf32>
    %659 = stablehlo.add %656, %657 : tensor<8x512xf32>
    %660 = stablehlo.multiply %659, %658 : tensor<8x512xf32>
    %661 = stablehlo.log %660 : tensor<8x512xf32>
    %662 = stablehlo.negate %661 : tensor<8x512xf32>
    %663 = stablehlo.log %662 : tensor<8x512xf32>
    %664 = stablehlo.negate %663 : tensor<8x512xf32>
    %665 = stablehlo.constant dense<0.0e0> : tensor<8xf32>
    %666 = stablehlo.constant dense<1.0e0> : tensor<8xf32>
    %667 = stablehlo.compare GT, %arg33, %665 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    %668 = stablehlo.select %667, %arg33, %666 : tensor<8xi1>, tensor<8xf32>
    %669 = stablehlo.broadcast_in_dim %668, dims = [0] : (tensor<8xf32>) -> tensor<8x512xf32>
    %670 = stablehlo.divide %620, %669 : tensor<8x512xf32>
    %671 = stablehlo.add %670, %664 : tensor<8x512xf32>
    %672 = stablehlo.broadcast_in_dim %667, dims = [0] : (tensor<8xi1>) -> tensor<8x512xi1>
    %673 = stablehlo.select %672, %671, %620 : tensor<8x512xi1>, tensor<8x512xf32>
    %674 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %675 = stablehlo.reduce(%673 init: %674) applies stablehlo.maximum across dimensions = [1] : (tensor<8x512xf32>, tensor<f32>) -> tensor<8xf32>
    %676 = stablehlo.broadcast_in_dim %675, dims = [0] : (tensor<8xf32>) -> tensor<8x512xf32>
    %677 = stablehlo.compare EQ, %673, %676 : (tensor<8x512xf32>, tensor<8x512xf32>) -> tensor<8x512xi1>
    %678 = stablehlo.iota dim = 1 : tensor<8x512xi32>
    %679 = stablehlo.convert %678 : (tensor<8x512xi32>) -> tensor<8x512xf32>
    %680 = stablehlo.constant dense<5.12e2> : tensor<8x512xf32>
    %681 = stablehlo.select %677, %679, %680 : tensor<8x512xi1>, tensor<8x512xf32>
    %682 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %683 = stablehlo.reduce(%681 init: %682) applies stablehlo.minimum across dimensions = [1] : (tensor<8x512xf32>, tensor<f32>) -> tensor<8xf32>
    %684 = stablehlo.convert %683 : (tensor<8xf32>) -> tensor<8xi32>
    return %684, %375, %402, %429, %456, %483, %510, %537, %564, %620 : tensor<8xi32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<2x2x2x256x16xf32>, tensor<8x512xf32>
  }
}

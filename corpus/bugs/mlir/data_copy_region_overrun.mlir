// KERNEL: @fuzz
// SIZES: N=0
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: invalid out-of-bounds
// RUNNER copy: differs
// PIPELINE tile: --affine-loop-tile='tile-size=2'
// EXPECT tile: valid
// RUNNER tile: agrees
// BUG: new: affine-data-copy-generate allocates a 9-element fast buffer for D[1..9] but copies 10 elements in and out (D[1..10]), writing past the buffer and past D
//
// Found by proofs/fuzz/mlir-campaign.ts (seed 1, case 4) and shrunk. With N = 0 the source does
// nothing (the inner loop is empty); the output still runs its copy loops `affine.for 1 to 11`
// over `memref<9xf64>` and reads and writes D[10] of `memref<10xf64>` (the runner sees the guard bytes
// around the 9-element buffer change; without them the corrupted heap crashed the program).
func.func @fuzz(%D: memref<10xf64>, %N: index) {
  affine.for %i3 = 1 to 5 {
    affine.for %i9 = 1 to min affine_map<(d0)[s0] -> (d0 + 2, s0)>(%i3)[%N] {
      %v0 = arith.constant 1.0 : f64
      affine.store %v0, %D[%i9 + %i3 + 1] : memref<10xf64>
    }
    %v1 = affine.load %D[%i3] : memref<10xf64>
    affine.store %v1, %D[%i3] : memref<10xf64>
  }
  return
}

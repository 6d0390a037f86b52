// KERNEL: @fuzz
// PIPELINE greedy: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT greedy: invalid out-of-bounds
// RUNNER greedy: differs
// PIPELINE tile: --affine-loop-tile='tile-size=2'
// EXPECT tile: valid
// RUNNER tile: agrees
// BUG: https://github.com/llvm/llvm-project/issues/120227: affine-loop-fusion sizes the private buffer of a producer with two stores to one memref by one store's region, and the other store writes outside it
//
// Found by proofs/fuzz/mlir-campaign.ts (seed 11, case 6) and shrunk; the tracker's report (fixed
// upstream in 2025 by https://github.com/llvm/llvm-project/pull/130365) is the same bug. MLIR 16
// creates `memref<1x1x1xi32>` for B's slice and rewrites the second store to `%alloc[-3, 2, 0]`:
// the runner sees 4 guard bytes change around the private buffer.
func.func @fuzz(%A: memref<5x1x5xi32>, %B: memref<5x6x4xi32>) {
  affine.for %i1 = 1 to 3 {
    %v0 = arith.constant 1 : i32
    affine.store %v0, %B[%i1 + 2, 3, %i1 + 1] : memref<5x6x4xi32>
    %v1 = arith.constant 1 : i32
    affine.store %v1, %B[1, %i1 + 3, 3] : memref<5x6x4xi32>
  }
  affine.for %i3 = 2 to 3 {
    %v2 = affine.load %B[%i3 + 2, %i3 + 1, 3] : memref<5x6x4xi32>
    affine.store %v2, %A[%i3 + 2, 0, %i3 + 2] : memref<5x1x5xi32>
  }
  return
}

// KERNEL: @zero_trip
// SIZES: N=0
// PIPELINE copy: --pass-pipeline='builtin.module(func.func(affine-data-copy-generate{generate-dma=false fast-mem-space=0}))'
// EXPECT copy: invalid uninitialized-read
// RUNNER copy: differs
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// BUG: new: affine-data-copy-generate copies out the write-only region of a loop nest whose outer loop runs zero times, from a fast buffer it never filled
//
// Found by sched fuzz --compiler mlir (seed 0, cases 568 and 1360) and shrunk by hand. The region
// A[1..2] written by the inner loop does not depend on i, so the copy-out loop runs from 1 to 3
// whatever N is; with N = 0 the outer loop never runs, nothing is copied in (the region is only
// written), and the copy-out writes the buffer's unwritten cells (the runner's 0x5A canary) to A[1]
// and A[2]. The same missing copy-in as data_copy_guarded_store (bug 7 in docs/mlir.md) and
// https://github.com/llvm/llvm-project/issues/54994 (a strided store).
func.func @zero_trip(%A: memref<4xi32>, %N: index) {
  affine.for %i = 1 to min affine_map<()[s0] -> (3, s0)>()[%N] {
    affine.for %j = 0 to 2 {
      %c = arith.constant 1 : i32
      affine.store %c, %A[%j + 1] : memref<4xi32>
    }
  }
  return
}

// KERNEL: @guarded
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: invalid uninitialized-read
// RUNNER copy: differs
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// BUG: new: affine-data-copy-generate copies out the region of a store under an affine.if that never holds, from a fast buffer it never filled
//
// Found by proofs/fuzz/mlir-campaign.ts (seed 11, case 220) and shrunk. The guard i - 3 >= 0 is false
// for the only iteration i = 2: D is unchanged. MLIR 16 gives the store a fast buffer, copies
// nothing in (the region is only written) and copies the buffer out to D[1][3] unconditionally: the
// runner reads the heap's 0x5A canary there. Compare #217538 (a buffer copied out unfilled because
// of a non-affine store). The missing copy-in of a write-only region is the cause of
// https://github.com/llvm/llvm-project/issues/54994 (a strided store) too; data_copy_zero_trip_write
// is the same with a loop that runs zero times.
func.func @guarded(%C: memref<4x5x5xi32>, %D: memref<2x4xi32>) {
  affine.for %i = 2 to 3 {
    affine.if affine_set<(d0) : (d0 - 3 >= 0)>(%i) {
      %a = affine.load %C[%i + 1, %i + 2, %i + 2] : memref<4x5x5xi32>
      %b = affine.load %C[%i, 0, %i + 1] : memref<4x5x5xi32>
      %m = arith.maxsi %a, %b : i32
      affine.store %m, %D[1, %i + 1] : memref<2x4xi32>
    }
  }
  return
}

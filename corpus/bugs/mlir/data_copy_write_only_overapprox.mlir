// KERNEL: @fuzz
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: invalid out-of-bounds
// RUNNER copy: differs
// PIPELINE licm: --affine-loop-invariant-code-motion
// EXPECT licm: valid
// RUNNER licm: agrees
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// BUG: new: affine-data-copy-generate copies C[3][1][4..5] out of a 1-element fast buffer: element 5 of a dimension of size 5 (it lands on C[3][2][0]) gets the buffer's unwritten neighbour
//
// Found by proofs/fuzz/mlir-campaign.ts (seed 11, case 75) and shrunk: the same fault as
// data_copy_region_overrun.mlir (copy loops that run past the region the buffer was sized for),
// here on a write-only region bounded by a min. The store writes C[3][1][4] only; MLIR 16 copies
// out `affine.for 4 to 6` from `memref<1x1x1xi32>`: the runner reads the heap's 0x5A canary in
// C[3][2][0], a cell the source never touches.
func.func @fuzz(%A: memref<5xi32>, %C: memref<6x4x5xi32>) {
  affine.for %i3 = 0 to 1 {
    affine.for %i4 = 2 to min affine_map<(d0) -> (4, d0 + 3)>(%i3) {
      %v0 = affine.load %A[4] : memref<5xi32>
      affine.store %v0, %C[3, %i3 + 1, %i4 + 2] : memref<6x4x5xi32>
    }
  }
  return
}

// KERNEL: @carried
// PIPELINE copy: --pass-pipeline='builtin.module(func.func(affine-data-copy-generate{generate-dma=false fast-mem-space=0 fast-mem-capacity=1}))'
// EXPECT copy: invalid output-mismatch
// RUNNER copy: differs
// PIPELINE unlimited: --pass-pipeline='builtin.module(func.func(affine-data-copy-generate{generate-dma=false fast-mem-space=0}))'
// EXPECT unlimited: valid
// RUNNER unlimited: agrees
// BUG: new: affine-data-copy-generate with a fast-memory capacity gives the read and the write of one memref in a loop body two fast buffers, both hoisted out of the loop, so the read no longer sees the previous iteration's write
//
// Found by sched fuzz --compiler mlir (seed 0, case 1915) and shrunk by hand. The i loop's footprint
// (A, 1200 bytes) exceeds the 1 KiB capacity, so the pass recurses into its body, which it splits
// into ranges at each affine.for: [load C, store A] and the k loop. Each range gets its own copies
// and its own fast buffer for C, and both are hoisted out of the i loop because C[0] does not
// depend on i: the load reads a buffer filled once before the loop, the store writes another one
// copied out after it. A[i] should be i - 1 (the previous iteration's store) for i >= 1; it is C's
// initial value for every i. Without the capacity the pass makes one buffer for C and is correct.
func.func @carried(%A: memref<300xi32>, %C: memref<1xi32>) {
  affine.for %i = 0 to 300 {
    %v = affine.load %C[0] : memref<1xi32>
    affine.store %v, %A[%i] : memref<300xi32>
    affine.for %k = 0 to 1 {
      %c = arith.index_cast %i : index to i32
      affine.store %c, %C[0] : memref<1xi32>
    }
  }
  return
}

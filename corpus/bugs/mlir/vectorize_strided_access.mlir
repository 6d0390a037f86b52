// KERNEL: @strided
// PIPELINE v2: --pass-pipeline='builtin.module(func.func(affine-super-vectorize{virtual-vector-size=2}))'
// EXPECT v2: invalid output-mismatch
// RUNNER v2: differs
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=2
// EXPECT unroll: valid
// RUNNER unroll: agrees
// BUG: https://github.com/llvm/llvm-project/pull/196973: affine-super-vectorize vectorizes a store whose subscript is 2 * i as a contiguous vector.transfer_write (the open PR refuses such accesses; no issue of its own)
//
// Found by sched fuzz --compiler mlir (seed 0, case 66: a store to C[3, 2 * i] in a loop of one
// iteration) and shrunk by hand. The loop writes C[0] and C[2]; MLIR 16 turns it into one
// iteration of step 2 writing a vector<2xi32> at C[0]: cells 0 and 1. C[1] gets 1 (expected its
// input) and C[2] keeps its input (expected 1). Not the tail of #218120: the trip count (2) is a
// multiple of the vector size.
func.func @strided(%C: memref<4xi32>) {
  affine.for %i = 0 to 2 {
    %one = arith.constant 1 : i32
    affine.store %one, %C[%i * 2] : memref<4xi32>
  }
  return
}

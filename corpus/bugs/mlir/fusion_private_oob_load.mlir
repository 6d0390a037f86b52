// KERNEL: @domain
// PIPELINE producer: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=producer fusion-maximal}))'
// EXPECT producer: invalid output-mismatch
// RUNNER producer: differs
// BUG: https://github.com/llvm/llvm-project/issues/212039: affine-loop-fusion privatises comm[j] into a buffer indexed by j mod 2 where the store and the load take different cells (reported as a 1-element buffer read at j mod 2; in MLIR 16 a 2-element buffer, written at 1 - j mod 2 and read at 1: a stale value for odd j)
func.func @domain(%in: memref<32xf64>, %comm: memref<32xf64>, %out: memref<32xf64>) {
  affine.for %i = 0 to 8 {
    %a = affine.load %in[%i] : memref<32xf64>
    %b = arith.addf %a, %a : f64
    affine.store %b, %comm[2 * %i] : memref<32xf64>
  }
  affine.for %j = 0 to 16 {
    %c = affine.load %comm[%j] : memref<32xf64>
    %d = arith.addf %c, %c : f64
    affine.store %d, %out[%j] : memref<32xf64>
  }
  return
}

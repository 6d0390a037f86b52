// KERNEL: @control
// PIPELINE greedy: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT greedy: valid
// RUNNER greedy: agrees
// PIPELINE producer: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=producer fusion-maximal}))'
// EXPECT producer: valid
// RUNNER producer: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=4
// EXPECT unroll: valid
// RUNNER unroll: agrees
//
// Reported as a miscompilation of trunk in https://github.com/llvm/llvm-project/issues/211599
// (fusion across a call that writes the buffer through a memref.cast alias). MLIR 16 does not fuse
// the two nests here: the output keeps both loops around the call (a correct, unchanged order).
func.func @escape(%m: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %m, %c0 : memref<?xf64>
  %one = arith.constant 1.0 : f64
  affine.for %k = 0 to %n {
    %x = affine.load %m[%k] : memref<?xf64>
    %y = arith.addf %x, %one : f64
    affine.store %y, %m[%k] : memref<?xf64>
  }
  return
}
func.func @control(%in: memref<32xf64>, %comm: memref<32xf64>, %out: memref<32xf64>) {
  affine.for %i = 0 to 16 {
    %a = affine.load %in[%i] : memref<32xf64>
    %b = arith.addf %a, %a : f64
    affine.store %b, %comm[%i] : memref<32xf64>
  }
  %view = memref.cast %comm : memref<32xf64> to memref<?xf64>
  func.call @escape(%view) : (memref<?xf64>) -> ()
  affine.for %j = 0 to 16 {
    %c = affine.load %comm[%j] : memref<32xf64>
    %d = arith.addf %c, %c : f64
    affine.store %d, %out[%j] : memref<32xf64>
  }
  return
}

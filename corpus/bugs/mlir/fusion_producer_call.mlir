// KERNEL: @control
// PIPELINE producer: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{mode=producer fusion-maximal}))'
// EXPECT producer: invalid output-mismatch
// RUNNER producer: differs
// BUG: https://github.com/llvm/llvm-project/issues/211591: affine-loop-fusion fuses a consumer into a producer loop that passes the produced memref to a call
func.func @bump(%m: memref<32xf64>) {
  %one = arith.constant 1.0 : f64
  affine.for %k = 0 to 32 {
    %x = affine.load %m[%k] : memref<32xf64>
    %y = arith.addf %x, %one : f64
    affine.store %y, %m[%k] : memref<32xf64>
  }
  return
}
func.func @control(%in: memref<32xf64>, %comm: memref<32xf64>, %out: memref<32xf64>) {
  affine.for %i = 0 to 16 {
    %a = affine.load %in[%i] : memref<32xf64>
    %b = arith.addf %a, %a : f64
    affine.store %b, %comm[%i] : memref<32xf64>
    func.call @bump(%comm) : (memref<32xf64>) -> ()
  }
  affine.for %j = 0 to 16 {
    %c = affine.load %comm[%j] : memref<32xf64>
    %d = arith.addf %c, %c : f64
    affine.store %d, %out[%j] : memref<32xf64>
  }
  return
}

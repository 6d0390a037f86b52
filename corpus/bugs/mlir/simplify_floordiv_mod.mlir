// KERNEL: @func1
// PIPELINE simplify: --affine-simplify-structures
// EXPECT simplify: invalid output-mismatch
// RUNNER simplify: differs
// BUG: https://github.com/llvm/llvm-project/issues/114654: affine-simplify-structures folds ((d1 - (d1 + 2)) floordiv 8) mod 8 to the wrong constant
#map2 = affine_map<(d0, d1) -> (((d1 - (d1 + 2)) floordiv 8) mod 8)>
func.func @func1(%out: memref<1xindex>) {
  %idx1 = arith.constant 1 : index
  %res2 = affine.apply #map2(%idx1, %idx1)
  affine.store %res2, %out[0] : memref<1xindex>
  return
}

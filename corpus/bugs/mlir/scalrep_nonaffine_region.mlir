// KERNEL: @if_loop_1
// SIZES: arg0=6 n=6
// PIPELINE scalrep: --affine-scalrep
// EXPECT scalrep: invalid output-mismatch
// RUNNER scalrep: differs
// BUG: https://github.com/llvm/llvm-project/issues/53034: affine-scalrep forwards a store to a load across an scf.for whose body writes the cell
func.func @if_loop_1(%arg0: memref<?xi32>, %n: index, %res: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c0_i32 = arith.constant 0 : i32
  %c5_i32 = arith.constant 5 : i32
  %c10_i32 = arith.constant 10 : i32
  %acc = memref.alloca() : memref<1xi32>
  affine.store %c0_i32, %acc[0] : memref<1xi32>
  scf.for %i = %c0 to %n step %c1 {
    %4 = memref.load %arg0[%i] : memref<?xi32>
    %5 = arith.muli %4, %c5_i32 : i32
    %6 = arith.cmpi sgt, %5, %c10_i32 : i32
    scf.if %6 {
      %7 = affine.load %acc[0] : memref<1xi32>
      %8 = arith.addi %5, %7 : i32
      affine.store %8, %acc[0] : memref<1xi32>
    }
  }
  %3 = affine.load %acc[0] : memref<1xi32>
  affine.store %3, %res[0] : memref<1xi32>
  return
}

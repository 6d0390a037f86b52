// KERNEL: @kernel_heat_3d
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: valid
// RUNNER tile: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE parallel: --affine-parallelize
// EXPECT parallel: valid
// RUNNER parallel: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
// PIPELINE vector: --affine-super-vectorize='virtual-vector-size=4'
// EXPECT vector: valid
// RUNNER vector: agrees
//
// PolyBench/C 4.2 heat-3d: TSTEPS steps (t = 1..TSTEPS) of the 7-point heat equation between A and B.
func.func @kernel_heat_3d(%A: memref<6x6x6xf64>, %B: memref<6x6x6xf64>) {
  %eighth = arith.constant 0.125 : f64
  %two = arith.constant 2.0 : f64
  affine.for %t = 1 to 3 {
    affine.for %i = 1 to 5 {
      affine.for %j = 1 to 5 {
        affine.for %k = 1 to 5 {
          %c = affine.load %A[%i, %j, %k] : memref<6x6x6xf64>
          %c2 = arith.mulf %two, %c : f64
          %ip = affine.load %A[%i + 1, %j, %k] : memref<6x6x6xf64>
          %im = affine.load %A[%i - 1, %j, %k] : memref<6x6x6xf64>
          %x0 = arith.subf %ip, %c2 : f64
          %x1 = arith.addf %x0, %im : f64
          %x = arith.mulf %eighth, %x1 : f64
          %jp = affine.load %A[%i, %j + 1, %k] : memref<6x6x6xf64>
          %jm = affine.load %A[%i, %j - 1, %k] : memref<6x6x6xf64>
          %y0 = arith.subf %jp, %c2 : f64
          %y1 = arith.addf %y0, %jm : f64
          %y = arith.mulf %eighth, %y1 : f64
          %kp = affine.load %A[%i, %j, %k + 1] : memref<6x6x6xf64>
          %km = affine.load %A[%i, %j, %k - 1] : memref<6x6x6xf64>
          %z0 = arith.subf %kp, %c2 : f64
          %z1 = arith.addf %z0, %km : f64
          %z = arith.mulf %eighth, %z1 : f64
          %s0 = arith.addf %x, %y : f64
          %s1 = arith.addf %s0, %z : f64
          %r = arith.addf %s1, %c : f64
          affine.store %r, %B[%i, %j, %k] : memref<6x6x6xf64>
        }
      }
    }
    affine.for %i = 1 to 5 {
      affine.for %j = 1 to 5 {
        affine.for %k = 1 to 5 {
          %c = affine.load %B[%i, %j, %k] : memref<6x6x6xf64>
          %c2 = arith.mulf %two, %c : f64
          %ip = affine.load %B[%i + 1, %j, %k] : memref<6x6x6xf64>
          %im = affine.load %B[%i - 1, %j, %k] : memref<6x6x6xf64>
          %x0 = arith.subf %ip, %c2 : f64
          %x1 = arith.addf %x0, %im : f64
          %x = arith.mulf %eighth, %x1 : f64
          %jp = affine.load %B[%i, %j + 1, %k] : memref<6x6x6xf64>
          %jm = affine.load %B[%i, %j - 1, %k] : memref<6x6x6xf64>
          %y0 = arith.subf %jp, %c2 : f64
          %y1 = arith.addf %y0, %jm : f64
          %y = arith.mulf %eighth, %y1 : f64
          %kp = affine.load %B[%i, %j, %k + 1] : memref<6x6x6xf64>
          %km = affine.load %B[%i, %j, %k - 1] : memref<6x6x6xf64>
          %z0 = arith.subf %kp, %c2 : f64
          %z1 = arith.addf %z0, %km : f64
          %z = arith.mulf %eighth, %z1 : f64
          %s0 = arith.addf %x, %y : f64
          %s1 = arith.addf %s0, %z : f64
          %r = arith.addf %s1, %c : f64
          affine.store %r, %A[%i, %j, %k] : memref<6x6x6xf64>
        }
      }
    }
  }
  return
}

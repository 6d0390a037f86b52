// KERNEL: @kernel_covariance
// SIZES: float_n=7
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
// PIPELINE fusion: --pass-pipeline='builtin.module(func.func(affine-loop-fusion))'
// EXPECT fusion: invalid output-mismatch
// RUNNER fusion: differs
// PIPELINE fusionmax: --pass-pipeline='builtin.module(func.func(affine-loop-fusion{fusion-maximal}))'
// EXPECT fusionmax: invalid uninitialized-read
// RUNNER fusionmax: differs
//
// PolyBench/C 4.2 covariance: column means, centring, then the symmetric covariance matrix.
// fusion: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/issues/212032 (the mean is recomputed inside the centring nest, which has already overwritten the data it reads).
// fusionmax: MLIR 16 miscompiles this kernel; an instance of https://github.com/llvm/llvm-project/issues/212032 (the mean is recomputed inside the centring nest, which has already overwritten the data it reads).
#after = affine_map<(d0) -> (d0)>
func.func @kernel_covariance(%float_n: f64, %data: memref<7x5xf64>,
                             %cov: memref<5x5xf64>, %mean: memref<5xf64>) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  affine.for %j = 0 to 5 {
    affine.store %zero, %mean[%j] : memref<5xf64>
    affine.for %i = 0 to 7 {
      %m = affine.load %mean[%j] : memref<5xf64>
      %d = affine.load %data[%i, %j] : memref<7x5xf64>
      %s = arith.addf %m, %d : f64
      affine.store %s, %mean[%j] : memref<5xf64>
    }
    %m = affine.load %mean[%j] : memref<5xf64>
    %q = arith.divf %m, %float_n : f64
    affine.store %q, %mean[%j] : memref<5xf64>
  }
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 5 {
      %d = affine.load %data[%i, %j] : memref<7x5xf64>
      %m = affine.load %mean[%j] : memref<5xf64>
      %s = arith.subf %d, %m : f64
      affine.store %s, %data[%i, %j] : memref<7x5xf64>
    }
  }
  %nm1 = arith.subf %float_n, %one : f64
  affine.for %i = 0 to 5 {
    affine.for %j = #after(%i) to 5 {
      affine.store %zero, %cov[%i, %j] : memref<5x5xf64>
      affine.for %k = 0 to 7 {
        %c = affine.load %cov[%i, %j] : memref<5x5xf64>
        %a = affine.load %data[%k, %i] : memref<7x5xf64>
        %b = affine.load %data[%k, %j] : memref<7x5xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        affine.store %s, %cov[%i, %j] : memref<5x5xf64>
      }
      %c = affine.load %cov[%i, %j] : memref<5x5xf64>
      %q = arith.divf %c, %nm1 : f64
      affine.store %q, %cov[%i, %j] : memref<5x5xf64>
      affine.store %q, %cov[%j, %i] : memref<5x5xf64>
    }
  }
  return
}

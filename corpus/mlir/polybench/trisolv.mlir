// KERNEL: @kernel_trisolv
// SIZES: N=7 L=NxN x=N b=N
// ASSUME: N >= 0 && L_d0 == N && L_d1 == N && x_d0 == N && b_d0 == N
// PIPELINE tile: --affine-loop-tile='tile-size=3'
// EXPECT tile: valid
// RUNNER tile: agrees
// PIPELINE unroll: --affine-loop-unroll=unroll-factor=3
// EXPECT unroll: valid
// RUNNER unroll: agrees
// PIPELINE copy: --affine-data-copy-generate='generate-dma=false fast-mem-space=0'
// EXPECT copy: valid
// RUNNER copy: agrees
// PIPELINE tile-unroll: --affine-loop-tile='tile-size=4' --affine-loop-unroll=unroll-factor=2
// EXPECT tile-unroll: valid
// RUNNER tile-unroll: agrees
//
// PolyBench/C 4.2 trisolv: forward substitution, L x = b.
#id = affine_map<(d0) -> (d0)>
func.func @kernel_trisolv(%N: index, %L: memref<?x?xf64>, %x: memref<?xf64>, %b: memref<?xf64>) {
  affine.for %i = 0 to %N {
    %bi = affine.load %b[%i] : memref<?xf64>
    affine.store %bi, %x[%i] : memref<?xf64>
    affine.for %j = 0 to #id(%i) {
      %xi = affine.load %x[%i] : memref<?xf64>
      %l = affine.load %L[%i, %j] : memref<?x?xf64>
      %xj = affine.load %x[%j] : memref<?xf64>
      %p = arith.mulf %l, %xj : f64
      %s = arith.subf %xi, %p : f64
      affine.store %s, %x[%i] : memref<?xf64>
    }
    %xi = affine.load %x[%i] : memref<?xf64>
    %lii = affine.load %L[%i, %i] : memref<?x?xf64>
    %q = arith.divf %xi, %lii : f64
    affine.store %q, %x[%i] : memref<?xf64>
  }
  return
}

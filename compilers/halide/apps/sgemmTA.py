# sgemmTA (thesis Table 6.1): apps/linear_algebra GEMM with transpose_A (see gemm.py).
import gemm


def pipeline():
    return gemm.gemm(transpose_A=True)

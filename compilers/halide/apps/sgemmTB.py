# sgemmTB (thesis Table 6.1): apps/linear_algebra GEMM with transpose_B (see gemm.py).
import gemm


def pipeline():
    return gemm.gemm(transpose_B=True)

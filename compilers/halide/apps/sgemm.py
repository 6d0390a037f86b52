# sgemm (thesis Table 6.1): apps/linear_algebra GEMM, float, no transposition (see gemm.py).
import gemm


def pipeline():
    return gemm.gemm()

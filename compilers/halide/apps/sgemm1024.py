# sgemm1024 (thesis Table 6.1): sgemm with M = N = K = 1024, fixed with buffer constraints (see gemm.py).
import gemm


def pipeline():
    p = gemm.gemm()
    p["A"].dim(0).set_extent(1024)
    p["A"].dim(1).set_extent(1024)
    p["B"].dim(1).set_extent(1024)
    p["example"] = None  # 1024^3 is too large for the big-step run of the JIT oracle
    return p

# bigsgemm (thesis Table 6.1): sgemm with M, N, K >= 512 (sched-side assumptions; see gemm.py).
import gemm


def pipeline():
    p = gemm.gemm()
    p["assume"] = ["A.extent.0 >= 512", "A.extent.1 >= 512", "B.extent.1 >= 512"]
    p["example"] = None
    return p

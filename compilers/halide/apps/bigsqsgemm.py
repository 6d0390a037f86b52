# bigsqsgemm (thesis Table 6.1): square sgemm with N >= 512 (sched-side assumption; see gemm.py).
import gemm


def pipeline():
    p = gemm.gemm()
    p["A"].dim(1).set_extent(p["A"].width())
    p["B"].dim(1).set_extent(p["A"].width())
    p["assume"] = ["A.extent.0 >= 512"]
    p["example"] = None
    return p

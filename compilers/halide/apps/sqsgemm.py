# sqsgemm (thesis Table 6.1): sgemm on square matrices, M = N = K (buffer constraints; see gemm.py).
import gemm


def pipeline():
    p = gemm.gemm()
    p["A"].dim(1).set_extent(p["A"].width())
    p["B"].dim(1).set_extent(p["A"].width())
    p["example"] = {"output": [40, 40], "A": [40, 40], "B": [40, 40], "C": [40, 40], "a": 1.5, "b": 0.5}
    return p

# sqsgemm (thesis Table 6.1): sgemm on square matrices, M = N = K (buffer constraints; see gemm.py).
import gemm


def pipeline():
    p = gemm.gemm()
    p["A"].dim(1).set_extent(p["A"].width())
    p["B"].dim(1).set_extent(p["A"].width())
    p["example"] = {"output": [32, 32], "A": [32, 32], "B": [32, 32], "C": [32, 32], "a": 1.5, "b": 0.5}
    return p

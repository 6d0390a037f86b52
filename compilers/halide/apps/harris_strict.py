# harris with the target feature strict_float: Halide then keeps float operations as written (no
# reassociation, no FMA), so the IEEE spec can hold bit for bit. See harris.py.
import harris


def pipeline():
    p = harris.pipeline()
    p["target"] = "x86-64-linux-sse41-avx-avx2-f16c-strict_float"
    return p

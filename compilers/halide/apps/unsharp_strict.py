# unsharp with the target feature strict_float (no float reassociation, no FMA). See unsharp.py.
import unsharp


def pipeline():
    p = unsharp.pipeline()
    p["target"] = "x86-64-linux-sse41-avx-avx2-f16c-strict_float"
    return p

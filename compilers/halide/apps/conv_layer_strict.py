# conv_layer with the target feature strict_float (no float reassociation, no FMA). See conv_layer.py.
import conv_layer


def pipeline():
    p = conv_layer.pipeline()
    p["target"] = "x86-64-linux-sse41-avx-avx2-f16c-strict_float"
    return p

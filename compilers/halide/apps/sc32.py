# sc32: apps/stencil_chain with 32 stencils (see stencil_chain.py).
import stencil_chain


def pipeline():
    p = stencil_chain.pipeline(32)
    p["example"] = None  # too large for the big-step run of the JIT oracle
    return p

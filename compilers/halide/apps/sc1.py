# sc1: apps/stencil_chain with one stencil (see stencil_chain.py).
import stencil_chain


def pipeline():
    return stencil_chain.pipeline(1)

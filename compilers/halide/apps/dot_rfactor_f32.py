# dot_rfactor.py on f32: the partial sums regroup the float sum, so the translation is valid only
# up to reassociation (`--float real`); under IEEE a run shows the rounding difference.
import halide as hl
from dot_rfactor import make


def pipeline():
    return make(hl.Float(32))

#!/usr/bin/python3
"""The truth of each adversarial pipeline: Halide 14's own realize against a plain-Python reference.

Each script of this directory defines pipeline() (the `sched halide` convention), and, when it can
be run, TRUTH = {"inputs": {name: values}, "output": [extents]} and reference(**inputs): the
algorithm's values computed in plain Python (None where the algorithm has none: Halide leaves it
undefined). This prints one JSON line: for each script, realize's values (exact: integers in
decimal, floats as repr), the reference's, and whether they agree. One process for all scripts
(test/halide-adversarial.test.ts).

    /usr/bin/python3 compilers/halide/adversarial/truth.py
"""
import glob
import importlib.util
import json
import math
import os
import sys

import halide as hl

HERE = os.path.dirname(os.path.abspath(__file__))


def same(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, float) and isinstance(b, float) and a == 0 and b == 0:
        return math.copysign(1, a) == math.copysign(1, b)
    return a == b


def flat(v):
    if isinstance(v, list):
        return [y for x in v for y in flat(x)]
    return [v]


def show(v):
    if isinstance(v, float):
        return repr(v)
    return str(v)


def run(path):
    name = os.path.basename(path)[:-3]
    spec = importlib.util.spec_from_file_location(f"adv_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    truth = getattr(mod, "TRUTH", None)
    if truth is None:
        return None
    p = mod.pipeline()
    target = hl.Target(p.get("target") or "x86-64-linux-sse41-avx-avx2-fma-f16c")
    hook = p.get("schedule")
    if hook is not None:
        hook()
    args = {a.name(): a for a in p["args"]}
    for n, vals in truth["inputs"].items():
        a = args[n]
        # Nested lists are rows: vals[y][x].
        ext = [len(vals[0]), len(vals)] if vals and isinstance(vals[0], list) else [len(vals)]
        buf = hl.Buffer(a.type(), ext)
        for i, v in enumerate(flat(vals)):
            buf[[i % ext[0], i // ext[0]] if len(ext) == 2 else [i]] = v
        a.set(buf)
    for n, v in truth.get("params", {}).items():
        args[n].set(v)
    out = p["output"]
    ext = truth["output"]
    t = out.output_types()[0]
    res = hl.Buffer(t, ext)
    if "output_before" in truth:
        res[[0] * len(ext)] = truth["output_before"]
    out.realize(res, target)
    n = 1
    for e in ext:
        n *= e
    got = []
    for i in range(n):
        idx, rest = [], i
        for e in ext:
            idx.append(rest % e)
            rest //= e
        got.append(res[idx])
    want = flat(mod.reference(**truth["inputs"], **truth.get("params", {})))
    agree = all(w is None or same(g, w) for g, w in zip(got, want)) and len(got) == len(want)
    return {"name": name, "halide": [show(g) for g in got], "reference": [None if w is None else show(w) for w in want], "agree": agree}


def main():
    out = []
    for path in sorted(glob.glob(os.path.join(HERE, "*.py"))):
        if os.path.basename(path) == "truth.py":
            continue
        r = run(path)
        if r is not None:
            out.append(r)
    print(json.dumps({"truth": out}))


if __name__ == "__main__":
    main()

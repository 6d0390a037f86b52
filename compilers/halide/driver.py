#!/usr/bin/python3
"""sched's Halide 14 driver: lower a user's pipeline script with the real compiler and print, as one
JSON document on stdout, what the TypeScript translator (compilers/halide/translate.ts) needs.

    /usr/bin/python3 compilers/halide/driver.py SCRIPT.py [--jit JSON|-]

The script defines `pipeline()`, returning a dict (docs/halide.md):
    output: the output Func;
    funcs:  every Func of the algorithm (the output too; boundary-condition Funcs as well);
    args:   the ImageParams and Params of the pipeline;
    example (optional): sizes for the JIT oracle: {"output": [W, H], "<input>": [w, h], "<param>": v};
    target (optional): a Halide target string (default x86-64-linux-sse41-avx-avx2-fma-f16c);
    assume (optional): conditions the verdict is restricted to, in Halide's names ("A.extent.0 >= 512");
    schedule (optional): a function of no arguments that applies the schedule and returns the Funcs
        it creates (rfactor's intermediates). With it, the spec is the algorithm as written: the
        definitions read before the schedule runs (rfactor rewrites the Func it applies to).
`pipeline()` is called three times with a schedule (the algorithm alone, the traced lowering, the
plain one), twice without; each lowering but the traced one in a process forked before any pipeline
was built (Zygote).

What is printed: the Func definitions (as Halide prints their Exprs; with a schedule, also those of
the algorithm before it and the lowering of the algorithm alone, for its RDom bounds), the lowered statement after
"bounding small realizations" (the input of storage flattening) and after "final simplification",
for the pipeline with `trace_stores()` on every Func and without, and the lowering times.
With --jit, runs `realize` instead on the inputs given in the JSON (see jit()).
"""
import importlib.util
import json
import os
import re
import struct
import sys
import tempfile
import time

# Read once, at the first lowering: every pass's IR on stderr, which the translation reads. `--jit`
# reads none of it (half a megabyte of unbuffered writes per realize of a fuzz case).
os.environ["HL_DEBUG_CODEGEN"] = "0" if sys.argv[2:3] == ["--jit"] else "2"
import halide as hl  # noqa: E402

EXACT = None  # whether float constants print exactly (exact_floats())

# A fixed target: the lowered code does not depend on the host.
TARGET = hl.Target("x86-64-linux-sse41-avx-avx2-fma-f16c")
ASSUME = []  # pipeline()'s 'assume': conditions on buffer fields and Params, in Halide's names
SECTIONS = {"pass21": "bounding small realizations", "final": "final simplification", "initial": "creating initial loop nests"}


# RDom predicates (`RDom.where`) cannot be read back from Python: the driver records them as the
# script gives them, by wrapping RDom.where before the script is loaded. Each record is the RDom
# (for same_as), the names of its RVars and the predicate's text.
WHERE = []
_where = hl.RDom.where


def _recording_where(rdom, predicate):
    _where(rdom, predicate)  # Halide's checks first (a frozen RDom refuses new predicates)
    WHERE.append((rdom, [rdom[i].name() for i in range(rdom.dimensions())], expr_text(predicate if isinstance(predicate, hl.Expr) else hl.Expr(predicate))))


hl.RDom.where = _recording_where


def predicates(rvars):
    """The predicates of the RDom whose RVars an update iterates (Halide ANDs them). RDoms are
    told apart by their RVar names; two RDoms that share one and were given predicates make the
    update ambiguous, and the driver stops."""
    mine = [w for w in WHERE if set(w[1]) & set(rvars)]
    for w in mine:
        if not w[0].same_as(mine[0][0]):
            fail(f"unsupported: RDom predicate: two RDoms with RVar names {sorted(set(w[1]) & set(mine[0][1]))} have predicates; give the RDoms distinct names")
    return [w[2] for w in mine]


def fail(msg):
    print(json.dumps({"error": msg}))
    sys.exit(3)


def load(script):
    spec = importlib.util.spec_from_file_location("sched_halide_pipeline", script)
    if spec is None:
        fail(f"cannot load '{script}' as a Python module")
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    user_code(lambda: spec.loader.exec_module(mod), f"loading '{script}'")
    if not hasattr(mod, "pipeline"):
        fail(f"'{script}' defines no function pipeline() (see docs/halide.md)")
    return mod


def user_code(fn, what):
    """Run the script's code: an exception it raises (a directive Halide 14's Python bindings do not
    have, such as hoist_storage, or a refused schedule) is an input error naming it."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - any error of the user's script is reported, not a crash
        import traceback
        where = [f for f in traceback.extract_tb(e.__traceback__) if f.filename != __file__]
        at = f" ({where[-1].filename}:{where[-1].lineno}: {where[-1].line})" if where else ""
        fail(f"{what} raised {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}{at}")


def build(mod, scheduled=True):
    """pipeline()'s output Func, Funcs, args and example, and whether it has a schedule hook. With
    `scheduled`, the hook has run and the Funcs it returned are among the Funcs."""
    WHERE.clear()
    p = user_code(mod.pipeline, "pipeline()")
    if not isinstance(p, dict) or not isinstance(p.get("output"), hl.Func):
        fail("pipeline() must return a dict with 'output' (a Func), 'funcs' (list of Funcs) and 'args' (ImageParams and Params)")
    funcs = list(p.get("funcs") or [])
    if not any(f.name() == p["output"].name() for f in funcs):
        funcs.append(p["output"])
    for f in funcs:
        if not isinstance(f, hl.Func):
            fail(f"pipeline(): 'funcs' holds {f!r}, not a Func")
    args = list(p.get("args") or [])
    for a in args:
        if not isinstance(a, (hl.ImageParam, hl.Param)):
            fail(f"pipeline(): 'args' holds {a!r}, neither an ImageParam nor a Param")
    hook = p.get("schedule")
    if hook is not None and not callable(hook):
        fail("pipeline(): 'schedule' must be a function of no arguments (it applies the schedule and returns the Funcs it creates)")
    if scheduled and hook is not None:
        made = user_code(hook, "pipeline()'s schedule")
        for f in list(made or []):
            if not isinstance(f, hl.Func):
                fail(f"pipeline()'s schedule returned {f!r}, not a Func")
            if not any(g.name() == f.name() for g in funcs):
                funcs.append(f)
    global ASSUME, TARGET
    ASSUME = [str(a) for a in (p.get("assume") or [])]
    if p.get("target"):
        TARGET = hl.Target(p["target"])
    # An 'example' of None says the sizes are too large for the JIT oracle; no 'example' lets sched
    # choose small sizes from the assumptions.
    return p["output"], funcs, args, (p["example"] if "example" in p else "choose"), hook is not None


def section(log, title):
    """The IR printed after the last pass named `title` (unchanged passes print nothing)."""
    out, cur, on = None, [], False
    for line in log.splitlines():
        # Halide's simplifier prints some warnings without a newline ("Simplifier: unhandled
        # PureExtern: sqrt_f64"), so a pass's header can follow one on the same line.
        m = re.search(r"Lowering after [a-z ,'-]+:( \(unchanged\))?$", line) if "Lowering after " in line else None
        if m and m.start() > 0 and re.fullmatch(r"(Simplifier: unhandled PureExtern: \w+)+", line[: m.start()]):
            line = line[m.start():]
        if line.startswith("Lowering after "):
            if on:
                out = "\n".join(cur)
            on = line.startswith("Lowering after " + title + ":") and not line.rstrip().endswith("(unchanged)")
            cur = []
            continue
        if on and line.endswith("...") and re.match(r"^[A-Z][a-z]+ing .*\.\.\.$", line):
            out, on = "\n".join(cur), False
            continue
        if on:
            cur.append(line)
    if on:
        out = "\n".join(cur)
    return out


def exact_floats():
    """Make Halide's IR printer, which writes to std::cerr in fixed notation with the stream's
    precision (6 decimals by default: 1.0f/12 becomes 0.083333f, 1e-9f becomes 0.000000f), print
    every float constant exactly: set std::cerr's precision (ios_base::_M_precision, found through
    the ostream's virtual base offset, Itanium C++ ABI) to 340 decimals. That is the exact value of
    any float32 (at most 149 decimals), and for any float64 a decimal within 10^-340 of it, which
    reads back as the same double (the smallest subnormal is 4.9e-324). The translator checks that
    it took effect (no float constant of the lowering log has only 6 decimals). Python's str() of an
    Expr uses a fresh stream (6 decimals): the constants of the Func definitions are taken from the
    lowering of the definitions (definitions())."""
    import ctypes
    lib = ctypes.CDLL("libstdc++.so.6")
    addr = ctypes.addressof(ctypes.c_void_p.in_dll(lib, "_ZSt4cerr"))
    vptr = ctypes.c_void_p.from_address(addr).value
    ios = addr + ctypes.c_long.from_address(vptr - 3 * ctypes.sizeof(ctypes.c_long)).value
    prec = ctypes.c_long.from_address(ios + ctypes.sizeof(ctypes.c_void_p))
    if prec.value != 6:  # not the layout expected: leave it alone (constants stay rounded)
        return False
    prec.value = 340
    return True


def buffered_cerr():
    """Buffer what Halide's IR printer writes. std::cerr flushes after every output operation
    (unitbuf) into C's stderr, which is unbuffered: the 2 MB that HL_DEBUG_CODEGEN=2 prints for
    sgemm1024 took hundreds of thousands of write calls (0.76 s of system time, 5 s of wall time on
    a loaded machine, against 0.01 s at debug level 1). So: unitbuf cleared on std::cerr (its
    ios_base flags, laid out as exact_floats() finds them) and C's stderr fully buffered (setvbuf);
    lower() flushes it around each lowering. Left as is when the layout is not the one expected."""
    import ctypes
    lib = ctypes.CDLL("libstdc++.so.6")
    addr = ctypes.addressof(ctypes.c_void_p.in_dll(lib, "_ZSt4cerr"))
    vptr = ctypes.c_void_p.from_address(addr).value
    ios = addr + ctypes.c_long.from_address(vptr - 3 * ctypes.sizeof(ctypes.c_long)).value
    flags = ctypes.c_int.from_address(ios + 3 * ctypes.sizeof(ctypes.c_void_p))  # after vptr, precision, width
    skipws, dec, unitbuf = 1 << 12, 1 << 1, 1 << 13  # libstdc++'s _Ios_Fmtflags; std::cerr starts with these
    if flags.value != skipws | dec | unitbuf:
        return
    libc = ctypes.CDLL(None)
    libc.setvbuf.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t]
    # With a buffer of its own: given none, glibc keeps an unbuffered stream's one-byte buffer.
    global CERR_BUFFER
    CERR_BUFFER = ctypes.create_string_buffer(1 << 20)
    if libc.setvbuf(ctypes.c_void_p.in_dll(libc, "stderr").value, CERR_BUFFER, 0, 1 << 20) != 0:  # _IOFBF
        return
    flags.value = skipws | dec


CERR_BUFFER = None  # buffered_cerr()'s buffer: alive as long as the stream uses it


def flush_c_stderr():
    import ctypes
    libc = ctypes.CDLL(None)
    libc.fflush(ctypes.c_void_p(ctypes.c_void_p.in_dll(libc, "stderr").value))


def lower(out, args, name, need="pass21"):
    """Lower with every pass's IR on stderr (captured through a temporary file): the sections and ms.
    A failure of Halide before the section `need` was printed stops the driver."""
    global EXACT
    if EXACT is None:
        EXACT = exact_floats()
        buffered_cerr()
    sys.stderr.flush()
    flush_c_stderr()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 2)
        err = None
        t = time.perf_counter()
        try:
            out.compile_to_module(args, name, TARGET)
        except RuntimeError as e:
            # Code generation after lowering can fail where lowering did not (a trace call inside a
            # CUDA kernel has no device runtime): the lowered IR printed so far is still Halide's.
            err = str(e)
        finally:
            ms = (time.perf_counter() - t) * 1000
            flush_c_stderr()
            os.dup2(saved, 2)
            os.close(saved)
        tmp.seek(0)
        log = tmp.read().decode("utf-8", "replace")
    out = {k: section(log, v) for k, v in SECTIONS.items()}
    if err is not None:
        if out[need] is None:
            fail(f"Halide failed before lowering ended: {err.strip()[-1500:]}")
        out["error"] = err.strip()[-1500:]
    return out, ms


def expr_text(e):
    """Halide's own printing of an Expr (str() wraps it as '<halide.Expr of type T: …>')."""
    s = str(e)
    m = re.match(r"^<halide\.Expr of type [^:]*: (.*)>$", s, re.S)
    return m.group(1) if m else s


def type_name(t):
    if t.is_float():
        return f"f{t.bits()}"
    if t.is_bool():
        return "bool"
    if t.is_uint():
        return f"u{t.bits()}"
    if t.is_int():
        return f"i{t.bits()}"
    return str(t)


# Names Halide's printer would confuse with float constants: float64 infinity prints `inf`, NaN `nan`
# (float32 `inff`, `nanf`).
FLOAT_WORDS = {"inf", "inff", "nan", "nanf"}


def check_name(n, what):
    if n in FLOAT_WORDS:
        fail(f"unsupported: name '{n}': a {what} named '{n}' prints like a float constant in Halide's IR; rename it")


def describe(funcs, args, out):
    fs = []
    for a in args:
        check_name(a.name(), "Param")
    for f in funcs:
        check_name(f.name(), "Func")
        for a in f.args():
            check_name(a.name(), "Var")
        types = f.output_types()
        if len(types) != 1:
            fail(f"unsupported: Tuple-valued Func '{f.name()}'")
        if f.is_extern():
            fail(f"unsupported: extern Func '{f.name()}'")
        d = {"name": f.name(), "args": [a.name() for a in f.args()], "type": type_name(types[0]), "pure": expr_text(f.value()), "updates": []}
        for k in range(f.num_update_definitions()):
            vals = f.update_values(k)
            if len(vals) != 1:
                fail(f"unsupported: Tuple-valued update of '{f.name()}'")
            # RVar names only: their min/extent (Func.rvars()[i].min() crashes Halide 14's bindings)
            # are read from the lowered IR, where bounds inference binds f.s<k>.<rvar>.min/max.
            for r in f.rvars(k):
                check_name(r.name(), "RVar")
            d["updates"].append({"args": [expr_text(e) for e in f.update_args(k)], "value": expr_text(vals[0]), "rvars": [r.name() for r in f.rvars(k)],
                                 "where": predicates([r.name() for r in f.rvars(k)])})
        fs.append(d)
    inputs, params = [], []
    for a in args:
        if isinstance(a, hl.ImageParam):
            inputs.append({"name": a.name(), "dims": a.dimensions(), "type": type_name(a.type())})
        else:
            params.append({"name": a.name(), "type": type_name(a.type())})
    return {"output": out.name(), "outputType": type_name(out.output_types()[0]), "outputDims": out.dimensions(), "funcs": fs, "inputs": inputs, "params": params}


def main():
    if len(sys.argv) < 2:
        fail("usage: driver.py SCRIPT.py [--jit JSON]")
    script = sys.argv[1]
    mod = load(script)
    if len(sys.argv) > 3 and sys.argv[2] == "--jit":
        return jit(mod, json.loads(sys.stdin.read() if sys.argv[3] == "-" else sys.argv[3]))
    if len(sys.argv) > 2:
        return run_mode(mod, sys.argv[2], sys.argv[3:])
    # The other lowerings need a process that has built no pipeline (in this one, Halide would
    # rename a second pipeline's Funcs, blur_y$1): forked now, before building, they share this
    # process's import of Halide and load of the script, and the untraced lowering runs while
    # the traced one does.
    zygote = Zygote(script, mod)
    plain_job = zygote.start("--plain")
    out, funcs, args, example, hooked = build(mod)
    info = describe(funcs, args, out)
    for f in funcs:
        f.trace_stores()
    traced, traced_ms = lower(out, args, out.name())
    pl = zygote.result(plain_job, "the untraced lowering")
    plain, plain_ms = pl["plain"], pl["ms"]
    if hooked:
        info["algorithm"] = zygote.run("--algorithm", "the lowering of the algorithm without its schedule")
    else:
        # The traced lowering's first pass holds the definitions of the Funcs it realizes; those it
        # inlines are lowered once more, computed at the root (definitions()).
        provided = set(re.findall(r"^\s*([^\s(]+)\(.*\) = ", traced["initial"] or "", re.M))
        missing = [f.name() for f in funcs if f.name() not in provided]
        if missing:
            info["definitions"] = zygote.run("--definitions", "the lowering of the inlined Func definitions", soft=True, extra=missing)
    zygote.close()
    info.update({"exactFloats": EXACT, "strictFloat": TARGET.has_feature(hl.TargetFeature.StrictFloat), "assume": ASSUME, "halide": "14", "target": str(TARGET), "example": exact_ints(example), "traced": traced, "plain": plain, "ms": {"traced": traced_ms, "plain": plain_ms}})
    print(json.dumps(info))


def exact_ints(v):
    """The script's example with its integers as decimal text: a JSON number is read as a double
    on the other side, and a UInt(64) Param of 2^64 - 1 would become 2^64."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return [exact_ints(x) for x in v]
    if isinstance(v, dict):
        return {k: exact_ints(x) for k, x in v.items()}
    return v


def run_mode(mod, mode, extra):
    """The lowerings made in a process of their own (Zygote), printing their JSON document."""
    if mode == "--algorithm":
        return algorithm(mod)
    if mode == "--definitions":
        return definitions(mod, set(extra))
    if mode == "--plain":
        out, _, args, _, _ = build(mod)
        plain, ms = lower(out, args, out.name())
        print(json.dumps({"plain": plain, "ms": ms}))
        return
    fail(f"usage: driver.py SCRIPT.py [--jit JSON | --plain | --algorithm | --definitions FUNC...], got {mode}")


class Zygote:
    """A copy of this driver forked before it builds any pipeline, which forks again for each
    request and runs run_mode() there with its standard output to a file: a fresh process for
    each lowering, without a second start of Python, import of Halide or load of the script.
    Requests are answered in the order they are made."""

    def __init__(self, script, mod):
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:
            os.close(req_w)
            os.close(resp_r)
            self._serve(script, mod, os.fdopen(req_r, "r"), os.fdopen(resp_w, "w"))
            os._exit(0)
        os.close(req_r)
        os.close(resp_w)
        self.requests = os.fdopen(req_w, "w")
        self.responses = os.fdopen(resp_r, "r")

    @staticmethod
    def _serve(script, mod, requests, responses):
        for line in requests:
            r = json.loads(line)
            pid = os.fork()
            if pid == 0:
                os.dup2(os.open(r["out"], os.O_WRONLY | os.O_TRUNC), 1)
                sys.argv = [sys.argv[0], script, r["mode"], *r["extra"]]
                code = 0
                try:
                    run_mode(mod, r["mode"], r["extra"])
                except SystemExit as e:
                    code = e.code if isinstance(e.code, int) else 1
                except BaseException:  # noqa: BLE001 - reported to the parent as a failed lowering
                    import traceback
                    traceback.print_exc()
                    code = 4
                sys.stdout.flush()
                os._exit(code)
            _, status = os.waitpid(pid, 0)
            responses.write(json.dumps({"status": os.waitstatus_to_exitcode(status)}) + "\n")
            responses.flush()

    def start(self, mode, extra=()):
        fd, path = tempfile.mkstemp(prefix="sched-halide-", suffix=".json")
        os.close(fd)
        self.requests.write(json.dumps({"mode": mode, "extra": list(extra), "out": path}) + "\n")
        self.requests.flush()
        return path

    def result(self, path, what, soft=False):
        """The JSON document of the request `path` (start()). With `soft`, a failure (Halide's
        error, even a crash) is returned as {"error": message}."""
        line = self.responses.readline()
        status = json.loads(line)["status"] if line else None
        with open(path) as f:
            text = f.read()
        os.unlink(path)
        out = None
        try:
            out = json.loads(text.strip().splitlines()[-1])  # Halide prints its warnings on stdout
        except (ValueError, IndexError):
            pass
        if status != 0 or out is None or "error" in out:
            msg = out["error"] if out and "error" in out else f"exit {status}: {text.strip()[-2000:]}"
            if soft:
                return {"error": f"{what} failed: {msg}"}
            fail(f"{what} failed: {msg}")
        return out

    def run(self, mode, what, soft=False, extra=()):
        return self.result(self.start(mode, extra), what, soft)

    def close(self):
        self.requests.close()
        os.waitpid(self.pid, 0)


def algorithm(mod):
    """The algorithm as written, before the schedule hook rewrites it (rfactor replaces an update's
    definition): its Func definitions, and its lowering with every Func computed at the root, where
    bounds inference binds the RDom bounds (f.s<k>.<rvar>.min/max) the Python bindings cannot read."""
    out, funcs, args, _, _ = build(mod, scheduled=False)
    for f in funcs:
        if f.name() != out.name():
            f.compute_root()
    info = describe(funcs, args, out)
    low, _ = lower(out, args, out.name())
    print(json.dumps({"funcs": info["funcs"], "pass21": low["pass21"], "initial": low["initial"]}))


def definitions(mod, names):
    """The definitions of the Funcs `names` (those the traced lowering inlines) with their float
    constants printed exactly. Python's
    str() of an Expr rounds them to 6 decimals (0.1234567f and 0.1234568f both print 0.123457f), and
    the first pass of the traced lowering ("creating initial loop nests") holds as Provides only
    the Funcs it does not inline. So the pipeline is lowered once more with those Funcs computed at
    the root: the first pass then holds each of their definitions as a Provide, printed through
    std::cerr (exact_floats()). The translator pairs each definition with its Provide node by node."""
    out, funcs, args, _, _ = build(mod)
    # All of them at the root, not only `names`: a Func placed inside one that becomes a root Func
    # would be at an invalid location.
    for f in funcs:
        if f.name() != out.name():
            f.compute_root().store_root()
    low, _ = lower(out, args, out.name(), need="initial")
    print(json.dumps({"initial": low["initial"], "exactFloats": EXACT}))


def decode(t, s):
    """A value of type t from the JIT protocol's text: integers in decimal, floats as the hex digits
    of their IEEE bits (exact: -0, infinities, NaN, subnormals), booleans as 0 or 1."""
    if t.is_float():
        fmt = "<f" if t.bits() == 32 else "<d"
        return struct.unpack(fmt, int(s, 16).to_bytes(t.bits() // 8, "little"))[0]
    if t.is_bool():
        return s == "1"
    return int(s)


def encode(t, v):
    if t.is_float():
        fmt, n = ("<f", "<I") if t.bits() == 32 else ("<d", "<Q")
        return format(struct.unpack(n, struct.pack(fmt, v))[0], "x")
    if t.is_bool():
        return "1" if v else "0"
    return str(int(v))


def jit(mod, req):
    """Realize the pipeline on given inputs: req = {"output": [extents], "inputs": {name: {"extents":
    [...], "mins": [...], "data": flat list, x fastest}}, "params": {name: value}}, every value as
    text (decode()). The output comes back as text too: no value goes through a JSON double."""
    out, _, args, _, _ = build(mod)
    for a in args:
        if isinstance(a, hl.ImageParam):
            spec = req["inputs"][a.name()]
            ext = spec["extents"]
            t = a.type()
            buf = hl.Buffer(t, ext)
            mins = spec.get("mins") or [0] * len(ext)
            buf.set_min(mins)
            data = spec["data"]
            n = 1
            for e in ext:
                n *= e
            for i in range(n):
                idx, rest = [], i
                for e, m in zip(ext, mins):
                    idx.append(rest % e + m)
                    rest //= e
                buf[idx] = decode(t, data[i])
            a.set(buf)
        else:
            a.set(decode(a.type(), req["params"][a.name()]))
    t = time.perf_counter()
    ot = out.output_types()[0]
    try:
        if len(req["output"]) == 0:
            # realize([]) refuses a 0-dimensional output ("at least one element"); a 0-dimensional
            # Buffer holds its one value.
            res = hl.Buffer(ot, [])
            out.realize(res, TARGET)
        else:
            res = out.realize(req["output"], TARGET)
    except RuntimeError as e:
        # Halide's own run failed (one of its asserts, e.g. an input smaller than it needs): that
        # is an answer of the oracle, not a failure of the driver.
        print(json.dumps({"realizeError": str(e).strip()[-1500:], "ms": (time.perf_counter() - t) * 1000}))
        return
    ms = (time.perf_counter() - t) * 1000
    ext = req["output"]
    n = 1
    for e in ext:
        n *= e
    vals = []
    for i in range(n):
        idx, rest = [], i
        for e in ext:
            idx.append(rest % e)
            rest //= e
        vals.append(encode(ot, res[idx]))
    print(json.dumps({"values": vals, "ms": ms}))


if __name__ == "__main__":
    main()

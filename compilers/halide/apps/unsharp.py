# unsharp (thesis Table 6.1): unsharp masking, Halide v14 apps/unsharp/unsharp_generator.cpp, CPU
# schedule (AVX2: 8-wide float vectors).
import math
import halide as hl

VEC = 8
SIGMA = 1.5


def pipeline():
    inp = hl.ImageParam(hl.Float(32), 3, "input")
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    kPi = 3.14159265358979310000
    kernel = hl.Func("kernel")
    kernel[x] = hl.exp(-x * x / (2 * SIGMA * SIGMA)) / (math.sqrt(2 * kPi) * SIGMA)
    # BoundaryConditions.repeat_edge(input), written out: its own inner Func (lambda_0) cannot be
    # listed in 'funcs' from Python. It clamps to the buffer's own bounds, [min, min + extent).
    input_bounded = hl.Func("repeat_edge")
    input_bounded[x, y, c] = inp[hl.clamp(x, inp.dim(0).min(), inp.dim(0).max()), hl.clamp(y, inp.dim(1).min(), inp.dim(1).max()),
                                 hl.clamp(c, inp.dim(2).min(), inp.dim(2).max())]
    gray = hl.Func("gray")
    gray[x, y] = 0.299 * input_bounded[x, y, 0] + 0.587 * input_bounded[x, y, 1] + 0.114 * input_bounded[x, y, 2]
    blur_y = hl.Func("blur_y")
    blur_y[x, y] = (kernel[0] * gray[x, y] + kernel[1] * (gray[x, y - 1] + gray[x, y + 1])
                    + kernel[2] * (gray[x, y - 2] + gray[x, y + 2]) + kernel[3] * (gray[x, y - 3] + gray[x, y + 3]))
    blur_x = hl.Func("blur_x")
    blur_x[x, y] = (kernel[0] * blur_y[x, y] + kernel[1] * (blur_y[x - 1, y] + blur_y[x + 1, y])
                    + kernel[2] * (blur_y[x - 2, y] + blur_y[x + 2, y]) + kernel[3] * (blur_y[x - 3, y] + blur_y[x + 3, y]))
    sharpen, ratio, output = hl.Func("sharpen"), hl.Func("ratio"), hl.Func("output")
    sharpen[x, y] = 2 * gray[x, y] - blur_x[x, y]
    ratio[x, y] = sharpen[x, y] / gray[x, y]
    output[x, y, c] = ratio[x, y] * inp[x, y, c]
    yo, yi = hl.Var("yo"), hl.Var("yi")
    output.split(y, yo, yi, 32).vectorize(x, VEC).parallel(yo).reorder(x, c, yi, yo)
    gray.compute_at(output, yi).store_at(output, yo).vectorize(x, VEC)
    blur_y.compute_at(output, yi).store_at(output, yo).vectorize(x, VEC)
    ratio.compute_at(output, yi).store_at(output, yo).vectorize(x, VEC)
    funcs = [kernel, input_bounded, gray, blur_y, blur_x, sharpen, ratio, output]
    return {"output": output, "funcs": funcs, "args": [inp], "example": {"output": [16, 40, 3], "input": [16, 40, 3]}}

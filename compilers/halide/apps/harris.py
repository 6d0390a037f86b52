# harris (thesis Table 6.1): Harris corner detection, Halide v14 apps/harris/harris_generator.cpp,
# CPU schedule with AVX2's 8-wide float vectors.
import halide as hl

VEC = 8  # natural_vector_size<float>() on x86-64 AVX2


def sum3x3(f, x, y):
    return (f[x - 1, y - 1] + f[x - 1, y] + f[x - 1, y + 1] + f[x, y - 1] + f[x, y] + f[x, y + 1]
            + f[x + 1, y - 1] + f[x + 1, y] + f[x + 1, y + 1])


def pipeline():
    inp = hl.ImageParam(hl.Float(32), 3, "input")
    x, y = hl.Var("x"), hl.Var("y")
    gray, Iy, Ix = hl.Func("gray"), hl.Func("Iy"), hl.Func("Ix")
    gray[x, y] = hl.f32(0.299) * inp[x, y, 0] + hl.f32(0.587) * inp[x, y, 1] + hl.f32(0.114) * inp[x, y, 2]
    Iy[x, y] = (gray[x - 1, y - 1] * hl.f32(-1.0 / 12) + gray[x - 1, y + 1] * hl.f32(1.0 / 12) + gray[x, y - 1] * hl.f32(-2.0 / 12)
                + gray[x, y + 1] * hl.f32(2.0 / 12) + gray[x + 1, y - 1] * hl.f32(-1.0 / 12) + gray[x + 1, y + 1] * hl.f32(1.0 / 12))
    Ix[x, y] = (gray[x - 1, y - 1] * hl.f32(-1.0 / 12) + gray[x + 1, y - 1] * hl.f32(1.0 / 12) + gray[x - 1, y] * hl.f32(-2.0 / 12)
                + gray[x + 1, y] * hl.f32(2.0 / 12) + gray[x - 1, y + 1] * hl.f32(-1.0 / 12) + gray[x + 1, y + 1] * hl.f32(1.0 / 12))
    Ixx, Iyy, Ixy = hl.Func("Ixx"), hl.Func("Iyy"), hl.Func("Ixy")
    Ixx[x, y] = Ix[x, y] * Ix[x, y]
    Iyy[x, y] = Iy[x, y] * Iy[x, y]
    Ixy[x, y] = Ix[x, y] * Iy[x, y]
    Sxx, Syy, Sxy = hl.Func("Sxx"), hl.Func("Syy"), hl.Func("Sxy")
    Sxx[x, y] = sum3x3(Ixx, x, y)
    Syy[x, y] = sum3x3(Iyy, x, y)
    Sxy[x, y] = sum3x3(Ixy, x, y)
    det, trace, harris = hl.Func("det"), hl.Func("trace"), hl.Func("harris")
    det[x, y] = Sxx[x, y] * Syy[x, y] - Sxy[x, y] * Sxy[x, y]
    trace[x, y] = Sxx[x, y] + Syy[x, y]
    harris[x, y] = det[x, y] - hl.f32(0.04) * trace[x, y] * trace[x, y]
    output = hl.Func("output")
    output[x, y] = harris[x + 2, y + 2]
    yi = hl.Var("yi")
    output.split(y, y, yi, 32).parallel(y).vectorize(x, VEC)
    Ix.store_at(output, y).compute_at(output, yi).vectorize(x, VEC)
    Iy.store_at(output, y).compute_at(output, yi).vectorize(x, VEC)
    Ix.compute_with(hl.LoopLevel(Iy, x, 0))
    funcs = [gray, Iy, Ix, Ixx, Iyy, Ixy, Sxx, Syy, Sxy, det, trace, harris, output]
    return {"output": output, "funcs": funcs, "args": [inp], "example": {"output": [24, 40], "input": [30, 46, 3]}}

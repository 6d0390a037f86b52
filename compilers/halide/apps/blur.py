# blur (thesis Table 6.1): the separable 3x3 box blur of Halide v14's apps/blur, with its CPU schedule
# (apps/blur/halide_blur_generator.cpp): blur_y split by 32 rows, parallel strips, 16-wide vectors;
# blur_x stored per strip and computed per vector (sliding window, storage folding).
import halide as hl


def pipeline():
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    x, y, yi = hl.Var("x"), hl.Var("y"), hl.Var("yi")
    blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
    blur_x[x, y] = (inp[x, y] + inp[x + 1, y] + inp[x + 2, y]) / 3
    blur_y[x, y] = (blur_x[x, y] + blur_x[x, y + 1] + blur_x[x, y + 2]) / 3
    blur_y.split(y, y, yi, 32).parallel(y).vectorize(x, 16)
    blur_x.store_at(blur_y, y).compute_at(blur_y, x).vectorize(x, 16)
    return {"output": blur_y, "funcs": [blur_x, blur_y], "args": [inp], "example": {"output": [40, 36], "input": [42, 38]}}

"""Golden data for `envs::visgym::images::coco_mask`, from pycocotools 2.0.8 itself.

Run from the repository root with the VisGym venv (numpy 1.26.4, pycocotools 2.0.8
from the PyPI wheel; CPython 3.11):

    .cache/venv-visgym/bin/python tests/golden/visgym/coco_masks.py

Writes tests/golden/visgym/coco_masks.json.gz, replayed by tests/tests/coco_mask_golden.rs.
Deterministic (fixed numpy seed, gzip mtime 0). Masks are stored as their compressed
RLE strings with area and centroid, never as pixels. Each case is a dict with a `name`
and a `kind`:

- `segm`: `maskUtils.frPyObjects(segm, h, w)` of a JSON segmentation (`rles`, or its
  `error`), then what the loaders do with it: LVIS's union `maskUtils.merge(rles)`
  (`merged`; a dict segmentation is used as it is, a compressed one without calling
  frPyObjects, as COCO's annToRLE does) with the decoded union's `area` and `centroid`
  (`(xs.mean(), ys.mean())` of `np.nonzero`), and RefCOCO's `np.sum(decode(rles), axis=2)`
  (`sum_total`, `sum_max`). `decode: false` where the RLEs do not cover the image
  exactly (decoding would read uninitialised memory, merging could loop forever).
- `bbox`: `frPyObjects(np.array([bb]), h, w)`, the only way boxes get rasterised.
- `intersect`: `merge(frPyObjects(polygons), intersect=1)`.
- `mask`: `maskUtils.encode` of a random mask: decode, area, centroid, re-encode.
- `encode`: `maskUtils.encode` of a small mask holding values other than 0 and 1.
- `string`: compressed counts read back and re-written (`merge` of one RLE), and the
  area `rleArea` gives, for strings with long counts (the C code's 32-bit shifts).
- `merge`: merges of RLEs of different sizes.
"""

import gzip
import importlib.metadata
import json
import math
import os
import sys

import numpy as np
import pycocotools.mask as maskUtils

assert sys.version_info[:2] == (3, 11), "generate with CPython 3.11"
assert importlib.metadata.version("pycocotools") == "2.0.8"
assert np.__version__ == "1.26.4", np.__version__

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.RandomState(20240607)
cases = []

SIZES = [(1, 1), (7, 13), (13, 7), (240, 320), (320, 240), (20, 30), (50, 40), (1, 20),
         (20, 1), (64, 64), (100, 150), (33, 17)]


def text(b):
    return b.decode("ascii") if isinstance(b, bytes) else b


def stats(mask2d):
    ys, xs = np.nonzero(mask2d)
    if len(xs) == 0:
        return int(0), None
    return int(len(xs)), [float(xs.mean()), float(ys.mean())]


def rle_out(r):
    return [text(r["counts"]), int(r["size"][0]), int(r["size"][1])]


def covers(rles):
    """Whether every RLE's runs cover exactly its image (decode is then defined)."""
    return all(sum(_counts(r)) == r["size"][0] * r["size"][1] for r in rles)


def _counts(r):
    # The counts of a compressed string (as rleFrString reads counts of up to six
    # characters; longer ones only make a sum that covers no image).
    s = text(r["counts"])
    counts, p = [], 0
    while p < len(s):
        x, k, more = 0, 0, True
        while more:
            c = ord(s[p]) - 48
            x |= (c & 0x1F) << (5 * k)
            more = c & 0x20
            p += 1
            k += 1
            if not more and (c & 0x10):
                x |= -1 << (5 * k)
        if len(counts) > 2:
            x += counts[-2]
        counts.append(x)
    return counts


def add_segm(name, segm, h, w):
    segm = json.loads(json.dumps(segm))  # exactly what the replay reads
    case = {"name": name, "kind": "segm", "h": h, "w": w, "segm": segm}
    try:
        if isinstance(segm, dict) and isinstance(segm.get("counts"), str) and "size" in segm:
            res = segm  # annToRLE / ann_to_rle: a compressed RLE is used as it is
        else:
            res = maskUtils.frPyObjects(segm, h, w)
    except Exception as e:  # noqa: BLE001 - the reference's error is the expectation
        case["error"] = f"{type(e).__name__}: {e}"
        cases.append(case)
        return
    rles = res if isinstance(res, list) else [res]
    case["rles"] = [rle_out(r) for r in rles]
    if not covers(rles):
        case["decode"] = False
        cases.append(case)
        return
    if isinstance(segm, list):
        merged = maskUtils.merge(rles)
        case["merged"] = rle_out(merged)
    else:
        merged = res
    if merged["size"][0] * merged["size"][1] > 0:
        case["area"], case["centroid"] = stats(maskUtils.decode(merged))
        if isinstance(res, list) and len({tuple(r["size"]) for r in rles}) == 1:
            m = np.sum(maskUtils.decode(rles), axis=2)
            case["sum_total"] = int(m.sum())
            case["sum_max"] = int(m.max())
    cases.append(case)


def fnum(v, digits):
    v = float(v)
    return round(v, digits) if digits is not None else v


def poly(points, digits=2, as_int=False):
    out = []
    for x, y in points:
        if as_int:
            out += [int(round(x)), int(round(y))]
        else:
            out += [fnum(x, digits), fnum(y, digits)]
    return out


def convex(cx, cy, r, n):
    ang = np.sort(rng.uniform(0, 2 * np.pi, n))
    rad = r * rng.uniform(0.7, 1.0, n)
    return [(cx + a * math.cos(t), cy + a * math.sin(t)) for a, t in zip(rad, ang)]


def star(cx, cy, r, n):
    ang = np.linspace(0, 2 * np.pi, 2 * n, endpoint=False) + rng.uniform(0, 1)
    rad = [r * (1.0 if i % 2 == 0 else rng.uniform(0.2, 0.6)) for i in range(2 * n)]
    return [(cx + a * math.cos(t), cy + a * math.sin(t)) for a, t in zip(rad, ang)]


SMALL_SIZES = [(1, 1), (7, 13), (13, 7), (20, 30), (33, 17), (1, 20), (20, 1)]


def pick_size(sizes=SIZES):
    return sizes[rng.randint(len(sizes))]


def digits_choice():
    return [None, 2, 1, 0][rng.randint(4)]


# ----- single polygons ---------------------------------------------------------------

for i in range(40):
    h, w = pick_size()
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    r = rng.uniform(0.5, max(h, w) / 2)
    add_segm(f"convex_{i}", [poly(convex(cx, cy, r, rng.randint(3, 13)), digits_choice())], h, w)

for i in range(40):
    h, w = pick_size()
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    r = rng.uniform(1, max(h, w) / 2)
    add_segm(f"concave_{i}", [poly(star(cx, cy, r, rng.randint(3, 8)), digits_choice())], h, w)

for i in range(30):
    h, w = pick_size()
    n = rng.randint(4, 10)
    pts = list(zip(rng.uniform(-2, w + 2, n), rng.uniform(-2, h + 2, n)))
    add_segm(f"self_intersecting_{i}", [poly(pts, digits_choice())], h, w)

for i in range(25):
    h, w = pick_size()
    side = rng.randint(4)
    cx = [rng.uniform(-3, 1), rng.uniform(w - 1, w + 3), rng.uniform(0, w), rng.uniform(0, w)][side]
    cy = [rng.uniform(0, h), rng.uniform(0, h), rng.uniform(-3, 1), rng.uniform(h - 1, h + 3)][side]
    r = rng.uniform(1, max(h, w) / 2 + 2)
    add_segm(f"partly_outside_{i}", [poly(convex(cx, cy, r, rng.randint(3, 9)), digits_choice())], h, w)

for i in range(10):
    h, w = pick_size()
    cx = [-20.0, w + 20.0, w / 2, w / 2][i % 4]
    cy = [h / 2, h / 2, -20.0, h + 20.0][i % 4]
    add_segm(f"wholly_outside_{i}", [poly(convex(cx, cy, rng.uniform(1, 15), 5), None)], h, w)

for i in range(5):
    h, w = pick_size()
    add_segm(f"covers_image_{i}", [poly(convex(w / 2, h / 2, max(h, w) * 2, 6), 1)], h, w)

for i in range(25):
    h, w = pick_size()
    pts = list(zip(rng.randint(-2, w + 3, 6), rng.randint(-2, h + 3, 6)))
    if i % 2:
        pts = convex(rng.uniform(0, w), rng.uniform(0, h), rng.uniform(1, max(h, w) / 2), 6)
    add_segm(f"integer_{i}", [poly(pts, as_int=True)], h, w)

# Coordinates on .5 boundaries (before and after the 5x upsampling: multiples of 0.1).
for i in range(30):
    h, w = pick_size()
    n = rng.randint(3, 8)
    step = [0.5, 0.1, 0.2, 0.3][i % 4]
    xs = rng.randint(-3, int(w / step) + 3, n) * step
    ys = rng.randint(-3, int(h / step) + 3, n) * step
    add_segm(f"half_steps_{i}", [poly(zip(xs, ys), None)], h, w)

for i in range(12):
    h, w = pick_size()
    cx, cy = rng.randint(0, w) + 0.5, rng.randint(0, h) + 0.5
    d = rng.randint(1, 4) / 2
    pts = [(cx - d, cy - d), (cx + d, cy - d), (cx + d, cy + d), (cx - d, cy + d)]
    add_segm(f"half_square_{i}", [poly(pts, None)], h, w)

for i in range(25):
    h, w = pick_size()
    cx, cy = rng.uniform(-0.5, w - 0.5), rng.uniform(-0.5, h - 0.5)
    add_segm(f"tiny_{i}", [poly(convex(cx, cy, rng.uniform(0.05, 0.9), rng.randint(3, 7)), None)], h, w)

for i in range(15):
    h, w = pick_size()
    n = rng.randint(3, 7)
    add_segm(f"near_zero_{i}", [poly(zip(rng.uniform(-3, 3, n), rng.uniform(-3, 3, n)), digits_choice())], h, w)

# Degenerate: collinear, repeated vertices, one point, zero area.
for i in range(25):
    h, w = pick_size()
    kind = i % 5
    x0, y0 = rng.uniform(0, w), rng.uniform(0, h)
    x1, y1 = rng.uniform(0, w), rng.uniform(0, h)
    if kind == 0:  # collinear
        pts = [(x0 + t * (x1 - x0), y0 + t * (y1 - y0)) for t in (0, 0.3, 0.7, 1)]
    elif kind == 1:  # repeated vertices in a triangle
        x2, y2 = rng.uniform(0, w), rng.uniform(0, h)
        pts = [(x0, y0), (x0, y0), (x1, y1), (x1, y1), (x2, y2)]
    elif kind == 2:  # one point thrice
        pts = [(x0, y0)] * 3
    elif kind == 3:  # there and back
        pts = [(x0, y0), (x1, y1), (x0, y0)]
    else:  # axis-aligned segment, integer
        pts = [(int(x0), int(y0)), (int(x1), int(y0)), (int(x0), int(y0))]
    add_segm(f"degenerate_{i}", [poly(pts, digits_choice())], h, w)

# A repeated first vertex, the walk starting on it (the 0/0 slope's NaN becomes INT_MIN).
for i in range(6):
    h, w = pick_size()
    pts = convex(rng.uniform(0, w), rng.uniform(-2, h), rng.uniform(1, max(h, w) / 2), 5)
    pts = [pts[0]] + pts if i % 2 == 0 else pts + [pts[-1]]
    add_segm(f"repeated_vertex_{i}", [poly(pts, None)], h, w)

for i in range(25):
    h, w = pick_size()
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    length, width = rng.uniform(1, max(h, w)), rng.uniform(0.05, 1.2)
    t = [0.0, np.pi / 2, rng.uniform(0, np.pi)][i % 3]
    dx, dy = math.cos(t), math.sin(t)
    nx, ny = -dy * width / 2, dx * width / 2
    pts = [(cx - dx * length / 2 + nx, cy - dy * length / 2 + ny),
           (cx + dx * length / 2 + nx, cy + dy * length / 2 + ny),
           (cx + dx * length / 2 - nx, cy + dy * length / 2 - ny),
           (cx - dx * length / 2 - nx, cy - dy * length / 2 - ny)]
    add_segm(f"thin_{i}", [poly(pts, digits_choice())], h, w)

for i in range(5):
    h, w = pick_size()
    big = [1e3, 1e4, 5e4, -1e3, 2e4][i]
    add_segm(f"far_vertex_{i}", [[0.5, 0.5, big, 2.5, 3.5, big / 2, 1.0, 4.0]], h, w)

for i, (h, w) in enumerate([(0, 5), (5, 0), (0, 0)]):
    add_segm(f"empty_image_{i}", [[0.5, 0.5, 3.5, 0.5, 3.5, 3.5]], h, w)

# ----- several polygons: LVIS's union, RefCOCO's sum ---------------------------------

for i in range(45):
    h, w = pick_size()
    parts = []
    for _ in range(rng.randint(2, 5)):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.5, max(h, w) / 3)
        shape = convex if rng.randint(2) else star
        parts.append(poly(shape(cx, cy, r, rng.randint(3, 7)), digits_choice()))
    add_segm(f"multi_{i}", parts, h, w)

for i in range(6):
    h, w = pick_size()
    p = poly(convex(w / 2, h / 2, max(h, w) / 3, 6), 2)
    add_segm(f"multi_same_twice_{i}", [p, p], h, w)

# Later polygons of fewer than 6 numbers or of odd length; booleans as numbers.
for i in range(10):
    h, w = pick_size()
    first = poly(convex(rng.uniform(0, w), rng.uniform(0, h), max(h, w) / 3, 5), 2)
    later = [[], [1.5], [2.0, 3.0], [1.0, 1.0, 4.5, 2.5], [0.5, 0.5, 3.5, 0.5, 3.5],
             first + [7.25], [1, 1, 5, 1, 5, 5, 9], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0],
             [True, 1, 5, 1, 5, False], [0, 0, 3, 0, 3, 3]][i]
    add_segm(f"later_polygon_{i}", [first, later], h, w)

add_segm("odd_length_first", [[1.5, 1.5, 9.5, 1.5, 9.5, 6.5, 3.0]], 10, 12)
add_segm("ints_and_floats", [[1, 1.5, 9, 1, 9.75, 6, 3, 6]], 10, 12)

# ----- what frPyObjects refuses ------------------------------------------------------

for name, segm in [
    ("flat_polygon", [1.5, 1.5, 9.5, 1.5, 9.5, 6.5]),
    ("flat_four", [1.0, 2.0, 3.0, 4.0]),
    ("flat_short", [1.0, 2.0]),
    ("first_four_numbers", [[1, 2, 3, 4], [1.5, 1.5, 9.5, 1.5, 9.5, 6.5]]),
    ("first_four_only", [[1.5, 2.5, 3.5, 4.5]]),
    ("first_two_of_two", [[1, 2], [1.5, 1.5, 9.5, 1.5, 9.5, 6.5]]),
    ("first_two_of_four", [[1, 2], [1.5, 1.5, 9.5, 1.5, 9.5, 6.5], [1], [2]]),
    ("first_two_of_five", [[1, 2], [1.5, 1.5, 9.5, 1.5, 9.5, 6.5], [1], [2], [3]]),
    ("first_two_of_five_even", [[1, 2], [1, 1], [1, 3], [2, 3], [3, 3]]),
    ("first_empty", [[], [1.5, 1.5, 9.5, 1.5, 9.5, 6.5]]),
    ("first_one", [[3]]),
    ("empty_list", []),
    ("number", 7),
    ("string", "abc"),
    ("null", None),
    ("dict_without_counts", {"size": [10, 12]}),
    ("polygon_then_dict", [[1.5, 1.5, 9.5, 1.5, 9.5, 6.5], {"size": [10, 12], "counts": [120]}]),
    ("polygon_then_number", [[1.5, 1.5, 9.5, 1.5, 9.5, 6.5], 3]),
    ("polygon_then_nested", [[1.5, 1.5, 9.5, 1.5, 9.5, 6.5], [[1, 2], [3, 4], [5, 6]]]),
    ("dicts_four_keys", [{"size": [2, 2], "counts": [4], "a": 1, "b": 2}]),
    ("dicts_five_keys", [{"size": [2, 2], "counts": [4], "a": 1, "b": 2, "c": 3}]),
    ("dicts_string_counts", [{"size": [2, 2], "counts": "04"}]),
    ("dicts_second_without_counts", [{"size": [2, 2], "counts": [4]}, {"size": [2, 2]}]),
    ("dict_number_counts", {"size": [2, 2], "counts": 4}),
]:
    add_segm(f"refused_{name}", segm, 10, 12)

# ----- RLE dicts -------------------------------------------------------------------


def random_counts(total):
    counts, left = [], total
    first = True
    while left > 0:
        c = int(min(left, rng.geometric(0.08) - (1 if first and rng.randint(3) == 0 else 0)))
        counts.append(c)
        left -= c
        first = False
    return counts


for i in range(20):
    h, w = pick_size(SMALL_SIZES)
    d = {"size": [h, w], "counts": random_counts(h * w)}
    if i % 2:
        add_segm(f"uncompressed_dict_{i}", d, h, w)
    else:
        d2 = {"size": [h, w], "counts": random_counts(h * w)}
        add_segm(f"uncompressed_list_{i}", [d, d2], h, w)

add_segm("uncompressed_own_size", {"size": [4, 3], "counts": [2, 5, 5]}, 30, 30)
add_segm("uncompressed_float_counts", {"size": [2, 3], "counts": [1.7, 2, 3.2]}, 2, 3)
add_segm("uncompressed_empty_counts", {"size": [2, 3], "counts": []}, 2, 3)
add_segm("uncompressed_short", [{"size": [2, 3], "counts": [1, 2]}], 2, 3)
add_segm("uncompressed_long", {"size": [2, 3], "counts": [1, 2, 9]}, 2, 3)
add_segm("uncompressed_big_counts", {"size": [1, 1], "counts": [2**31, 5, 2**30, 7, 2**32 - 1]}, 1, 1)
add_segm("uncompressed_mixed_sizes", [{"size": [2, 3], "counts": [6]}, {"size": [3, 2], "counts": [1, 5]}], 2, 3)
add_segm("uncompressed_extra_keys", [{"size": [2, 3], "counts": [1, 5], "iscrowd": 1}], 2, 3)

for i in range(6):
    h, w = pick_size(SMALL_SIZES)
    m = (rng.uniform(size=(h, w)) < 0.3).astype(np.uint8)
    s = text(maskUtils.encode(np.asfortranarray(m))["counts"])
    add_segm(f"compressed_dict_{i}", {"size": [h, w], "counts": s}, 99, 99)

# ----- boxes, intersections, merges --------------------------------------------------

for i in range(20):
    h, w = pick_size()
    bb = [rng.uniform(-2, w), rng.uniform(-2, h), rng.uniform(0, w / 2 + 1), rng.uniform(0, h / 2 + 1)]
    if i % 3 == 0:
        bb = [float(round(v * 2) / 2) for v in bb]
    if i % 5 == 4:
        bb[2] = 0.0
    bb = [float(v) for v in bb]
    r = maskUtils.frPyObjects(np.array([bb], dtype=np.double), h, w)[0]
    cases.append({"name": f"bbox_{i}", "kind": "bbox", "h": h, "w": w, "bb": bb, "counts": text(r["counts"])})

for i in range(12):
    h, w = pick_size()
    parts = [poly(convex(rng.uniform(0, w), rng.uniform(0, h), max(h, w) / 2, 6), 2) for _ in range(rng.randint(2, 4))]
    rles = maskUtils.frPyObjects(json.loads(json.dumps(parts)), h, w)
    r = maskUtils.merge(rles, intersect=1)
    cases.append({"name": f"intersect_{i}", "kind": "intersect", "h": h, "w": w, "segm": parts, "counts": text(r["counts"])})

for i, sizes in enumerate([[(2, 3), (3, 2)], [(2, 3), (2, 3), (2, 4)], [(4, 4), (4, 4)]]):
    rles = [maskUtils.encode(np.asfortranarray((rng.uniform(size=s) < 0.5).astype(np.uint8))) for s in sizes]
    r = maskUtils.merge(rles)
    cases.append({"name": f"merge_sizes_{i}", "kind": "merge", "rles": [rle_out(x) for x in rles], "out": rle_out(r)})
r = maskUtils.merge([])
cases.append({"name": "merge_none", "kind": "merge", "rles": [], "out": rle_out(r)})

# ----- encoded masks: compressed-string round trips ----------------------------------

for i in range(45):
    if i < 25:
        h, w = [(1, 1), (1, 9), (9, 1), (7, 13), (13, 7), (16, 16), (12, 31), (30, 20)][i % 8]
        m = (rng.uniform(size=(h, w)) < rng.uniform(0.05, 0.95)).astype(np.uint8)
        if i % 8 == 0:
            m[:] = i % 2
    else:
        h, w = [(240, 320), (320, 240), (100, 150), (64, 64)][i % 4]
        yy, xx = np.mgrid[0:h, 0:w]
        m = np.zeros((h, w), np.uint8)
        for _ in range(rng.randint(1, 5)):
            cy, cx = rng.uniform(0, h), rng.uniform(0, w)
            ry, rx = rng.uniform(2, h / 2), rng.uniform(2, w / 2)
            m |= (((yy - cy) / ry) ** 2 + ((xx - cx) / rx) ** 2 <= 1).astype(np.uint8)
    r = maskUtils.encode(np.asfortranarray(m))
    area, centroid = stats(maskUtils.decode(r))
    cases.append({"name": f"mask_{i}", "kind": "mask", "h": h, "w": w, "counts": text(r["counts"]),
                  "area": area, "centroid": centroid})

for i, m in enumerate([[[0, 1, 2, 2]], [[2, 2], [0, 3]], [[1, 0, 1], [2, 1, 0], [0, 0, 5]]]):
    m = np.array(m, dtype=np.uint8)
    r = maskUtils.encode(np.asfortranarray(m))
    cases.append({"name": f"encode_values_{i}", "kind": "encode", "h": m.shape[0], "w": m.shape[1],
                  "mask": m.flatten().tolist(), "counts": text(r["counts"])})

for i, s in enumerate(["0000000", "ooooooO", "oooooo?", "PPPPPPP1", "PPPPPP@", "PPPPPPP@",
                       "PPPPPPPPP1", "ooooooP1", "00PPPPPP@", "01?", "5350L", "1234567", "oo3@0O",
                       "zz", "~}|1", "Q@0aX0hh3"]):
    r = {"size": [1, 1], "counts": s.encode()}
    back = maskUtils.merge([r])
    area = int(maskUtils.area([r])[0])
    cases.append({"name": f"string_{i}", "kind": "string", "in": s, "out": text(back["counts"]), "area": area})

raw = json.dumps({"pycocotools": "2.0.8", "numpy": np.__version__, "cases": cases},
                 separators=(",", ":")).encode()
path = os.path.join(HERE, "coco_masks.json.gz")
with open(path, "wb") as f:
    f.write(gzip.compress(raw, 9, mtime=0))
kinds = {}
for c in cases:
    kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
print(f"coco_masks: {len(cases)} cases {kinds}, {len(raw)} bytes JSON, {os.path.getsize(path)} gzipped")

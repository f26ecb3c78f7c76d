"""Builds the bundled VisGym scene sets: public/visgym-scenes/counting.zip (LVIS layout,
for Counting) and public/visgym-scenes/referring.zip (RefCOCO+ layout, for Referring
Dot-Pointing) and public/visgym-scenes/videos.zip (the Something-Something v2 layout,
for Video Unshuffle), with manifest.json; and, through objects.py beside it,
public/visgym-scenes/objects.zip (glTF models, for Mental Rotation 3D (Objaverse)).

Every picture is drawn here: objects of named categories (stars, apples, coins, ...) on
a textured background, each object a set of polygons whose mask is the one pycocotools
rasterises from them, so the ground truth (counts, masks, centroids) is exact and the
reference reads the same files the Rust port does. Referring expressions are generated
from each scene ("the big red triangle", "the blue circle on the left") and
name exactly one object. Clips are short animations drawn here and episodes of
Playbench's own environments (played by the driver), stored as AVI files of PNG frames
under the names the reference opens (`<id>.webm`): OpenCV reads them exactly. Some samples are deliberately invalid (a missing picture, an
empty mask, a category not exhaustively annotated, an image without annotations) so that the
reference's filtering rules have material. Run from the repository root:

    cargo build --release --bin envs-driver
    .cache/venv-visgym/bin/python scripts/visgym-scenes/build.py

(the golden venv of tests/golden/visgym/generate.py: numpy 1.26.4, pillow 13.0.0,
pycocotools 2.0.8, trimesh 4.5.2). Output is byte-for-byte reproducible (entries stored,
fixed times, sorted; pickle protocol 2). Everything is CC0 1.0. `build.py --objects`
rebuilds only objects.zip and its manifest entries (no driver needed), keeping the other
zips and their entries as they are.
"""

import hashlib
import io
import json
import math
import os
import pickle
import sys

import numpy as np
from PIL import Image
from pycocotools import mask as mask_utils

import objects  # scripts/visgym-scenes/objects.py

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "public", "visgym-scenes")
SIZES = [(320, 240), (288, 216), (240, 320), (300, 200), (256, 256), (317, 229)]

COLOURS = {
    "red": (214, 48, 49), "green": (46, 160, 67), "blue": (40, 90, 200), "yellow": (246, 214, 62),
    "purple": (128, 60, 170), "orange": (240, 140, 40), "white": (245, 245, 240), "black": (30, 30, 34),
    "pink": (240, 130, 170), "brown": (130, 82, 45),
}


# ----- shapes: polygons around (0, 0) with radius about 1 ---------------------------------

def regular(n, phase=0.0):
    return [[math.cos(phase + 2 * math.pi * k / n), math.sin(phase + 2 * math.pi * k / n)] for k in range(n)]


def star(points=5, inner=0.45):
    out = []
    for k in range(2 * points):
        r = 1.0 if k % 2 == 0 else inner
        a = -math.pi / 2 + math.pi * k / points
        out.append([r * math.cos(a), r * math.sin(a)])
    return out


def heart():
    out = []
    for k in range(28):
        t = 2 * math.pi * k / 28
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        out.append([x / 17.0, y / 17.0 + 0.1])
    return out


def moon():
    outer = [[math.cos(a), math.sin(a)] for a in np.linspace(-math.pi / 2, math.pi / 2, 14)]
    inner = [[0.45 * math.cos(a), math.sin(a)] for a in np.linspace(math.pi / 2, -math.pi / 2, 14)]
    return [[x - 0.3, y] for x, y in outer + inner]


def leaf():
    top = [[math.sin(a) * 0.5, -math.cos(a)] for a in np.linspace(0, math.pi, 12)]
    bottom = [[-math.sin(a) * 0.5, math.cos(a)] for a in np.linspace(0, math.pi, 12)]
    return top[:-1] + bottom[:-1]


def fish():
    body = [[0.75 * math.cos(a) - 0.15, 0.5 * math.sin(a)] for a in np.linspace(0.5, 2 * math.pi - 0.5, 18)]
    return body + [[1.0, -0.55], [1.0, 0.55]]


def flower():
    out = []
    for k in range(40):
        a = 2 * math.pi * k / 40
        r = 0.55 + 0.45 * abs(math.cos(2.5 * a))
        out.append([r * math.cos(a), r * math.sin(a)])
    return out


def apple():
    # Two polygons: the fruit and a leaf beside its stem (a segmentation of two parts).
    body = []
    for k in range(24):
        a = 2 * math.pi * k / 24
        r = 0.85 - 0.18 * max(0.0, -math.sin(a)) ** 6
        body.append([r * math.cos(a), r * math.sin(a) + 0.12])
    leaf_part = [[0.05, -0.72], [0.35, -1.02], [0.6, -0.95], [0.3, -0.72]]
    return [body, leaf_part]


# name -> (polygons, colour names)
CATEGORIES = {
    "star": (lambda: [star()], ["yellow", "orange", "white"]),
    "apple": (apple, ["red", "green"]),
    "coin": (lambda: [regular(20)], ["yellow", "orange", "brown"]),
    "leaf": (lambda: [leaf()], ["green", "orange", "brown"]),
    "heart": (lambda: [heart()], ["red", "pink", "purple"]),
    "fish": (lambda: [fish()], ["blue", "orange", "purple"]),
    "flower": (lambda: [flower()], ["pink", "purple", "white"]),
    "moon": (lambda: [moon()], ["yellow", "white"]),
    "triangle": (lambda: [regular(3, -math.pi / 2)], list(COLOURS)),
    "square": (lambda: [regular(4, math.pi / 4)], list(COLOURS)),
    "circle": (lambda: [regular(24)], list(COLOURS)),
    "diamond": (lambda: [[[0, -1], [0.62, 0], [0, 1], [-0.62, 0]]], list(COLOURS)),
}
CATEGORY_IDS = {name: i + 1 for i, name in enumerate(CATEGORIES)}


def place(polys, cx, cy, size, angle):
    c, s = math.cos(angle), math.sin(angle)
    out = []
    for poly in polys:
        flat = []
        for x, y in poly:
            flat += [round(cx + size * (c * x - s * y), 2), round(cy + size * (s * x + c * y), 2)]
        out.append(flat)
    return out


def segmentation_mask(segm, h, w):
    return mask_utils.decode(mask_utils.merge(mask_utils.frPyObjects(segm, h, w))).astype(bool)


# ----- pictures ------------------------------------------------------------------------

def background(w, h, rng):
    c0 = rng.integers(60, 200, 3)
    c1 = rng.integers(60, 200, 3)
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    t = (x / w * 0.6 + y / h * 0.4)[..., None]
    img = c0 * (1 - t) + c1 * t
    # A woven texture: faint diagonal stripes in two directions.
    period = int(rng.integers(9, 17))
    weave = ((x + y) // period % 2 * 10 + (x - y) // (period + 3) % 2 * 6)[..., None]
    return np.clip(img + weave - 8, 0, 255)


def paint(img, m, colour, rng):
    h, w = m.shape
    shade = np.linspace(1.12, 0.82, h)[:, None, None]
    col = np.array(colour, dtype=np.float64)[None, None, :] * shade
    img[m] = np.clip(col, 0, 255).repeat(w, axis=1)[m]
    # A darker outline: mask pixels with a 4-neighbour outside the mask.
    inner = m.copy()
    inner[1:, :] &= m[:-1, :]
    inner[:-1, :] &= m[1:, :]
    inner[:, 1:] &= m[:, :-1]
    inner[:, :-1] &= m[:, 1:]
    edge = m & ~inner
    img[edge] = img[edge] * 0.55


def png_bytes(img):
    im = Image.fromarray(np.round(img).astype(np.uint8), "RGB")
    buf = io.BytesIO()
    im.save(buf, "PNG", optimize=True)
    return buf.getvalue()


class Scene:
    """Objects placed without overlaps (bounding discs apart)."""

    def __init__(self, w, h, rng):
        self.w, self.h, self.rng = w, h, rng
        self.discs = []
        self.objects = []  # (category, colour name, size, cx, cy, polygons)

    def add(self, category, size, colour=None, tries=400):
        make, colours = CATEGORIES[category]
        colour = colour or colours[int(self.rng.integers(0, len(colours)))]
        for _ in range(tries):
            cx = float(self.rng.uniform(size + 2, self.w - size - 2))
            cy = float(self.rng.uniform(size + 2, self.h - size - 2))
            if all((cx - x) ** 2 + (cy - y) ** 2 > (size + r + 3) ** 2 for x, y, r in self.discs):
                angle = float(self.rng.uniform(-0.5, 0.5))
                polys = place(make(), cx, cy, size, angle)
                self.discs.append((cx, cy, size * 1.15))
                self.objects.append((category, colour, size, cx, cy, polys))
                return True
        return False

    def picture(self):
        img = background(self.w, self.h, self.rng)
        for category, colour, _, _, _, polys in self.objects:
            paint(img, segmentation_mask(polys, self.h, self.w), COLOURS[colour], self.rng)
        return png_bytes(img)


def area(polys, h, w):
    return int(segmentation_mask(polys, h, w).sum())


def bbox(polys):
    xs = [v for p in polys for v in p[0::2]]
    ys = [v for p in polys for v in p[1::2]]
    return [round(min(xs), 2), round(min(ys), 2), round(max(xs) - min(xs), 2), round(max(ys) - min(ys), 2)]


# ----- Counting: LVIS v1 layout ----------------------------------------------------------

def counting(rng):
    files = {}
    images, annotations = [], []
    counted = ["star", "apple", "coin", "leaf", "heart", "fish", "flower", "moon"]
    ann_id = 1
    plan = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 22, 24, 26, 28, 30,
            3, 5, 8, 12, 6, 9, 14, 4, 21, 25, 7, 10, 2, 16, 11, 13]
    for i, k in enumerate(plan):
        image_id = 1000 + 37 * ((i * 17) % len(plan)) + i  # ids not in listing order
        w, h = SIZES[i % len(SIZES)]
        scene = Scene(w, h, rng)
        target = counted[i % len(counted)]
        # Distractors listed before the target in some scenes: a category whose count is
        # out of range, or in range but not exhaustively annotated (require_exhaustive).
        others = [c for c in counted if c != target]
        first = others[int(rng.integers(0, len(others)))]
        n_first = [1, 3, 4, 2, 6][i % 5]
        not_exhaustive = []
        if i % 5 == 2:
            not_exhaustive.append(CATEGORY_IDS[first])
        order = []
        if i % 3 != 0:
            order += [first] * n_first
        placed_target = 0
        order += [target] * k
        second = others[(others.index(first) + 3) % len(others)]
        if i % 4 == 1:
            order += [second] * int(rng.integers(1, 4))
        size = max(7.0, min(24.0, math.sqrt(w * h / len(order)) * 0.27))
        for cat in order:
            ok = scene.add(cat, size * float(rng.uniform(0.85, 1.1)))
            assert ok, f"scene {i}: no room for {cat}"
            placed_target += cat == target
        assert placed_target == k
        name = f"scene_{i:04d}.png"
        files[name] = scene.picture()
        info = {"id": image_id, "width": w, "height": h, "not_exhaustive_category_ids": not_exhaustive,
                "neg_category_ids": []}
        if i % 4 == 3:
            # As LVIS v1 ships it: no file_name, the picture named by the end of coco_url.
            info["coco_url"] = f"http://images.cocodataset.org/train2017/{name}"
        else:
            info["file_name"] = name
        images.append(info)
        for cat, _, _, _, _, polys in scene.objects:
            annotations.append({"id": ann_id, "image_id": image_id, "category_id": CATEGORY_IDS[cat],
                                "segmentation": polys, "area": area(polys, h, w), "bbox": bbox(polys)})
            ann_id += 1
    # An image without annotations.
    images.append({"id": 999, "file_name": "scene_0000.png", "width": 320, "height": 240,
                   "not_exhaustive_category_ids": [], "neg_category_ids": []})
    order = list(range(len(images)))
    rng.shuffle(order)
    doc = {
        "info": {"description": "Playbench counting scenes (LVIS v1 layout), CC0 1.0"},
        "images": [images[j] for j in order],
        "annotations": annotations,
        "categories": [{"id": i, "name": n, "synset": f"{n}.n.01", "frequency": "f"}
                       for n, i in CATEGORY_IDS.items()],
        "licenses": [{"id": 1, "name": "CC0 1.0", "url": "https://creativecommons.org/publicdomain/zero/1.0/"}],
    }
    files["lvis_v1_train.json"] = (json.dumps(doc, separators=(",", ":")) + "\n").encode()
    return files


# ----- Referring Dot-Pointing: RefCOCO+ layout -------------------------------------------

SHAPES = ["circle", "square", "triangle", "star", "heart", "diamond"]
PLAIN = ["red", "green", "blue", "yellow", "purple", "white", "black", "orange"]


def describe(objects, t):
    """A referring expression naming exactly object t of the scene."""
    cat, colour, size, cx, cy, _ = objects[t]
    same = [o for o in objects if o[0] == cat and o[1] == colour]
    if len([o for o in objects if o[0] == cat]) == 1:
        return f"the {cat}"
    if len(same) == 1:
        return f"the {colour} {cat}"
    sizes = sorted(o[2] for o in same)
    if size == sizes[-1] and sizes[-1] > sizes[-2] * 1.25:
        return f"the big {colour} {cat}"
    if size == sizes[0] and sizes[1] > sizes[0] * 1.25:
        return f"the small {colour} {cat}"
    xs = sorted(o[3] for o in same)
    if cx == xs[0]:
        return f"the {colour} {cat} on the left"
    if cx == xs[-1]:
        return f"the {colour} {cat} on the right"
    ys = sorted(o[4] for o in same)
    if cy == ys[0]:
        return f"the {colour} {cat} at the top"
    return f"the {colour} {cat} at the bottom"


def referring(rng):
    files = {}
    prefix = "refcoco+/images/mscoco/images/train2014/"
    images, annotations, refs = [], [], []
    ann_id, ref_id, sent_id = 5001, 1, 1
    cat_names = SHAPES
    for i in range(24):
        image_id = 300 + 11 * i
        w, h = SIZES[(i + 2) % len(SIZES)]
        scene = Scene(w, h, rng)
        n = int(rng.integers(4, 8))
        for _ in range(n):
            shape = cat_names[int(rng.integers(0, len(cat_names)))]
            colour = PLAIN[int(rng.integers(0, len(PLAIN)))]
            assert scene.add(shape, float(rng.uniform(12, 34)), colour)
        # Repeat a shape and colour so that size and position words are needed.
        shape, colour = scene.objects[0][0], scene.objects[0][1]
        assert scene.add(shape, float(rng.uniform(12, 34)), colour)
        name = f"COCO_train2014_{image_id:012d}.png"
        if i != 5:  # scene 5's picture is missing: its refs are left out
            files[prefix + name] = scene.picture()
        images.append({"id": image_id, "file_name": name, "width": w, "height": h})
        first_ann = ann_id
        for cat, _, _, _, _, polys in scene.objects:
            annotations.append({"id": ann_id, "image_id": image_id, "category_id": cat_names.index(cat) + 1,
                                "segmentation": polys, "area": area(polys, h, w), "bbox": bbox(polys),
                                "iscrowd": 0})
            ann_id += 1
        picks = rng.permutation(len(scene.objects))[: int(rng.integers(2, 5))]
        for t in sorted(int(p) for p in picks):
            cat, colour = scene.objects[t][0], scene.objects[t][1]
            sents = [describe(scene.objects, t), f"{colour} {cat}"]
            split = ["train", "val", "testA", "testB"][(ref_id + i) % 4]
            ref = {"sent_ids": [], "file_name": name.replace(".png", f"_{first_ann + t}.png"),
                   "ann_id": first_ann + t, "ref_id": ref_id, "image_id": image_id, "split": split,
                   "sentences": [], "category_id": cat_names.index(cat) + 1}
            for s in sents:
                ref["sentences"].append({"tokens": s.split(), "raw": s, "sent_id": sent_id, "sent": s})
                ref["sent_ids"].append(sent_id)
                sent_id += 1
            refs.append(ref)
            ref_id += 1
    # Invalid references the loader must skip: an annotation id that does not exist, a
    # mask wholly outside the picture, and a crowd annotation stored as RLE.
    w, h = images[0]["width"], images[0]["height"]
    annotations.append({"id": ann_id, "image_id": images[0]["id"], "category_id": 1,
                        "segmentation": [[w + 5.0, h + 5.0, w + 20.0, h + 5.0, w + 12.0, h + 20.0]],
                        "area": 1.0, "bbox": [w + 5.0, h + 5.0, 15.0, 15.0], "iscrowd": 0})
    m = np.zeros((h, w), dtype=np.uint8, order="F")
    m[10:20, 10:30] = 1
    rle = mask_utils.encode(m)
    annotations.append({"id": ann_id + 1, "image_id": images[0]["id"], "category_id": 2,
                        "segmentation": {"size": [h, w], "counts": rle["counts"].decode()},
                        "area": 200.0, "bbox": [10.0, 10.0, 20.0, 10.0], "iscrowd": 1})
    for a, what in [(ann_id, "the shape outside"), (ann_id + 1, "the crowd"), (99999, "nothing")]:
        refs.append({"sent_ids": [sent_id], "file_name": "x.png", "ann_id": a, "ref_id": ref_id,
                     "image_id": images[0]["id"], "split": "train", "category_id": 1,
                     "sentences": [{"tokens": what.split(), "raw": what, "sent_id": sent_id, "sent": what}]})
        ref_id += 1
        sent_id += 1
    rng.shuffle(refs)  # the loader sorts by ref id
    instances = {"info": {"description": "Playbench referring scenes (RefCOCO+ layout), CC0 1.0"},
                 "images": images, "annotations": annotations,
                 "categories": [{"id": i + 1, "name": n, "supercategory": "shape"} for i, n in enumerate(cat_names)]}
    files["refcoco+/instances.json"] = (json.dumps(instances, separators=(",", ":")) + "\n").encode()
    files["refcoco+/refs(unc).p"] = pickle.dumps(refs, protocol=2)
    return files


# ----- Video Unshuffle: Something-Something v2 layout -----------------------------------

def avi(frames, fps=12):
    """An AVI of PNG frames ('MPNG', lossless, every frame a key frame): OpenCV's FFmpeg
    reads it exactly and seeks to any frame, whatever the file's suffix."""
    import struct

    def chunk(tag, data):
        return tag + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")

    h, w, _ = frames[0].shape
    pngs = [png_bytes(f) for f in frames]
    n, biggest = len(pngs), max(map(len, pngs))
    avih = struct.pack("<14I", 1000000 // fps, 0, 0, 0x10, n, 0, 1, biggest, w, h, 0, 0, 0, 0)
    strh = b"vids" + b"MPNG" + struct.pack("<IHHIIIIIIIi4h", 0, 0, 0, 0, 1, fps, 0, n, biggest,
                                           0xFFFFFFFF, 0, 0, 0, w, h)
    strf = struct.pack("<IiiHH4sIiiII", 40, w, h, 1, 24, b"MPNG", w * h * 3, 0, 0, 0, 0)
    strl = chunk(b"LIST", b"strl" + chunk(b"strh", strh) + chunk(b"strf", strf))
    hdrl = chunk(b"LIST", b"hdrl" + chunk(b"avih", avih) + strl)
    movi, index, offset = b"", b"", 4
    for p in pngs:
        c = chunk(b"00dc", p)
        index += b"00dc" + struct.pack("<III", 0x10, offset, len(p))
        movi += c
        offset += len(c)
    body = b"AVI " + hdrl + chunk(b"LIST", b"movi" + movi) + chunk(b"idx1", index)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def disc(img, cx, cy, r, colour):
    h, w, _ = img.shape
    y, x = np.mgrid[0:h, 0:w]
    img[(x - cx) ** 2 + (y - cy) ** 2 <= r * r] = colour


def box(img, x0, y0, x1, y1, colour):
    h, w, _ = img.shape
    img[max(0, int(y0)):min(h, int(y1)), max(0, int(x0)):min(w, int(x1))] = colour


def animation(kind, n, rng):
    """n frames (224x224) of a simple action, and its label. Flat backgrounds (a wall
    and a floor) keep the PNG frames small."""
    bg = np.zeros((224, 224, 3))
    bg[:] = rng.integers(90, 220, 3)
    bg[160:] = rng.integers(40, 140, 3)
    frames = []
    for t in range(n):
        u = t / (n - 1)
        img = bg.copy()
        if kind == 0:
            label = "Moving [a ball] from left to right"
            disc(img, 20 + 184 * u, 120, 18, (220, 60, 50))
        elif kind == 1:
            label = "Filling [a bar] up"
            box(img, 40, 90, 184, 134, (250, 250, 250))
            box(img, 44, 94, 44 + 136 * u, 130, (40, 150, 70))
        elif kind == 2:
            label = "Growing [a square]"
            r = 8 + 90 * u
            box(img, 112 - r, 112 - r, 112 + r, 112 + r, (60, 80, 200))
        elif kind == 3:
            label = "Turning [a clock hand] clockwise"
            disc(img, 112, 112, 90, (245, 240, 225))
            a = -math.pi / 2 + 2 * math.pi * u * 0.9
            for k in range(0, 80):
                disc(img, 112 + k * math.cos(a), 112 + k * math.sin(a), 4, (30, 30, 30))
        elif kind == 4:
            label = "Dropping [a ball] onto [the floor]"
            box(img, 0, 200, 224, 224, (90, 60, 40))
            disc(img, 112, 20 + 162 * u * u, 18, (240, 200, 40))
        elif kind == 5:
            label = "Stacking [blocks] on top of each other"
            for k in range(int(1 + u * 5.999)):
                box(img, 72, 196 - 34 * (k + 1), 152, 196 - 34 * k - 2, COLOURS[PLAIN[k]])
        elif kind == 6:
            label = "Pouring [water] into [a glass]"
            box(img, 70, 40, 154, 200, (220, 230, 240))
            box(img, 76, 194 - 150 * u, 148, 194, (50, 110, 220))
        elif kind == 7:
            label = "Dimming [the lights]"
            img = img * (1.0 - 0.85 * u)
            disc(img, 112, 112, 40, tuple(int(c * (1.0 - 0.85 * u)) for c in (250, 240, 150)))
        elif kind == 8:
            label = "Opening [a box]"
            box(img, 50, 110, 174, 200, (150, 100, 50))
            box(img, 50, 90 - 70 * u, 174, 108 - 70 * u, (180, 130, 70))
        elif kind == 9:
            label = "Drawing [a line] from top to bottom"
            box(img, 104, 10, 120, 10 + 204 * u, (20, 20, 20))
        elif kind == 10:
            label = "Sliding [a card] out of [a sleeve]"
            box(img, 40 + 120 * u, 60, 120 + 120 * u, 170, (230, 60, 120))
            box(img, 20, 50, 110, 180, (60, 60, 70))
        elif kind == 12:
            # Large changes, so that the salient rule (mean grey change of 15 %) picks
            # frames rather than falling back to evenly spaced ones.
            label = "Painting [a wall] in another colour"
            img[:160] = np.array([230, 220, 60]) * (1 - u) + np.array([30, 40, 120]) * u
        elif kind == 13:
            label = "Closing [a curtain]"
            img[:] = (30, 30, 45)
            box(img, 0, 0, 224 * u, 224, (245, 240, 230))
        else:
            label = "Setting [the sun] behind [a hill]"
            sky = np.array([120, 180, 240]) * (1 - u) + np.array([200, 90, 60]) * u
            img[:] = sky
            disc(img, 112, 40 + 150 * u, 26, (250, 220, 80))
            disc(img, 112, 330, 170, (40, 120, 50))
        frames.append(np.clip(np.round(img), 0, 255).astype(np.uint8))
    return frames, label


def driven(driver, env, kwargs, seed, actions, n):
    """Frames of one of Playbench's environments, played by the driver (its solver's
    actions when `actions` is None) and shrunk to 224x224 here, once: the clip holds the
    shrunk frames."""
    import subprocess
    import tempfile

    def run(lines):
        text = "".join(json.dumps(x) + "\n" for x in lines).encode()
        done = subprocess.run(driver, input=text, check=True, capture_output=True)
        return [json.loads(x) for x in done.stdout.decode().splitlines()]

    start = [{"op": "make", "env": env, "kwargs": kwargs}, {"op": "reset", "seed": seed}]
    if actions is None:
        actions = [a for a in run(start + [{"op": "solve", "kwargs": {}}])[-1]["actions"] if "stop" not in a]
    out = []
    with tempfile.TemporaryDirectory() as d:
        lines = start + [{"op": "render", "path": os.path.join(d, "0.png")}]
        for i, a in enumerate(actions[: n - 1]):
            lines.append({"op": "step", "action": a})
            lines.append({"op": "render", "path": os.path.join(d, f"{i + 1}.png")})
        run(lines)
        k = 0
        while os.path.exists(os.path.join(d, f"{k}.png")):
            im = Image.open(os.path.join(d, f"{k}.png")).convert("RGB").resize((224, 224), Image.BILINEAR)
            out.append(np.asarray(im))
            k += 1
    return out


def videos(rng, driver):
    files, labels = {}, []
    clips = []
    for kind in range(14):
        n = int(rng.integers(14, 31))
        clips.append(animation(kind, n, rng))
    clips.append((driven(driver, "maze_2d/easy", {"seed": 3}, 3, None, 20), "Walking [a dot] through [a maze]"))
    clips.append((driven(driver, "sliding_block/easy", {"seed": 2}, 2, None, 24), "Sliding [blocks] into place"))
    clips.append((driven(driver, "CartPole-v1", {}, 5, ["push left", "push right"] * 20, 40),
                  "Pushing [a cart] left and right"))
    for i, (frames, label) in enumerate(clips):
        vid = str(70000 + 97 * i)
        files[f"20bn-something-something-v2/{vid}.webm"] = avi(frames)
        labels.append({"id": vid, "label": label.replace("[", "").replace("]", ""), "template": label,
                       "placeholders": []})
    # A label whose video is missing: the reset skips it and plays the next.
    labels.append({"id": "69999", "label": "Nothing happening", "template": "Nothing happening",
                   "placeholders": []})
    files["labels/train.json"] = (json.dumps(labels, indent=1) + "\n").encode()
    return files


# Stored, fixed times, sorted names: the same bytes on every run.
write_zip = objects.write_zip


ZIPS = ("counting.zip", "referring.zip", "videos.zip", objects.ZIP_NAME)
ABOUT = ("The bundled VisGym scene sets: generated pictures with LVIS-layout (counting.zip) "
         "and RefCOCO+-layout (referring.zip) annotations, generated clips in the "
         "Something-Something v2 layout (videos.zip), and generated low-poly glTF models for "
         "Mental Rotation 3D (Objaverse) (objects.zip, made by scripts/visgym-scenes/objects.py). "
         "Built by scripts/visgym-scenes/build.py.")


def entries(zname, files, source, notes=None):
    """The manifest's entries for one zip's files (a note where `notes` has one)."""
    out = []
    for name in sorted(files):
        entry = {"zip": zname, "file": name, "bytes": len(files[name]),
                 "sha256": hashlib.sha256(files[name]).hexdigest(),
                 "source": source, "author": "Playbench", "licence": "CC0 1.0"}
        if notes and name in notes:
            entry["note"] = notes[name]
        out.append(entry)
    return out


def build_objects():
    """objects.zip (built, written and checked by objects.py) and its entries."""
    files = objects.make(OUT)
    return entries(objects.ZIP_NAME, files, objects.SOURCE, objects.NOTES)


def write_manifest(manifest):
    doc = {
        "about": ABOUT,
        "zip_bytes": {z: os.path.getsize(os.path.join(OUT, z)) for z in ZIPS},
        "files": manifest,
    }
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    manifest = []
    driver = os.environ.get("ENVS_DRIVER", os.path.join(ROOT, "target", "release", "envs-driver"))
    if not os.path.exists(driver):
        raise SystemExit(f"build the driver first (cargo build --release --bin envs-driver): {driver}")
    for zname, build, seed in [("counting.zip", counting, 20261205), ("referring.zip", referring, 20261206),
                               ("videos.zip", lambda r: videos(r, [driver]), 20261207)]:
        files = build(np.random.default_rng(seed))
        write_zip(os.path.join(OUT, zname), files)
        manifest += entries(zname, files, "drawn and annotated by scripts/visgym-scenes/build.py")
        print(f"{zname}: {len(files)} files, {os.path.getsize(os.path.join(OUT, zname))} bytes")
    manifest += build_objects()
    write_manifest(manifest)


def objects_only():
    """Rebuilds objects.zip and its manifest entries; the other zips' entries are kept as
    the manifest has them (in the order main writes them: theirs, then objects.zip's)."""
    with open(os.path.join(OUT, "manifest.json")) as f:
        kept = [e for e in json.load(f)["files"] if e["zip"] != objects.ZIP_NAME]
    write_manifest(kept + build_objects())


if __name__ == "__main__":
    if sys.argv[1:] == ["--objects"]:
        objects_only()
    elif sys.argv[1:]:
        raise SystemExit("usage: build.py [--objects]")
    else:
        main()

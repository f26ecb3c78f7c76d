"""Builds the bundled VisGym image set: public/visgym-images/images.zip and its manifest.

Photographs come from the scikit-image 0.26.0 wheel on PyPI (its sample images whose
documentation releases them into the public domain or under CC0), shrunk to at most 320
px on the long side; the rest are pictures drawn here (gradients, flat shapes, textures,
fractals) so that every rule of the image environments has material: flat colour regions
of brightness 25-230 for Colorization, detail at 4-6x zoom for Zoom-In, sizes that do not
divide by 2 or 3 for Jigsaw. Run from the repository root:

    python3 -m venv .cache/venv-images
    .cache/venv-images/bin/pip install numpy==1.26.4 pillow==13.0.0
    .cache/venv-images/bin/python scripts/visgym-images/build.py

The wheel is downloaded with pip into .cache/. Output is byte-for-byte reproducible with
the same Pillow and zlib (entries stored, fixed times, sorted).
"""

import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "public", "visgym-images")
WHEEL_DIR = os.path.join(ROOT, ".cache", "wheels-images")
SKIMAGE = "scikit-image==0.26.0"
LONG_SIDE = 320

# scikit-image sample files and the licence its documentation
# (skimage/data/_fetchers.py in the wheel) states for each.
PHOTOS = {
    "astronaut.png": ("Eileen Collins, NASA", "Public domain (NASA)"),
    "brick.png": ("CC0Textures, Bricks25", "CC0 1.0"),
    "camera.png": ("Lav Varshney", "CC0 1.0"),
    "cell.png": ("scikit-image sample (cell)", "CC0 1.0"),
    "chelsea.png": ("Stefan van der Walt", "CC0 1.0"),
    "clock_motion.png": ("Stefan van der Walt", "Public domain"),
    "coffee.png": ("Rachel Michetti", "CC0 1.0"),
    "grass.png": ("CC0Textures", "CC0 1.0"),
    "gravel.png": ("CC0Textures, Gravel04", "CC0 1.0"),
    "horse.png": ("Andreas Preuss (marauder)", "CC0 1.0"),
    "hubble_deep_field.jpg": ("NASA, Hubble Space Telescope", "Public domain (NASA)"),
    "microaneurysms.png": ("Andreas Maier", "CC0 1.0"),
    "retina.jpg": ("Mikael Haggstrom", "CC0 1.0"),
    "rocket.jpg": ("SpaceX", "Public domain (released by SpaceX)"),
    "text.png": ("scikit-image sample (text)", "Public domain"),
}


def skimage_wheel():
    os.makedirs(WHEEL_DIR, exist_ok=True)
    found = [f for f in os.listdir(WHEEL_DIR) if f.startswith("scikit_image-0.26.0")]
    if not found:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", SKIMAGE, "--no-deps",
             "--only-binary=:all:", "-d", WHEEL_DIR],
            check=True,
        )
        found = [f for f in os.listdir(WHEEL_DIR) if f.startswith("scikit_image-0.26.0")]
    return os.path.join(WHEEL_DIR, sorted(found)[0])


def shrink(img):
    img = img.convert("RGB")
    w, h = img.size
    s = LONG_SIDE / max(w, h)
    if s < 1:
        img = img.resize((max(1, round(w * s)), max(1, round(h * s))), Image.LANCZOS)
    return img


# ----- drawn pictures -------------------------------------------------------------------


def grid(w, h):
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    return x / (w - 1), y / (h - 1)


def to_img(rgb):
    return Image.fromarray(np.clip(np.rint(rgb), 0, 255).astype(np.uint8), "RGB")


def linear_gradient(w, h, c0, c1, angle):
    x, y = grid(w, h)
    t = (x * np.cos(angle) + y * np.sin(angle))
    t = (t - t.min()) / (t.max() - t.min())
    return to_img(np.asarray(c0) * (1 - t[..., None]) + np.asarray(c1) * t[..., None])


def radial_gradient(w, h, c0, c1):
    x, y = grid(w, h)
    t = np.clip(np.hypot(x - 0.5, y - 0.5) / 0.71, 0, 1)
    return to_img(np.asarray(c0) * (1 - t[..., None]) + np.asarray(c1) * t[..., None])


def shapes(w, h, rng, n):
    """Flat coloured discs, boxes and triangles on a flat background."""
    bg = rng.randint(40, 200, 3)
    img = np.full((h, w, 3), bg, dtype=np.float64)
    y, x = np.mgrid[0:h, 0:w]
    for _ in range(n):
        colour = rng.randint(30, 226, 3)
        cx, cy = rng.randint(0, w), rng.randint(0, h)
        r = rng.randint(min(w, h) // 12, min(w, h) // 4)
        kind = rng.randint(3)
        if kind == 0:
            mask = (x - cx) ** 2 + (y - cy) ** 2 <= r * r
        elif kind == 1:
            mask = (abs(x - cx) <= r) & (abs(y - cy) <= r * 2 // 3)
        else:
            mask = (y - cy <= r) & (y - cy >= -r) & (abs(x - cx) * 2 <= (y - cy + r))
        img[mask] = colour
    return to_img(img)


def stripes(w, h, colours, period, angle):
    x, y = np.mgrid[0:h, 0:w][::-1]
    t = ((x * np.cos(angle) + y * np.sin(angle)) // period).astype(int) % len(colours)
    return to_img(np.asarray(colours, dtype=np.float64)[t])


def checker(w, h, cw, ch, c0, c1):
    y, x = np.mgrid[0:h, 0:w]
    t = ((x // cw + y // ch) % 2)[..., None]
    return to_img(np.where(t == 1, np.asarray(c1), np.asarray(c0)))


def value_noise(w, h, rng, octaves, palette):
    out = np.zeros((h, w))
    amp, total = 1.0, 0.0
    for o in range(octaves):
        cells = 4 * 2 ** o
        g = rng.rand(cells + 1, cells + 1)
        ys = np.linspace(0, cells, h, endpoint=False)
        xs = np.linspace(0, cells, w, endpoint=False)
        y0, x0 = ys.astype(int), xs.astype(int)
        fy, fx = (ys - y0)[:, None], (xs - x0)[None, :]
        fy, fx = fy * fy * (3 - 2 * fy), fx * fx * (3 - 2 * fx)
        a = g[y0][:, x0]
        b = g[y0][:, x0 + 1]
        c = g[y0 + 1][:, x0]
        d = g[y0 + 1][:, x0 + 1]
        out += amp * ((a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy)
        total += amp
        amp *= 0.5
    t = out / total
    p = np.asarray(palette, dtype=np.float64)
    idx = np.clip(t * (len(p) - 1), 0, len(p) - 1.000001)
    i = idx.astype(int)
    f = (idx - i)[..., None]
    return to_img(p[i] * (1 - f) + p[i + 1] * f)


def mandelbrot(w, h, cx, cy, span, palette_shift):
    x, y = grid(w, h)
    c = (cx + (x - 0.5) * span) + 1j * (cy + (y - 0.5) * span * h / w)
    z = np.zeros_like(c)
    n = np.zeros(c.shape)
    alive = np.ones(c.shape, bool)
    for i in range(200):
        z[alive] = z[alive] ** 2 + c[alive]
        escaped = alive & (np.abs(z) > 2)
        n[escaped] = i
        alive &= ~escaped
    t = np.sqrt(n / 200)
    rgb = np.stack([
        127 + 100 * np.sin(6.0 * t + palette_shift),
        127 + 100 * np.sin(6.0 * t + palette_shift + 2.1),
        127 + 100 * np.sin(6.0 * t + palette_shift + 4.2),
    ], -1)
    rgb[alive] = (20, 20, 40)
    return to_img(rgb)


def rings(w, h, period, c0, c1):
    x, y = grid(w, h)
    r = np.hypot((x - 0.43) * w, (y - 0.57) * h)
    t = (0.5 + 0.5 * np.cos(2 * np.pi * r / period * (1 + r / 200)))[..., None]
    return to_img(np.asarray(c0) * (1 - t) + np.asarray(c1) * t)


def voronoi(w, h, rng, n):
    pts = rng.rand(n, 2) * (w, h)
    cols = rng.randint(30, 226, (n, 3))
    y, x = np.mgrid[0:h, 0:w]
    d = (x[..., None] - pts[:, 0]) ** 2 + (y[..., None] - pts[:, 1]) ** 2
    return to_img(cols[np.argmin(d, -1)])


def landscape(w, h, rng):
    x, y = grid(w, h)
    sky = np.asarray((90, 150, 230)) * (1 - y[..., None]) + np.asarray((230, 200, 170)) * y[..., None]
    img = sky.copy()
    sun = np.hypot(x - 0.75, (y - 0.25) * h / w) < 0.08
    img[sun] = (250, 220, 90)
    for k, colour in enumerate([(60, 110, 70), (40, 85, 50), (30, 60, 35)]):
        phase = rng.rand(3) * 6
        ridge = 0.45 + 0.12 * k + 0.06 * np.sin(7 * x + phase[0]) + 0.03 * np.sin(19 * x + phase[1])
        img[y > ridge] = colour
    return to_img(img)


def drawn():
    rng = np.random.RandomState(20261205)
    pics = {
        "gradient_dawn.png": linear_gradient(320, 213, (250, 120, 60), (40, 60, 160), 0.3),
        "gradient_sea.png": linear_gradient(301, 227, (20, 90, 120), (200, 240, 230), 1.9),
        "gradient_radial.png": radial_gradient(256, 193, (250, 240, 200), (90, 20, 60)),
        "gradient_moss.png": linear_gradient(214, 320, (200, 220, 90), (30, 70, 40), 2.6),
        "shapes_a.png": shapes(320, 240, rng, 9),
        "shapes_b.png": shapes(287, 211, rng, 14),
        "shapes_c.png": shapes(240, 319, rng, 7),
        "shapes_d.png": shapes(305, 305, rng, 20),
        "shapes_e.png": shapes(319, 179, rng, 11),
        "stripes_flag.png": stripes(320, 200, [(200, 40, 50), (240, 240, 235), (40, 70, 160)], 23, 0.0),
        "stripes_candy.png": stripes(263, 263, [(230, 90, 120), (250, 230, 200)], 11, 0.7),
        "stripes_rainbow.png": stripes(317, 229, [(220, 60, 60), (230, 150, 50), (230, 220, 70),
                                                 (80, 180, 90), (60, 120, 210), (140, 80, 190)], 17, 1.2),
        "checker_small.png": checker(250, 187, 13, 11, (60, 60, 70), (210, 200, 120)),
        "checker_wide.png": checker(320, 161, 41, 23, (180, 60, 40), (60, 140, 170)),
        "noise_clouds.png": value_noise(320, 217, rng, 5, [(70, 110, 190), (160, 190, 230), (245, 245, 250)]),
        "noise_marble.png": value_noise(271, 271, rng, 6, [(40, 40, 45), (120, 110, 100), (220, 215, 205), (90, 80, 70)]),
        "noise_lava.png": value_noise(299, 203, rng, 4, [(60, 10, 10), (200, 60, 20), (250, 200, 60)]),
        "noise_forest.png": value_noise(230, 313, rng, 5, [(20, 50, 20), (60, 120, 50), (150, 180, 90)]),
        "mandelbrot_whole.png": mandelbrot(320, 241, -0.6, 0.0, 3.0, 0.0),
        "mandelbrot_valley.png": mandelbrot(311, 233, -0.745, 0.11, 0.12, 1.3),
        "mandelbrot_spiral.png": mandelbrot(256, 256, -0.7435, 0.1314, 0.012, 2.6),
        "rings_gold.png": rings(320, 227, 9, (80, 50, 20), (240, 200, 110)),
        "rings_teal.png": rings(229, 293, 7, (10, 60, 70), (160, 230, 220)),
        "voronoi_tiles.png": voronoi(320, 239, rng, 40),
        "voronoi_glass.png": voronoi(277, 199, rng, 90),
        "landscape_hills.png": landscape(320, 190, rng),
        "landscape_valley.png": landscape(263, 211, rng),
    }
    return pics


def png_bytes(img):
    # A fresh image carries no metadata: colour profiles and gamma would be ignored by
    # every decoder that matters here, but a reader might think otherwise.
    img = Image.frombytes("RGB", img.size, img.convert("RGB").tobytes())
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def main():
    wheel = skimage_wheel()
    files = {}
    manifest = []
    with zipfile.ZipFile(wheel) as z:
        for name, (author, licence) in sorted(PHOTOS.items()):
            img = shrink(Image.open(io.BytesIO(z.read(f"skimage/data/{name}"))))
            out = "photos/" + os.path.splitext(name)[0] + ".png"
            files[out] = png_bytes(img)
            manifest.append({
                "file": out, "width": img.size[0], "height": img.size[1],
                "source": f"{SKIMAGE} wheel (PyPI), skimage/data/{name}, shrunk to <= {LONG_SIDE} px",
                "author": author, "licence": licence,
            })
    for name, img in sorted(drawn().items()):
        out = "procedural/" + name
        files[out] = png_bytes(img)
        manifest.append({
            "file": out, "width": img.size[0], "height": img.size[1],
            "source": "drawn by scripts/visgym-images/build.py",
            "author": "Playbench", "licence": "CC0 1.0",
        })
    os.makedirs(OUT, exist_ok=True)
    zpath = os.path.join(OUT, "images.zip")
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_STORED) as z:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            z.writestr(info, files[name])
    for m in manifest:
        m["sha256"] = hashlib.sha256(files[m["file"]]).hexdigest()
        m["bytes"] = len(files[m["file"]])
    manifest.sort(key=lambda m: m["file"])
    doc = {
        "about": "The bundled VisGym image set (images.zip): every file, its source and licence. "
                 "Built by scripts/visgym-images/build.py.",
        "zip_bytes": os.path.getsize(zpath),
        "files": manifest,
    }
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"{len(files)} images, {os.path.getsize(zpath)} bytes in images.zip")


if __name__ == "__main__":
    main()

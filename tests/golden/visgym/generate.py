"""Golden data for the VisGym port, generated from the reference environments.

Reference: the public VisGym repository (github.com/visgym/VisGym), commit
0289034b0cefa6fbbad27f7dd8c01545df324afd. Put its `gymnasium/` package on the path
(a checkout or an export of that commit), then run from the repository root:

    python3.11 -m venv .cache/venv-visgym
    .cache/venv-visgym/bin/pip install numpy==1.26.4 pygame==2.6.1 \
        opencv-python-headless==4.11.0.86 matplotlib==3.10.1 pillow==13.0.0 \
        trimesh==4.5.2 cloudpickle typing_extensions farama-notifications
    SDL_VIDEODRIVER=dummy .cache/venv-visgym/bin/python tests/golden/visgym/generate.py \
        --ref .cache/visgym-ref [--only literal,maze_2d,...]

CPython 3.11 (3.11.7 here) is required: error messages of `ast.literal_eval` and the
iteration order of sets are version-specific. Maze 3D imports Ursina/Panda3D at module
level; they are replaced by an inert stub because only its state is recorded here.

Writes tests/golden/visgym/*.json.gz (replayed by tests/tests/visgym_golden.rs).
"""

import argparse
import ast
import gzip
import hashlib
import json
import os
import random
import sys
import types

assert sys.version_info[:2] == (3, 11), "generate with CPython 3.11"

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def write(name, data):
    path = os.path.join(HERE, name + ".json.gz")
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    with open(path, "wb") as f:
        # mtime=0 keeps the file byte-identical across runs.
        f.write(gzip.compress(raw, 9, mtime=0))
    print(f"{name}: {len(raw)} bytes JSON, {os.path.getsize(path)} gzipped")


# ----- ast.literal_eval -------------------------------------------------------------------


def gen_literal():
    from literal_corpus import corpus

    rows = []
    for s in corpus():
        try:
            v = ast.literal_eval(s)
        except Exception as e:  # noqa: BLE001 - every exception is data here
            rows.append([s, type(e).__name__, str(e)])
            continue
        if isinstance(v, set) and any(isinstance(x, (str, bytes)) for x in v):
            continue  # order depends on the process's hash seed
        rows.append([s, "ok", repr(v), str(v)])
    write("literal_eval", rows)


GENERATORS = {"literal": gen_literal}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default=".cache/visgym-ref", help="VisGym checkout")
    ap.add_argument("--only", default="", help="comma-separated generator names")
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.ref))
    names = [n for n in args.only.split(",") if n] or list(GENERATORS)
    for n in names:
        GENERATORS[n]()


if __name__ == "__main__":
    main()

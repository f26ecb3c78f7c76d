"""Builds public/fetch/assets.zip and public/fetch/manifest.json: the Fetch robot's model
files (MJCF, meshes, textures) that VisGym's Fetch Reach and Pick-and-Place load, taken
unchanged from the gymnasium-robotics wheel on PyPI (MIT; the Fetch model was adapted by
OpenAI from Fetch Robotics' BSD-licensed fetch_description). Playbench ships them so the
browser and the command line load the same files (docs/fetch.md, "Assets").

Run from the repository root (downloads one wheel into .cache/wheels):

    python3 scripts/fetch-assets/build.py

The zip is deterministic: sorted entries, fixed timestamps, deflate level 9.
"""

import hashlib
import json
import os
import subprocess
import sys
import zipfile

WHEEL = "gymnasium_robotics-1.4.2-py3-none-any.whl"
PREFIX = "gymnasium_robotics/envs/assets/"
# What reach.xml and pick_and_place.xml include, directly or through shared.xml/robot.xml.
KEEP = ("fetch/reach.xml", "fetch/pick_and_place.xml", "fetch/shared.xml", "fetch/robot.xml")
KEEP_DIRS = ("stls/fetch/", "textures/block")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "public", "fetch")


def wheel_path():
    cache = os.path.join(ROOT, ".cache", "wheels")
    path = os.path.join(cache, WHEEL)
    if not os.path.exists(path):
        os.makedirs(cache, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps",
                        "gymnasium-robotics==1.4.2", "-d", cache], check=True)
    return path


def main():
    path = wheel_path()
    wheel_sha = hashlib.sha256(open(path, "rb").read()).hexdigest()
    z = zipfile.ZipFile(path)
    names = sorted(
        n[len(PREFIX):] for n in z.namelist()
        if n.startswith(PREFIX) and (n[len(PREFIX):] in KEEP or n[len(PREFIX):].startswith(KEEP_DIRS))
    )
    licence_text = z.read("gymnasium_robotics-1.4.2.dist-info/licenses/LICENSE").decode()
    assets_note = z.read(PREFIX + "LICENSE.md").decode().split("# ShadowHand")[0].strip()
    os.makedirs(OUT, exist_ok=True)
    zip_path = os.path.join(OUT, "assets.zip")
    files = []
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        entries = [(n, z.read(PREFIX + n)) for n in names]
        entries.append(("LICENSE", (licence_text + "\n\n" + assets_note + "\n").encode()))
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            out.writestr(info, data, compresslevel=9)
            files.append({
                "file": name,
                "source": f"gymnasium-robotics==1.4.2 wheel (PyPI), "
                          + (f"{PREFIX}{name}" if name != "LICENSE" else "its LICENSE and envs/assets/LICENSE.md"),
                "licence": "MIT (gymnasium-robotics); the Fetch model adapted by OpenAI from Fetch Robotics' fetch_description (BSD)",
                "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": len(data),
            })
    manifest = {
        "about": "The Fetch robot's model files for VisGym's Fetch tasks (assets.zip): every file, "
                 "its source and licence. Built by scripts/fetch-assets/build.py.",
        "wheel": WHEEL,
        "wheel_sha256": wheel_sha,
        "zip_bytes": os.path.getsize(zip_path),
        "files": files,
    }
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"{zip_path}: {len(files)} files, {os.path.getsize(zip_path)} bytes (wheel sha256 {wheel_sha})")


if __name__ == "__main__":
    main()

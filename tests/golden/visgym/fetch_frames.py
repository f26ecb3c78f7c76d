"""Reference pictures for the Fetch views' rasteriser (envs/src/visgym/fetch/view/): the
observation image VisGym's Fetch Reach and Pick-and-Place show the model
(docs/fetch-reference.md §4), drawn by the reference with real OpenGL (MuJoCo's renderer
on EGL, 4x MSAA), at a few states our environment reproduces from a seed and actions.

Uses fetch.py's setup (same venv, same reference export, same shims). Run from the
repository root:

    LP_NUM_THREADS=1 .cache/venv-fetch/bin/python tests/golden/visgym/fetch_frames.py \
        --ref .cache/visgym-ref

It writes fetch_frames.json and one PNG per frame (fetch_frame_<name>.png) next to this
file. Each frame is the 480x960 `env.render()` (what the harness sends, §4.3) taken right
after `reset(seed)` and the listed `step`s, shrunk to 240x120 with Pillow's LANCZOS (our
test shrinks its own frame with the same filter, envs/src/render/lanczos.rs). Episodes
run as in fetch.py: reset(seed), solve(), reset(seed) again, then the steps (the first
actions of that plan). The JSON records, per frame, the task, seed, actions and the
cameras the reference drew with, so a test can check it is drawing the same state.
`--full DIR` also saves the unshrunk images there (for looking at differences). A few
seconds per frame (Mesa's software rasteriser).
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fetch  # noqa: E402  (fetch.py next to this file: the reference's setup)

SIZE = (240, 120)
# (name, env, seed, number of steps of the seed's solve() plan played before the render)
FRAMES = [
    ("pick_reset", "fetch_pick_and_place", 0, 0),
    ("pick_above", "fetch_pick_and_place", 0, 9),
    ("pick_grasp", "fetch_pick_and_place", 0, 17),
    ("pick_carry", "fetch_pick_and_place", 0, 26),
    ("reach_reset", "fetch_reach", 0, 0),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default=".cache/visgym-ref", help="VisGym checkout or export")
    ap.add_argument("--out", default=HERE, help="output folder")
    ap.add_argument("--full", default="", help="also save the 480x960 images in this folder")
    args = ap.parse_args()
    mujoco, np = fetch.import_reference(args.ref, True)
    assert mujoco.__version__ == fetch.MUJOCO, f"pictures come from mujoco {fetch.MUJOCO}"
    from PIL import Image

    envs = {}
    frames = []
    for name, env_name, seed, steps in FRAMES:
        if env_name not in envs:
            envs[env_name] = fetch.make_env(env_name)
        env = envs[env_name]
        env.reset(seed=seed)
        plan = env.solve()
        env.reset(seed=seed)
        actions = plan[:steps]
        for a in actions:
            env.step(a)
        # What the harness shows before the next decision (§4.3): the current state with
        # the jittered front camera.
        img = np.asarray(env.render())
        assert img.shape == (480, 960, 3) and img.dtype == np.uint8, img.shape
        cam = env.mujoco_renderer.default_cam_config
        file = f"fetch_frame_{name}.png"
        Image.fromarray(img).resize(SIZE, Image.LANCZOS).save(os.path.join(args.out, file), optimize=True)
        if args.full:
            Image.fromarray(img).save(os.path.join(args.full, f"fetch_frame_{name}_full.png"))
        frames.append({
            "name": name, "env": env_name, "seed": seed, "actions": actions, "png": file,
            "camera": {"azimuth": float(cam["azimuth"]), "elevation": float(cam["elevation"]),
                       "distance": float(cam["distance"]), "lookat": [float(x) for x in cam["lookat"]]},
            "follow_lookat": env.follow_lookat,
        })
        print(f"{file}: {len(actions)} steps")
    data = {
        "reference": {"repo": "visgym/VisGym", "commit": fetch.COMMIT, "mujoco": mujoco.__version__},
        "size": list(SIZE),
        "frames": frames,
    }
    with open(os.path.join(args.out, "fetch_frames.json"), "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    os._exit(0)  # an EGL context's destructor can fail at interpreter exit

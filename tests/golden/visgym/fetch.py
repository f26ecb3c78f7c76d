"""Golden data for the port of VisGym's Fetch Reach and Pick-and-Place, generated from the
reference environments (what they do: docs/fetch-reference.md; the engine: docs/physics-engine.md).

Reference: the public VisGym repository (github.com/visgym/VisGym), commit
0289034b0cefa6fbbad27f7dd8c01545df324afd, exported (a checkout works too) to `--ref`; its
`gymnasium/` fork and `Gymnasium-Robotics/` go on the path. The classes are the registered
entry points of `fetch_reach/{easy,hard}` and `fetch_pick_and_place/{easy,hard}` (easy and
hard are the same environment), built with the evaluation kwargs (docs/fetch-reference.md §1.2).
Run from the repository root:

    python3.11 -m venv .cache/venv-fetch
    .cache/venv-fetch/bin/pip install --no-deps mujoco==3.14.0 numpy==1.26.4 \
        absl-py==2.5.1 etils==1.15.0 fsspec==2026.9.0 glfw==2.11.0 PyOpenGL==3.1.10 \
        typing_extensions==4.16.0 websockets==17.4 zipp==4.1.2 imageio==2.37.0 \
        pillow==13.0.0 packaging==26.4 cloudpickle==3.1.1 Farama-Notifications==0.0.4
    .cache/venv-fetch/bin/python tests/golden/visgym/fetch.py --ref .cache/visgym-ref

It writes fetch_reach.json.gz and fetch_pick_and_place.json.gz next to this file. Our port runs
MuJoCo's npm WebAssembly module 3.14.0 (npm has 3.9.0 onwards only), so the reference runs on
PyPI mujoco 3.14.0 here, not its pinned 3.3.2; numpy is the reference's pin, 1.26.4 (mujoco
3.14.0 accepts it). CPython 3.11 (3.11.7 here): `ast.literal_eval`'s messages are in the feedback.

Each file: {"reference": versions, "name", "envs" (the ids covered), "construction": the state the constructor leaves
(initial time/qpos/qvel, initial_gripper_xpos, height_offset, the weld's eq_data, nq/nv/nu),
"prompt": get_prompt(), "episodes": [{"seed" (null: reset() continuing the generator), "reset":
state, "solve": the plan solve() returns right after that reset (null for seedless episodes),
"steps": [{"action", "reward", "terminated", "truncated", "feedback" (null when info has none),
"is_success", "distance_to_goal", "state"}]}]}. A state holds time, qpos, qvel, ctrl, mocap,
qacc_warmstart, the goal, obs["observation"/"achieved_goal"/"desired_goal"], the model's target0
site_pos, the front camera's jittered config (for the next render), the follow camera's lookat at
the last render and Pick-and-Place's sticky gripper bias. Floats are Python's repr (exact). About
10 s for both files.

Pixels are not recorded. By default the reference's offscreen viewer runs with its OpenGL
calls turned into no-ops (black frames): camera bookkeeping, `mjv_updateScene` and every
`mj_forward` of the render callback still run. `--render` draws for real (MUJOCO_GL=egl, Mesa's
software driver does); both modes write byte-identical files.

How far the reference's own mujoco is from ours (nothing is written):

    python3.11 -m venv .cache/venv-fetch-332
    .cache/venv-fetch-332/bin/pip install --no-deps mujoco==3.3.2 numpy==1.26.4 \
        absl-py==2.5.1 etils==1.15.0 fsspec==2026.9.0 glfw==2.11.0 PyOpenGL==3.1.10 \
        typing_extensions==4.16.0 zipp==4.1.2 imageio==2.37.0 pillow==13.0.0 \
        packaging==26.4 cloudpickle==3.1.1 Farama-Notifications==0.0.4
    .cache/venv-fetch-332/bin/python tests/golden/visgym/fetch.py --ref .cache/visgym-ref \
        --compare-with tests/golden/visgym/fetch_reach.json.gz \
        --compare-with tests/golden/visgym/fetch_pick_and_place.json.gz

replays each file's actions and prints, per episode, the largest |Δ| of qpos/qvel at the reset
and over the steps, where the solve() plans first differ, and which outcomes differ (numpy
1.26.4 is the reference's own pin).
"""

import argparse
import gzip
import json
import os
import platform
import random
import sys
import time
import types

assert sys.version_info[:2] == (3, 11), "generate with CPython 3.11"

HERE = os.path.dirname(os.path.abspath(__file__))
COMMIT = "0289034b0cefa6fbbad27f7dd8c01545df324afd"
MUJOCO = "3.14.0"

# docs/fetch-reference.md §1.2 (identical for easy and hard).
EVAL_KWARGS = dict(
    reward_type="sparse", render_mode="rgb_array", use_follow_camera=True,
    follow_cam_azimuth=200.0, follow_cam_elevation=-65.0, follow_cam_distance=0.36,
    camera_default_distance=1.75,
)
CLASSES = {
    "fetch_reach": ("gymnasium_robotics.envs.fetch.reach_discrete", "MujocoFetchReachDiscreteEnv"),
    "fetch_pick_and_place": ("gymnasium_robotics.envs.fetch.pick_and_place_discrete",
                             "MujocoFetchPickAndPlaceDiscreteEnv"),
}
STOP = "('stop', 'stop')"
MOVES = [str(("move", [x, y, z])) for x in (-1, 0, 1) for y in (-1, 0, 1) for z in (-1, 0, 1)]


def random_actions(n, gripper):
    """n valid actions from a fixed generator (moves, and for Pick-and-Place also
    grippers, a quarter of the time), then the stop."""
    rng = random.Random(7)
    out = []
    for _ in range(n):
        if gripper and rng.random() < 0.25:
            out.append(str(("gripper", rng.randrange(2))))
        else:
            out.append(rng.choice(MOVES))
    return out + [STOP]


# Every validation path of docs/fetch-reference.md §2.1-2.2, then valid moves.
REACH_CHECKS = [
    "move [1,0,0]",                      # parse error
    "",                                  # parse error, another message
    "['move', [1, 0, 0]]",               # not a tuple
    "('move',)",                         # 1-tuple
    "('move', [1, 0, 0], 1)",            # 3-tuple
    "('jump', 1)",                       # unknown name
    "(1, 2)",                            # unknown name, not a string
    "('gripper', 1)",                    # unknown on Reach
    "('move', [2, 0, 0])",               # out of the box
    "('move', (0.5, '1', True))",        # executes: numeric string and bool
    "('move', [1.00000001, 0, 0])",      # executes: rounds to 1.0 in float32
    "('move', [1.0000001, 0, 0])",       # rejected
    "('move', [0, 0])",                  # wrong shape
    "('move', [None, 0, 0])",            # NaN
    "('move', 1)",                       # scalar
    "('stop', 'stopp')",                 # too long for Text(4)
    "('stop', '')",                      # too short
    "('move', [-1, 0, 1])",
    "('move', [0, 1, -1])",
    "('move', [0.25, -0.5, 0])",
    "('move', [0, 0, 0])",
    "('move', [-1, -1, -1])",
    "('move', [1, 1, 0.75])",
    STOP,
]
PICK_CHECKS = [
    "('gripper', 0)",                    # open
    "('gripper', 1)",                    # close
    "('gripper', True)",                 # close (bool is an int)
    "('gripper', 1.0)",                  # rejected
    "('gripper', 2)",                    # rejected
    "('gripper', '1')",                  # rejected
    "('gripper', False)",                # open
    *["('move', [0, 0, -1])"] * 6,       # down into the table
    "('move', [1, 0, 0])",
    "('gripper', 1)",
    "('move', [0, -1, 1])",
    "('gripper', 0",                     # parse error
    "('grab', 1)",                       # unknown name
    "('stop', 'halt!')",                 # rejected stop
    STOP,
]
EPISODES = {
    # (seed or None = reset() continuing the generator, actions: a list, "solve" = the plan
    # solve() returns right after this reset, or n = its first n actions and the stop)
    "fetch_reach": [(0, "solve"), (1, "solve"), (2, "solve"), (3, "solve"), (5, REACH_CHECKS),
                    (None, random_actions(8, False)),
                    (2**40 + 3, ["('move', [1, 0, 0])", "('move', [0, -1, 1])", "('move', [-1, 1, -1])", STOP])],
    # Seed 2's grasp misses (the fingers push the cube away) and its plan runs to
    # solve()'s limit: 1000 actions and the stop; its first 40 are played.
    "fetch_pick_and_place": [(0, "solve"), (1, "solve"), (2, 40), (3, "solve"), (4, PICK_CHECKS),
                             (None, random_actions(10, True))],
}


# ----- the reference on this mujoco --------------------------------------------------------


def import_reference(ref, render):
    """Puts the reference on the path, with the two shims this setup needs."""
    if render:
        os.environ["MUJOCO_GL"] = "egl"
    sys.path[:0] = [os.path.abspath(ref), os.path.join(os.path.abspath(ref), "Gymnasium-Robotics")]
    import mujoco
    import numpy as np

    import gymnasium  # noqa: F401 - the fork, before gymnasium_robotics imports it
    from gymnasium.envs.mujoco import mujoco_rendering
    from gymnasium_robotics.utils import mujoco_utils

    # gymnasium-robotics tests `jnt_type in (mjJNT_HINGE, mjJNT_SLIDE)`; with mujoco 3.14.0
    # an enum member on the left of == does not equal a numpy integer, so that fails for
    # every joint. Its helper module gets plain integers for mjtJoint (as in
    # scripts/mujoco-eval/native.py); with 3.3.2 this is not needed and not done.
    if mujoco.mjtJoint.mjJNT_SLIDE != np.int32(int(mujoco.mjtJoint.mjJNT_SLIDE)):
        joints = types.SimpleNamespace(**{n: int(v) for n, v in mujoco.mjtJoint.__members__.items()})
        mujoco_utils.mujoco = proxy(mujoco, {"mjtJoint": joints})
    if not render:
        # The viewer class runs as written; only the GL context and the mjr_* calls (draw,
        # read back) do nothing, so the frame stays the zeros the viewer allocates.
        def nothing(*args):
            return None

        gl = {n: nothing for n in ("MjrContext", "mjr_setBuffer", "mjr_render", "mjr_overlay", "mjr_readPixels")}
        mujoco_rendering.mujoco = proxy(mujoco, gl)
        context = types.SimpleNamespace(make_current=nothing, free=nothing)
        mujoco_rendering._ALL_RENDERERS = {"none": lambda width, height: context}
        os.environ["MUJOCO_GL"] = "none"
    return mujoco, np


def proxy(module, replaced):
    class Proxy(types.ModuleType):
        def __getattr__(self, name):
            return replaced[name] if name in replaced else getattr(module, name)

    return Proxy(module.__name__)


def make_env(name):
    import importlib

    mod, cls = CLASSES[name]
    env = getattr(importlib.import_module(mod), cls)(**EVAL_KWARGS)
    # The follow view's lookat lives only in the viewer's camera between the follow render
    # and the next front render (docs/fetch-reference.md §4.1); keep a copy at each render.
    follow = env._render_follow_camera
    env.follow_lookat = None

    def follow_and_keep():
        img = follow()
        env.follow_lookat = env.mujoco_renderer.viewer.cam.lookat.tolist()
        return img

    env._render_follow_camera = follow_and_keep
    return env


def floats(a):
    return [float(x) for x in a.ravel()]


def construction(env, mujoco):
    m, h = env.model, getattr(env, "height_offset", None)
    return {
        "initial_time": float(env.initial_time),
        "initial_qpos": floats(env.initial_qpos),
        "initial_qvel": floats(env.initial_qvel),
        "initial_gripper_xpos": floats(env.initial_gripper_xpos),
        "height_offset": None if h is None else float(h),
        "eq_data": floats(m.eq_data),
        "nq": int(m.nq), "nv": int(m.nv), "nu": int(m.nu),
    }


def state(env, obs, mujoco):
    m, d = env.model, env.data
    target = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_SITE, "target0")
    cam = env.mujoco_renderer.default_cam_config
    s = {
        "time": float(d.time),
        "qpos": floats(d.qpos), "qvel": floats(d.qvel), "ctrl": floats(d.ctrl),
        "mocap_pos": floats(d.mocap_pos), "mocap_quat": floats(d.mocap_quat),
        "qacc_warmstart": floats(d.qacc_warmstart),
        "goal": floats(env.goal),
        "observation": floats(obs["observation"]),
        "achieved_goal": floats(obs["achieved_goal"]),
        "desired_goal": floats(obs["desired_goal"]),
        "site_pos_target0": floats(m.site_pos[target]),
        "camera": {"azimuth": float(cam["azimuth"]), "elevation": float(cam["elevation"]),
                   "distance": float(cam["distance"]), "lookat": [float(x) for x in cam["lookat"]]},
        "follow_lookat": env.follow_lookat,
        "gripper_bias": float(env._gripper_bias) if hasattr(env, "_gripper_bias") else None,
    }
    return s


def run_episode(env, mujoco, seed, actions):
    """reset(seed), solve(), reset(seed) again (solve leaves qacc_warmstart and, in
    Pick-and-Place, env_feedback changed: docs/fetch-reference.md §7), then the steps."""
    plan = None
    if seed is None:
        obs, _ = env.reset()
    else:
        env.reset(seed=seed)
        plan = env.solve()
        obs, _ = env.reset(seed=seed)
    episode = {"seed": seed, "reset": state(env, obs, mujoco), "solve": plan, "steps": []}
    if actions == "solve" or isinstance(actions, int):
        actions = plan if actions == "solve" else plan[:actions] + [STOP]
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        episode["steps"].append({
            "action": action,
            "reward": float(reward),
            "terminated": bool(terminated),
            "truncated": bool(truncated),
            "feedback": info.get("env_feedback"),
            "is_success": float(info["is_success"]),
            "distance_to_goal": float(info["distance_to_goal"]),
            "state": state(env, obs, mujoco),
        })
    return episode


def generate(name, mujoco, np, episodes):
    env = make_env(name)
    data = {
        "reference": {"repo": "visgym/VisGym", "commit": COMMIT, "mujoco": mujoco.__version__,
                      "numpy": np.__version__, "python": platform.python_version()},
        # "name": the environment; "envs": the registered ids the file covers (both levels
        # are the same environment).
        "name": name,
        "envs": [f"{name}/easy", f"{name}/hard"],
        "construction": construction(env, mujoco),
        "prompt": env.get_prompt(),
        "episodes": [run_episode(env, mujoco, seed, actions) for seed, actions in episodes],
    }
    env.close()
    return data


def write(path, data):
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    with open(path, "wb") as f:
        f.write(gzip.compress(raw, 9, mtime=0))  # mtime=0: byte-identical across runs
    print(f"{os.path.basename(path)}: {len(raw)} bytes JSON, {os.path.getsize(path)} gzipped")


# ----- another mujoco against a written file ------------------------------------------------


def compare(path, mujoco, np):
    """Replays the file's episodes (its actions, not this run's plans) and prints how far
    this mujoco's states are from the file's: per episode the largest |Δ| of qpos and qvel
    at the reset and over the steps, where plans first differ, which outcomes differ."""
    with gzip.open(path, "rt") as f:
        gold = json.load(f)
    episodes = [(e["seed"], [t["action"] for t in e["steps"]]) for e in gold["episodes"]]
    t0 = time.perf_counter()
    ours = generate(gold["name"], mujoco, np, episodes)

    def delta(states_a, states_b):
        return [max((abs(x - y) for a, b in zip(states_a, states_b) for x, y in zip(a[k], b[k])), default=0.0)
                for k in ("qpos", "qvel")]

    rows, outcomes = [], []
    for ea, eb in zip(gold["episodes"], ours["episodes"]):
        row = {"seed": ea["seed"], "steps": len(ea["steps"]), "reset_qpos_qvel": delta([ea["reset"]], [eb["reset"]]),
               "steps_qpos_qvel": delta([t["state"] for t in ea["steps"]], [t["state"] for t in eb["steps"]])}
        pa, pb = ea["solve"] or [], eb["solve"] or []
        if pa != pb:
            i = next((i for i, (x, y) in enumerate(zip(pa, pb)) if x != y), min(len(pa), len(pb)))
            row["plan_differs"] = {"lengths": [len(pa), len(pb)], "first_at": i,
                                   "actions": [pa[i:i + 1], pb[i:i + 1]]}
        rows.append(row)
        for i, (ta, tb) in enumerate(zip(ea["steps"], eb["steps"])):
            keys = [k for k in ("reward", "is_success", "terminated", "feedback") if ta[k] != tb[k]]
            if keys:
                outcomes.append({"seed": ea["seed"], "step": i + 1, **{k: [ta[k], tb[k]] for k in keys},
                                 "distance_to_goal": [ta["distance_to_goal"], tb["distance_to_goal"]]})
    ca, cb = gold["construction"], ours["construction"]
    print(json.dumps({
        "file": os.path.basename(path), "file_mujoco": gold["reference"]["mujoco"],
        "this_mujoco": mujoco.__version__, "numpy": np.__version__,
        "construction_qpos_qvel": delta([{"qpos": ca["initial_qpos"], "qvel": ca["initial_qvel"]}],
                                        [{"qpos": cb["initial_qpos"], "qvel": cb["initial_qvel"]}]),
        "initial_gripper_xpos": delta([{"qpos": ca["initial_gripper_xpos"], "qvel": []}],
                                      [{"qpos": cb["initial_gripper_xpos"], "qvel": []}])[0],
        "max_qpos_qvel": [max(r["steps_qpos_qvel"][k] for r in rows) for k in (0, 1)],
        "episodes": rows, "outcome_differences": outcomes,
        "seconds": round(time.perf_counter() - t0, 1),
    }))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default=".cache/visgym-ref", help="VisGym checkout or export")
    ap.add_argument("--render", action="store_true", help="draw the frames (EGL) instead of skipping them")
    ap.add_argument("--out", default=HERE, help="output folder")
    ap.add_argument("--only", default="", help="fetch_reach or fetch_pick_and_place")
    ap.add_argument("--compare-with", action="append", default=[], metavar="FILE",
                    help="replay a written file on this mujoco and print the differences")
    args = ap.parse_args()
    mujoco, np = import_reference(args.ref, args.render)
    if args.compare_with:
        for path in args.compare_with:
            compare(path, mujoco, np)
        return
    assert mujoco.__version__ == MUJOCO, f"golden data come from mujoco {MUJOCO}"
    for name in [args.only] if args.only else EPISODES:
        t0 = time.perf_counter()
        data = generate(name, mujoco, np, EPISODES[name])
        write(os.path.join(args.out, name + ".json.gz"), data)
        print(f"{name}: {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    os._exit(0)  # an EGL context's destructor can fail at interpreter exit

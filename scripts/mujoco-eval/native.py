#!/usr/bin/env python3
"""Native half of the MuJoCo evaluation (docs/physics-engine.md).

Runs one Fetch task of gymnasium-robotics twice, step for step, on the same seed and
the same 200 actions:

  * through the reference environment (gymnasium.make("FetchReach-v4"), or
    FetchPickAndPlace-v4), and
  * through a plain `mujoco` loop on the task's MJCF loaded directly, with the same
    action -> mocap/ctrl mapping written out here (so the browser half can repeat it),

and prints JSON: versions, the initial state (time, qpos, qvel, eq_data) the browser
half copies, the actions, a SHA-256 of the qpos+qvel float64 bytes after every env
step for both paths, the raw values, steps/s of raw mj_step and of the env step, and
the time to render one 480x480 offscreen frame per camera (EGL, software here).

Run from the repository root:

    python3 scripts/mujoco-eval/native.py [--task reach|pick] [--steps 200] [--seed 0]
                                          [--repeats 3] [--policy random|scripted]
                                          [--no-render] [--out FILE]

It makes `.cache/venv-mujoco` (pinned mujoco and gymnasium-robotics) when missing and
re-runs itself inside it (MUJOCO_PIP_VERSION=X: another mujoco release, in its own
venv). The whole JSON goes to --out, by default .cache/mujoco-eval/native-<task>.json;
stdout gets a summary.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT_DIR = os.path.join(ROOT, ".cache", "mujoco-eval")
# The same release as the npm module @mujoco/mujoco@3.14.0 (browser.mjs).
# MUJOCO_PIP_VERSION=X compares another release (in its own .cache/venv-mujoco-X).
DEFAULT_MUJOCO = "3.14.0"
MUJOCO_VERSION = os.environ.get("MUJOCO_PIP_VERSION", DEFAULT_MUJOCO)
VENV = os.path.join(ROOT, ".cache", "venv-mujoco" + ("" if MUJOCO_VERSION == DEFAULT_MUJOCO else f"-{MUJOCO_VERSION}"))
PINS = [f"mujoco=={MUJOCO_VERSION}", "gymnasium-robotics==1.4.2", "gymnasium==1.4.0", "numpy==2.4.6"]

TASKS = {
    # env id, MJCF file (relative to gymnasium_robotics/envs/assets), gripper blocked
    "reach": ("FetchReach-v4", "fetch/reach.xml", True),
    "pick": ("FetchPickAndPlace-v4", "fetch/pick_and_place.xml", False),
}
GRIPPER_QUAT_DELTA = (1.0, 0.0, 1.0, 0.0)  # what the Fetch env adds to the mocap quaternion
MOVE_SCALE = 0.05  # metres per unit of action, applied in float32 as the env does
CAMERAS = ("head_camera_rgb", "external_camera_0")


def log(msg):
    print(f"[native] {msg}", file=sys.stderr, flush=True)


def ensure_venv():
    """Re-executes this script inside .cache/venv-mujoco, making it when missing."""
    py = os.path.join(VENV, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    stamp = os.path.join(VENV, "mujoco-eval-pins.txt")
    want = "\n".join(PINS) + "\n"
    have = open(stamp).read() if os.path.exists(stamp) else None
    if have != want:
        log(f"installing {' '.join(PINS)} into {os.path.relpath(VENV, ROOT)}")
        if not os.path.exists(py):
            subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q", *PINS], check=True)
        with open(stamp, "w") as f:
            f.write(want)
    os.execv(py, [py, os.path.abspath(__file__), *sys.argv[1:]])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--task", choices=sorted(TASKS), default="reach")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=3, help="timed repetitions of the episode")
    ap.add_argument("--policy", choices=("random", "scripted"),
                    help="random actions from a seeded generator (default for reach), or a "
                         "scripted grasp-and-lift that drives contacts (default for pick)")
    ap.add_argument("--no-render", action="store_true")
    ap.add_argument("--out")
    args = ap.parse_args()
    ensure_venv()
    policy = args.policy or ("scripted" if args.task == "pick" else "random")
    # EGL works headless with Mesa's software renderer; must be set before mujoco loads.
    os.environ.setdefault("MUJOCO_GL", "egl")

    from importlib import metadata

    import gymnasium as gym
    import gymnasium_robotics
    import mujoco
    import numpy as np

    compat_patch = patch_joint_enums(mujoco, np)
    env_id, xml_rel, block_gripper = TASKS[args.task]
    assets = os.path.join(os.path.dirname(gymnasium_robotics.__file__), "envs", "assets")
    actions = np.random.default_rng(args.seed).uniform(-1.0, 1.0, (args.steps, 4)).astype(np.float32)

    def state_bytes(d):
        return np.concatenate([d.qpos, d.qvel]).astype("<f8").tobytes()

    # ---- the reference environment -------------------------------------------------
    gym.register_envs(gymnasium_robotics)
    t = time.perf_counter()
    env = gym.make(env_id, max_episode_steps=args.steps)
    raw_env = env.unwrapped
    make_s = time.perf_counter() - t
    obs, _ = env.reset(seed=args.seed)
    m_env, d_env = raw_env.model, raw_env.data
    n_substeps = raw_env.n_substeps
    init = {
        "time": float(d_env.time),
        "qpos": d_env.qpos.tolist(),
        "qvel": d_env.qvel.tolist(),
        "eq_data": m_env.eq_data.ravel().tolist(),
    }
    env_hashes, env_states, phase, trace = [], [], {}, []
    for i in range(args.steps):
        if policy == "scripted":
            actions[i] = scripted_action(obs, phase)
            trace.append(phase["p"])
        a = actions[i]
        obs, *_ = raw_env.step(a.copy())
        b = state_bytes(d_env)
        env_hashes.append(hashlib.sha256(b).hexdigest())
        env_states.append(np.frombuffer(b, "<f8").tolist())

    # ---- the same episode on the MJCF loaded directly -------------------------------
    xml_path = os.path.join(assets, xml_rel)
    t = time.perf_counter()
    m = mujoco.MjModel.from_xml_path(xml_path)
    load_s = time.perf_counter() - t
    d = mujoco.MjData(m)
    m.eq_data[:] = np.asarray(init["eq_data"]).reshape(m.eq_data.shape)

    weld = [
        (m.body_mocapid[b1], b2) if m.body_mocapid[b1] >= 0 else (m.body_mocapid[b2], b1)
        for t_, b1, b2 in zip(m.eq_type, m.eq_obj1id, m.eq_obj2id)
        if t_ == mujoco.mjtEq.mjEQ_WELD
    ]
    fingers = [
        m.jnt_qposadr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, n)]
        for n in ("robot0:l_gripper_finger_joint", "robot0:r_gripper_finger_joint")
    ]
    act_qadr = [m.jnt_qposadr[m.actuator_trnid[i, 0]] for i in range(m.nu)]
    quat_delta = np.array(GRIPPER_QUAT_DELTA)
    scale32 = np.float32(MOVE_SCALE)

    def reset():
        mujoco.mj_resetData(m, d)
        d.time = init["time"]
        d.qpos[:] = init["qpos"]
        d.qvel[:] = init["qvel"]
        mujoco.mj_forward(m, d)

    def apply_action(a):
        """The Fetch mapping: mocap = welded body pose + (0.05 * move, fixed quat delta);
        position actuators get qpos + gripper; a blocked gripper gets 0."""
        a = np.clip(a, np.float32(-1.0), np.float32(1.0))
        delta = (a[:3] * scale32).astype(np.float64)
        g = 0.0 if block_gripper else float(a[3])
        for i in range(m.nu):
            d.ctrl[i] = g if m.actuator_biastype[i] == 0 else d.qpos[act_qadr[i]] + g
        for mocap, body in weld:
            d.mocap_pos[mocap] = d.xpos[body] + delta
            d.mocap_quat[mocap] = d.xquat[body] + quat_delta

    def after_step():
        if block_gripper:
            for q in fingers:
                d.qpos[q] = 0.0
            mujoco.mj_forward(m, d)

    reset()
    reset_qacc = d.qacc.tolist()  # one mj_forward on identical inputs
    direct_hashes, direct_states = [], []
    for a in actions:
        apply_action(a)
        mujoco.mj_step(m, d, nstep=n_substeps)
        after_step()
        b = state_bytes(d)
        direct_hashes.append(hashlib.sha256(b).hexdigest())
        direct_states.append(np.frombuffer(b, "<f8").tolist())
    first_diff = next((i for i, (x, y) in enumerate(zip(env_hashes, direct_hashes)) if x != y), None)

    # ---- timing (after the recorded runs, so hashing stays out of it) ----------------
    runs = []
    for _ in range(args.repeats):
        reset()
        step_s = 0.0
        t0 = time.perf_counter()
        for a in actions:
            apply_action(a)
            t = time.perf_counter()
            mujoco.mj_step(m, d, nstep=n_substeps)
            step_s += time.perf_counter() - t
            after_step()
        episode_s = time.perf_counter() - t0
        env.reset(seed=args.seed)
        t = time.perf_counter()
        for a in actions:
            raw_env.step(a)
        gym_s = time.perf_counter() - t
        runs.append({
            "mj_step_per_s": round(args.steps * n_substeps / step_s),
            "direct_env_steps_per_s": round(args.steps / episode_s),
            "gym_env_steps_per_s": round(args.steps / gym_s),
        })

    # ---- one 480x480 frame per camera -----------------------------------------------
    render = {"backend": os.environ.get("MUJOCO_GL")}
    if args.no_render:
        render["skipped"] = True
    else:
        try:
            m.vis.global_.offwidth = max(m.vis.global_.offwidth, 480)
            m.vis.global_.offheight = max(m.vis.global_.offheight, 480)
            renderer = mujoco.Renderer(m, 480, 480)
            try:
                from OpenGL import GL
                render["gl_renderer"] = GL.glGetString(GL.GL_RENDERER).decode()
            except Exception as e:  # noqa: BLE001
                render["gl_renderer"] = f"unknown ({e})"
            per_cam = {}
            for cam in CAMERAS:
                times = []
                for _ in range(5):
                    t = time.perf_counter()
                    renderer.update_scene(d, camera=cam)
                    px = renderer.render()
                    times.append(time.perf_counter() - t)
                per_cam[cam] = {"first_ms": round(times[0] * 1e3, 2),
                                "best_ms": round(min(times[1:]) * 1e3, 2),
                                "mean_rgb": round(float(px.mean()), 2)}
            render["frame_480"] = per_cam
            renderer.close()
        except Exception as e:  # noqa: BLE001
            render["error"] = f"{type(e).__name__}: {e}"

    out = {
        "side": "native",
        "task": args.task,
        "env_id": env_id,
        "gymnasium_robotics_enum_patch": compat_patch,
        "versions": {p: metadata.version(p) for p in ("mujoco", "gymnasium-robotics", "gymnasium", "numpy")}
        | {"mj_versionString": mujoco.mj_versionString(), "python": sys.version.split()[0]},
        "assets_dir": assets,
        "xml": xml_rel,
        "asset_files": sorted(
            os.path.relpath(os.path.join(dp, f), assets)
            for sub in ("fetch", "stls/fetch", "textures")
            for dp, _, fs in os.walk(os.path.join(assets, sub))
            for f in fs
        ),
        "seed": args.seed,
        "policy": policy,
        "scripted_phases": trace,
        "final_object_pos": obs["observation"][3:6].tolist() if args.task == "pick" else None,
        "final_goal": obs["desired_goal"].tolist(),
        "steps": args.steps,
        "n_substeps": int(n_substeps),
        "timestep": float(m.opt.timestep),
        "block_gripper": block_gripper,
        "sizes": {"nq": m.nq, "nv": m.nv, "nu": m.nu, "nmocap": m.nmocap, "neq": m.neq, "nbody": m.nbody},
        "model_fingerprint": model_fingerprint(m),
        "init": init,
        "actions": actions.astype(np.float64).tolist(),
        "load_model_ms": round(load_s * 1e3, 2),
        "gym_make_ms": round(make_s * 1e3, 2),
        "env_vs_direct_first_divergent_step": first_diff,
        "reset_qacc": reset_qacc,
        "env_hashes": env_hashes,
        "direct_hashes": direct_hashes,
        "env_states": env_states,
        "direct_states": direct_states,
        "timing_runs": runs,
        "render": render,
    }
    env.close()
    text = json.dumps(out)
    path = args.out or os.path.join(OUT_DIR, f"native-{args.task}.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    log(f"wrote {os.path.relpath(path, ROOT)}")
    summary = {k: out[k] for k in ("task", "versions", "sizes", "load_model_ms", "gym_make_ms",
                                   "env_vs_direct_first_divergent_step", "timing_runs", "render")}
    summary["final_hash"] = direct_hashes[-1]
    print(json.dumps(summary, indent=1))
    sys.stdout.flush()
    os._exit(0)  # skips the EGL context's destructor, which fails at interpreter exit


def patch_joint_enums(mujoco, np):
    """gymnasium-robotics 1.4.2 asserts `model.jnt_type[j] in (mjJNT_HINGE, mjJNT_SLIDE)`;
    with newer mujoco wheels (3.14.0) an enum member no longer equals a numpy integer when
    it is on the left of ==, so that assertion fails for every joint. Give its helper
    module plain integers for mjtJoint (the only change; returns whether it was needed)."""
    import types

    from gymnasium_robotics.utils import mujoco_utils

    if mujoco.mjtJoint.mjJNT_SLIDE == np.int32(int(mujoco.mjtJoint.mjJNT_SLIDE)):
        return False
    joints = types.SimpleNamespace(**{n: int(v) for n, v in mujoco.mjtJoint.__members__.items()})

    class MujocoWithIntJoints(types.ModuleType):
        def __getattr__(self, name):
            return joints if name == "mjtJoint" else getattr(mujoco, name)

    mujoco_utils.mujoco = MujocoWithIntJoints("mujoco")
    return True


def scripted_action(obs, phase):
    """Grasp and lift: over the object with the gripper open, down, close for 10 steps,
    then towards the goal (gripper: +1 opens, -1 closes). `phase` is a dict kept across
    steps. Only used to record a sequence of actions that makes contacts."""
    import numpy as np

    o = obs["observation"]
    grip, obj, goal = o[0:3], o[3:6], obs["desired_goal"]
    above = obj + np.array([0.0, 0.0, 0.08])
    p = phase.setdefault("p", 0)
    if p == 0 and np.linalg.norm(grip - above) < 0.01:
        p = 1
    elif p == 1 and np.linalg.norm(grip - obj) < 0.01:
        p, phase["closed_at"] = 2, phase["n"]
    elif p == 2 and phase["n"] - phase["closed_at"] >= 10:
        p = 3
    phase["p"], phase["n"] = p, phase.get("n", 0) + 1
    target, g = ((above, 1.0), (obj, 1.0), (obj, -1.0), (goal, -1.0))[p]
    move = np.clip((target - grip) * 10.0, -1.0, 1.0)
    return np.array([*move, g], dtype=np.float32)


def model_fingerprint(m):
    """SHA-256 of compiled model arrays, to see whether two builds compile the MJCF alike."""
    import hashlib

    import numpy as np

    names = ("body_mass", "body_inertia", "body_ipos", "body_iquat", "body_pos", "body_quat",
             "geom_size", "geom_pos", "geom_quat", "geom_rbound", "mesh_vert", "dof_armature",
             "dof_damping", "eq_data", "jnt_range")
    return {n: hashlib.sha256(np.ascontiguousarray(getattr(m, n), dtype="<f8").tobytes()).hexdigest()[:16]
            for n in names}


if __name__ == "__main__":
    main()

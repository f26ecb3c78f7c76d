"""Steps and frames per second of the Gymnasium, MiniGrid, third-party (tetris-gymnasium,
flappy-bird-gymnasium, highway-env) and Atari (ale-py) references, timed the way
`tests/src/bench.rs` times ours: through `gym.make`, uniformly random actions, resets
included in the time, and for frames an `rgb_array` render after every step. A case
with "reference": "ale_act" (the Atari emulation cases) is timed through ALE's own interface
instead: `ale.act` with a random action of the minimal set, one frame a call, a reset at
game over, and for frames `getScreenRGB` after every call -- ALE's C++ core with no
Gymnasium step around each frame. Steps are timed on an
environment made without a render mode: highway-env draws the frames between policy
steps when it has one, which would make its steps look slower than they are. Tetris
draws its `rgb_array` frame through the package's RgbObservation wrapper, as the golden
data does (tests/golden/thirdparty/generate.py).

Run by `cargo run --release -p playbench-tests --bin bench -- --reference`, which makes
the virtual environment (`.cache/venv-reference`: gymnasium 1.4.0, minigrid 3.2.0,
numpy 2.4.6, pygame 2.6.1, the third-party packages as the golden data pins them,
ale-py 0.12.1 with the ROMs its wheel carries).
Reads on standard input

    {"seconds": S, "cases": [{"name": ..., "env": ..., "kwargs": {...}, "reference": ...}, ...]}

and prints a first line with the versions, then one JSON line per case:
{"env": name, "steps_per_s": ..., "frames_per_s": ...}. A case that fails prints its
error on standard error and is left out.
"""

import json
import os
import sys
import time
from importlib import metadata

import warnings

import ale_py
import flappy_bird_gymnasium  # noqa: F401  (registers FlappyBird-v0)
import gymnasium as gym
import highway_env
import minigrid
import numpy as np
import tetris_gymnasium.envs  # noqa: F401  (registers tetris_gymnasium/Tetris)
from tetris_gymnasium.wrappers.observation import RgbObservation

sys.path.append(os.path.dirname(os.path.abspath(__file__)))
from speed_job import report, steps_per_second  # noqa: E402

gym.register_envs(highway_env)
gym.register_envs(ale_py)

THIRD_PARTY = ["tetris-gymnasium", "flappy-bird-gymnasium", "highway-env", "ale-py"]


def rate(env, seconds, render, f64_action):
    """Steps per second of `env`; `render` is None or the frame-drawing call."""
    env.reset(seed=0)
    env.action_space.seed(0)

    def step():
        action = env.action_space.sample()
        if f64_action:
            action = action.astype(np.float64)
        _, _, terminated, truncated, _ = env.step(action)
        if render is not None:
            render()
        if terminated or truncated:
            env.reset()

    return steps_per_second(step, seconds)


def ale_rate(env, seconds, render):
    """Frames per second of ALE's `act` on `env`'s emulator (frame skip 1)."""
    env.reset(seed=0)
    ale = env.unwrapped.ale
    actions = ale.getMinimalActionSet()
    rng = np.random.default_rng(0)
    frames = 0
    start = time.perf_counter()
    while True:
        for a in rng.integers(len(actions), size=64):
            ale.act(actions[a])
            if render:
                ale.getScreenRGB()
            if ale.game_over():
                ale.reset_game()
            frames += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return frames / elapsed


def ale_case(case, seconds):
    env = gym.make(case["env"], **case["kwargs"])
    ale_rate(env, 0.05, True)
    steps = ale_rate(env, seconds, False)
    frames = ale_rate(env, seconds, True)
    env.close()
    return steps, frames


def gym_case(case, seconds):
    kwargs = dict(case["kwargs"])
    # Our kwarg: the reference takes the torque in whatever dtype it is given.
    f64_action = kwargs.pop("action_dtype", None) == "float64"
    plain = gym.make(case["env"], **kwargs)
    drawn = gym.make(case["env"], render_mode="rgb_array", **kwargs)
    render = RgbObservation(drawn).render if case["env"].startswith("tetris") else drawn.render
    # Untimed: first calls load modules, fonts and caches.
    rate(drawn, 0.05, render, f64_action)
    rate(plain, 0.05, None, f64_action)
    steps = rate(plain, seconds, None, f64_action)
    frames = rate(drawn, seconds, render, f64_action)
    plain.close()
    drawn.close()
    return steps, frames


def main():
    warnings.filterwarnings("ignore")
    job = json.load(sys.stdin)
    print(
        json.dumps(
            {
                "versions": {
                    "python": sys.version.split()[0],
                    "gymnasium": gym.__version__,
                    "minigrid": minigrid.__version__,
                    "numpy": np.__version__,
                    **{p: metadata.version(p) for p in THIRD_PARTY},
                }
            }
        ),
        flush=True,
    )
    measures = {"gym": gym_case, "ale_act": ale_case}
    report(job["cases"], lambda case: measures[case["reference"]](case, job["seconds"]))

if __name__ == "__main__":
    main()

"""Steps and frames per second of the Gymnasium, MiniGrid and third-party references
(tetris-gymnasium, flappy-bird-gymnasium, highway-env), timed the way `tests/src/bench.rs`
times ours: through `gym.make`, uniformly random actions, resets included in the time,
and for frames an `rgb_array` render after every step. Steps are timed on an
environment made without a render mode: highway-env draws the frames between policy
steps when it has one, which would make its steps look slower than they are. Tetris
draws its `rgb_array` frame through the package's RgbObservation wrapper, as the golden
data does (tests/golden/thirdparty/generate.py).

Run by `cargo run --release -p playbench-tests --bin bench -- --reference`, which makes
the virtual environment (`.cache/venv-reference`: gymnasium 1.4.0, minigrid 3.2.0,
numpy 2.4.6, pygame 2.6.1, the third-party packages as the golden data pins them).
Reads on standard input

    {"seconds": S, "cases": [{"name": ..., "env": ..., "kwargs": {...}}, ...]}

and prints a first line with the versions, then one JSON line per case:
{"env": name, "steps_per_s": ..., "frames_per_s": ...}. A case that fails prints its
error on standard error and is left out.
"""

import json
import sys
import time
from importlib import metadata

import warnings

import flappy_bird_gymnasium  # noqa: F401  (registers FlappyBird-v0)
import gymnasium as gym
import highway_env
import minigrid
import numpy as np
import tetris_gymnasium.envs  # noqa: F401  (registers tetris_gymnasium/Tetris)
from tetris_gymnasium.wrappers.observation import RgbObservation

gym.register_envs(highway_env)

THIRD_PARTY = ["tetris-gymnasium", "flappy-bird-gymnasium", "highway-env"]


def rate(env, seconds, render, f64_action):
    """Steps per second of `env`; `render` is None or the frame-drawing call."""
    env.reset(seed=0)
    env.action_space.seed(0)
    steps = 0
    block = 1
    start = time.perf_counter()
    while True:
        # Read the clock every 64 steps, as ours does, once 64 steps take well under the
        # time given (a highway-env step takes a good part of a second).
        for _ in range(block):
            action = env.action_space.sample()
            if f64_action:
                action = action.astype(np.float64)
            _, _, terminated, truncated, _ = env.step(action)
            if render is not None:
                render()
            if terminated or truncated:
                env.reset()
            steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed
        if block == 1 and steps >= 64 and 64 * elapsed / steps < seconds / 8:
            block = 64


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
    for case in job["cases"]:
        kwargs = dict(case["kwargs"])
        # Our kwarg: the reference takes the torque in whatever dtype it is given.
        f64_action = kwargs.pop("action_dtype", None) == "float64"
        try:
            plain = gym.make(case["env"], **kwargs)
            drawn = gym.make(case["env"], render_mode="rgb_array", **kwargs)
            render = RgbObservation(drawn).render if case["env"].startswith("tetris") else drawn.render
            # Untimed: first calls load modules, fonts and caches.
            rate(drawn, 0.05, render, f64_action)
            rate(plain, 0.05, None, f64_action)
            steps = rate(plain, job["seconds"], None, f64_action)
            frames = rate(drawn, job["seconds"], render, f64_action)
            plain.close()
            drawn.close()
        except Exception as e:  # one broken case must not hide the others
            print(f"{case['name']}: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        print(
            json.dumps(
                {"env": case["name"], "steps_per_s": steps, "frames_per_s": frames}
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()

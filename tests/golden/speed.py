"""Steps and frames per second of the Gymnasium and MiniGrid references, timed the way
`tests/src/bench.rs` times ours: through `gym.make`, uniformly random actions, resets
included in the time, and for frames an `rgb_array` render after every step.

Run by `cargo run --release -p playbench-tests --bin bench -- --reference`, which makes
the virtual environment (`.cache/venv-reference`: gymnasium 1.4.0, minigrid 3.2.0,
numpy 2.4.6, pygame 2.6.1). Reads on standard input

    {"seconds": S, "cases": [{"name": ..., "env": ..., "kwargs": {...}}, ...]}

and prints a first line with the versions, then one JSON line per case:
{"env": name, "steps_per_s": ..., "frames_per_s": ...}. A case that fails prints its
error on standard error and is left out.
"""

import json
import sys
import time

import gymnasium as gym
import minigrid
import numpy as np


def rate(env, seconds, render, f64_action):
    env.reset(seed=0)
    env.action_space.seed(0)
    steps = 0
    start = time.perf_counter()
    while True:
        # Read the clock every 64 steps, as ours does.
        for _ in range(64):
            action = env.action_space.sample()
            if f64_action:
                action = action.astype(np.float64)
            _, _, terminated, truncated, _ = env.step(action)
            if render:
                env.render()
            if terminated or truncated:
                env.reset()
            steps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def main():
    job = json.load(sys.stdin)
    print(
        json.dumps(
            {
                "versions": {
                    "python": sys.version.split()[0],
                    "gymnasium": gym.__version__,
                    "minigrid": minigrid.__version__,
                    "numpy": np.__version__,
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
            env = gym.make(case["env"], render_mode="rgb_array", **kwargs)
            # Untimed: first calls load modules, fonts and caches.
            rate(env, 0.05, True, f64_action)
            steps = rate(env, job["seconds"], False, f64_action)
            frames = rate(env, job["seconds"], True, f64_action)
            env.close()
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

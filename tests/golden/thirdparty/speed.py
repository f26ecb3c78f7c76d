#!/usr/bin/env python3
"""Steps and frames per second of the three third-party games in their own packages,
for `cargo run --release -p playbench-tests --bin thirdparty_speed`, which runs this
script in the same run and prints the ratios. Same virtual environment as generate.py
(its docstring says how to make it). Run from the repository root:
    .cache/venv-thirdparty/bin/python tests/golden/thirdparty/speed.py SECONDS
Prints one JSON line per environment: {"env", "steps_per_s", "frames_per_s"}.

A step is `env.step(action)` through `gym.make` without a render mode (the wrappers a
user gets) with uniformly random actions from a fixed seed; a finished episode is reset
untimed. A frame is the `rgb_array` render after a step of an environment made with
`render_mode="rgb_array"` (Tetris: the package's RgbObservation wrapper, as the golden
data draws it), timed on its own: highway-env also draws the frames between policy steps
in that mode, which would make its steps look slower than they are.
"""
import json
import random
import sys
import time

import warnings

import gymnasium as gym


def timed(env, seconds, render):
    rng = random.Random(0)
    env.reset(seed=0)
    n = env.action_space.n
    steps, step_time, frames, frame_time = 0, 0.0, 0, 0.0
    start = time.perf_counter()
    while (frame_time if render else step_time) < seconds and time.perf_counter() - start < 4 * seconds:
        a = rng.randrange(n)
        t0 = time.perf_counter()
        _, _, terminated, truncated, _ = env.step(a)
        step_time += time.perf_counter() - t0
        steps += 1
        if render is not None:
            t0 = time.perf_counter()
            render()
            frame_time += time.perf_counter() - t0
            frames += 1
        if terminated or truncated:
            env.reset()
    return steps / step_time, (frames / frame_time if frames else None)


def main():
    warnings.filterwarnings("ignore")
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    import tetris_gymnasium.envs  # noqa: F401  (registers the id)
    import flappy_bird_gymnasium  # noqa: F401
    import highway_env  # noqa: F401
    from tetris_gymnasium.wrappers.observation import RgbObservation

    gym.register_envs(highway_env)
    for env_id in ["tetris_gymnasium/Tetris", "FlappyBird-v0", "highway-v0", "highway-fast-v0"]:
        plain = gym.make(env_id)
        steps, _ = timed(plain, seconds, None)
        plain.close()
        drawn = gym.make(env_id, render_mode="rgb_array")
        drawer = RgbObservation(drawn).render if env_id.startswith("tetris") else drawn.render
        _, frames = timed(drawn, seconds, drawer)
        drawn.close()
        print(json.dumps({"env": env_id, "steps_per_s": steps, "frames_per_s": frames}), flush=True)


if __name__ == "__main__":
    main()

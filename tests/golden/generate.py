#!/usr/bin/env python3
"""Generates the golden trajectories the Rust ports are checked against.

Runs the real Python reference (gymnasium 1.4.0, numpy 2.4.6; `pip install
gymnasium==1.4.0 numpy==2.4.6`) and writes one JSON file per environment configuration
into this folder. Tests never need Python: they read the committed JSON.

Each file holds:
  resets:   observations (and float64 states) right after reset(seed) for many seeds;
  episodes: pairs of episodes. For a few seeds, reset(seed) then up to STEPS steps of
            a goal-seeking policy, then a continuation episode started with reset() (no
            seed) so the generator stream across resets is checked too; and one
            purposeful episode to its end (up to 500 steps) followed by a random one.
Policies mix purposeful play with random actions so that goals, holes, cliffs,
pickups and terminations all occur. Run: python3 tests/golden/generate.py
"""
import json
import os
import sys

import gymnasium as gym
import numpy as np

# Chance of a random action in the policies; run_episode sets it per episode.
EPS = {"value": 0.2}
HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 50
EPISODE_SEEDS = [0, 7, 42, 2024]
RESET_SEEDS = list(range(0, 100)) + [835, 1506, 1692, 4294967296, 2**63 + 5]


def state_of(env, obs, info):
    """The driver's STATE: Toy Text obs+info, Classic Control obs+state."""
    if isinstance(obs, (int, np.integer)):
        out = {"obs": int(obs), "info": {"prob": float(info["prob"])}}
        if "action_mask" in info:
            out["info"]["action_mask"] = [int(x) for x in info["action_mask"]]
        return out
    state = np.asarray(env.unwrapped.state, dtype=np.float64)
    return {
        "obs": [float(x) for x in np.asarray(obs, dtype=np.float32)],
        "state": [float(x) for x in state],
    }


def taxi_policy(env, rng):
    """Shortest path to pick up and deliver, with some random moves."""
    u = env.unwrapped
    if rng.random() < EPS["value"]:
        return int(rng.integers(0, 6))
    row, col, pas, dest = u.decode(u.s)
    locs = u.locs
    target = locs[pas] if pas < 4 else locs[dest]
    if (row, col) == tuple(target):
        return 4 if pas < 4 else 5
    # BFS on the grid using the transition table.
    start = (row, col)
    prev = {start: None}
    queue = [start]
    while queue:
        cur = queue.pop(0)
        if cur == tuple(target):
            break
        s = u.encode(cur[0], cur[1], pas, dest)
        for a in range(4):
            _, ns, _, _ = u.P[s][a][0]
            nr, nc, _, _ = u.decode(ns)
            if (nr, nc) not in prev:
                prev[(nr, nc)] = (cur, a)
                queue.append((nr, nc))
    cur = tuple(target)
    while prev[cur][0] != start:
        cur = prev[cur][0]
    return prev[cur][1]


def cliff_policy(env, rng):
    s = env.unwrapped.s
    row, col = divmod(int(s), 12)
    if rng.random() < EPS["value"]:
        return int(rng.integers(0, 4))
    if row == 3 and col == 0:
        return 0
    if col < 11:
        return 1 if row < 3 else 0
    return 2


def lake_policy(env, rng):
    u = env.unwrapped
    n = u.nrow
    s = int(u.s)
    if rng.random() < EPS["value"]:
        return int(rng.integers(0, 4))
    row, col = divmod(s, n)
    # Prefer down then right, avoiding holes when possible.
    for a in (1, 2, 0, 3):
        dr, dc = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}[a]
        r, c = row + dr, col + dc
        if 0 <= r < n and 0 <= c < n and u.desc[r][c] != b"H":
            return a
    return 1


def cartpole_policy(env, rng):
    x, xd, th, thd = env.unwrapped.state
    if rng.random() < EPS["value"]:
        return int(rng.integers(0, 2))
    return 1 if th + 0.5 * thd > 0 else 0


def acrobot_policy(env, rng):
    s = env.unwrapped.state
    if rng.random() < EPS["value"]:
        return int(rng.integers(0, 3))
    return 2 if s[3] > 0 else 0


def mountain_car_policy(env, rng):
    pos, vel = env.unwrapped.state
    if rng.random() < EPS["value"]:
        return int(rng.integers(0, 3))
    return 2 if vel >= 0 else 0


def pendulum_policy(env, rng):
    return None  # actions come from the action space's own generator


CONFIGS = [
    ("Taxi-v4", "Taxi-v3", {}, taxi_policy),
    ("CliffWalking-v1", "CliffWalking-v1", {}, cliff_policy),
    ("FrozenLake-v1", "FrozenLake-v1", {}, lake_policy),
    ("FrozenLake-v1", "FrozenLake-v1", {"is_slippery": False}, lake_policy),
    ("FrozenLake-v1", "FrozenLake-v1", {"map_name": "8x8"}, lake_policy),
    ("FrozenLake8x8-v1", "FrozenLake8x8-v1", {"is_slippery": False}, lake_policy),
    ("CartPole-v1", "CartPole-v1", {}, cartpole_policy),
    ("Acrobot-v1", "Acrobot-v1", {}, acrobot_policy),
    ("MountainCar-v0", "MountainCar-v0", {}, mountain_car_policy),
    ("Pendulum-v1", "Pendulum-v1", {}, pendulum_policy),
    ("Pendulum-v1", "Pendulum-v1", {"action_dtype": "float64"}, pendulum_policy),
]


def run_episode(env, seed, policy, rng, pendulum_f64, steps, eps=0.2):
    EPS["value"] = eps
    obs, info = env.reset(seed=seed)
    record = {"seed": seed, "reset": state_of(env, obs, info), "steps": []}
    for _ in range(steps):
        if policy is pendulum_policy:
            a = env.action_space.sample()
            action_json = float(a[0])
            if pendulum_f64:
                a = np.array([float(a[0])], dtype=np.float64)
        else:
            a = policy(env, rng)
            action_json = int(a)
        obs, reward, terminated, truncated, info = env.step(a)
        record["steps"].append(
            {
                "action": action_json,
                "state": state_of(env, obs, info),
                "reward": float(reward),
                "terminated": bool(terminated),
                "truncated": bool(truncated),
            }
        )
        if terminated or truncated:
            break
    return record


def main():
    for make_id, our_id, kwargs, policy in CONFIGS:
        make_kwargs = {k: v for k, v in kwargs.items() if k != "action_dtype"}
        pendulum_f64 = kwargs.get("action_dtype") == "float64"
        env = gym.make(make_id, **make_kwargs)
        resets = []
        for seed in RESET_SEEDS:
            obs, info = env.reset(seed=seed)
            resets.append({"seed": seed, "state": state_of(env, obs, info)})
        episodes = []
        for seed in EPISODE_SEEDS:
            rng = np.random.default_rng(10_000 + seed)
            env.action_space.seed(seed)
            first = run_episode(env, seed, policy, rng, pendulum_f64, STEPS)
            cont = run_episode(env, None, policy, rng, pendulum_f64, 20)
            episodes.append({"first": first, "continued": cont})
        # A purposeful episode (goals, deliveries, balancing until truncation) and a
        # random one (holes, cliffs, early terminations), both to the end.
        rng = np.random.default_rng(99)
        env.action_space.seed(99)
        long = run_episode(env, 99, policy, rng, pendulum_f64, 500, eps=0.0)
        rand = run_episode(env, 5, policy, rng, pendulum_f64, 200, eps=1.0)
        episodes.append({"first": long, "continued": rand})
        name = our_id + "".join(f"_{k}={v}" for k, v in sorted(kwargs.items()))
        path = os.path.join(HERE, f"{name}.json")
        doc = {
            "generator": "tests/golden/generate.py",
            "reference": {"gymnasium": gym.__version__, "numpy": np.__version__},
            "env": our_id,
            "kwargs": kwargs,
            "resets": resets,
            "episodes": episodes,
        }
        with open(path, "w") as f:
            json.dump(doc, f, separators=(",", ":"))
        print(f"wrote {os.path.relpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    main()

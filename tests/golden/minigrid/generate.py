#!/usr/bin/env python3
"""Golden trajectories and frame checksums of the MiniGrid reference.

Runs the real packages (`pip install minigrid==3.2.0 gymnasium==1.4.0 numpy==2.4.6`)
and writes one gzipped JSON file per environment id into this folder. Tests never need
Python: they read the committed files.

Per id:
  resets:   for seeds 0..RESETS-1, the state right after reset(seed);
  episodes: reset(seed) then a planning policy (fetch keys, unlock doors, open doors,
            pick up targets, walk to goals) mixed with random actions, so goals, lava,
            unlocks, pickups and collisions occur; then a continuation episode started
            with reset() (no seed), and a fully random episode;
  frames:   CRC-32 of the RGB bytes of full frames (highlight on, 32 px tiles), of the
            agent's-view frame and of an 8 px frame without highlight, [width, height,
            crc] each: after reset for seeds 0 and 1, and after steps 4 and 18 of the
            first episodes ("step" counts steps of that episode).
A state is: agent_pos, agent_dir, carrying ([type, colour, state] or null),
step_count, mission, the CRC-32 of the full grid encoding ([x][y][3] uint8 bytes in
C order) and the 7x7x3 view image as hex (C order, [i][j][3]).
Run: python3 tests/golden/minigrid/generate.py [ID ...]
"""
import collections
import gzip
import json
import os
import sys
import zlib

import gymnasium as gym
import minigrid  # noqa: F401  (registers the ids)
import numpy as np
from minigrid.core.world_object import Door, Goal, Key, Lava

HERE = os.path.dirname(os.path.abspath(__file__))
RESETS = 12
EPISODE_SEEDS = [0, 1, 2, 3, 5]
MAX_EPISODE = 120

IDS = [
    "MiniGrid-Empty-5x5-v0", "MiniGrid-Empty-Random-5x5-v0", "MiniGrid-Empty-6x6-v0",
    "MiniGrid-Empty-Random-6x6-v0", "MiniGrid-Empty-8x8-v0", "MiniGrid-Empty-16x16-v0",
    "MiniGrid-DoorKey-5x5-v0", "MiniGrid-DoorKey-6x6-v0", "MiniGrid-DoorKey-8x8-v0",
    "MiniGrid-DoorKey-16x16-v0",
    "MiniGrid-LavaCrossingS9N1-v0", "MiniGrid-LavaCrossingS9N2-v0",
    "MiniGrid-LavaCrossingS9N3-v0", "MiniGrid-LavaCrossingS11N5-v0",
    "MiniGrid-SimpleCrossingS9N1-v0", "MiniGrid-SimpleCrossingS9N2-v0",
    "MiniGrid-SimpleCrossingS9N3-v0", "MiniGrid-SimpleCrossingS11N5-v0",
    "MiniGrid-UnlockPickup-v0", "MiniGrid-MultiRoom-N2-S4-v0", "MiniGrid-MultiRoom-N4-S5-v0",
    "MiniGrid-MultiRoom-N6-v0", "MiniGrid-FourRooms-v0",
    "MiniGrid-KeyCorridorS3R1-v0", "MiniGrid-KeyCorridorS3R2-v0", "MiniGrid-KeyCorridorS3R3-v0",
    "MiniGrid-KeyCorridorS4R3-v0", "MiniGrid-KeyCorridorS5R3-v0", "MiniGrid-KeyCorridorS6R3-v0",
    "MiniGrid-DistShift1-v0", "MiniGrid-DistShift2-v0",
    "MiniGrid-Dynamic-Obstacles-5x5-v0", "MiniGrid-Dynamic-Obstacles-Random-5x5-v0",
    "MiniGrid-Dynamic-Obstacles-6x6-v0", "MiniGrid-Dynamic-Obstacles-Random-6x6-v0",
    "MiniGrid-Dynamic-Obstacles-8x8-v0", "MiniGrid-Dynamic-Obstacles-16x16-v0",
]

DIRS = [(1, 0), (0, 1), (-1, 0), (0, -1)]


def crc(array):
    return zlib.crc32(np.ascontiguousarray(array, dtype=np.uint8).tobytes())


def state_of(u, obs):
    carrying = None
    if u.carrying is not None:
        carrying = [int(v) for v in u.carrying.encode()]
    return {
        "agent_pos": [int(u.agent_pos[0]), int(u.agent_pos[1])],
        "agent_dir": int(u.agent_dir),
        "carrying": carrying,
        "step_count": int(u.step_count),
        "mission": u.mission,
        "grid_crc": crc(u.grid.encode()),
        "img": np.ascontiguousarray(obs["image"], dtype=np.uint8).tobytes().hex(),
    }


def path_to_face(u, target, allow_lava=False):
    """Shortest action list (left/right/forward/toggle) after which the agent faces
    `target`; closed doors are opened on the way. None when unreachable."""
    start = (tuple(int(v) for v in u.agent_pos), int(u.agent_dir))
    seen = {start: None}
    queue = collections.deque([start])
    while queue:
        pos, d = queue.popleft()
        front = (pos[0] + DIRS[d][0], pos[1] + DIRS[d][1])
        if front == tuple(target):
            actions = []
            node = (pos, d)
            while seen[node] is not None:
                node, acts = seen[node]
                actions = acts + actions
            return actions
        nexts = [((pos, (d - 1) % 4), [0]), ((pos, (d + 1) % 4), [1])]
        cell = u.grid.get(*front)
        if cell is None or (cell.can_overlap() and (allow_lava or not isinstance(cell, Lava))):
            nexts.append(((front, d), [2]))
        elif isinstance(cell, Door) and not cell.is_locked and not cell.is_open:
            nexts.append(((front, d), [5, 2]))
        for node, acts in nexts:
            if node not in seen:
                seen[node] = ((pos, d), acts)
                queue.append(node)
    return None


def find(u, pred):
    for x in range(u.grid.width):
        for y in range(u.grid.height):
            c = u.grid.get(x, y)
            if c is not None and pred(c):
                return (x, y)
    return None


def plan(u):
    """The next few actions of a simple oracle."""
    locked = find(u, lambda c: isinstance(c, Door) and c.is_locked)
    target = getattr(u, "obj", None)
    if locked is not None:
        door = u.grid.get(*locked)
        carrying_key = isinstance(u.carrying, Key) and u.carrying.color == door.color
        if not carrying_key:
            if u.carrying is not None:
                return [4]
            key = find(u, lambda c: isinstance(c, Key) and c.color == door.color)
            p = path_to_face(u, key) if key else None
            return (p + [3]) if p is not None else None
        p = path_to_face(u, locked)
        return (p + [5]) if p is not None else None
    if target is not None:
        if u.carrying is not None and u.carrying is not target:
            return [4]
        pos = find(u, lambda c: c is target)
        p = path_to_face(u, pos) if pos else None
        return (p + [3]) if p is not None else None
    goal = find(u, lambda c: isinstance(c, Goal))
    p = path_to_face(u, goal) if goal else None
    return (p + [2]) if p is not None else None


def run_episode(env, seed, rng, eps, frames):
    obs, _ = env.reset(seed=seed)
    u = env.unwrapped
    record = {"seed": seed, "reset": state_of(u, obs), "steps": []}
    n_actions = int(env.action_space.n)
    queued = []
    for t in range(MAX_EPISODE):
        if rng.random() < eps:
            a = int(rng.integers(0, n_actions))
            queued = []
        else:
            if not queued:
                queued = plan(u) or [int(rng.integers(0, n_actions))]
            a = queued.pop(0)
            if a >= n_actions:
                a = int(rng.integers(0, n_actions))
        obs, reward, terminated, truncated, _ = env.step(a)
        record["steps"].append({
            "action": a,
            "reward": float(reward),
            "terminated": bool(terminated),
            "truncated": bool(truncated),
            "state": state_of(u, obs),
        })
        if t in (3, 17):
            frames.append(frame_record(u, f"seed {seed} step {t + 1}", len(record["steps"])))
        if terminated or truncated:
            break
    return record


def frame_record(u, label, step):
    full = u.get_frame(highlight=True, tile_size=32)
    pov = u.get_frame(highlight=True, tile_size=32, agent_pov=True)
    small = u.get_frame(highlight=False, tile_size=8)
    return {
        "label": label,
        "step": step,
        "full": [int(full.shape[1]), int(full.shape[0]), crc(full)],
        "agent_view": [int(pov.shape[1]), int(pov.shape[0]), crc(pov)],
        "plain_8px": [int(small.shape[1]), int(small.shape[0]), crc(small)],
    }


def generate(env_id):
    env = gym.make(env_id)
    resets = []
    frames = []
    for seed in range(RESETS):
        obs, _ = env.reset(seed=seed)
        resets.append({"seed": seed, "state": state_of(env.unwrapped, obs)})
        if seed < 2:
            record = frame_record(env.unwrapped, f"reset seed {seed}", 0)
            record["seed"] = seed
            frames.append(record)
    episodes = []
    for seed in EPISODE_SEEDS:
        rng = np.random.default_rng(1000 + seed)
        episode_frames = []
        first = run_episode(env, seed, rng, 0.1, episode_frames)
        cont = run_episode(env, None, rng, 0.3, [])
        episodes.append({"first": first, "continued": cont, "frames": episode_frames})
    rng = np.random.default_rng(7)
    episodes.append({"first": run_episode(env, 11, rng, 1.0, []), "continued": run_episode(env, None, rng, 0.5, []), "frames": []})
    doc = {
        "generator": "tests/golden/minigrid/generate.py",
        "reference": {"minigrid": minigrid.__version__, "gymnasium": gym.__version__, "numpy": np.__version__},
        "env": env_id,
        "resets": resets,
        "frames": frames,
        "episodes": episodes,
    }
    path = os.path.join(HERE, f"{env_id}.json.gz")
    data = json.dumps(doc, separators=(",", ":")).encode()
    with open(path, "wb") as raw:
        # mtime=0 keeps regenerated files byte-identical.
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
            f.write(data)
    stats = collections.Counter()
    for e in episodes:
        for k in ("first", "continued"):
            for s in e[k]["steps"]:
                stats["steps"] += 1
                stats["terminated"] += s["terminated"]
                stats["truncated"] += s["truncated"]
                stats["success"] += s["reward"] > 0
                stats["collision"] += s["reward"] < 0
                stats["pickups"] += s["action"] == 3 and s["state"]["carrying"] is not None
    print(env_id, dict(stats), file=sys.stderr)


def main():
    ids = sys.argv[1:] or IDS
    for env_id in ids:
        generate(env_id)


if __name__ == "__main__":
    main()

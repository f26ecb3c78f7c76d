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
from minigrid.core.world_object import Box, Door, Goal, Key, Lava

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
    "MiniGrid-Unlock-v0", "MiniGrid-BlockedUnlockPickup-v0",
    "MiniGrid-LavaGapS5-v0", "MiniGrid-LavaGapS6-v0", "MiniGrid-LavaGapS7-v0",
    "MiniGrid-MemoryS17Random-v0", "MiniGrid-MemoryS13Random-v0", "MiniGrid-MemoryS13-v0",
    "MiniGrid-MemoryS11-v0", "MiniGrid-MemoryS9-v0", "MiniGrid-MemoryS7-v0",
    "MiniGrid-GoToDoor-5x5-v0", "MiniGrid-GoToDoor-6x6-v0", "MiniGrid-GoToDoor-8x8-v0",
    "MiniGrid-Fetch-5x5-N2-v0", "MiniGrid-Fetch-6x6-N2-v0", "MiniGrid-Fetch-8x8-N3-v0",
    "MiniGrid-PutNear-6x6-N2-v0", "MiniGrid-PutNear-8x8-N3-v0",
    "MiniGrid-RedBlueDoors-6x6-v0", "MiniGrid-RedBlueDoors-8x8-v0",
    "MiniGrid-LockedRoom-v0",
    "MiniGrid-ObstructedMaze-1Dl-v0", "MiniGrid-ObstructedMaze-1Dlh-v0",
    "MiniGrid-ObstructedMaze-1Dlhb-v0",
]

# The continuation episode after this seed's first episode follows a deliberately wrong
# plan (wrong door, wrong object, lava, ...) so failures are recorded too; only the
# task-specific planners below look at it, so the other ids' files are unchanged.
MISTAKE_SEED = 5

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


def path_to_front(u, pred, open_doors=True):
    """Shortest action list after which the cell in front of the agent satisfies
    `pred(pos, cell)`; walks over empty and overlappable non-lava cells and, when
    `open_doors`, through closed unlocked doors. None when unreachable."""
    start = (tuple(int(v) for v in u.agent_pos), int(u.agent_dir))
    seen = {start: None}
    queue = collections.deque([start])
    while queue:
        pos, d = queue.popleft()
        front = (pos[0] + DIRS[d][0], pos[1] + DIRS[d][1])
        inside = 0 <= front[0] < u.grid.width and 0 <= front[1] < u.grid.height
        cell = u.grid.get(*front) if inside else None
        if inside and pred(front, cell):
            actions = []
            node = (pos, d)
            while seen[node] is not None:
                node, acts = seen[node]
                actions = acts + actions
            return actions
        nexts = [((pos, (d - 1) % 4), [0]), ((pos, (d + 1) % 4), [1])]
        if inside and (cell is None or (cell.can_overlap() and not isinstance(cell, Lava))):
            nexts.append(((front, d), [2]))
        elif open_doors and isinstance(cell, Door) and not cell.is_locked and not cell.is_open:
            nexts.append(((front, d), [5, 2]))
        for node, acts in nexts:
            if node not in seen:
                seen[node] = ((pos, d), acts)
                queue.append(node)
    return None


def then(path, *actions):
    return (path + list(actions)) if path is not None else None


def face(u, target, open_doors=True):
    return path_to_front(u, lambda p, c: p == tuple(target), open_doors)


def drop_where(u, ok):
    """Walk until the cell ahead is empty and `ok(pos)`, then drop."""
    return then(path_to_front(u, lambda p, c: c is None and ok(p)), 4)


def plan_locked_rooms(u, mistake):
    """BlockedUnlockPickup and ObstructedMaze: clear the ball blocking the door, open
    the box hiding the key, fetch the key, unlock, then pick up the target."""
    locked = find(u, lambda c: isinstance(c, Door) and c.is_locked)
    target = u.obj
    if locked is not None:
        door = u.grid.get(*locked)
        block = (locked[0] - 1, locked[1])
        has_key = isinstance(u.carrying, Key) and u.carrying.color == door.color
        if u.grid.get(*block) is not None:
            if u.carrying is not None:
                return drop_where(u, lambda p: p != block)
            return then(face(u, block), 3)
        if not has_key:
            if u.carrying is not None:
                return drop_where(u, lambda p: p != block)
            key = find(u, lambda c: isinstance(c, Key) and c.color == door.color)
            if key is not None:
                return then(face(u, key), 3)
            box = find(u, lambda c: isinstance(c, Box) and isinstance(c.contains, Key))
            return then(face(u, box), 5) if box else None
        return then(face(u, locked), 5)
    if u.carrying is not None and u.carrying is not target:
        return drop_where(u, lambda p: True)
    pos = find(u, lambda c: c is target)
    return then(face(u, pos), 3) if pos else None


def plan_lava_gap(u, mistake):
    if mistake:
        lava = find(u, lambda c: isinstance(c, Lava))
        return then(face(u, lava), 2) if lava else None
    goal = find(u, lambda c: isinstance(c, Goal))
    return then(face(u, goal), 2) if goal else None


def plan_memory(u, mistake):
    """Stand on the cell next to the matching object (the other one when mistaken)."""
    cell = u.failure_pos if mistake else u.success_pos
    return then(face(u, cell), 2)


def plan_go_to_door(u, mistake):
    """Face the named door (another one when mistaken) and say done."""
    target = tuple(int(v) for v in u.target_pos)
    if mistake:
        doors = [p for p in [find(u, lambda c, k=k: isinstance(c, Door) and c.color == k)
                             for k in ("blue", "green", "grey", "purple", "red", "yellow")]
                 if p is not None and p != target]
        target = doors[0]
    return then(face(u, target, open_doors=False), 6)


def plan_fetch(u, mistake):
    """Pick up an object of the named type and colour (any other when mistaken)."""
    def wanted(c):
        match = c.type == u.targetType and c.color == u.targetColor
        return c.type in ("key", "ball") and match != mistake
    pos = find(u, wanted) or find(u, lambda c: c.type in ("key", "ball"))
    return then(face(u, pos), 3) if pos else None


def plan_put_near(u, mistake):
    """Pick up the object to move (another one when mistaken), then drop it next to
    the target."""
    tx, ty = (int(v) for v in u.target_pos)
    if u.carrying is None:
        def wanted(c):
            match = c.type == u.move_type and c.color == u.moveColor
            return c.type in ("key", "ball", "box") and match != mistake
        pos = find(u, wanted)
        return then(face(u, pos), 3) if pos else None
    return drop_where(u, lambda p: abs(p[0] - tx) <= 1 and abs(p[1] - ty) <= 1)


def plan_red_blue_doors(u, mistake):
    """Open the red door, then the blue one (blue first when mistaken)."""
    red, blue = u.red_door, u.blue_door
    first = blue if mistake else red
    door = first if not first.is_open else (red if first is blue else blue)
    pos = find(u, lambda c: c is door)
    return then(face(u, pos, open_doors=False), 5) if pos else None


PLANS = {
    "BlockedUnlockPickupEnv": plan_locked_rooms,
    "ObstructedMaze_1Dlhb": plan_locked_rooms,
    "LavaGapEnv": plan_lava_gap,
    "MemoryEnv": plan_memory,
    "GoToDoorEnv": plan_go_to_door,
    "FetchEnv": plan_fetch,
    "PutNearEnv": plan_put_near,
    "RedBlueDoorEnv": plan_red_blue_doors,
}


def plan(u, mistake=False):
    """The next few actions of a simple oracle."""
    special = PLANS.get(type(u).__name__)
    if special is not None:
        return special(u, mistake)
    return plan_default(u)


def plan_default(u):
    """The next few actions of the oracle for the keys-doors-goals levels."""
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


def run_episode(env, seed, rng, eps, frames, mistake=False):
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
                queued = plan(u, mistake) or [int(rng.integers(0, n_actions))]
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
        cont = run_episode(env, None, rng, 0.3, [], mistake=seed == MISTAKE_SEED)
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
            prev = e[k]["reset"]
            for s in e[k]["steps"]:
                stats["failure"] += s["terminated"] and s["reward"] == 0
                stats["toggled"] += s["action"] == 5 and s["state"]["grid_crc"] != prev["grid_crc"]
                prev = s["state"]
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

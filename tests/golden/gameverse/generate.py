#!/usr/bin/env python3
"""Golden episodes of GameVerse's open games 2048, Maze and Snake, from the reference code.

The reference is the public GameVerse repository (THUSI-Lab/GameVerse) at commit
7cbb423 ("Update README.md"). This script imports its game code from a checkout of that
commit; nothing of it is copied here. Only a thin harness is ours: it builds each game's
environment the way the benchmark does, hands it action texts (what a model writes under
`### Actions`), and records what the reference makes of them.

Set up (pinned versions; pygame runs headless):
    python3 -m venv .cache/venv-gameverse
    .cache/venv-gameverse/bin/pip install pygame==2.6.1 numpy==2.2.6 pillow==11.3.0 \
        pyyaml==6.0.2 omegaconf==2.3.0 gymnasium==1.1.1 rich==14.0.0
    mkdir -p .cache/gameverse-ref && git -C <bare or cloned GameVerse repo> archive 7cbb423 src \
        | tar -x -C .cache/gameverse-ref
Run (from the repository root):
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy .cache/venv-gameverse/bin/python \
        tests/golden/gameverse/generate.py .cache/gameverse-ref [--prompts-out envs/src/gameverse]
(or set GAMEVERSE_REF to the checkout instead of the first argument).

How `reset(seed)` maps onto the reference's generators (the same mapping the Rust port uses):
  2048  `random.seed(seed)` (CPython's module generator), then a new environment: its
        new game draws the two start tiles. `reset(None)` builds a new game without
        reseeding, continuing the generator.
  Maze  `random.seed(seed)`, then a new environment (it generates the maze, ball and target).
        `reset(None)` likewise continues the generator.
  Snake `SnakeGame(seed=seed)`, which seeds numpy's `RandomState(seed % 1000)`; the benchmark
        always uses 42. `reset(None)` calls the game's own `reset()`, which draws from the
        same RandomState again.

Output: 2048.json.gz, maze.json.gz, snake.json.gz in this folder, one per registered
environment: each names it in its top-level "env" field (GameVerse/2048, GameVerse/Maze,
GameVerse/Snake). Each holds the action texts used (a table, steps refer to it by index), per
episode the seed, mode and per step the state fields of the driver's `state` plus reward /
terminated / truncated, and frame samples: pixels at positions in flat-colour regions (tiles,
cells, life bars, panel) that our renderer must reproduce exactly, with the frame size. Text
and sprites are not sampled. "prompts" holds the game's zero-shot prompt templates (semantic
and GUI, system and user) as the raw Python format strings; with --prompts-out they are also
written into <dir>/<game>/prompts/ (the Rust port's data files).
"""
import gzip
import importlib
import json
import os
import random
import sys
import tempfile
import time
import types
from collections import deque

HERE = os.path.dirname(os.path.abspath(__file__))
PINNED_COMMIT = "7cbb423"

REF = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else os.environ.get("GAMEVERSE_REF")
if not REF:
    sys.exit("usage: generate.py <GameVerse checkout at 7cbb423> [--prompts-out DIR]")
SRC = os.path.join(os.path.abspath(REF), "src")
sys.path.insert(0, SRC)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# The GUI manager drives real windows (pyautogui, screen capture); none of the three games
# needs it here: 2048 and Maze never use it, and the Snake harness below reads the pygame
# surface that is the window's client area.
_gui = types.ModuleType("game_servers.GUI.GUI_manager")
_gui.GUIManager = object
sys.modules["game_servers.GUI.GUI_manager"] = _gui

# The environments sleep to let a real window catch up and save every screenshot as PNG;
# neither changes any state.
time.sleep = lambda _s: None
from PIL import Image  # noqa: E402

Image.Image.save = lambda self, *a, **k: None

import pygame  # noqa: E402
from game_servers.twenty_fourty_eight.game.twenty_fourty_eight_env import TwentyFourtyEightEnv  # noqa: E402
from game_servers.maze.game.maze_env import MazeEnv  # noqa: E402
from game_servers.maze.game.maze_game import PathFinder  # noqa: E402
from game_servers.snake.game import game as snake_game_module  # noqa: E402
from game_servers.snake.game.game import SnakeGame  # noqa: E402
from game_servers.snake.game.snake_env import SnakeEnv, SnakeAction  # noqa: E402

TMP = tempfile.mkdtemp(prefix="gameverse-golden-")


def hexpix(rgb):
    return "%02x%02x%02x" % tuple(rgb[:3])


def write(name, data):
    path = os.path.join(HERE, name)
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(raw)
    print(f"{name}: {len(raw)} bytes JSON, {os.path.getsize(path)} gz")


class TextTable:
    """Action texts, stored once and referred to by index."""

    def __init__(self):
        self.texts, self.index = [], {}

    def id(self, text):
        if text not in self.index:
            self.index[text] = len(self.texts)
            self.texts.append(text)
        return self.index[text]


# ---------------------------------------------------------------------------------------
# Action texts shared by 2048 and Maze (both scan for runs of word characters).

DIRS = ["up", "down", "left", "right"]


def direction_texts(d):
    """Ways of writing direction d that the run scanner accepts."""
    return [
        d,
        d.upper(),
        d.capitalize(),
        f"**{d}**",
        f"{d}.",
        f"Move: {d}",
        f"{d}-arrow",
        f"{d.upper()}\n",
        f"  {d}  ",
        f"The best move is:\n{d}",
        f'{{"key": "{d}"}}',
        f'```json\n{{\n    "action_type": "PRESS",\n    "parameters": {{\n        "key": "{d}"\n    }}\n}}\n```',
        f"*{d}*, then maybe down",
        f"{d}\nleft",
        f"é, {d}",
        f"{d}!!",
    ]


SCANNER_MALFORMED = [
    "",
    "None",
    "move up",
    "go left now",
    "upward",
    "u p",
    "diagonal",
    "**up**down",  # the extra character after the closing stars eats the 'd'
    "**up**\ndown",
    "x**up**",
    "left_",
    "ＵＰ",
    "up_",
    "déown",
    "1 2 3",
    "### Actions: up",
    "L",
    "Wait",
]


# ---------------------------------------------------------------------------------------
# 2048

def board_2048(env):
    return [row[:] for row in env.game.board]


def frame_2048(env):
    image = env._capture_screen()
    points = []
    for r in range(4):
        for c in range(4):
            points.append((125 * c + 14, 125 * r + 14))  # tile colour, above the number
            points.append((125 * c + 3, 125 * r + 3))  # padding: background
            points.append((125 * c + 110, 125 * r + 108))  # tile's bottom-right corner
    return {"size": list(image.size), "pixels": [[x, y, hexpix(image.getpixel((x, y)))] for x, y in points]}


def stuck_direction(board):
    """A direction that leaves the board unchanged, if any."""
    from game_servers.twenty_fourty_eight.game import logic
    import copy

    for d in DIRS:
        if logic.move(d, copy.deepcopy(board))[0] == board:
            return d
    return None


def corner_policy(board, rng):
    """A plain heuristic: prefer down, left, right, up, in that order of moves that change the board."""
    from game_servers.twenty_fourty_eight.game import logic
    import copy

    if rng.random() < 0.05:
        return rng.choice(DIRS)
    best, best_value = None, None
    for d in ["down", "left", "right", "up"]:
        nb, gained = logic.move(d, copy.deepcopy(board))
        if nb == board:
            continue
        # Keep the big tiles in the bottom-left corner and the board open.
        empty = sum(v == 0 for row in nb for v in row)
        corner = nb[3][0] == max(max(row) for row in nb)
        value = gained + 10 * empty + (200 if corner else 0) - (300 if d == "up" else 0)
        if best_value is None or value > best_value:
            best, best_value = d, value
    return best or "down"


def episode_2048(table, seed, kind, action_mode, rng, max_steps=1000, frame_every=20):
    if seed is not None:
        random.seed(seed)
    env = TwentyFourtyEightEnv(
        {"log_path": os.path.join(TMP, "2048"), "target_tile": 2048, "task": "Merge Tiles to Reach the Target", "action_mode": action_mode}
    )
    obs = env.initial_obs()
    start = {"board": board_2048(env), "score": 0, "unchanged_moves": 0, "game_over": env.game.terminated}
    frames = {"0": frame_2048(env)}
    steps = []
    prev_score = 0
    burst = []
    for i in range(1, max_steps + 1):
        board = board_2048(env)
        if burst and board_2048(env) != burst_board:
            burst = []
        roll = rng.random()
        if kind == "malformed_heavy" and roll < 0.6:
            text = rng.choice(SCANNER_MALFORMED)
        elif burst:
            # A direction that does not change the board, again and again (malformed
            # replies in between do not count): unchanged moves pile up to the end.
            text = rng.choice(direction_texts(burst[0])) if rng.random() < 0.8 else rng.choice(SCANNER_MALFORMED)
        elif kind == "invalid_bursts" and roll < 0.03 and stuck_direction(board):
            burst = [stuck_direction(board)]
            text = rng.choice(direction_texts(burst[0]))
        elif kind == "cap" and roll < 0.93:
            # Replies that name no direction: the step is used, the board stays.
            text = rng.choice([t for t in SCANNER_MALFORMED if not env.parse_action(t).actions])
        elif roll < 0.04:
            text = rng.choice(SCANNER_MALFORMED)
        elif kind == "random" or roll < 0.07:
            text = rng.choice(direction_texts(rng.choice(DIRS)))
        else:
            text = rng.choice(direction_texts(corner_policy(board, rng)))
        burst_board = board
        action = env.parse_action(text)
        obs, _r, terminated, _t, _info = env.step(action)
        score, done = env.evaluate(obs)
        game_over = env.game.terminated
        truncated = (i == max_steps) and not game_over
        steps.append(
            {
                "a": table.id(text),
                "board": board_2048(env),
                "score": score,
                "unchanged_moves": env.game._consecutive_no_change_count,
                "game_over": game_over,
                "status": env.game.status,
                "reward": score - prev_score,
                "terminated": bool(game_over),
                "truncated": truncated,
            }
        )
        prev_score = score
        if i % frame_every == 0 or game_over or truncated:
            frames[str(i)] = frame_2048(env)
        if game_over or truncated or done:
            break
    env.close()
    return {"seed": seed, "mode": action_mode, "kind": kind, "start": start, "steps": steps, "frames": frames}


def generate_2048():
    table = TextTable()
    episodes = []
    plan = [
        (0, "corner", "semantic"),
        (1, "random", "semantic"),
        (2, "invalid_bursts", "gui"),
        (None, "corner", "semantic"),  # reset(None): continues seed 2's generator
        (3, "malformed_heavy", "semantic"),
        (4, "corner", "gui"),
        (5, "invalid_bursts", "semantic"),
        (12345, "random", "semantic"),
        (7, "corner", "semantic"),
        (8, "cap", "semantic"),
    ]
    for n, (seed, kind, mode) in enumerate(plan):
        rng = random.Random(1000 + n)
        episodes.append(episode_2048(table, seed, kind, mode, rng))
    # Many short starts: the start tiles of seeds 0..199.
    starts = []
    for seed in range(200):
        random.seed(seed)
        env = TwentyFourtyEightEnv({"log_path": os.path.join(TMP, "2048"), "target_tile": 2048, "task": "t"})
        starts.append({"seed": seed, "board": board_2048(env)})
        env.close()
    return {"commit": PINNED_COMMIT, "texts": table.texts, "episodes": episodes, "starts": starts}


# ---------------------------------------------------------------------------------------
# Maze

MAZE_GUI_EXTRA = [
    '{"action_type": "press", "parameters": {"key": "UP"}}',
    '[{"action_type": "PRESS", "parameters": {"key": "up"}}]',
    '{"action_type": "CLICK", "parameters": {"x": 10, "y": 20}}',
    '{"action_type": "PRESS", "parameters": {"key": "space"}}',
    '{"action_type": "PRESS", "parameters": {"key": 5}}',
    '{"action_type": "PRESS", "parameters": "up"}',
    '{"action_type": "PRESS"}',
    '{"action_type": "JUMP", "parameters": {"key": "up"}}',
    '{"action_type": 7, "parameters": {"key": "up"}}',
    '{"parameters": {"key": "down"}}',
    'not json at all',
    '```json\n{"action_type": "PRESS", "parameters": {"key": "left"}}\n```',
    '```json {"action_type": "PRESS", "parameters": {"key": "right"}} ```',
    '```json\n{"action_type": "PRESS", "parameters": {"key": "left"}}',
    'I press {"action_type": "PRESS", "parameters": {"key": "down"}} now',
    '{"action_type": "PRESS", "parameters": {"key": "down"}, "x": NaN}',
    '{"action_type": "PRESS", "parameters": {"key": "right", "key": "left"}}',
    '  {"action_type":"PRESS","parameters":{"key":"Right"}}  ',
    '{"action_type": "PRESS", "parameters": {"key": "up"}} trailing',
    '"up"',
    'null',
    '{"action_type": "PRESS", "parameters": {"key": "u\\u0070"}}',
    '{"action_type": "PRESS", "parameters": null}',
    '{"action_type": "WAIT", "parameters": {"duration": 1}}',
    '{"action_type": "PRESS", "parameters": {"key": "down"}}\n{"action_type": "PRESS", "parameters": {"key": "up"}}',
]


def maze_gui_texts(d):
    return [
        f'{{"action_type": "PRESS", "parameters": {{"key": "{d}"}}}}',
        f'```json\n{{\n    "action_type": "PRESS",\n    "parameters": {{\n        "key": "{d}"\n    }}\n}}\n```',
        f'Pressing:\n{{"action_type": "press", "parameters": {{"key": "{d.upper()}"}}}}',
    ]


def maze_state(env):
    g = env.game
    grid = ["".join("." if v == 1 else "#" for v in row) for row in g.maze]
    d = PathFinder(g.maze, g.size).find_best_steps(g.ball_pos, g.target_pos)
    return {"grid": grid, "agent": list(g.ball_pos), "goal": list(g.target_pos), "distance": d}


def frame_maze(env):
    image = env.create_maze_image()
    pixels = []
    for r in range(4):
        for c in range(4):
            for x, y in ((125 * c + 5, 125 * r + 5), (125 * c + 62, 125 * r + 62), (125 * c + 120, 125 * r + 62)):
                pixels.append([x, y, hexpix(image.getpixel((x, y)))])
    return {"size": list(image.size), "pixels": pixels}


def bfs_next(env):
    g = env.game
    start, goal = g.ball_pos, g.target_pos
    prev = {start: None}
    q = deque([start])
    while q:
        cur = q.popleft()
        if cur == goal:
            break
        for name, (dr, dc) in (("up", (-1, 0)), ("down", (1, 0)), ("left", (0, -1)), ("right", (0, 1))):
            nxt = (cur[0] + dr, cur[1] + dc)
            if 0 <= nxt[0] < g.size and 0 <= nxt[1] < g.size and g.maze[nxt[0]][nxt[1]] == 1 and nxt not in prev:
                prev[nxt] = (cur, name)
                q.append(nxt)
    node, move = goal, None
    while prev.get(node):
        node, move = prev[node]
    return move or "up"


def episode_maze(table, seed, mode, rng, skill, frames_on):
    if seed is not None:
        random.seed(seed)
    env = MazeEnv({"log_path": os.path.join(TMP, "maze"), "task": "Navigate the ball to the red flag", "action_mode": mode, "show_graphic": False, "size": 4})
    obs = env.initial_obs()
    start = maze_state(env)
    start["best_steps"] = env.game.best_steps
    frames = {"0": frame_maze(env)} if frames_on else {}
    steps = []
    prev_score, _ = env.evaluate(obs)
    for i in range(1, 21):
        roll = rng.random()
        d = bfs_next(env) if roll < skill else rng.choice(DIRS)
        if mode == "gui":
            text = rng.choice(MAZE_GUI_EXTRA) if rng.random() < 0.3 else rng.choice(maze_gui_texts(d))
        else:
            text = rng.choice(SCANNER_MALFORMED) if rng.random() < 0.2 else rng.choice(direction_texts(d))
        obs, _r, terminated, _t, _ = env.step(env.parse_action(text))
        score, done = env.evaluate(obs)
        game_over = bool(env.game.won)
        truncated = i == 20 and not game_over
        st = maze_state(env)
        st.update({"a": table.id(text), "score": score, "reward": score - prev_score, "terminated": game_over, "truncated": truncated})
        steps.append(st)
        prev_score = score
        if frames_on:
            frames[str(i)] = frame_maze(env)
        if terminated or done or truncated:
            break
    env.close()
    return {"seed": seed, "mode": mode, "start": start, "steps": steps, "frames": frames}


def generate_maze():
    table = TextTable()
    episodes = []
    n = 0
    for seed in range(120):
        mode = "gui" if seed % 3 == 2 else "semantic"
        rng = random.Random(5000 + n)
        skill = [0.9, 0.5, 0.2][seed % 3]
        episodes.append(episode_maze(table, seed, mode, rng, skill, frames_on=seed < 24))
        n += 1
        if seed % 20 == 19:  # reset(None) continues the generator
            episodes.append(episode_maze(table, None, "semantic", random.Random(9000 + n), 0.7, frames_on=False))
            n += 1
    # Generation only, for many seeds: grid, ball, target, best steps.
    generations = []
    for seed in range(1000):
        random.seed(seed)
        from game_servers.maze.game.maze_game import MazeGame

        g = MazeGame(size=4)
        generations.append(
            {"seed": seed, "grid": ["".join("." if v else "#" for v in row) for row in g.maze], "agent": list(g.ball_pos), "goal": list(g.target_pos), "best_steps": g.best_steps}
        )
    return {"commit": PINNED_COMMIT, "texts": table.texts, "episodes": episodes, "generations": generations}


# ---------------------------------------------------------------------------------------
# Snake

SNAKE_KEYS = {"L": "left", "R": "right", "U": "up", "D": "down"}
SNAKE_SEMANTIC_MALFORMED = ["", "None", "left", "**L**", "L.", "Wait", "WAIT", "W", "up", "LU", "l r", "### Actions: L", "x"]
SNAKE_GUI_MALFORMED = [
    "[]",
    '{"action_type": "PRESS", "parameters": {"key": "space"}}',
    '[{"action_type": "PRESS", "parameters": {"key": "space"}}, {"action_type": "PRESS", "parameters": {"key": "space"}}]',
    '[{"action_type": "WAIT", "parameters": {"duration": 2}}]',
    '[{"action_type": "CLICK", "parameters": {"x": 5, "y": 5}}]',
    '[{"action_type": "JUMP", "parameters": {"key": "up"}}]',
    '[1, 2]',
    'no json',
    '[{"action_type": "PRESS", "parameters": {"key": "LEFT"}}]',
    '[{"action_type": "PRESS", "parameters": {"key": "w"}}]',
    '{"action_type": "PRESS", "parameters": {"key": "up"}',
    '[{"action_type": "PRESS", "parameters": {"key": "up"}}] and [{"action_type": "PRESS"}]',
    'Then {"action_type": "press", "parameters": {"key": "down"}} ok',
    '[{"action_type": "PRESS", "parameters": {"key": "left"}}, {"x": 1}]',
    '[ {"a": "}"} , {"action_type": "PRESS", "parameters": {"key": "up"}} ]',
    '[{"action_type": "PRESS", "parameters": {"key": "up"}}, ]',
    '```json\n[\n    {"action_type": "PRESS", "parameters": {"key": "right"}}\n]\n```',
    '```json\n[{"action_type": "PRESS", "parameters": {"key": "down"}}]',
]


def snake_state(game):
    s = game.get_state()
    return {
        "body": [list(p) for p in s["snake"]],
        "direction": s["snake_dir"],
        "food": [[x, y] for x, y, _l, _v in s["foods"]],
        "food_life": [l for _x, _y, l, _v in s["foods"]],
        "foods_eaten": s["reward"],
        "game_over": bool(s["terminal"]),
        "turn": s["game_turn"],
        "auto_moves": s["auto_move_count"],
    }


def frame_snake(game):
    game._render()
    surf = pygame.display.get_surface()
    w, h = surf.get_size()
    cell = 500 // game.B
    occupied = set(game.snake) | set(game.food) | set(game.obstacle)
    board = cell * game.B
    points = []
    for x in range(1, game.B - 1):
        for y in range(1, game.B - 1):
            px, py = x * cell, (game.B - 1 - y) * cell
            if (x, y) not in occupied:
                points.append((px + cell // 2, py + cell // 2))
                points.append((px + 1, py + cell - 2))
            elif (x, y) in game.food and (x, y) not in game.snake and game.food_attributes[x][y][1] > 0:
                points += [(px + 2, py + 10), (px + 3, py + 12), (px + cell - 4, py + 12), (px + cell // 2, py + 15), (px + cell - 3, py + 15)]
    if game.terminal:  # the ending's title runs across the middle of the board
        points = [(x, y) for x, y in points if abs(y - board // 2) > 28]
    points += [(0, board), (1, board + 1), (w - 1, h - 1), (6, board + 6), (w - 6, h - 6), (w // 2, h - 6), (8, board + 90)]
    return {"size": [w, h], "pixels": [[x, y, hexpix(surf.get_at((x, y)))] for x, y in points]}


def safe_snake_dir(game, rng):
    """BFS to the nearest food through free cells; otherwise the free move with the most room."""
    B = game.B
    head = game.snake[-1]
    body = set(game.snake[1:])
    moves = {"L": (-1, 0), "R": (1, 0), "U": (0, 1), "D": (0, -1)}
    reverse = {"L": "R", "R": "L", "U": "D", "D": "U"}

    def free(p):
        return 0 < p[0] < B - 1 and 0 < p[1] < B - 1 and p not in body

    foods = set(game.food)
    prev = {head: None}
    q = deque([head])
    target = None
    while q:
        cur = q.popleft()
        if cur in foods and cur != head:
            target = cur
            break
        for d, (dx, dy) in moves.items():
            nxt = (cur[0] + dx, cur[1] + dy)
            if free(nxt) and nxt not in prev:
                if cur == head and d == reverse[game.dir]:
                    continue
                prev[nxt] = (cur, d)
                q.append(nxt)
    if target is not None:
        node, d = target, None
        while prev.get(node):
            node, d = prev[node]
        return d

    def room(start):
        seen, q2 = {start}, deque([start])
        while q2:
            c = q2.popleft()
            for dx, dy in moves.values():
                n = (c[0] + dx, c[1] + dy)
                if free(n) and n not in seen:
                    seen.add(n)
                    q2.append(n)
        return len(seen)

    options = [d for d, (dx, dy) in moves.items() if d != reverse[game.dir] and free((head[0] + dx, head[1] + dy))]
    if not options:
        return game.dir
    return max(options, key=lambda d: (room((head[0] + moves[d][0], head[1] + moves[d][1])), rng.random()))


class SnakeView:
    """What the policy needs of a game, advanced by its own planned moves (no eating)."""

    def __init__(self, game):
        self.B, self.snake, self.dir, self.food = game.B, list(game.snake), game.dir, list(game.food)

    def advance(self, d):
        moves = {"L": (-1, 0), "R": (1, 0), "U": (0, 1), "D": (0, -1)}
        if {"L": "R", "R": "L", "U": "D", "D": "U"}[self.dir] == d:
            d = self.dir
        self.dir = d
        head = self.snake[-1]
        self.snake = self.snake[1:] + [(head[0] + moves[d][0], head[1] + moves[d][1])]


def planned_keys(game, rng, skill, n):
    view, keys = SnakeView(game), []
    for _ in range(n):
        k = safe_snake_dir(view, rng) if rng.random() < skill else rng.choice("LRUD")
        keys.append(k)
        view.advance(k)
    return keys


def snake_text(game, rng, mode, skill, multi):
    roll = rng.random()
    if mode == "semantic":
        if roll < 0.12:
            return rng.choice(SNAKE_SEMANTIC_MALFORMED)
        n = rng.choice([1, 1, 1, 2, 3]) if multi else 1
        keys = planned_keys(game, rng, skill, n)
        sep = rng.choice(["\n", "\n", "\r\n", "\n\n"])
        lines = [k if rng.random() < 0.8 else rng.choice([f"  {k.lower()} ", k + " "]) for k in keys]
        return sep.join(lines)
    if roll < 0.15:
        return rng.choice(SNAKE_GUI_MALFORMED)
    n = rng.choice([1, 1, 2]) if multi else 1
    keys = [SNAKE_KEYS[k] for k in planned_keys(game, rng, skill, n)]
    items = ", ".join(f'{{"action_type": "PRESS", "parameters": {{"key": "{k}"}}}}' for k in keys)
    style = rng.random()
    if style < 0.4:
        return f"```json\n[\n    {items}\n]\n```"
    if style < 0.7:
        return f"[{items}]"
    return f"I will press:\n[ {items} ]\nDone."


def make_snake_env(mode, game_mode, game):
    env = SnakeEnv.__new__(SnakeEnv)
    env.cfg = types.SimpleNamespace(game_mode=game_mode, action_mode=mode, coor_trans=False)
    env.action_mode = mode
    env.game = game
    return env


def new_snake_game(seed, game_mode, timeout_s, max_duration_s):
    game = SnakeGame(board_size=9, mode=game_mode, seed=seed, num_obstacles=0, max_duration=max_duration_s)
    game.action_timeout = timeout_s
    game.start(window_title="Snake Game")
    return game


def episode_snake_discrete(table, game, seed, mode, rng, skill, multi, continued=False, patience=0.0):
    if continued:
        game.reset()
    env = make_snake_env(mode, "discrete", game)
    start = snake_state(game)
    frames = {"0": frame_snake(game)}
    steps = []
    prev = 0
    for i in range(1, 101):
        if rng.random() < patience:
            text = rng.choice(["", "Wait", "None", "W"])  # no key: the world waits
        else:
            text = snake_text(game, rng, mode, skill, multi)
        action = env.parse_action(text)
        env._execute_action(action)  # posts the key events
        game.process_events()  # the game's own event handling turns each key into a move
        st = snake_state(game)
        truncated = i == 100 and not st["game_over"]
        st.update({"a": table.id(text), "reward": st["foods_eaten"] - prev, "terminated": st["game_over"], "truncated": truncated})
        prev = st["foods_eaten"]
        steps.append(st)
        if i % 5 == 0 or st["game_over"] or truncated:
            frames[str(i)] = frame_snake(game)
        if st["game_over"] or truncated:
            break
    return {"seed": seed, "mode": mode, "latency": "stop", "continued": continued, "start": start, "steps": steps, "frames": frames}


class Clock:
    """Virtual time in integer milliseconds. The game reads seconds since the loop's start
    (its start_time is 0), so `elapsed >= max_duration` compares exactly."""

    def __init__(self):
        self.ms = 0
        self.origin = 0

    def time(self):
        return (self.ms - self.origin) / 1000.0

    def sleep(self, _s):
        pass


class Stop(Exception):
    pass


class RealtimeHarness:
    """Runs the reference's realtime game loop on a virtual clock (integer milliseconds).

    Per step i: the observation is captured at c_i; the reply arrives at a_i = c_i + L_i
    and its first key is handed to the game then (through the environment's own
    `_execute_action` and the game's event handling); the next observation is captured
    500 ms later (the environment's screenshot delay). The loop starts with the first
    step. Ties: a timeout that falls at the same instant as an arrival or a capture comes
    first.
    """

    def __init__(self, table, game, env, rng, mode, skill, latencies, keyless=0.0, max_steps=100):
        self.table, self.game, self.env, self.rng = table, game, env, rng
        self.mode, self.skill, self.latencies = mode, skill, latencies
        self.keyless = keyless  # share of replies that press no key (none: no extra draw)
        self.max_steps = max_steps
        self.clock = Clock()
        self.pending = []  # queued directions (the game's action queue)
        self.steps, self.frames = [], {}
        self.prev = 0
        self.step_i = 0
        self.arrival = None  # (time, action) of the reply in flight
        self.capture = None  # time of the next capture
        self.done = False

    # The action queue the game loop waits on.
    def put_nowait(self, d):
        self.pending.append(d)

    def empty(self):
        return not self.pending

    def get_nowait(self):
        if not self.pending:
            raise snake_game_module.queue.Empty
        return self.pending.pop(0)

    def get(self, timeout):
        deadline = self.clock.ms + round(timeout * 1000)
        while True:
            if self.pending:
                return self.pending.pop(0)
            if self.done:
                return None
            t, kind = self.next_event()
            if t < deadline:
                self.clock.ms = t
                self.fire(kind)
                continue
            self.clock.ms = deadline
            raise snake_game_module.queue.Empty

    def next_event(self):
        if self.arrival is not None:
            return self.arrival[0], "arrival"
        return self.capture, "capture"

    def fire(self, kind):
        if kind == "arrival":
            _t, action = self.arrival
            self.arrival = None
            if self.env.cfg.game_mode == "realtime" and not self.started:
                self.start_loop_now()
            self.env._execute_action(action)
            self.game.process_events()  # queues the first key unless the game is over
            self.capture = self.clock.ms + 500
        else:
            self.record()
            if not self.done:
                self.decide()

    def decide(self):
        """Step i+1: the model reads the observation just captured and replies later."""
        self.step_i += 1
        latency = self.rng.choice(self.latencies)
        if self.keyless and self.rng.random() < self.keyless:
            text = self.rng.choice(SNAKE_KEYLESS[self.mode])
        else:
            text = snake_text(self.game, self.rng, self.mode, self.skill, multi=False)
        self.texts_by_step[self.step_i] = (text, latency)
        self.arrival = (self.clock.ms + latency, self.env.parse_action(text))

    def record(self):
        st = snake_state(self.game)
        text, latency = self.texts_by_step[self.step_i]
        truncated = self.step_i == self.max_steps and not st["game_over"]
        st.update(
            {
                "a": self.table.id(text),
                "latency_ms": latency,
                "capture_ms": self.clock.ms,
                "elapsed_ms": round(self.game.real_time_elapsed * 1000),
                "reward": st["foods_eaten"] - self.prev,
                "terminated": st["game_over"],
                "truncated": truncated,
            }
        )
        self.prev = st["foods_eaten"]
        self.steps.append(st)
        if self.step_i % 4 == 0 or st["game_over"] or truncated:
            self.frames[str(self.step_i)] = frame_snake(self.game)
        if st["game_over"] or truncated:
            self.done = True

    def start_loop_now(self):
        self.started = True
        self.game.running = True
        self.clock.origin = self.clock.ms
        self.game.start_time = 0.0

    def run(self):
        self.started = False
        self.texts_by_step = {}
        self.game.action_queue = self
        snake_game_module.time = self.clock
        self.frames["0"] = frame_snake(self.game)
        start = snake_state(self.game)
        self.decide()  # step 1 from the initial observation at t = 0
        # Before the loop starts nothing moves: deliver step 1's reply, which starts it.
        self.clock.ms = self.arrival[0]
        self.fire("arrival")
        self.game._game_loop()
        # The loop ended (collision or time up) or the steps ran out: play out the steps
        # that are in flight until the runner sees the end.
        while not self.done:
            t, kind = self.next_event()
            self.clock.ms = t
            self.fire(kind)
        self.game.running = False
        return start


# Replies without a key: in real time they do not restart the action timeout.
SNAKE_KEYLESS = {
    "semantic": ["", "Wait", "None", "W"],
    "gui": ["[]", '[{"action_type": "WAIT", "parameters": {"duration": 2}}]', "no json"],
}


def episode_snake_realtime(table, seed, mode, rng, skill, timeout_s, max_duration_s, latencies, keyless=0.0):
    game = new_snake_game(seed, "realtime", timeout_s, max_duration_s)
    env = make_snake_env(mode, "realtime", game)
    h = RealtimeHarness(table, game, env, rng, mode, skill, latencies, keyless)
    start = h.run()
    return {
        "seed": seed,
        "mode": mode,
        "latency": {10.0: "normal", 20.0: "slow"}.get(timeout_s, "custom"),
        "timeout_ms": round(timeout_s * 1000),
        "max_duration_ms": round(max_duration_s * 1000),
        "start": start,
        "steps": h.steps,
        "frames": h.frames,
    }


def generate_snake():
    table = TextTable()
    episodes = []
    n = 0
    discrete_plan = [
        (42, "semantic", 0.9, True),
        (42, "gui", 0.9, True),
        (42, "semantic", 0.5, False),
        (0, "semantic", 0.95, True),
        (1, "gui", 0.7, True),
        (1042, "semantic", 0.95, True),
        (7, "semantic", 0.3, True),
        (123456, "gui", 0.95, True),
        (42, "semantic", 1.0, True),
        (3, "semantic", 1.0, True),
    ]
    for seed, mode, skill, multi in discrete_plan:
        game = new_snake_game(seed, "discrete", 20.0, 1200.0)
        episodes.append(episode_snake_discrete(table, game, seed, mode, random.Random(7000 + n), skill, multi))
        n += 1
        if seed == 0:  # reset(None): the same RandomState draws the next game
            episodes.append(episode_snake_discrete(table, game, None, mode, random.Random(7000 + n), skill, multi, continued=True))
            n += 1
        game.stop()
    # Mostly replies without a key: the step cap comes before turn 100.
    game = new_snake_game(42, "discrete", 20.0, 1200.0)
    episodes.append(episode_snake_discrete(table, game, 42, "semantic", random.Random(7000 + n), 1.0, False, patience=0.7))
    n += 1
    game.stop()
    realtime_plan = [
        (42, "semantic", 0.9, 10.0, 1200.0, [300, 2000, 6000, 9500, 10000, 12000, 25000, 35000]),
        (42, "semantic", 0.95, 10.0, 1200.0, [100, 500, 1500, 3000, 9500, 10000]),
        (42, "gui", 0.95, 20.0, 1200.0, [1000, 5000, 12000, 19500, 20000, 20500]),
        (9, "semantic", 0.95, 10.0, 45.0, [200, 700, 1300]),
        (42, "gui", 0.9, 20.0, 1200.0, [500, 5000, 19500, 20000, 20500, 41000]),
        (42, "semantic", 0.7, 10.0, 60.0, [1000, 4000, 9000, 15000]),
        (5, "semantic", 0.95, 10.0, 1200.0, [9500, 10000, 10500]),
        (42, "gui", 0.95, 10.0, 1200.0, [100, 200, 400]),
    ]
    for seed, mode, skill, timeout_s, max_s, lat in realtime_plan:
        episodes.append(episode_snake_realtime(table, seed, mode, random.Random(7000 + n), skill, timeout_s, max_s, lat))
        n += 1
    # Many replies without a key, at latencies that make the difference between a timeout
    # counted from the last move (the reference) and one restarted by every reply.
    keyless_plan = [
        (42, "semantic", 0.95, 10.0, [2000, 4000, 6000, 7000]),
        (42, "gui", 0.95, 20.0, [5000, 9000, 12000, 15000]),
    ]
    for seed, mode, skill, timeout_s, lat in keyless_plan:
        episodes.append(episode_snake_realtime(table, seed, mode, random.Random(7000 + n), skill, timeout_s, 1200.0, lat, keyless=0.4))
        n += 1
    # The coordinate list after the two shuffles, for a few seeds.
    coords = {}
    for seed in (42, 0, 1, 999, 1042):
        g = SnakeGame(board_size=9, seed=seed, num_obstacles=0)
        g.reset()
        coords[str(seed)] = [list(c) for c in g.coords]
    return {"commit": PINNED_COMMIT, "texts": table.texts, "episodes": episodes, "coords": coords}


# ---------------------------------------------------------------------------------------
# Prompts

PROMPT_GAMES = {"twenty_forty_eight": "twenty_fourty_eight", "maze": "maze", "snake": "snake"}


def prompts(ours, out_dir):
    """The templates of one game, named `<mode>_<part>`."""
    theirs = PROMPT_GAMES[ours]
    texts = {}
    for mode in ("semantic", "gui"):
        for part in ("system", "user"):
            module = importlib.import_module(f"agent_servers.{theirs}.prompts.{mode}.zeroshot_agent.action_inference_{part}")
            text = module.PROMPT
            texts[f"{mode}_{part}"] = text
            if out_dir:
                path = os.path.join(out_dir, ours, "prompts", f"{mode}_{part}.txt")
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
    return texts


def main():
    out_dir = None
    if "--prompts-out" in sys.argv:
        out_dir = sys.argv[sys.argv.index("--prompts-out") + 1]
    for name, env_id, ours, generate in [
        ("2048.json.gz", "GameVerse/2048", "twenty_forty_eight", generate_2048),
        ("maze.json.gz", "GameVerse/Maze", "maze", generate_maze),
        ("snake.json.gz", "GameVerse/Snake", "snake", generate_snake),
    ]:
        data = generate()
        data["env"] = env_id
        data["prompts"] = prompts(ours, out_dir)
        write(name, data)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Steps per second of GameVerse's own 2048, Maze and Snake environments, for the
comparison `cargo run --release -p playbench-tests --bin gameverse_speed` prints.

The reference and its virtual environment are the ones of generate.py in this folder (see
its header: commit 7cbb423, pinned packages). Usage:
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy .cache/venv-gameverse/bin/python \
        tests/golden/gameverse/speed.py .cache/gameverse-ref [seconds per game]

One step is what GameVerse's runner does per reply, minus what only waits or writes
files: `parse_action(text)`, `step(action)` (which renders the window and captures the
observation) and `evaluate(obs)`; the environments' sleeps (Snake's 30 fps frame limiter
among them), PNG writes and log output are switched off. Snake plays its discrete (Stop) mode through its key events, as the golden
harness does, and captures the window surface. Replies are random moves drawn from a
seeded generator; only the steps are timed (a finished game is replaced untimed). Prints
one JSON line per game: {"game", "steps", "seconds", "steps_per_s"}.
"""
import json
import logging
import os
import random
import sys
import tempfile
import time
import types

REF = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GAMEVERSE_REF")
if not REF:
    sys.exit("usage: speed.py <GameVerse checkout at 7cbb423> [seconds per game]")
SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
sys.path.insert(0, os.path.join(os.path.abspath(REF), "src"))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

_gui = types.ModuleType("game_servers.GUI.GUI_manager")
_gui.GUIManager = object
sys.modules["game_servers.GUI.GUI_manager"] = _gui
time.sleep = lambda _s: None
logging.disable(logging.CRITICAL)
from PIL import Image  # noqa: E402

Image.Image.save = lambda self, *a, **k: None

import pygame  # noqa: E402
from game_servers.twenty_fourty_eight.game.twenty_fourty_eight_env import TwentyFourtyEightEnv  # noqa: E402
from game_servers.maze.game.maze_env import MazeEnv  # noqa: E402
from game_servers.snake.game.game import SnakeGame  # noqa: E402
from game_servers.snake.game.snake_env import SnakeEnv  # noqa: E402

TMP = tempfile.mkdtemp(prefix="gameverse-speed-")
clock = time.perf_counter


def measure(name, new_episode, replies):
    """Times single steps until SECONDS of stepping have passed."""
    rng = random.Random(0)
    step, done = new_episode(), False
    steps, spent = 0, 0.0
    while spent < SECONDS:
        if done:
            step, done = new_episode(), False
        text = rng.choice(replies)
        t0 = clock()
        done = step(text)
        spent += clock() - t0
        steps += 1
    print(json.dumps({"game": name, "steps": steps, "seconds": spent, "steps_per_s": steps / spent}), flush=True)


def new_2048():
    env = TwentyFourtyEightEnv({"log_path": os.path.join(TMP, "2048"), "target_tile": 2048, "task": "t", "action_mode": "semantic"})
    env.initial_obs()
    count = [0]

    def step(text):
        obs, *_ = env.step(env.parse_action(text))
        _score, done = env.evaluate(obs)
        count[0] += 1
        return done or env.game.terminated or count[0] >= 1000

    return step


def new_maze():
    env = MazeEnv({"log_path": os.path.join(TMP, "maze"), "task": "t", "action_mode": "semantic", "show_graphic": False, "size": 4})
    env.initial_obs()
    count = [0]

    def step(text):
        obs, _r, terminated, *_ = env.step(env.parse_action(text))
        _score, done = env.evaluate(obs)
        count[0] += 1
        return terminated or done or count[0] >= 20

    return step


def new_snake():
    game = SnakeGame(board_size=9, mode="discrete", seed=42, num_obstacles=0)
    game.start(window_title="Snake Game")
    game.clock = None  # its render waits for a 30 fps frame rate: a sleep too
    env = SnakeEnv.__new__(SnakeEnv)
    env.cfg = types.SimpleNamespace(game_mode="discrete", action_mode="semantic", coor_trans=False)
    env.action_mode = "semantic"
    env.game = game
    count = [0]

    def step(text):
        env._execute_action(env.parse_action(text))
        game.process_events()
        surface = pygame.display.get_surface()
        Image.frombytes("RGB", surface.get_size(), pygame.image.tostring(surface, "RGB"))
        _score, done = env.evaluate(None)
        count[0] += 1
        return done or count[0] >= 100

    return step


measure("2048", new_2048, ["up", "down", "left", "right"])
measure("Maze", new_maze, ["up", "down", "left", "right"])
measure("Snake", new_snake, ["L", "R", "U", "D"])

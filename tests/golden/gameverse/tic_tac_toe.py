#!/usr/bin/env python3
"""Golden episodes of GameVerse's Tic-Tac-Toe, from the reference code.

The reference is the public GameVerse repository (THUSI-Lab/GameVerse) at commit 7cbb423
("Update README.md"). This script imports its Tic-Tac-Toe environment from a checkout of
that commit; nothing of it is copied here. Our harness builds the environment as the
benchmark does (minimax opponent, semantic or GUI actions, GUI points in pixels or with
its normalized coordinates on), hands it action texts (what a model writes under
`### Actions`: cells in every accepted form, JSON clicks in every accepted form, occupied
cells, clicks off the board, unreadable text) and records what the reference makes of
them.

Set up (pinned versions):
    python3 -m venv .cache/venv-gameverse
    .cache/venv-gameverse/bin/pip install numpy==2.2.6 pillow==11.3.0 omegaconf==2.3.0 \
        gymnasium==1.1.1
    mkdir -p .cache/gameverse-ref && git -C <GameVerse repository> archive 7cbb423 src \
        | tar -x -C .cache/gameverse-ref
Run (from the repository root):
    .cache/venv-gameverse/bin/python tests/golden/gameverse/tic_tac_toe.py .cache/gameverse-ref
(or set GAMEVERSE_REF to the checkout).

Output:
- tic_tac_toe.json.gz, in the generic golden format `playbench-golden/1` (see
  `docs/golden-data.md`): per episode the kwargs (`action_mode` "gui" for GUI games,
  `coordinates` "normalized" for `coor_trans`), the state after reset and, per step, the
  action text, the driver's state (`board`, `agent_mark`, `result`, `agent_marks`), the
  reward (the change of the reference's `evaluate()` score) and the flags. Semantic games
  first (their stream is unchanged), then whole GUI games as X and as O.
- tic_tac_toe_clicks.json.gz (`playbench-gameverse-clicks/1`): the reference's GUI reading
  (`parse_action` then `step`) of adversarial click texts on a fresh game as X, with
  normalized coordinates off and on: per case the text, the point `parse_action` made
  (`[x, y]` when both are ints or bools, as ints; else null), where it landed (`cell N`, `off board`, or
  `raises <exception>` when the reference's step raises, e.g. a float point on the board)
  and the state after the step (null when it raised).
"""
import copy
import gzip
import json
import logging
import os
import random
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
PINNED_COMMIT = "7cbb423"
ENV_ID = "GameVerse/TicTacToe"
STEP_CAP = 20  # GameVerse's runner cap for Tic-Tac-Toe

REF = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("GAMEVERSE_REF")
if not REF:
    sys.exit("usage: tic_tac_toe.py <GameVerse checkout at 7cbb423>")
sys.path.insert(0, os.path.join(os.path.abspath(REF), "src"))

# The reference shows a tkinter window beside the game; it changes no state.
_ui = types.ModuleType("game_servers.tic_tac_toe.game.tic_tac_toe_ui")
_ui.TicTacToeUIManager = None
_ui.TicTacToeUI = None
sys.modules["game_servers.tic_tac_toe.game.tic_tac_toe_ui"] = _ui
from PIL import Image  # noqa: E402

Image.Image.save = lambda self, *a, **k: None  # the env saves every screenshot

import game_servers.tic_tac_toe.game.tic_tac_toe_env as ttt  # noqa: E402


class NoUI:
    def __init__(self, *a, **k):
        raise RuntimeError("no window here")


ttt.TicTacToeUIManager = NoUI


def make(mark, mode="semantic", coor_trans=False):
    log = tempfile.mkdtemp(prefix="ttt-golden-")
    return ttt.TicTacToeEnv(
        {"task": "golden", "log_path": log, "ai_opponent": "minimax",
         "player_mark": mark, "action_mode": mode, "coor_trans": coor_trans}
    )


def gui_kwargs(mark, coor_trans):
    kwargs = {"player_mark": mark, "action_mode": "gui"}
    if coor_trans:
        kwargs["coordinates"] = "normalized"
    return kwargs


def state(env):
    g = env.game
    board = [c if c in ("X", "O") else "" for c in g.board]
    if g.is_finished:
        result = "win" if g.winner == env.player_mark else (
            "loss" if g.winner == env.ai_mark else "draw")
    else:
        result = "ongoing"
    return {"board": board, "agent_mark": env.player_mark, "result": result,
            "agent_marks": sum(1 for c in g.board if c == env.player_mark)}


def cell_text(rng, i):
    """One of the ways a model may name cell i (0-8)."""
    r, c = divmod(i, 3)
    name = "ABC"[r] + "123"[c]
    return rng.choice([
        name, name.lower(), f"I will play {name}.", f"### Actions\n{name}",
        f"({r}, {c})", f"({r},{c})", str(i + 1), f"cell {i + 1} please",
        f"{name} (not {'ABC'[(r + 1) % 3]}{c + 1}!)",
    ])


def bad_text(rng):
    return rng.choice([
        "", "pass", "D4", "(3, 3)", "(0, 5) maybe", "ten", "A4 B0", "0", "x5y",
        "I am not sure.", "( 1,1)", "C22", "row b column 3",
    ])


def episode(rng, mark, style):
    env = make(mark)
    env.initial_obs()
    ep = {"kwargs": {"player_mark": mark}, "seed": None, "reset": state(env), "steps": []}
    before = 0.0
    for n in range(1, STEP_CAP + 1):
        free = [i for i, c in enumerate(env.game.board) if c not in ("X", "O")]
        taken = [i for i, c in enumerate(env.game.board) if c in ("X", "O")]
        roll = rng.random()
        if style == "expert" and roll < 0.9:
            # The reference's own minimax, playing the agent's side, makes drawn games.
            best = ttt.MinimaxAI(bot=env.player_mark, opponent=env.ai_mark).find_best_move(env.game)
            text = cell_text(rng, best) if best is not None else bad_text(rng)
        elif style in ("careful", "expert") or roll < 0.8 or not (taken or style == "sloppy"):
            text = cell_text(rng, rng.choice(free)) if free else bad_text(rng)
        elif taken and roll < 0.9:
            text = cell_text(rng, rng.choice(taken))
        else:
            text = bad_text(rng)
        obs, _r, terminated, _t, _i = env.step(env.parse_action(text))
        score, _done = env.evaluate(obs)
        ep["steps"].append({"action": text, "state": state(env), "reward": score - before,
                            "terminated": bool(terminated), "truncated": n == STEP_CAP and not terminated})
        before = score
        if terminated:
            break
    return ep


# --- GUI mode -------------------------------------------------------------------------

EDGES = (49, 50, 199, 200, 349, 350, 499, 500)


def pixel_in(rng, i):
    """A window pixel (x, y) on cell i, edges of the cell often."""
    r, c = divmod(i, 3)
    pick = lambda k: rng.choice([50 + 150 * k, 50 + 150 * k + 149, 50 + 150 * k + 75,
                                 rng.randint(50 + 150 * k, 50 + 150 * k + 149)])
    return pick(c), pick(r)


def written(rng, p, coor_trans):
    """How a model writes pixel p: itself, or on the 0-1000 scale (2p + 1 maps back)."""
    if not coor_trans:
        return p
    return rng.choice([2 * p + 1, float(2 * p + 1), 2 * p + 1.5])


def click_form(rng, x, y):
    """One of the ways a model may write a click at (x, y)."""
    js = json.dumps
    nested = {"action_type": "CLICK", "parameters": {"x": x, "y": y}}
    return rng.choice([
        f"```json\n{js(nested, indent=4)}\n```",
        f"I click {js(nested)} on the empty cell.",
        f"```json\n{js({'x': x, 'y': y})}\n```",
        js({"x": x, "y": y, "action_type": "click"}),
        js({"action_type": "left_click", "parameters": {"button": "left", "x": x, "y": y}}),
        js({"action_type": "MOVE_TO", "parameters": {"x": x, "y": y}}),
        f"Clicking at {{\"x\": {x}, \"y\": {y}}}." if isinstance(x, int) and isinstance(y, int)
        else js({"x": x, "y": y}),
        f"### Reasoning\nThe cell is empty.\n### Actions\n```json\n{js(nested)}\n```",
    ])


def bad_click(rng, coor_trans):
    off = rng.choice([rng.randint(-30, 49), rng.randint(500, 700)])
    if coor_trans:
        off = rng.choice([-1, -250, rng.randint(0, 99)])
    return rng.choice([
        click_form(rng, off, rng.randint(50, 499)),
        click_form(rng, rng.randint(50, 499), off),
        "", "B2", "I will click the centre.", "```json\n[{\"x\": 275, \"y\": 275}]\n```",
        "{\"x\": 275}", "{\"parameters\": null}", "{\"action_type\": \"CLICK\", \"parameters\": {}}",
        "{x: 275, y: 275}", "{\"x\": 275, \"y\": 275,}", "[275, 275]",
        "{\"x\": 10.5, \"y\": 275}", "{\"x\": -0.0, \"y\": 275}", "{\"x\": NaN, \"y\": 275}",
        "{\"x\": true, \"y\": 275}",
    ])


def raises(env, text):
    """Whether the reference's step raises on this text (such texts end no game here)."""
    trial = copy.deepcopy(env)
    try:
        trial.step(trial.parse_action(text))
        return False
    except Exception:  # noqa: BLE001 - the reference's own failure
        return True


def gui_episode(rng, mark, style, coor_trans):
    env = make(mark, "gui", coor_trans)
    env.initial_obs()
    ep = {"kwargs": gui_kwargs(mark, coor_trans), "seed": None, "reset": state(env), "steps": []}
    before = 0.0
    for n in range(1, STEP_CAP + 1):
        free = [i for i, c in enumerate(env.game.board) if c not in ("X", "O")]
        taken = [i for i, c in enumerate(env.game.board) if c in ("X", "O")]
        roll = rng.random()
        for _ in range(100):
            if style == "expert" and roll < 0.9 and free:
                cell = ttt.MinimaxAI(bot=env.player_mark, opponent=env.ai_mark).find_best_move(env.game)
            elif free and (style == "careful" or roll < 0.75 or not taken):
                cell = rng.choice(free)
            elif taken and roll < 0.88:
                cell = rng.choice(taken)
            else:
                cell = None
            if cell is None:
                text = bad_click(rng, coor_trans)
            else:
                x, y = pixel_in(rng, cell)
                text = click_form(rng, written(rng, x, coor_trans), written(rng, y, coor_trans))
            if not raises(env, text):
                break
        obs, _r, terminated, _t, _i = env.step(env.parse_action(text))
        score, _done = env.evaluate(obs)
        ep["steps"].append({"action": text, "state": state(env), "reward": score - before,
                            "terminated": bool(terminated), "truncated": n == STEP_CAP and not terminated})
        before = score
        if terminated:
            break
    return ep


def click_cases():
    """Adversarial click texts: every extraction path and every coordinate type."""
    js = json.dumps
    nested = lambda x, y: js({"action_type": "CLICK", "parameters": {"x": x, "y": y}})
    cases = [
        f"```json\n{json.dumps(json.loads(nested(125, 275)), indent=4)}\n```",
        "### Reasoning\nB1.\n### Actions\n```json\n" + nested(125, 275) + "\n```\nDone.",
        "```json" + js({"x": 425, "y": 425}) + "```",
        "```json\n" + js({"x": 425, "y": 125}) + "\n```\n```json\n" + js({"x": 125, "y": 125}) + "\n```",
        "```json\n[" + nested(275, 275) + "]\n```",
        "```json\n{\"x\": 275, \"y\": 275} and more\n```",
        "```JSON\n" + nested(275, 425) + "\n```",
        "```\n" + nested(125, 425) + "\n```",
        "I will click " + nested(375, 250) + " now.",
        nested(375, 250) + " then " + nested(125, 125),
        js({"action_type": "CLICK", "note": "x", "parameters": {"x": 125, "y": 125}}),
        "See " + js({"parameters": {"x": 125, "y": 125}, "action_type": "CLICK"}),
        "See " + js({"action_type": 5, "parameters": {"x": 275, "y": 125}}),
        "See " + js({"action_type": "CLICK", "parameters": {"x": 275, "y": {"z": 1}}}),
        "See " + js({"action_type": "CLICK", "parameters": {"button": "left", "x": 425, "y": 275}}),
        js({"action_type": "JUMP", "parameters": {"x": 425, "y": 275}}),
        js({"action_type": "PRESS", "parameters": {"key": "up"}}),
        js({"x": 100, "y": 400}),
        "Click " + js({"x": 100, "y": 400}) + ".",
        "{ \"x\" :100 ,\n \"y\": 400 }",
        js({"x": 100, "y": 400, "action_type": "CLICK"}),
        "Click " + js({"x": 100, "y": 400, "action_type": "CLICK"}),
        js({"x": 100, "y": 400, "parameters": {"x": 400, "y": 100}}),
        '{"x": 100, "x": 400, "y": 100}',
        '{"x": 100}', "{}", '{"parameters": {}}', '{"parameters": null}', '{"parameters": [100, 100]}',
        '{"parameters": "x"}', '{"parameters": {"x": 100}}',
        '[{"x": 100, "y": 100}]', '[1, 2]', '["parameters"]', '"parameters"', '"click"', "42", "null",
        "{x: 100, y: 100}", "{'x': 100, 'y': 100}", '{"x": 100, "y": 100,}', "click at (100, 100)", "",
        "None", "B2",
        '{"x": 100.0, "y": 100}', '{"x": 100, "y": 100.0}', '{"x": 100.5, "y": 250.5}', '{"x": 1e2, "y": 1e2}',
        '{"x": 10.5, "y": 100}', '{"x": 100, "y": 510.5}', '{"x": -0.0, "y": 100}', '{"x": -10.0, "y": 100.0}',
        '{"x": NaN, "y": 100}', '{"x": 100, "y": NaN}', '{"x": Infinity, "y": 100}', '{"x": -Infinity, "y": 100}',
        '{"x": 100000000000000000000000, "y": 100}', '{"x": -100000000000000000000000, "y": 100}',
        '{"x": true, "y": 100}', '{"x": false, "y": false}',
        '{"x": "100", "y": "100"}', '{"x": null, "y": 100}', '{"x": 100, "y": null}', '{"x": [100], "y": 100}',
        '{"x": {"v": 100}, "y": 100}', '{"x": 100, "y": "b"}',
        "Click {\"x\": -5, \"y\": 100}", '{"x": -5, "y": 100}', '{"x": 100, "y": -1}',
        'Click {"x": \u0661\u0660\u0660, "y": 100} or {"x": 400, "y": 400}',
        '{\u00a0"x": 100, "y": 100}',
        '\ufeff{"x": 100, "y": 100}',
    ]
    for v in EDGES:
        cases.append(js({"x": v, "y": 275}))
        cases.append(js({"x": 275, "y": v}))
    for v in (0, 99, 100, 101, 398, 399, 400, 401, 699, 700, 701, 998, 999, 1000, 1001, 5000, -1):
        cases.append(nested(v, 550))
    for v in (99.9, 100.0, 399.99, 700.5, 999.9, 1000.0):
        cases.append(js({"x": v, "y": 550}))
    return cases


def click_table():
    rows = []
    for coor_trans in (False, True):
        for text in click_cases():
            env = make("X", "gui", coor_trans)
            env.initial_obs()
            action = env.parse_action(text)
            # A bool is an int to Python's arithmetic: recorded as the int it is.
            point = ([int(action.x), int(action.y)]
                     if all(isinstance(v, int) for v in (action.x, action.y)) else None)
            try:
                env.step(action)
            except Exception as e:  # noqa: BLE001 - the reference's own failure
                rows.append({"text": text, "coordinates": "normalized" if coor_trans else "pixels",
                             "point": point, "landing": f"raises {type(e).__name__}", "state": None})
                continue
            st = state(env)
            marked = [i for i, c in enumerate(st["board"]) if c == "X"]
            landing = f"cell {marked[0]}" if marked else "off board"
            rows.append({"text": text, "coordinates": "normalized" if coor_trans else "pixels",
                         "point": point, "landing": landing, "state": st})
    return rows


def write(name, doc):
    path = os.path.join(HERE, name)
    raw = json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(raw)
    return path


def main():
    logging.disable(logging.CRITICAL)
    rng = random.Random(20261201)
    episodes = []
    for mark in ("X", "O"):
        for style in ("expert", "careful", "mixed", "sloppy"):
            for _ in range(40):
                episodes.append(episode(rng, mark, style))
    gui_rng = random.Random(20261202)
    for coor_trans in (False, True):
        for mark in ("X", "O"):
            for style in ("expert", "careful", "mixed", "sloppy"):
                for _ in range(20 if not coor_trans else 8):
                    episodes.append(gui_episode(gui_rng, mark, style, coor_trans))
    doc = {"format": "playbench-golden/1", "generator": "tests/golden/gameverse/tic_tac_toe.py",
           "reference": {"repository": "THUSI-Lab/GameVerse", "commit": PINNED_COMMIT},
           "env": ENV_ID, "episodes": episodes}
    path = write("tic_tac_toe.json.gz", doc)
    ends = {}
    for e in episodes:
        r = e["steps"][-1]["state"]["result"]
        ends[r] = ends.get(r, 0) + 1
    print(f"{path}: {len(episodes)} episodes, {sum(len(e['steps']) for e in episodes)} steps, "
          f"{ends}, {os.path.getsize(path)} bytes")
    rows = click_table()
    clicks = {"format": "playbench-gameverse-clicks/1", "generator": "tests/golden/gameverse/tic_tac_toe.py",
              "reference": {"repository": "THUSI-Lab/GameVerse", "commit": PINNED_COMMIT},
              "game": ENV_ID, "cases": rows}
    path = write("tic_tac_toe_clicks.json.gz", clicks)
    landings = {}
    for r in rows:
        key = r["landing"].split(" ")[0]
        landings[key] = landings.get(key, 0) + 1
    print(f"{path}: {len(rows)} click cases, {landings}, {os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()

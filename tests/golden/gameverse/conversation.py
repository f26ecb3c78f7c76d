#!/usr/bin/env python3
"""GameVerse's agent loop on its open games, from the reference code: every request.

The reference is the public GameVerse repository (THUSI-Lab/GameVerse) at commit 7cbb423.
Its own zero-shot agent (`agent_client.base_agent.BaselineAgent`, `zeroshot_agent`, the
games' zero-shot prompt modules) plays each open game in the loop of its runner
(`agent_client.runner.eval.BaseRunner.step`: game info, agent, `parse_action`, `step`,
`evaluate`) against a scripted model. Ours are only the stand-ins around it: the model
client answers from a script (well-formed replies, `### Actions: up` on one line, no
headers, GUI JSON, empty replies, ...) and records each request it gets; the log writer is
inert; the vector store (unused by this agent) is inert; each screenshot is replaced by a
marker naming the observation it is (`step N`: after N actions), which the PNG encoder
writes in place of the image. The games are built as `generate.py` and `tic_tac_toe.py`
build them (their helpers are imported), Snake in its discrete (Stop) mode.

Set up as generate.py says (the same pinned venv and checkout), then from the repository
root:
    SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy .cache/venv-gameverse/bin/python \
        tests/golden/gameverse/conversation.py .cache/gameverse-ref [--prompts-out envs/src/gameverse]
With --prompts-out it also writes Tic-Tac-Toe's zero-shot templates into
<dir>/tic_tac_toe/prompts/ (the Rust port's data files).

Output: conversation.json.gz: per run the environment id, kwargs, seed, step cap, the
experience text (runs with reflection on), the script, and per step the request (system
text; user parts in order, `{"text": ...}` verbatim or `{"image": "step N"}` / the text
`None`), the text the agent handed the game and the game's state after it (the driver's
`state`) with its terminated flag. Replayed by tests/tests/gameverse_conversation.rs.
"""
import copy
import gzip
import importlib
import json
import os
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
REF = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else os.environ.get("GAMEVERSE_REF")
if not REF:
    sys.exit("usage: conversation.py <GameVerse checkout at 7cbb423> [--prompts-out DIR]")
OUT_DIR = sys.argv[sys.argv.index("--prompts-out") + 1] if "--prompts-out" in sys.argv else None
sys.argv = [sys.argv[0], REF]
sys.path.insert(0, HERE)

# The games' harnesses of the other generators (importing them sets up the reference's
# path and the inert window stand-ins).
import generate as gv  # noqa: E402
import tic_tac_toe as ttt_golden  # noqa: E402


def stub(name, **attrs):
    mod = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(mod, k, v)
    sys.modules[name] = mod


class Inert:
    def __init__(self, *a, **k):
        pass

    def __call__(self, *a, **k):
        return None


# The model clients, the API-key file and the vector store are not part of the loop.
stub("agent_client.llms.llm", load_model=None, LocalBase=Inert)
stub("agent_client.llms.openai_utils", Logger=Inert, MoneyManager=Inert, pretty_print_conversation=lambda m: None)
stub("agent_client.json_schemas", SCHEMA_REGISTRY={})
stub("agent_servers.setup_openai", setup_openai=lambda *a, **k: {})
stub("langchain_openai", OpenAIEmbeddings=Inert)
stub("langchain_chroma", Chroma=Inert)

import agent_client.base_agent as base_agent  # noqa: E402
from agent_client.runner.eval import BaseRunner  # noqa: E402
from agent_servers.reflection_manager import ReflectionManager  # noqa: E402


class Shot:
    """A screenshot's stand-in: the observation it is."""

    def __init__(self, n):
        self.n = n


base_agent.encode_image = lambda image: f"step {image.n}"


class ScriptedLLM:
    def __init__(self, replies):
        self.replies = list(replies)
        self.requests = []

    def __call__(self, messages, **kwargs):
        self.requests.append(copy.deepcopy(messages))
        text = self.replies.pop(0)
        message = types.SimpleNamespace(content=text, role="assistant")
        return {"response": types.SimpleNamespace(choices=[types.SimpleNamespace(message=message)])}


def request_form(messages):
    assert [m["role"] for m in messages] == ["system", "user"], messages
    parts = []
    for p in messages[1]["content"]:
        if p["type"] == "text":
            parts.append({"text": p["text"]})
        else:
            parts.append({"image": p["image_url"]["url"].split(",", 1)[1]})
    return {"system": messages[0]["content"], "user": parts}


def make_agent(game, mode, replies, experience_file):
    llm = ScriptedLLM(replies)
    base_agent.load_model = lambda *a, **k: {
        "model_name": "scripted", "ctx_manager": types.SimpleNamespace(total_cost=0.0),
        "llm": llm, "tokenizer": None}
    cfg = {"llm_name": "scripted", "agent_type": "zeroshot_agent",
           "prompt_path": f"agent_servers.{game}.prompts.{mode}.zeroshot_agent",
           "log_path": tempfile.mkdtemp(prefix="gv-conversation-")}
    if experience_file:
        cfg.update({"use_reflection": True, "reflection_format": "txt", "reflection_file_path": experience_file})
    return base_agent.BaselineAgent(cfg), llm


class Game:
    """One open game in the runner's loop: info, parse + step, state, over."""

    def __init__(self, env_id, kwargs, seed):
        self.env_id, self.kwargs, self.seed = env_id, kwargs, seed
        mode = kwargs.get("action_mode", "semantic")
        if env_id == "GameVerse/TicTacToe":
            self.env = ttt_golden.make(kwargs.get("player_mark", "X"), mode,
                                       kwargs.get("coordinates") == "normalized")
            self.state = lambda: ttt_golden.state(self.env)
        elif env_id == "GameVerse/2048":
            gv.random.seed(seed)
            self.env = gv.TwentyFourtyEightEnv({"log_path": os.path.join(gv.TMP, "2048"), "target_tile": 2048,
                                                "task": "Merge Tiles to Reach the Target", "action_mode": mode})
            self.state = lambda: {"board": gv.board_2048(self.env), "score": self.env.game.score if hasattr(self.env.game, "score") else None,
                                  "unchanged_moves": self.env.game._consecutive_no_change_count,
                                  "game_over": bool(self.env.game.terminated)}
        elif env_id == "GameVerse/Maze":
            gv.random.seed(seed)
            self.env = gv.MazeEnv({"log_path": os.path.join(gv.TMP, "maze"), "task": "Navigate the ball to the red flag",
                                   "action_mode": mode, "show_graphic": False, "size": 4})
            self.state = lambda: {k: v for k, v in gv.maze_state(self.env).items()}
        else:
            game = gv.new_snake_game(seed, "discrete", 20.0, 1200.0)
            self.env = gv.make_snake_env(mode, "discrete", game)
            self.env.cfg.window_title = "Snake Game"
            self.env.cfg.task = "Control the snake to eat food and avoid obstacles"
            self.env.step_count, self.env.gui_manager, self.env.game_window = 0, None, None
            keys = ("body", "direction", "food", "foods_eaten", "game_over")
            self.state = lambda: {k: v for k, v in gv.snake_state(game).items() if k in keys}
        self.mode = mode
        self.over = False

    def initial(self):
        if self.env_id != "GameVerse/Snake":
            self.env.initial_obs()

    def play(self, text):
        """BaseRunner.step after the agent: parse, step, evaluate."""
        action = self.env.parse_action(text)
        if self.env_id == "GameVerse/Snake":
            self.env._execute_action(action)
            self.env.game.process_events()
            self.over = bool(self.env.game.get_state()["terminal"])
            return
        obs, _r, terminated, truncated, _info = self.env.step(action)
        _score, done = self.env.evaluate(obs)
        self.over = bool(terminated or truncated or done)


GAME_DIRS = {"GameVerse/TicTacToe": "tic_tac_toe", "GameVerse/2048": "twenty_fourty_eight",
             "GameVerse/Maze": "maze", "GameVerse/Snake": "snake"}


def run(name, env_id, kwargs, seed, cap, replies, experience=None):
    game = Game(env_id, kwargs, seed)
    experience_file = None
    if experience is not None:
        experience_file = os.path.join(tempfile.mkdtemp(prefix="gv-experience-"), "experience.txt")
        with open(experience_file, "w", encoding="utf-8") as f:
            f.write(experience)
        experience, _meta = ReflectionManager().load_reflection(file_path=experience_file)
    agent, llm = make_agent(GAME_DIRS[env_id], game.mode, replies, experience_file)
    runner = BaseRunner({"max_steps": cap})
    runner.set_env(game.env)
    runner.set_agent(agent)
    game.initial()
    steps = []
    for i in range(cap):
        if not llm.replies:
            break
        obs = types.SimpleNamespace(image=Shot(i), to_text=lambda: "")
        text = agent(obs, game.env.get_game_info())
        game.play(text)
        steps.append({"request": request_form(llm.requests[-1]), "text": text,
                      "state": game.state(), "terminated": game.over})
        if game.over:
            break
    out = {"name": name, "env": env_id, "kwargs": kwargs, "seed": seed, "max_steps": cap,
           "script": replies, "steps": steps}
    if experience is not None:
        out["experience"] = experience
    return out


def actions(text, reasoning="Looking at the board."):
    return f"### Reasoning\n{reasoning}\n### Actions\n{text}"


def click(x, y):
    body = json.dumps({"action_type": "CLICK", "parameters": {"x": x, "y": y}}, indent=4)
    return f"```json\n{body}\n```"


def press(key, array=False):
    body = json.dumps({"action_type": "PRESS", "parameters": {"key": key}}, indent=4)
    return f"```json\n[{body}]\n```" if array else f"```json\n{body}\n```"


RUNS = [
    ("tic_tac_toe_x_draw", "GameVerse/TicTacToe", {"player_mark": "X"}, 0, 20, [
        actions("B2"), actions("A3", "{Braces} stay literal."), "  ### Reasoning  \nx\n\n  ### Actions  \n\n  C1  \n",
        actions("B3\nA2"), actions("**C2**"), actions("C3")]),
    ("tic_tac_toe_o_header_line", "GameVerse/TicTacToe", {"player_mark": "O"}, 0, 20, [
        actions("B2"), "### Reasoning\nBlock.\n### Actions: A3"]),
    ("tic_tac_toe_x_no_headers", "GameVerse/TicTacToe", {"player_mark": "X"}, 0, 20, ["I play B2."]),
    ("tic_tac_toe_x_gui", "GameVerse/TicTacToe", {"player_mark": "X", "action_mode": "gui"}, 0, 20, [
        actions(click(275, 275)), actions(click(425, 50)), "### Actions\n" + json.dumps({"x": 60, "y": 499}),
        actions(click(200, 400)), actions(click(350, 125))]),
    ("tic_tac_toe_o_gui_occupied", "GameVerse/TicTacToe", {"player_mark": "O", "action_mode": "gui"}, 0, 20, [
        actions(click(275, 275)), actions(click(100, 100))]),
    ("2048_semantic", "GameVerse/2048", {}, 1, 1000, [
        actions("down"), "### Actions: left", "left", actions("**Left**"), "  ### Actions\n\n  right  \n",
        "### Actions\nup\n### Actions\ndown", actions("move up"), "", actions('{"key": "up"}', "{x} {{y}}"),
        "### Actions\r\nleft\r\n", "### Action_reasoning\nwhy\n### Actions\nright\n### State_summary\nok"]),
    ("2048_gui_experience", "GameVerse/2048", {"action_mode": "gui"}, 2, 1000, [
        actions(press("down")), actions(press("left", array=True)), "### Actions\nnothing", actions(press("right"))],
     "1. Keep the largest tile in a corner {always}.\n2. Never press up."),
    ("maze_semantic", "GameVerse/Maze", {}, 0, 20, [
        actions("down"), actions("down"), "### Actions: right", actions("right"), "no headers at all",
        actions("Right."), actions("right"), actions("down"), actions("up"), actions("down")]),
    ("maze_gui", "GameVerse/Maze", {"action_mode": "gui"}, 2, 20, [
        actions(press("right")), actions(press("right", array=True)), actions(press("right")),
        "### Actions " + press("down"), actions(press("down")), actions(press("down")),
        actions('{"action_type": "CLICK", "parameters": {"x": 1, "y": 2}}'), actions(press("left")),
        actions(press("left")), actions(press("up"))]),
    ("snake_semantic", "GameVerse/Snake", {}, 42, 100, [
        actions("L"), actions("U\nU"), "### Actions: U", actions("Wait"), actions("left"), "U",
        actions("R"), actions("R\nR"), actions("**R**"), actions("D"), actions("D\nD\nD\nD\nD\nD")]),
    ("snake_gui", "GameVerse/Snake", {"action_mode": "gui"}, 42, 100, [
        actions(press("up", array=True)), actions(press("up")), actions(press("right", array=True)),
        "### Actions\n" + json.dumps([{"action_type": "PRESS", "parameters": {"key": "right"}},
                                      {"action_type": "PRESS", "parameters": {"key": "down"}}]),
        actions(press("space", array=True)), "none", actions(press("right")), actions(press("down"))]),
]


def ttt_prompts():
    for mode in ("semantic", "gui"):
        for part in ("system", "user"):
            module = importlib.import_module(
                f"agent_servers.tic_tac_toe.prompts.{mode}.zeroshot_agent.action_inference_{part}")
            path = os.path.join(OUT_DIR, "tic_tac_toe", "prompts", f"{mode}_{part}.txt")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(module.PROMPT)


def main():
    if OUT_DIR:
        ttt_prompts()
    runs = [run(*r) for r in RUNS]
    data = {"commit": gv.PINNED_COMMIT, "runs": runs}
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    path = os.path.join(HERE, "conversation.json.gz")
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(raw)
    print(f"conversation.json.gz: {len(runs)} runs, {sum(len(r['steps']) for r in runs)} requests, "
          f"{len(raw)} bytes JSON, {os.path.getsize(path)} gz")


if __name__ == "__main__":
    main()

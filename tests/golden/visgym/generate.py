"""Golden data for the VisGym port, generated from the reference environments.

Reference: the public VisGym repository (github.com/visgym/VisGym), commit
0289034b0cefa6fbbad27f7dd8c01545df324afd. Put its `gymnasium/` package on the path
(a checkout or an export of that commit), then run from the repository root:

    python3.11 -m venv .cache/venv-visgym
    .cache/venv-visgym/bin/pip install numpy==1.26.4 pygame==2.6.1 \
        opencv-python-headless==4.11.0.86 matplotlib==3.10.1 pillow==13.0.0 \
        trimesh==4.5.2 cloudpickle typing_extensions farama-notifications
    SDL_VIDEODRIVER=dummy .cache/venv-visgym/bin/python tests/golden/visgym/generate.py \
        --ref .cache/visgym-ref [--only literal,maze_2d,...]

CPython 3.11 (3.11.7 here) is required: error messages of `ast.literal_eval` and the
iteration order of sets are version-specific. Maze 3D imports Ursina/Panda3D at module
level; they are replaced by an inert stub because only its state is recorded here.

Counting and Referring Dot-Pointing also need pycocotools==2.0.8 and lvis==0.5.3; Mental
Rotation 3D (Objaverse) renders with pyrender through EGL (Mesa's software driver does):
scipy==1.14.1 networkx==3.4.2 pyrender==0.1.45 PyOpenGL==3.1.0 freetype-py imageio==2.36.1
"pyglet<2", installed with --no-deps so that numpy stays 1.26.4.

Writes tests/golden/visgym/*.json.gz (replayed by tests/tests/visgym_golden.rs); `lanczos`
needs Pillow alone: Pillow's resize as the harness shrinks frames (bench/src/lanczos.rs).
Jigsaw and Colorization play the bundled image set (public/visgym-images/images.zip, built by
scripts/visgym-images/build.py), unpacked into a temporary folder as the reference takes
a directory; `image_listing` lists a temporary folder of awkward names.
"""

import argparse
import ast
import gzip
import hashlib
import json
import os
import random
import re
import sys
import types

assert sys.version_info[:2] == (3, 11), "generate with CPython 3.11"

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


# The registered ids every environment's action strings go through (the literal
# parser and the harness's reply parser).
ALL_IDS = [
    f"{name}/{level}"
    for name in [
        "maze_2d", "maze_3d", "sliding_block", "matchstick_equation",
        "matchstick_rotation", "patch_reassembly", "mental_rotation_3d_cube",
    ]
    for level in ("easy", "hard")
]


def write(name, data):
    path = os.path.join(HERE, name + ".json.gz")
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # CPython prints heap addresses (`<ast.Name object at 0x7f…>`) that change from run
    # to run; a fixed one keeps the files reproducible (the replay ignores addresses).
    raw = re.sub(r" object at 0x[0-9a-f]+", " object at 0x7f0000000000", raw).encode()
    with open(path, "wb") as f:
        # mtime=0 keeps the file byte-identical across runs.
        f.write(gzip.compress(raw, 9, mtime=0))
    print(f"{name}: {len(raw)} bytes JSON, {os.path.getsize(path)} gzipped")


# ----- ast.literal_eval -------------------------------------------------------------------


def gen_literal():
    from literal_corpus import corpus

    rows = []
    for s in corpus():
        try:
            v = ast.literal_eval(s)
        except Exception as e:  # noqa: BLE001 - every exception is data here
            rows.append([s, type(e).__name__, str(e)])
            continue
        if isinstance(v, set) and any(isinstance(x, (str, bytes)) for x in v):
            continue  # order depends on the process's hash seed
        try:
            rows.append([s, "ok", repr(v), str(v)])
        except ValueError as e:
            # An int of more than 4300 decimal digits: read, but not printable. An int
            # is recorded by its hexadecimal form and hash.
            value = [hex(v), str(hash(v))] if isinstance(v, int) else []
            rows.append([s, "ok", f"ValueError: {e}"] + value)
    write("literal_eval", {"envs": ALL_IDS, "rows": rows})


# ----- the harness's reply parser ----------------------------------------------------------


def stub_modules(names):
    """Inert stand-ins for heavy imports of the harness module (models, notebooks)."""

    class Anything:
        def __init__(self, *a, **k):
            pass

        def __getattr__(self, name):
            return Anything()

        def __call__(self, *a, **k):
            return Anything()

    added = []
    for name in names:
        if name in sys.modules:
            continue
        mod = types.ModuleType(name)
        mod.__getattr__ = lambda attr: Anything()
        sys.modules[name] = mod
        added.append(name)
    return added


def gen_reply():
    added = stub_modules(
        ["torch", "openai", "transformers", "qwen_vl_utils", "ipywidgets", "IPython", "IPython.display"]
    )
    from gymnasium.vlm.interactor import Interactor

    # Matplotlib looks for IPython later on: the stand-ins must not outlive the import.
    for name in added:
        del sys.modules[name]
    from literal_corpus import corpus

    replies = corpus() + [
        "I will move right.\n\n```python\n('move', 0)\n```", "(reorder, [2, 1, 3, 4])",
        "First ('move', 1) then maybe ('move', 2)", "(left, 'x') and (1, 2)", "ACTION:   ('guess',   5)",
        "no action here", "```json\n{\"action\": \"move\"}\n```", "````('move', 0)````",
        "<think>go right</think><answer>('move', 0)</answer>", "<answer>(move, 0)</answer> ('stop', 'stop')",
        "<answer>('move', 1)", "<|begin_of_box|>('move', 2)<|end_of_box|>", "\u25c1think\u25b7x\u25c1/think\u25b7('move', 3)",
        "Action: (move, 1)", "action : ('move', 1)", "Reaction: ('move', 1)", "MyAction:('move', 1)",
        "(move,1)", "( move , 1 )", "(_x, 1)", "(x1_y, 2)", "(1x, 2)", "(é, 2)", "(mové, 2)",
        "((('move', 0)))", "('move', (1, 2)) and ('stop',)", "('stop',)", "(('a',), 1)",
        "( )", "()", "(((", ")))(", "('move', 0) ('move'", "\u00a0('move',\u00a00)\u2003",
        "\x1c('move', 0)\x1f", "`('move', 0)` or `('move', 1)`", "Action:\n\n('rotate', [15, 0, 0])",
        "   ", "", "\n", "``````", "Action:", "ACTION: stop",
    ]
    rows = []
    for r in replies:
        plain = Interactor.parse_output(None, r)
        ans = r.split("<answer>")[1].split("</answer>")[0] if "<answer>" in r else r
        rows.append([r, plain, Interactor.parse_output(None, ans)])
    write("reply_parse", {"envs": ALL_IDS, "rows": rows})


# ----- the harness's conversation ----------------------------------------------------------

# Maze 2D easy, seed 0, played by a scripted model through the reference harness
# (`Interactor.run_episode` and `OpenAIVLM.query`, whose client is replaced by the
# script): every request's messages, with each image as the SHA-256 of the frame the
# harness encoded and its size after the harness's resize.

def conversation_script(plan, variant):
    """The model's replies (a string each) and failed requests ({"error": message})."""
    moves = [a for a in plan if a.startswith("('move'")]
    first, rest = moves[0], moves[1:]
    d = int(first[-2])
    wall = next(m for m in range(4) if m != d)  # usually blocked at the start corner
    out = []
    if variant == "verbalize":
        for m in moves:
            out.append(f"<think>The path continues.</think><answer>{m}</answer>")
        return out + ["<think>I am on the target.</think>\n<answer>('stop', 'stop')</answer>"]
    if variant == "text":
        return [f"Action: {m}" for m in moves] + ["('stop', 'stop')"]
    out += [
        "I will look around first.",
        {"error": "Error code: 500 - {'error': {'message': 'The server had an error'}}"},
        f"I will move.\n\n```python\n{first}\n```",
        f"('move', {wall}) is worth a try",
        "",
        "(move, 9)",
    ]
    for i, m in enumerate(rest):
        if i == 2:
            out.append({"error": "This model's maximum context length is 128000 tokens."})
        out.append(m if i % 2 else f"Action: {m}")
    return out + ["Done. ('stop', 'stop')"]


class ScriptedClient:
    """`client.chat.completions.create` of the OpenAI SDK, answering from a script."""

    def __init__(self, entries):
        self.entries = list(entries)
        self.requests = []
        self.chat = self
        self.completions = self

    def create(self, model, messages, **kwargs):
        import copy

        self.requests.append(copy.deepcopy(messages))
        entry = self.entries.pop(0) if self.entries else "('stop', 'stop')"
        if isinstance(entry, dict):
            raise RuntimeError(entry["error"])
        message = types.SimpleNamespace(content=entry)
        return types.SimpleNamespace(choices=[types.SimpleNamespace(message=message)], usage=None)


def gen_conversation():
    import copy
    import time

    import numpy as np

    added = stub_modules(
        ["torch", "openai", "transformers", "qwen_vl_utils", "ipywidgets", "IPython", "IPython.display"]
    )
    from gymnasium.vlm import vlm as vlm_module
    from gymnasium.vlm.interactor import Interactor

    for name in added:
        del sys.modules[name]
    from gymnasium.envs.maze_2d.maze_2d import Maze2DEnv

    time.sleep = lambda s: None  # the harness's retry back-off
    frames = {}
    encode = Interactor._image_to_b64

    def image_to_b64(self, img):
        b64 = encode(self, img)
        import base64, io
        from PIL import Image

        arr = np.ascontiguousarray(img, dtype=np.uint8)
        size = list(Image.open(io.BytesIO(base64.b64decode(b64))).size)
        frames[b64] = {"frame_sha256": hashlib.sha256(arr.tobytes()).hexdigest(), "size": size}
        return b64

    Interactor._image_to_b64 = image_to_b64

    def content(c):
        if isinstance(c, str):
            return c
        items = []
        for part in c:
            if part["type"] == "text":
                items.append({"text": part["text"]})
            else:
                b64 = part["image_url"]["url"].split(",", 1)[1]
                items.append({"image": frames[b64]})
        return items

    variants = [
        ("full_feedback", dict(include_env_feedback=True)),
        ("window_2", dict(include_env_feedback=True, num_interaction_history=2)),
        ("window_0", dict(include_env_feedback=True, num_interaction_history=0)),
        ("verbalize", dict(include_env_feedback=True, num_interaction_history=3, elicit_verbalization=True)),
        ("final_goal", dict(include_env_feedback=False, provide_final_goal=True)),
        ("text", dict(include_env_feedback=True)),
    ]
    runs = []
    for name, options in variants:
        env = Maze2DEnv(maze_width=9, maze_height=9, seed=0)
        env.reset(seed=0)
        plan = env.solve()
        script = conversation_script(plan, "verbalize" if "elicit_verbalization" in options else name)
        vlm = vlm_module.OpenAIVLM(api_key="none", model_name="scripted")
        vlm.client = ScriptedClient(script)
        interactor = Interactor(vlm, env, max_steps=20, master_seed=0, max_long_side=336)
        run = interactor.run_episode_text_mode if name == "text" else interactor.run_episode
        stats = run(seed=0, **options)
        runs.append({
            "name": name,
            "options": {k: v for k, v in options.items()},
            "script": script,
            "requests": [[{"role": m["role"], "content": content(m["content"])} for m in r]
                         for r in vlm.client.requests],
            "actions": [h["action"] for h in interactor.hist],
            "rewards": [float(h["reward"]) for h in interactor.hist],
            "stats": {k: stats[k] for k in ("step", "reward", "terminated", "truncated")},
        })
    write("conversation", {"env": "maze_2d/easy", "seed": 0, "budget": 20, "runs": runs})


# ----- environments -------------------------------------------------------------------

# Reference episodes per level: constructor seeds 0..INSTANCES-1; each instance plays a
# seeded episode with the reference's oracle (invalid actions mixed in), then an
# unseeded reset (continuation) and another seeded reset with random actions.
INSTANCES = 16
STEPS = 20

# Malformed or misnamed actions every environment gets (none of them a valid stop).
COMMON_BAD = [
    "hello world", "move", "", "I'll move right", "('move',)", "('move', 0, 1)",
    "['move', 0]", "{'move': 0}", "(1, 2)", "('jump', 1)", "('stop', 'halt!')",
    "('stop', '')", "('stop', 'stopp')", "('stop', 1)", "('stop', None)", "('move', x)",
    "('move', 0", "(move, 0)", "('Stop', 'stop')", "('stop', 'stop', 1)", "stop",
    "('move', {1, 2})", "('move', {'a': 1})", "('move', None)",
]


def round_floats(v):
    """12 significant digits: far inside the 1e-9 the replay allows, and compressible."""
    if isinstance(v, float):
        return float(f"{v:.12g}")
    if isinstance(v, list):
        return [round_floats(x) for x in v]
    if isinstance(v, dict):
        return {k: round_floats(x) for k, x in v.items()}
    return v


class Rec:
    """Records one environment's episodes."""

    def __init__(self, adapter, level):
        self.a = adapter
        self.level = level

    def state(self, env, at_reset):
        s = self.a.state(env, at_reset)
        return round_floats(s) if getattr(self.a, "continuous", False) else s

    def step(self, env, action):
        row = {"a": action}
        try:
            _, reward, terminated, truncated, info = env.step(action)
        except Exception as e:  # noqa: BLE001 - the reference raising is data here
            row["e"] = [type(e).__name__, str(e)]
            row["s"] = self.state(env, False)
            return row, False
        assert truncated is False
        row["f"] = env.env_feedback
        row["r"] = float(reward)
        row["t"] = bool(terminated)
        row["s"] = self.state(env, False)
        self.a.observe(env, row)
        return row, terminated

    def episode(self, env, reset_seed, actions):
        if reset_seed is None:
            env.reset()
        else:
            env.reset(seed=reset_seed)
        ep = {"seed": reset_seed, "reset": self.state(env, True)}
        if reset_seed is None and getattr(self.a, "random_unseeded", ()):
            # The reference draws these from OS entropy on an unseeded reset.
            for key in self.a.random_unseeded:
                ep["reset"].pop(key)
            ep["partial"] = True
        self.a.observe(env, ep)
        ep["size"] = self.a.frame_size(env)
        ep["solve"] = self.a.solve(env)
        steps = []
        for act in actions(env):
            row, done = self.step(env, act)
            steps.append(row)
            if done:
                break
        ep["steps"] = steps
        return ep


def scripted(rec, rng, env):
    """The oracle's actions with bad ones mixed in, ending with the oracle's stop."""
    plan = rec.a.oracle(env)
    bad = COMMON_BAD + rec.a.bad
    out = []
    for act in plan:
        if rng.random() < 0.35:
            out.append(rng.choice(bad))
        out.append(act)
    return out


def randomly(rec, rng, env, stop_at_end):
    out = []
    bad = COMMON_BAD + rec.a.bad
    for _ in range(STEPS):
        u = rng.random()
        out.append(rng.choice(bad) if u < 0.3 else rec.a.random_action(rng, env))
    if stop_at_end:
        out.append("('stop', 'stop')")
    return out


def gen_env(adapter):
    for level in ("easy", "hard"):
        rec = Rec(adapter, level)
        instances = []
        for ctor_seed in range(getattr(adapter, "instances", INSTANCES)):
            rng = random.Random(1000 * ctor_seed + (level == "hard"))
            env = adapter.make(level, ctor_seed)
            eps = [
                rec.episode(env, 100 + ctor_seed, lambda e: scripted(rec, rng, e)),
                rec.episode(env, None, lambda e: randomly(rec, rng, e, ctor_seed % 2 == 0)),
                rec.episode(env, 7 * ctor_seed + 3, lambda e: randomly(rec, rng, e, ctor_seed % 3 == 0)),
            ]
            inst = {"seed": ctor_seed, "episodes": eps}
            if hasattr(adapter, "instance_kwargs") and adapter.instance_kwargs(ctor_seed):
                inst["kwargs"] = adapter.instance_kwargs(ctor_seed)
            instances.append(inst)
        env = adapter.make(level, 0)
        data = {
            "env": f"{adapter.name}/{level}",
            "prompts": adapter.prompts(env),
            "instances": instances,
        }
        if hasattr(adapter, "frame_mask"):
            data["frame_mask"] = adapter.frame_mask(env)
        if hasattr(adapter, "order_keys"):
            data["orders"] = sample_orders(adapter, level)
        write(f"{adapter.name}_{level}", data)


class MatchstickEquationAdapter:
    name = "matchstick_equation"
    bad = [
        "('move', [0, 6, 2])", "('move', [0, 6, 2, 0, 1])", "('move', (0, 6, 2, 0))",
        "('move', [0.5, 6, 2, 0])", "('move', [1+2j, 6, 2, 0])", "('move', [0, 13, 2, 0])",
        "('move', [30, 0, 0, 0])", "('move', [-1, 0, 0, 0])", "('move', ['0', 6, 2, 0])",
        "('move', [0, 6, 0, 6])", "('move', [29, 0, 0, 0])", "('move', [True, 6, 2, 0])",
        "('undo', 'redo')", "('undo', 'undo!')", "('undo', 1)", "('undo', 'undo')",
        "('move', [[0], 6, 2, 0])", "('move', [0, 6, 2, None])", "('move', 0)",
    ]

    def make(self, level, seed):
        from gymnasium.envs.matchstick_equation.matchstick_equation import MatchstickEquationEnv

        return MatchstickEquationEnv(
            seed=seed, break_moves=1 if level == "easy" else 2, enforce_min_distance=True
        )

    def state(self, env, at_reset):
        info = env._get_info()
        return {
            "symbols": list(env.state.broken),
            "equation": info["equation"],
            "history_depth": info["history_depth"],
            "current_moves": info["current_moves"],
        }

    def observe(self, env, row):
        row["x"] = env.render(mode="ansi")

    def oracle(self, env):
        return env.solve(strategy="sos", sos_seed=12, sos_max_len=80)

    def solve(self, env):
        import copy

        return {
            "oracle": self.oracle(env),
            "bfs": env.solve(strategy="bfs"),
            "dfs": env.solve(strategy="dfs"),
            "sos_rng": copy.deepcopy(env).solve(),
        }

    def random_action(self, rng, env):
        n = len(env.state.broken)
        if rng.random() < 0.15:
            return "('undo', 'undo')"
        i, j = rng.randrange(n + 1), rng.randrange(n + 1)
        return f"('move', [{i}, {rng.randrange(13)}, {j}, {rng.randrange(13)}])"

    def prompts(self, env):
        env.render_mode = "rgb_array"
        rgb = env.get_prompt()
        env.render_mode = "ansi"
        ansi = env.get_prompt()
        env.render_mode = "rgb_array"
        return {"rgb_array": rgb, "ansi": ansi}

    def frame_size(self, env):
        h, w, _ = env.render().shape
        return [w, h]


class Maze2dAdapter:
    name = "maze_2d"
    bad = [
        "('move', 4)", "('move', -1)", "('move', 1.0)", "('move', True)", "('move', False)",
        "('move', '1')", "('move', [0])", "('move', (0,))", "('move', 99999999999999999999)",
        "('move', 1+0j)", "('move', 0.5)",
    ]

    def make(self, level, seed):
        from gymnasium.envs.maze_2d.maze_2d import Maze2DEnv

        n = 9 if level == "easy" else 11
        return Maze2DEnv(maze_width=n, maze_height=n, seed=seed)

    def state(self, env, at_reset):
        s = {"agent": env._agent_location.tolist(), "target": env._target_location.tolist()}
        if at_reset:
            s["maze_map"] = env.maze_map.tolist()
        return s

    def observe(self, env, row):
        import numpy as np

        row["x"] = env.render(mode="ansi")
        frame = np.ascontiguousarray(env.render(), dtype=np.uint8)
        row["h"] = hashlib.sha256(frame.tobytes()).hexdigest()

    def oracle(self, env):
        # The oracle's path, then off the target, back on it and off again (the
        # persistent canvas keeps a white disk on the target), then the stops.
        plan = [a for a in env.solve() if a.startswith("('move'")]
        tr, tc = env._target_location
        for d, (dr, dc) in enumerate([(0, 1), (-1, 0), (0, -1), (1, 0)]):
            if env.maze_map[tr + dr, tc + dc] == 0:
                back = (d + 2) % 4
                plan += [f"('move', {d})", f"('move', {back})", f"('move', {d})"]
                break
        return plan + ["('stop', 'stop')"]

    def solve(self, env):
        return {"oracle": env.solve()}

    def random_action(self, rng, env):
        return f"('move', {rng.randrange(4)})"

    def prompts(self, env):
        env.render_mode = "rgb_array"
        rgb = env.get_prompt()
        env.render_mode = "ansi"
        ansi = env.get_prompt()
        return {"rgb_array": rgb, "ansi": ansi}

    def frame_size(self, env):
        h, w, _ = env.render().shape
        return [w, h]


def stub_ursina():
    """Maze 3D imports Ursina and Panda3D at module level; only its state is recorded,
    so inert stand-ins replace them."""

    class Anything:
        def __init__(self, *a, **k):
            self.entities = []

        def __getattr__(self, name):
            return Anything()

        def __call__(self, *a, **k):
            return Anything()

    ursina = types.ModuleType("ursina")
    for n in ["Ursina", "Entity", "camera", "color", "window", "load_texture", "scene", "destroy"]:
        setattr(ursina, n, Anything())
    panda3d = types.ModuleType("panda3d")
    core = types.ModuleType("panda3d.core")
    core.PNMImage = Anything
    core.loadPrcFileData = lambda *a, **k: None
    panda3d.core = core
    sys.modules.setdefault("ursina", ursina)
    sys.modules.setdefault("panda3d", panda3d)
    sys.modules.setdefault("panda3d.core", core)


class Maze3dAdapter(Maze2dAdapter):
    name = "maze_3d"
    bad = [
        "('move', 1)", "('move', -1)", "('move', True)", "('move', False)", "('move', 0.0)",
        "('turn', 0)", "('turn', 4)", "('turn', True)", "('turn', 2.0)", "('turn', '1')",
        "('turn', [1])", "('move', 'forward')", "('turn', 99999999999999999999)",
    ]

    def make(self, level, seed):
        stub_ursina()
        from gymnasium.envs.maze_3d import maze_3d

        maze_3d.RandomMaze3DEnv._render_frame = lambda self: None
        maze_3d.RandomMaze3DEnv._initialize_ursina = lambda self: None
        n = 7 if level == "easy" else 9
        return maze_3d.Maze3DEnv(maze_width=n, maze_height=n, seed=seed)

    def state(self, env, at_reset):
        s = super().state(env, at_reset)
        s["cam_dir"] = int(env._cam_dir)
        if at_reset:
            s["maze_map"] = s.pop("maze_map")
        return s

    def observe(self, env, row):
        pass

    def oracle(self, env):
        return env.solve()

    def random_action(self, rng, env):
        return "('move', 0)" if rng.random() < 0.5 else f"('turn', {rng.randrange(1, 4)})"

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        return [336, 336]


class SlidingBlockAdapter:
    name = "sliding_block"
    bad = [
        "('move', (1.0, 2))", "('move', (1.5, 2))", "('move', (True, 2))", "('move', (0, 0))",
        "('move', (11, 0))", "('move', (1, 4))", "('move', (1, 2.5))", "('move', (1, -1))",
        "('move', [3, 2])", "('move', (1,))", "('move', (1, 2, 3))", "('move', ('1', 2))",
        "('move', (1+0j, 2))", "('move', (1, 1+2j))", "('move', (None, 2))", "('move', 1)",
        "('move', ((1, 2), (3, 4)))", "('move', (1, (2, 3)))", "('move', (7, 3.5))",
        "('move', (10, 0.0))", "('move', (9, 1.0))",
    ]

    def make(self, level, seed):
        from gymnasium.envs.sliding_block.sliding_block import SlidingBlockEnv

        return SlidingBlockEnv(num_shuffle_moves=30 if level == "easy" else 90, seed=seed)

    @staticmethod
    def layout(blocks):
        return {str(k): list(v["position"]) for k, v in blocks.items()}

    def state(self, env, at_reset):
        s = {"blocks": self.layout(env.blocks), "moves": env.moves}
        if at_reset:
            s["target_blocks"] = self.layout(env.target_blocks)
            s["board"] = env.board.tolist()
            s["target_board"] = env.target_board.tolist()
        return s

    def observe(self, env, row):
        row["x"] = env.render(mode="ansi")

    def oracle(self, env):
        return env.solve()

    def solve(self, env):
        return {"oracle": env.solve()}

    def random_action(self, rng, env):
        return f"('move', ({rng.randrange(1, 11)}, {rng.randrange(4)}))"

    def prompts(self, env):
        env.render_mode = "rgb_array"
        rgb = env.get_prompt()
        env.render_mode = "ansi"
        ansi = env.get_prompt()
        return {"rgb_array": rgb, "ansi": ansi}

    def frame_size(self, env):
        h, w, _ = env.render().shape
        return [w, h]


class PatchReassemblyAdapter:
    name = "patch_reassembly"
    bad = [
        "('place', (0, 0, 0, 0))", "('place', (0, 0))", "('place', (9, 0, 0))", "('place', (0, 9, 0))",
        "('place', (0, -1, 0))", "('place', (1.0, 0, 0))", "('place', (1+0j, 0, 0))",
        "('place', [0, 1, 1])", "('place', ('0', 1, 1))", "('place', 0)", "('remove', 9)",
        "('remove', -1)", "('remove', 1.0)", "('remove', True)", "('remove', (0,))",
        "('place', (0, 2.0, 1))", "('place', (1, 0.5, 0.5))",
    ]

    def make(self, level, seed):
        from gymnasium.envs.patch_reassembly.patch_reassembly import PatchReassemblyEnv

        if level == "easy":
            return PatchReassemblyEnv(grid_size=(6, 6), num_patches=5, seed=seed)
        return PatchReassemblyEnv(grid_size=(8, 8), num_patches=6, seed=seed)

    def state(self, env, at_reset):
        num = lambda v: v if isinstance(v, (float, bool)) else int(v)  # noqa: E731
        s = {"current_state": [[num(v) for v in a] for a in env.current_state]}
        if at_reset:
            s["patches"] = [sorted([int(r), int(c)] for r, c in p) for p in env.patches]
            s["patch_anchor"] = [[int(r), int(c)] for r, c in env.patch_anchor]
            s["parking_slot"] = [[int(v) for v in a] for a in env.parking_slot]
            s["colors"] = [[int(v) for v in c] for c in env.colors]
            s["canvas_bounds"] = [int(env._min_r), int(env._max_r), int(env._min_c), int(env._max_c)]
        return s

    def observe(self, env, row):
        row["x"] = env.render(mode="ansi")

    def oracle(self, env):
        return env.solve()

    def solve(self, env):
        return {"oracle": env.solve()}

    def random_action(self, rng, env):
        if rng.random() < 0.2:
            return f"('remove', {rng.randrange(env.num_patches)})"
        return f"('place', ({rng.randrange(env.num_patches)}, {rng.randrange(env.grid_rows)}, {rng.randrange(env.grid_cols)}))"

    def prompts(self, env):
        env.render_mode = "rgb_array"
        rgb = env.get_prompt()
        env.render_mode = "ansi"
        ansi = env.get_prompt()
        env.render_mode = "rgb_array"
        return {"rgb_array": rgb, "ansi": ansi}

    def frame_size(self, env):
        h, w, _ = env.render().shape
        return [w, h]


class MatchstickRotationAdapter:
    name = "matchstick_rotation"
    continuous = True
    instances = 12
    bad = [
        "('move', [1, 2])", "('move', [1, 2, 3, 4])", "('move', (1, 2, 3))", "('move', ['15', '0', '0'])",
        "('move', [' 1.5 ', 0, 0])", "('move', ['abc', 0, 0])", "('move', [None, 0, 0])",
        "('move', [1j, 0, 0])", "('move', [1e39, 0, 0])", "('move', [True, False, 1])",
        "('move', [[1, 2, 3]])", "('move', 5)", "('move', '1,2,3')", "('move', [1e400, 0, 0])",
        "('move', [-1e400, 0, 0])", "('move', [0, 0, 1e20])", "('move', [b'1.5', 0, 0])",
        "('move', [0, 0, -1e-300])", "('move', ['1_0', 0, 0])", "('move', [0.1, 0.2, 0.3])",
        "('move', {1, 2, 3})",
    ]

    def make(self, level, seed):
        from gymnasium.envs.matchstick_rotation.matchstick_rotation import MatchstickRotationEnv

        pos, ang = (10, 15) if level == "easy" else (5, 10)
        return MatchstickRotationEnv(
            canvas_size=(120, 120), stick_length=20, pos_tolerance=pos, ang_tolerance=ang, seed=seed
        )

    def state(self, env, at_reset):
        s = {"mid": [float(v) for v in env.state["mid"]], "ang": float(env.state["ang"])}
        if at_reset:
            s["scale"] = float(env._scale)
            s["target_mid"] = [float(v) for v in env.target["mid"]]
            s["target_ang"] = float(env.target["ang"])
        return s

    def observe(self, env, row):
        pass

    def oracle(self, env):
        return env.solve(num_steps=3)

    def solve(self, env):
        return {
            "oracle": env.solve(num_steps=3),
            "unit_first_5": env.solve(),
            "unit_first_2": env.solve(num_steps=2),
        }

    def random_action(self, rng, env):
        v = [rng.choice([round(rng.uniform(-5, 5), rng.randrange(4)), rng.randrange(-3, 4)]) for _ in range(2)]
        a = rng.choice([round(rng.uniform(-200, 200), 1), rng.randrange(-90, 91)])
        return f"('move', [{v[0]}, {v[1]}, {a}])"

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        h, w, _ = env.render().shape
        return [w, h]


class CubeAdapter:
    name = "mental_rotation_3d_cube"
    continuous = True
    instances = 8  # nine floats per step: fewer episodes keep the file small
    random_unseeded = ("shape_state",)
    bad = [
        "('rotate', [181, 0, 0])", "('rotate', [180.00001, 0, 0])", "('rotate', [-180, 180, 0])",
        "('rotate', [15, 0])", "('rotate', ['15', 0, 0])", "('rotate', [None, 0, 0])",
        "('rotate', (15, 0, 0))", "('rotate', 15)", "('rotate', [[15, 0, 0]])",
        "('rotate', [1e400, 0, 0])", "('rotate', [0.1, 0.2, 0.3])", "('rotate', [True, 0, 0])",
        "('rotate', [1j, 0, 0])",
    ]

    def make(self, level, seed):
        from gymnasium.envs.mental_rotation_3d_cube.mental_rotation_3d_cube import (
            MentalRotation3DCubeEnv,
        )

        return MentalRotation3DCubeEnv(
            num_segments=4 if level == "easy" else 6, action_frame="world", seed=seed
        )

    def state(self, env, at_reset):
        s = {
            "current_rot": env.current_rot.tolist(),
            "rotation_error": float(env._rotation_distance(env.current_rot, __import__("numpy").eye(3))),
        }
        if at_reset:
            s["shape_state"] = {
                "seg_lens": list(env.shape_state["seg_lens"]),
                "dir_indices": [int(i) for i in env.shape_state["dir_indices"]],
            }
            s["secret_yaw"] = env.secret_yaw
            s["secret_pitch"] = env.secret_pitch
            s["secret_roll"] = env.secret_roll
        return s

    def observe(self, env, row):
        pass

    def oracle(self, env):
        return env.solve()

    def solve(self, env):
        return {"oracle": env.solve(), "by-axis": env.solve(strategy="by-axis")}

    def random_action(self, rng, env):
        v = [rng.choice([round(rng.uniform(-180, 180), 1), rng.randrange(-180, 181)]) for _ in range(3)]
        return f"('rotate', [{v[0]}, {v[1]}, {v[2]}])"

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        h, w, _ = env._get_obs().shape
        return [w, h]


# ----- image sets ---------------------------------------------------------------------

BUNDLED_ZIP = os.path.join(HERE, "..", "..", "..", "public", "visgym-images", "images.zip")
_bundled_dir = None


def bundled_dir():
    """The bundled image set (public/visgym-images/images.zip) unpacked, as the
    reference takes a directory."""
    global _bundled_dir
    if _bundled_dir is None:
        import tempfile
        import zipfile

        _bundled_dir = tempfile.mkdtemp(prefix="visgym-images-")
        with zipfile.ZipFile(BUNDLED_ZIP) as z:
            z.extractall(_bundled_dir)
    return _bundled_dir


# File names that exercise the listing rules: case, hidden names, depth, suffixes,
# non-ASCII names and their sort order.
LISTING_NAMES = [
    "b.png", "a.PNG", "a.png", "A.png", "a b.png", "a-b.jpg", "a_b.jpeg", "a.JPG", "x.bmp", "y.TIF",
    "z.tiff", "w.Jpeg", "notes.txt", ".hidden.png", ".png", "x.", "tar.png.gz", "\u00e9t\u00e9.png",
    "\u00fcber/b.png", "sub/c.png", "sub/.d.png", "sub/E.JPG", "sub/deeper/f.png", "sub/deeper/g.bmp",
    ".cache/h.png", "sub2/i.jpeg", "sub2/j.tif", "Sub/k.png", "sub/deeper/most/l.jpg",
]


def gen_image_listing():
    import shutil
    import tempfile
    from pathlib import Path

    from gymnasium.envs.colorization.colorization import ColorizationEnv
    from gymnasium.envs.jigsaw.jigsaw import JigsawEnv
    from gymnasium.envs.mental_rotation_2d.mental_rotation_2d import MentalRotation2DEnv
    from gymnasium.envs.zoom_in_puzzle.zoom_in_puzzle import ZoomInPuzzleEnv

    root = tempfile.mkdtemp(prefix="visgym-listing-")
    try:
        for name in LISTING_NAMES:
            path = os.path.join(root, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(b"")
        rel = lambda p: os.path.relpath(str(p), root)
        seeds = [0, 1, 2, 7, 42, 123]
        out = {"paths": LISTING_NAMES, "envs": {}}
        for name, make, listed, order in [
            ("jigsaw", lambda s: JigsawEnv(2, 2, root, seed=s), lambda e: e.images,
             lambda e: [rel(e.images[i]) for i in e.sample_sequence]),
            ("zoom_in_puzzle", lambda s: ZoomInPuzzleEnv(sample_dir=root, seed=s), lambda e: e.images,
             lambda e: [rel(e.images[i]) for i in e.sample_sequence]),
            ("colorization", lambda s: ColorizationEnv(sample_dir=root, seed=s),
             lambda e: sorted(e.candidates, key=str), lambda e: [rel(p) for p in e.candidates]),
            ("mental_rotation_2d", lambda s: MentalRotation2DEnv(sample_dir=root, seed=s),
             lambda e: sorted(e.candidates, key=str), lambda e: [rel(p) for p in e.candidates]),
        ]:
            envs = {s: make(s) for s in seeds}
            out["envs"][name] = {
                "listed": [rel(p) for p in listed(envs[0])],
                "orders": {str(s): order(e) for s, e in envs.items()},
            }
        write("image_listing", out)
    finally:
        shutil.rmtree(root)


class JigsawAdapter:
    name = "jigsaw"
    # Two sets of instances cover every picture of the bundled set at least once.
    bad = [
        "('swap', ((0, 0), (1.0, 1)))", "('swap', ((0.5, 0), (1, 1)))", "('swap', ((0, 0), (1+0j, 1)))",
        "('swap', ((0, 0), (5, 0)))", "('swap', ((0, 0), (-1, 0)))", "('swap', ((0, 0),))",
        "('swap', ((0, 0), (1,)))", "('swap', ((0, 0, 0), (1, 1, 1)))", "('swap', (0, 1))",
        "('swap', ((True, False), (False, True)))", "('swap', [[0, 0], [1, 1]])", "('swap', ((0, 0), ('1', 1)))",
        "('swap', ((0.0, 0), (1, 1)))", "('swap', ((0, 0), (0, 0)))", "('swap', 'ab')",
        "('reorder', (0, 1, 2, 3))", "('reorder', [0, 1, 2])", "('reorder', [0, 0, 1, 2])",
        "('reorder', [1.0, 0, 2, 3])", "('reorder', [True, 0, 2, 3])", "('reorder', [[0], [1], [2], [3]])",
        "('reorder', '0123')", "('reorder', 3)", "('reorder', None)", "('reorder', [0, [1], 2, 3])",
        "('reorder', [99999999999999999999, 0, 1, 2])", "('reorder', [])",
    ]

    def make(self, level, seed):
        from gymnasium.envs.jigsaw.jigsaw import JigsawEnv

        n = 2 if level == "easy" else 3
        return JigsawEnv(num_rows=n, num_cols=n, sample_dir=bundled_dir(), seed=seed)

    def state(self, env, at_reset):
        s = {"current_state": list(env.current_state)}
        if at_reset:
            s["target_state"] = list(env.target_state)
            s["image_name"] = os.path.relpath(env.images[env.sample_sequence[env.sample_idx]], env.sample_dir)
            s["sample_sequence"] = env.sample_sequence.tolist()
            s["sample_idx"] = env.sample_idx
        return s

    def observe(self, env, row):
        import numpy as np

        frame = np.ascontiguousarray(env._get_obs(), dtype=np.uint8)
        row["h"] = hashlib.sha256(frame.tobytes()).hexdigest()

    def oracle(self, env):
        return env.solve()

    def solve(self, env):
        return {"oracle": env.solve(), "reorder": env.solve(strategy="reorder")}

    def random_action(self, rng, env):
        n, k = env.num_rows, env.num_rows * env.num_cols
        if rng.random() < 0.2:
            p = list(range(k))
            rng.shuffle(p)
            return f"('reorder', {p})"
        cell = lambda: (rng.randrange(n), rng.randrange(n))
        return f"('swap', ({cell()}, {cell()}))"

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        h, w, _ = env._get_obs().shape
        return [w, h]


class MentalRotation2dAdapter:
    name = "mental_rotation_2d"
    bad = [
        "('rotate', 10.0)", "('rotate', 181)", "('rotate', -181)", "('rotate', True)", "('rotate', '15')",
        "('rotate', [15])", "('rotate', None)", "('rotate', 99999999999999999999)", "('rotate', 1+0j)",
        "('rotate', (1,))", "('rotate', -180)", "('rotate', 180)",
    ]

    def make(self, level, seed):
        from gymnasium.envs.mental_rotation_2d.mental_rotation_2d import MentalRotation2DEnv

        return MentalRotation2DEnv(sample_dir=bundled_dir(), seed=seed, tolerance=10.0 if level == "easy" else 5.0)

    def state(self, env, at_reset):
        s = {"agent_angle": float(env.agent_angle)}
        if at_reset:
            s["secret_angle"] = float(env.secret_angle)
            s["image_name"] = env.current_image_name
            s["candidates"] = [os.path.relpath(str(p), bundled_dir()) for p in env.candidates]
        return s

    def observe(self, env, row):
        pass  # frames: layout and size only (OpenCV's fixed-point resize and warp)

    def oracle(self, env):
        # The solver draws its cut points from the environment's generator: a copy keeps
        # the episode's own draws (unseeded resets) as they are.
        import copy

        return copy.deepcopy(env).solve()

    def solve(self, env):
        import copy

        return {
            "oracle": copy.deepcopy(env).solve(),
            "steps_1": copy.deepcopy(env).solve(num_steps=1),
            "steps_3": copy.deepcopy(env).solve(num_steps=3),
            "steps_9": copy.deepcopy(env).solve(num_steps=9),
        }

    def random_action(self, rng, env):
        return f"('rotate', {rng.randint(-180, 180)})"

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        h, w, _ = env._get_obs().shape
        return [w, h]


class ZoomInAdapter:
    name = "zoom_in_puzzle"
    continuous = True
    bad = [
        "('swap', (1.0, 2))", "('swap', (1, 2.0))", "('swap', (1.5, 2))", "('swap', (1+0j, 2))", "('swap', (1, 2+0j))",
        "('swap', (0, 1))", "('swap', (1, 9))", "('swap', (True, 2))", "('swap', (1,))", "('swap', (1, 2, 3))",
        "('swap', [1, 2])", "('swap', ('1', 2))", "('swap', (1, (2,)))", "('swap', 12)", "('swap', (2, 2))",
        "('reorder', (1, 2, 3, 4))", "('reorder', [1, 2, 3])", "('reorder', [0, 1, 2, 3])", "('reorder', [1, 1, 2, 3])",
        "('reorder', [1.0, 2, 3, 4])", "('reorder', [True, 2, 3, 4])", "('reorder', [1, 2, 3, 4, 5])",
        "('reorder', [1, 2, 3, 4, 5, 6])", "('reorder', None)", "('reorder', '1234')", "('stop','stop')",
    ]

    def make(self, level, seed):
        from gymnasium.envs.zoom_in_puzzle.zoom_in_puzzle import ZoomInPuzzleEnv

        return ZoomInPuzzleEnv(
            sample_dir=bundled_dir(), seed=seed, num_zoom_views=4 if level == "easy" else 5,
            min_zoom_level=0.75, zoom_gap=0.75, zoom_std=0.2, nested=True,
        )

    def state(self, env, at_reset):
        s = {"current_view_order": [int(v) for v in env.current_view_order]}
        if at_reset:
            s["zoom_levels"] = [float(z) for z in env.zoom_levels]
            s["crop_boxes"] = [[int(v) for v in b] for b in env.crop_boxes]
            s["image_name"] = os.path.relpath(env.images[env.sample_sequence[env.sample_idx]], env.sample_dir)
            s["sample_sequence"] = env.sample_sequence.tolist()
        return s

    @staticmethod
    def frame_mask(env):
        """The slot numbers' boxes (DejaVu Sans text), blanked on both sides: the rest of
        the frame is compared pixel for pixel."""
        return [[224 * k + 180, 170, 44, 54] for k in range(1, env.num_zoom_views + 1)]

    def observe(self, env, row):
        import numpy as np

        frame = np.ascontiguousarray(env._get_obs(), dtype=np.uint8).copy()
        for x, y, w, h in self.frame_mask(env):
            frame[y:y + h, x:x + w] = 0
        row["m"] = hashlib.sha256(frame.tobytes()).hexdigest()

    def oracle(self, env):
        return env.solve()

    def solve(self, env):
        return {"oracle": env.solve(), "swap": env.solve(strategy="swap")}

    def random_action(self, rng, env):
        n = env.num_zoom_views
        if rng.random() < 0.2:
            p = list(range(1, n + 1))
            rng.shuffle(p)
            return f"('reorder', {p})"
        return f"('swap', ({rng.randint(1, n)}, {rng.randint(1, n)}))"

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        h, w, _ = env._get_obs().shape
        return [w, h]


class ColorizationAdapter:
    name = "colorization"
    # Payloads that exercise the int32 Box: the reference converts with Python's int(),
    # wraps into int32, raises OverflowError beyond int64, and then applies the
    # unconverted payload (float() for rotate, int() for saturate).
    bad = [
        "('rotate', 361)", "('rotate', -361)", "('rotate', 360.9)", "('rotate', -360.99)", "('rotate', '15')",
        "('rotate', ' 15 ')", "('rotate', '15.5')", "('rotate', '1_5')", "('rotate', b'15')", "('rotate', True)",
        "('rotate', None)", "('rotate', 1j)", "('rotate', [15])", "('rotate', (15,))", "('rotate', 1e10)",
        "('rotate', 1e400)", "('rotate', 4294967301)", "('rotate', 9223372036854775807)",
        "('rotate', 9223372036854775808)", "('rotate', 2147483648)", "('rotate', [1e400])", "('rotate', 'abc')",
        "('rotate', 4294967301.0)", "('rotate', -0.0)", "('rotate', 0.1)", "('rotate', '\\x1c15')",
        "('rotate', '\\u00a0-15')", "('rotate', '007')", "('rotate', '9223372036854775807')", "('rotate', 1e19)",
        "('rotate', [1, (2, 3)])", "('rotate', ['abc', 1e400])", "('saturate', 256)", "('saturate', -256)",
        "('saturate', 255.9)", "('saturate', '-40')", "('saturate', b' 7')", "('saturate', False)",
        "('saturate', 4294967296)", "('saturate', 9223372036854775807)", "('saturate', [1, 2])", "('saturate', '')",
        "('saturate', 1e19)", "('saturate', -7.9)", "('saturate', '+12')", "('saturate', b'1e3')",
        "('stop', 'ok')", "('Rotate', 5)", "('rotate', 5, 6)",
    ]

    def make(self, level, seed):
        from gymnasium.envs.colorization.colorization import ColorizationEnv

        # The evaluation harness's settings (inference/utils.py).
        return ColorizationEnv(
            sample_dir=bundled_dir(), seed=seed, circle_size=20, region_radius=30,
            accuracy_radius=11 if level == "easy" else 16, max_steps=25, min_brightness=25, max_brightness=230,
        )

    def state(self, env, at_reset):
        s = {"current_hue": float(env.current_hue), "current_sat": int(env.current_sat)}
        if at_reset:
            s["image_name"] = os.path.relpath(env.user_image_path, env.sample_dir)
            s["candidates"] = [os.path.relpath(str(p), env.sample_dir) for p in env.candidates]
            s["target_pos"] = [int(v) for v in env.target_pos]
            s["target_hue"] = float(env.target_hue)
            s["target_sat"] = int(env.target_sat)
            s["target_val"] = int(env.target_val)
        return s

    def observe(self, env, row):
        import numpy as np

        frame = np.ascontiguousarray(env._get_obs(), dtype=np.uint8)
        row["h"] = hashlib.sha256(frame.tobytes()).hexdigest()

    # The solver draws from the environment's generator; it runs on a copy so that the
    # episode (and the next unseeded reset) continues as if it had not been asked.
    def oracle(self, env):
        import copy

        return copy.deepcopy(env).solve()

    def solve(self, env):
        import copy

        return {
            "oracle": self.oracle(env),
            "steps_6": copy.deepcopy(env).solve(num_steps=6),
            "steps_11": copy.deepcopy(env).solve(num_steps=11),
        }

    def random_action(self, rng, env):
        u = rng.random()
        if u < 0.4:
            return f"('rotate', {rng.choice([rng.randrange(-200, 201), round(rng.uniform(-360, 360), rng.randrange(1, 4))])})"
        if u < 0.8:
            return f"('saturate', {rng.choice([rng.randrange(-120, 121), round(rng.uniform(-255, 255), 1)])})"
        if u < 0.9:
            return f"('rotate', {rng.choice([5, -5, 30, -30, 180, -180, 360, -360])})"
        return f"('saturate', {rng.choice([10, -10, 40, -40, 255, -255])})"

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        h, w, _ = env._get_obs().shape
        return [w, h]


SCENES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "public", "visgym-scenes")
_scene_dirs = {}


def scene_dir(zip_name):
    """A bundled scene set (public/visgym-scenes/*.zip, built by
    scripts/visgym-scenes/build.py) unpacked, as the reference reads a directory."""
    if zip_name not in _scene_dirs:
        import tempfile
        import zipfile

        d = tempfile.mkdtemp(prefix="visgym-scenes-")
        with zipfile.ZipFile(os.path.join(SCENES, zip_name)) as z:
            z.extractall(d)
        _scene_dirs[zip_name] = d
    return _scene_dirs[zip_name]


# Payloads both pointing environments refuse or read in their own way.
MARK_BAD = [
    "('mark', (1.5, 0.5))", "('mark', (0.5,))", "('mark', 0.5)", "('mark', ('0.5', 0.25))",
    "('mark', [0.25, 0.75])", "('mark', (True, 0))", "('mark', (-0.1, 0.2))", "('mark', None)",
    "('mark', (0.5, 0.5, 0.5))", "('mark', (1+0j, 0))", "('mark', (1.0000000001, 0.5))",
    "('mark', (0.999999, 1e-300))", "('mark', ((0.5,), (0.5,)))", "('mark', (1, 1))", "('mark', '0.5')",
]


def sample_orders(adapter, level):
    """Every sample an environment plays, in order, until its reset raises (three
    constructor seeds): the loader's filtering, sorting and shuffling in full."""
    out = {}
    for seed in (0, 42, 9):
        env = adapter.make(level, seed)
        rows = []
        while True:
            try:
                env.reset()
            except Exception as e:  # noqa: BLE001 - the reference raising is data here
                rows.append({"e": [type(e).__name__, str(e)]})
                break
            state = adapter.state(env, True)
            rows.append({k: state[k] for k in adapter.order_keys})
        out[str(seed)] = rows
    return out


class CountingAdapter:
    name = "counting"
    continuous = True
    order_keys = ["img_id", "cat_id", "true_count", "image_name"]
    bad = MARK_BAD + [
        "('undo', 'undo!')", "('undo', 'toolong')", "('undo', 3)", "('undo', '')", "('undo', 'u')",
        "('guess', -1)", "('guess', 21)", "('guess', 31)", "('guess', 5.0)", "('guess', '5')", "('guess', True)",
        "('guess', 99999999999999999999)", "('guess', (5,))", "('stop', 'halt')",
    ]

    def make(self, level, seed):
        from gymnasium.envs.counting.counting import CountingEnv

        d = scene_dir("counting.zip")
        lo, hi = (2, 20) if level == "easy" else (5, 30)
        return CountingEnv(annotation_file=os.path.join(d, "lvis_v1_train.json"), sample_dir=d,
                           min_count=lo, max_count=hi, seed=seed)

    def state(self, env, at_reset):
        s = {"dots": [list(d) for d in env.dots], "current_guess": env.current_guess}
        if at_reset:
            sample = env.samples[env.sequence[env.seq_idx]]
            s.update({
                "sample_idx": env.seq_idx, "image_name": sample["file_name"], "img_id": sample["img_id"],
                "cat_id": sample["category_id"], "category_name": env.category_name,
                "true_count": env.true_count, "centers": [[float(x), float(y)] for x, y in env.centers],
                "num_samples": len(env.samples),
            })
        return s

    def observe(self, env, row):
        import numpy as np

        frame = np.ascontiguousarray(env._get_obs(), dtype=np.uint8)
        row["h"] = hashlib.sha256(frame.tobytes()).hexdigest()
        if "reset" in row:
            row["prompt"] = env.get_prompt()

    def oracle(self, env):
        return env.solve()

    def solve(self, env):
        return {"oracle": env.solve(), "guess_only": env.solve(strategy="guess_only")}

    def random_action(self, rng, env):
        u = rng.random()
        if u < 0.5:
            return f"('mark', ({rng.random()!r}, {rng.random()!r}))"
        if u < 0.7:
            return "('undo', 'undo')"
        return f"('guess', {rng.randint(0, env.max_count)})"

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        h, w, _ = env._get_obs().shape
        return [w, h]


class ReferringAdapter:
    name = "referring_dot_pointing"
    order_keys = ["ref_id", "description", "image_name", "mask_area"]
    bad = MARK_BAD + ["('undo', 'undo')", "('stop', 'halt')", "('stop', 5)"]

    def make(self, level, seed):
        stub_modules(["skimage", "skimage.io"])
        from gymnasium.envs.referring_dot_pointing.referring_dot_pointing import ReferringDotPointingEnv

        return ReferringDotPointingEnv(sample_dir=scene_dir("referring.zip"), seed=seed)

    def state(self, env, at_reset):
        s = {"dot": list(env.dot) if env.dot is not None else None}
        if at_reset:
            ann = env.refer.refToAnn[env.current_ref_id]
            s.update({
                "sample_idx": env.curr_idx, "ref_id": env.current_ref_id,
                "description": env.current_description,
                "image_name": env.refer.Imgs[ann["image_id"]]["file_name"],
                "mask_area": int(env.current_mask.sum()), "num_refs": len(env.ref_ids),
            })
        return s

    def observe(self, env, row):
        import numpy as np

        frame = np.ascontiguousarray(env._get_obs(), dtype=np.uint8)
        row["h"] = hashlib.sha256(frame.tobytes()).hexdigest()
        if "reset" in row:
            row["prompt"] = env.get_prompt()

    def oracle(self, env):
        # The solver draws its start from the environment's generator: a copy keeps the
        # episode's own draws as they are.
        import copy

        return copy.deepcopy(env).solve()

    def solve(self, env):
        import copy

        return {
            "oracle": copy.deepcopy(env).solve(),
            "steps_1": copy.deepcopy(env).solve(num_steps=1),
            "steps_5": copy.deepcopy(env).solve(num_steps=5),
        }

    def random_action(self, rng, env):
        import numpy as np

        if rng.random() < 0.5:
            # On the object half the time: a pixel of its mask, normalised.
            ys, xs = np.nonzero(env.current_mask)
            i = rng.randrange(len(xs))
            return f"('mark', ({(xs[i] + 0.5) / (env.width - 1)!r}, {(ys[i] + 0.5) / (env.height - 1)!r}))"
        return f"('mark', ({rng.random()!r}, {rng.random()!r}))"

    def prompts(self, env):
        try:
            prompt = env.get_prompt()
        except AttributeError:
            prompt = None  # no description before the first reset
        return {"rgb_array": prompt, "ansi": None}

    def frame_size(self, env):
        h, w, _ = env._get_obs().shape
        return [w, h]


class VideoUnshuffleAdapter:
    name = "video_unshuffle"
    bad = [
        "('swap', (0, 1))", "('swap', (1, 5))", "('swap', (1.0, 2))", "('swap', (1, 2.0))", "('swap', (1+0j, 2))",
        "('swap', (1,))", "('swap', (1, 2, 3))", "('swap', (True, 2))", "('swap', [2, 1])", "('swap', (2, 2))",
        "('swap', '12')", "('swap', ((1,), (2,)))", "('reorder', (1, 2, 3, 4))", "('reorder', [1, 2, 3])",
        "('reorder', [1, 1, 2, 3])", "('reorder', [0, 1, 2, 3])", "('reorder', [1.0, 2, 3, 4])",
        "('reorder', [True, 2, 3, 4])", "('reorder', 'abcd')", "('reorder', [4, 3, 2, 1, 5])",
        "('reorder', [99999999999999999999, 1, 2, 3])", "('stop', 'halt')",
    ]

    def make(self, level, seed):
        from gymnasium.envs.video_unshuffle.video_unshuffle import VideoUnshuffleEnv

        return VideoUnshuffleEnv(root_dir=scene_dir("videos.zip"), num_frames=4 if level == "easy" else 5,
                                 seed=seed, sampling_strategy="salient", min_frame_diff=0.15,
                                 max_frames_to_analyze=100)

    def state(self, env, at_reset):
        s = {"shuffled_order": list(env.shuffled_order)}
        if at_reset:
            s.update({"video_id": env.current_video_id, "label": env.current_label,
                      "frame_positions": list(env.frame_positions), "correct_order": list(env.correct_order)})
        return s

    def observe(self, env, row):
        import numpy as np

        frame = np.ascontiguousarray(env._get_obs(), dtype=np.uint8).copy()
        for x, y, w, h in self.frame_mask(env):
            frame[y:y + h, x:x + w] = 0
        row["m"] = hashlib.sha256(frame.tobytes()).hexdigest()
        if "reset" in row:
            row["prompt"] = env.get_prompt()

    def frame_mask(self, env):
        # The slot numbers: OpenCV's Hershey glyphs, drawn in our font here.
        import cv2

        out = []
        for k in range(env.num_frames):
            (tw, th), _ = cv2.getTextSize(str(k + 1), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 2)
            x, y = 224 - tw - 5, 224 - 5
            out.append([224 * k + x - 3, y - th - 3, tw + 6, th + 6])
        return out

    def oracle(self, env):
        return env.solve()

    def solve(self, env):
        return {"oracle": env.solve(), "reorder": env.solve(strategy="reorder")}

    def random_action(self, rng, env):
        n = env.num_frames
        if rng.random() < 0.2:
            p = list(range(1, n + 1))
            rng.shuffle(p)
            return f"('reorder', {p})"
        return f"('swap', ({rng.randint(1, n)}, {rng.randint(1, n)}))"

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        h, w, _ = env._get_obs().shape
        return [w, h]


class _RecordingRng:
    """The environment's RandomState with its last `uniform` draw kept: the hidden
    rotation's angles, which the environment does not store."""

    def __init__(self, rng):
        self._rng = rng
        self.last_uniform = None

    def uniform(self, *a, **k):
        self.last_uniform = self._rng.uniform(*a, **k)
        return self.last_uniform

    def __getattr__(self, name):
        return getattr(self._rng, name)


def _sorted_walk():
    """`os.walk` lists a directory in the file system's order; with each directory's
    entries sorted it lists any copy of the set alike, the order Playbench uses."""
    if getattr(os.walk, "sorted_walk", False):
        return
    walk = os.walk

    def sorted_walk(top, *a, **k):
        for root, dirs, files in walk(top, *a, **k):
            dirs.sort()
            files.sort()
            yield root, dirs, files

    sorted_walk.sorted_walk = True
    os.walk = sorted_walk


class ObjaverseAdapter:
    name = "mental_rotation_3d_objaverse"
    continuous = True
    instances = 12  # sixteen floats per step: fewer episodes keep the file small
    order_keys = ["object_path", "secret_angles"]
    bad = CubeAdapter.bad + [
        "('rotate', [15, 0, 0, 0])", "('rotate', {15, 0, 1})", "('stop', 'halt')", "('rotate', [0, 0, '15'])",
        "('rotate', [b'15', 0, 0])",
    ]

    @staticmethod
    def instance_kwargs(seed):
        # Every fourth constructor turns in the object's own axes (the registry's frame).
        return {"action_frame": "object"} if seed % 4 == 3 else {}

    def make(self, level, seed):
        os.environ.setdefault("PYOPENGL_PLATFORM", "egl")
        _sorted_walk()
        from gymnasium.envs.mental_rotation_3d_objaverse.mental_rotation_3d_objaverse import (
            MentalRotation3DObjaverseEnv,
        )

        # The renderer module points OpenGL at NVIDIA's driver on import; Mesa's EGL
        # (software, as on this project's machines) needs its own.
        for var in ("LIBGL_DRIVERS_PATH", "__GLX_VENDOR_LIBRARY_NAME", "__NV_PRIME_RENDER_OFFLOAD",
                    "EGL_DEVICE_ID"):
            os.environ.pop(var, None)
        env = MentalRotation3DObjaverseEnv(
            render_size=128, tolerance=15.0 if level == "easy" else 5.0, seed=seed,
            sample_dir=scene_dir("objects.zip"), use_textures=True,
            action_frame=self.instance_kwargs(seed).get("action_frame", "world"))
        env._rng = _RecordingRng(env._rng)
        # The first constructor's reset frames are kept, to measure how close our drawing is.
        self._keep_frames = seed == 0
        return env

    def state(self, env, at_reset):
        import numpy as np

        s = {"current_rot": env.current_rot.tolist(),
             "rotation_error": float(env._rotation_distance(env.current_rot, np.eye(4)))}
        if at_reset:
            s["object_path"] = env.current_object_path
            s["secret_angles"] = [float(v) for v in env._rng.last_uniform]
        return s

    def observe(self, env, row):
        """Where trimesh put the camera for the right panel (`cam`); at a reset also the
        left panel's camera and the model's centre and radius: the view's geometry, which
        Playbench's rasteriser must reproduce (its pixels are OpenGL's)."""
        import trimesh

        row["cam"] = round_floats(env.rotated_scene.camera_transform[:3, 3].tolist())
        if "reset" in row:
            row["target_cam"] = round_floats(env.base_scene.copy().camera_transform[:3, 3].tolist())
            raw = trimesh.load(os.path.join(env.local_obj_root, env.current_object_path), force="scene",
                               process=True)
            centre, radius = env._compute_center_and_radius(raw)
            row["centre"] = round_floats([float(v) for v in centre])
            row["radius"] = round_floats(float(radius))
            if self._keep_frames:
                import base64
                import io

                from PIL import Image

                buf = io.BytesIO()
                Image.fromarray(env._get_obs()).save(buf, "PNG", optimize=True)
                row["frame_png"] = base64.b64encode(buf.getvalue()).decode()

    def oracle(self, env):
        return env.solve()

    def solve(self, env):
        out = {"oracle": env.solve(), "steps_3": env.solve(num_steps=3)}
        for strategy in ("by-axis", "pad1_axis-angle", "pad1_by-axis", "pad3_axis-angle", "pad3_by-axis"):
            out[strategy] = env.solve(strategy=strategy)
        return out

    def random_action(self, rng, env):
        return CubeAdapter.random_action(self, rng, env)

    def prompts(self, env):
        return {"rgb_array": env.get_prompt(), "ansi": None}

    def frame_size(self, env):
        h, w, _ = env._get_obs().shape
        return [w, h]


def gen_jpeg():
    """JPEG pictures as Pillow and OpenCV decode them (the reference's two readers), to
    measure how far our decoder is from theirs: small crops of bundled pictures, encoded
    with Pillow at several qualities, subsamplings and progressive."""
    import base64
    import io

    import cv2
    import numpy as np
    from PIL import Image

    rows = []
    for name, box in [("photos/coffee.png", (40, 30, 120, 90)), ("photos/astronaut.png", (100, 20, 181, 79)),
                      ("procedural/shapes_b.png", (10, 10, 97, 71))]:
        img = Image.open(os.path.join(bundled_dir(), name)).convert("RGB").crop(box)
        for quality, subsampling, progressive in [(75, 2, False), (95, 0, False), (90, 1, True), (50, 2, True)]:
            buf = io.BytesIO()
            img.save(buf, "JPEG", quality=quality, subsampling=subsampling, progressive=progressive)
            data = buf.getvalue()
            pil = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))
            bgr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            rows.append({
                "picture": name, "quality": quality, "subsampling": subsampling, "progressive": progressive,
                "jpeg": base64.b64encode(data).decode(),
                "pillow": base64.b64encode(pil.tobytes()).decode(),
                "opencv": base64.b64encode(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB).tobytes()).decode(),
            })
    write("jpeg", rows)


# ----- the harness's Lanczos shrink ----------------------------------------------------

# Frame sizes the harness shrinks (longer side over 336) and two pictures each: smooth
# ramps with hard edges (ringing, clipping) and noise. `lanczos_pixels` is mirrored in
# tests/tests/visgym_golden.rs.
LANCZOS_SIZES = [(420, 290), (512, 512), (224, 1120), (1000, 300), (337, 100), (800, 800)]


def lanczos_pixels(w, h, pattern):
    out = bytearray(w * h * 3)
    state = 12345
    for i in range(w * h * 3):
        p, c = divmod(i, 3)
        y, x = divmod(p, w)
        if pattern == 0:
            v = (x * 3 + y * 2 + c * 85) & 255 if (x // 16 + y // 16) % 2 else 255 * (c == 1)
        else:
            state = (state * 1103515245 + 12345) & 0x7FFFFFFF
            v = state >> 23
        out[i] = v
    return bytes(out)


def gen_lanczos():
    from PIL import Image

    rows = []
    for w, h in LANCZOS_SIZES:
        s = 336 / max(w, h)
        tw, th = int(w * s), int(h * s)
        for pattern in (0, 1):
            img = Image.frombytes("RGB", (w, h), lanczos_pixels(w, h, pattern))
            small = img.resize((tw, th), Image.LANCZOS)
            rows.append({"w": w, "h": h, "pattern": pattern, "tw": tw, "th": th,
                         "sha256": hashlib.sha256(small.tobytes()).hexdigest()})
    write("lanczos", rows)


GENERATORS = {
    "lanczos": gen_lanczos,
    "literal": gen_literal,
    "reply": gen_reply,
    "conversation": gen_conversation,
    "matchstick_equation": lambda: gen_env(MatchstickEquationAdapter()),
    "maze_2d": lambda: gen_env(Maze2dAdapter()),
    "maze_3d": lambda: gen_env(Maze3dAdapter()),
    "sliding_block": lambda: gen_env(SlidingBlockAdapter()),
    "patch_reassembly": lambda: gen_env(PatchReassemblyAdapter()),
    "matchstick_rotation": lambda: gen_env(MatchstickRotationAdapter()),
    "mental_rotation_3d_cube": lambda: gen_env(CubeAdapter()),
    "image_listing": gen_image_listing,
    "jpeg": gen_jpeg,
    "jigsaw": lambda: gen_env(JigsawAdapter()),
    "mental_rotation_2d": lambda: gen_env(MentalRotation2dAdapter()),
    "zoom_in_puzzle": lambda: gen_env(ZoomInAdapter()),
    "colorization": lambda: gen_env(ColorizationAdapter()),
    "counting": lambda: gen_env(CountingAdapter()),
    "referring_dot_pointing": lambda: gen_env(ReferringAdapter()),
    "video_unshuffle": lambda: gen_env(VideoUnshuffleAdapter()),
    "mental_rotation_3d_objaverse": lambda: gen_env(ObjaverseAdapter()),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default=".cache/visgym-ref", help="VisGym checkout")
    ap.add_argument("--only", default="", help="comma-separated generator names")
    args = ap.parse_args()
    sys.path.insert(0, os.path.abspath(args.ref))
    names = [n for n in args.only.split(",") if n] or list(GENERATORS)
    for n in names:
        GENERATORS[n]()


if __name__ == "__main__":
    main()

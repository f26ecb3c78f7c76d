"""Test vectors for the MT19937 generators in envs/src/rng/: numpy's legacy RandomState
and CPython's random.Random.

Run from the repository root (CPython 3.11, whose random module the port follows):

    python3 -m venv .cache/venv-rng
    .cache/venv-rng/bin/pip install numpy==2.4.6
    .cache/venv-rng/bin/python tests/golden/rng/generate.py

It writes tests/golden/rng/random_state.json, py_random.json and glibc_math.json, replayed
by tests/tests/rng_mt19937_golden.rs. Each stream seeds one generator and records a long
interleaved sequence of calls ("ops") with their results, so cached Gaussians, state
regeneration every 624 words and calls that raise (and must not draw) are all exercised.
An op is [name, args, result]; a call that raises records {"error": <exception name>};
"state" records [crc32 of the 624 state words (little-endian), position, cached Gaussian].

Gaussians call the C library's log (and sin/cos for random.gauss); the values here come
from glibc 2.36's FMA build on x86-64, which the Rust port reproduces. glibc_math.json
checks those three functions directly: CRC-32s of their results on inputs drawn from
random.Random (which the tests regenerate with the Rust port).
"""

import json
import math
import platform
import random
import struct
import sys
import zlib
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent
NUMPY_VERSION = "2.4.6"


def words_crc(words):
    return zlib.crc32(struct.pack("<624I", *words))


def call(fn):
    """The result of fn(), or the name of the exception it raises."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the exception type is the recorded result
        return {"error": type(e).__name__}


def weights(drv, n, zeros):
    w = [drv.random() ** 2 for _ in range(n)]
    if zeros:
        for i in drv.sample(range(n), drv.randint(0, n // 2)):
            w[i] = 0.0
    if sum(w) == 0.0:
        w[0] = 1.0
    total = sum(w)
    return [x / total for x in w]


# --- numpy.random.RandomState ---------------------------------------------------------

RS_RANGES = [
    (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (0, 7), (0, 10), (-5, 5), (3, 4), (-100, 17),
    (0, 2**31), (0, 2**31 + 1), (0, 2**32 - 1), (0, 2**32), (0, 2**32 + 1), (-(2**32), 0),
    (0, 2**40), (5, 2**53 + 3), (-(2**62), 2**62), (0, 2**63 - 1), (-(2**63), 2**63 - 1),
    (-(2**63), -(2**63) + 3), (1000, 1000000),
]
RS_RANGES_I32 = [(0, 5), (-3, 9), (-(2**31), 2**31 - 1), (-(2**31), 2**31), (0, 2**31), (7, 8)]


def rs_op(drv, rs):
    kind = drv.choices(
        [
            "random_sample", "rand", "randint", "randint_below", "randint_i32", "randint_size",
            "choice", "choice_p", "choice_p_size", "choice_noreplace", "choice_noreplace_p",
            "shuffle", "permutation", "uniform", "uniform_size", "normal", "normal_size",
            "standard_normal", "error", "state",
        ],
        weights=[8, 2, 14, 3, 4, 3, 5, 4, 2, 3, 3, 3, 3, 5, 2, 6, 2, 6, 3, 1],
    )[0]
    if kind == "random_sample":
        return kind, [], rs.random_sample()
    if kind == "rand":
        return kind, [], rs.rand()
    if kind == "randint":
        low, high = drv.choice(RS_RANGES)
        return kind, [low, high], int(rs.randint(low, high))
    if kind == "randint_below":
        high = drv.choice([1, 2, 3, 4, 6, 9, 10, 100, 2**32 - 1, 2**33])
        return kind, [high], int(rs.randint(high))
    if kind == "randint_i32":
        low, high = drv.choice(RS_RANGES_I32)
        return kind, [low, high], int(rs.randint(low, high, dtype=np.int32))
    if kind == "randint_size":
        low, high = drv.choice(RS_RANGES)
        k = drv.randint(0, 6)
        return kind, [low, high, k], [int(v) for v in rs.randint(low, high, size=k)]
    if kind == "choice":
        n = drv.randint(1, 40)
        return kind, [n], int(rs.choice(list(range(100, 100 + n))) - 100)
    if kind == "choice_p":
        p = weights(drv, drv.randint(1, 8), drv.random() < 0.5)
        return kind, [p], int(rs.choice(len(p), p=p))
    if kind == "choice_p_size":
        p = weights(drv, drv.randint(1, 8), drv.random() < 0.5)
        k = drv.randint(0, 5)
        return kind, [p, k], [int(v) for v in rs.choice(len(p), size=k, p=p)]
    if kind == "choice_noreplace":
        n = drv.randint(0, 30)
        k = drv.randint(0, n)
        return kind, [n, k], [int(v) for v in rs.choice(n, size=k, replace=False)]
    if kind == "choice_noreplace_p":
        p = weights(drv, drv.randint(1, 10), drv.random() < 0.5)
        k = drv.randint(0, sum(1 for x in p if x > 0))
        return kind, [p, k], [int(v) for v in rs.choice(len(p), size=k, replace=False, p=p)]
    if kind == "shuffle":
        x = list(range(drv.randint(0, 40)))
        rs.shuffle(x)
        return kind, [len(x)], x
    if kind == "permutation":
        n = drv.randint(0, 40)
        return kind, [n], [int(v) for v in rs.permutation(n)]
    if kind == "uniform":
        a, b = drv.choice([(0.0, 1.0), (-3.5, 2.25), (0.0, 360.0), (10.0, -10.0), (1e-3, 1e3)])
        return kind, [a, b], rs.uniform(a, b)
    if kind == "uniform_size":
        a, b = drv.choice([(0.0, 360.0), (-1.0, 1.0)])
        k = drv.randint(0, 4)
        return kind, [a, b, k], [float(v) for v in rs.uniform(a, b, size=k)]
    if kind == "normal":
        loc, scale = drv.choice([(0.0, 1.0), (1.5, 0.2), (2.25, 0.2), (-3.0, 7.5), (0.0, 0.0)])
        return kind, [loc, scale], rs.normal(loc, scale)
    if kind == "normal_size":
        loc, scale = drv.choice([(0.75 + 0.75 * i, 0.2) for i in range(1, 6)])
        k = drv.randint(0, 5)
        return kind, [loc, scale, k], [float(v) for v in rs.normal(loc, scale, size=k)]
    if kind == "standard_normal":
        return kind, [], rs.standard_normal()
    if kind == "state":
        _, key, pos, has_gauss, gauss = rs.get_state()
        return kind, [], [words_crc(key), int(pos), float(gauss) if has_gauss else None]
    # Calls that numpy rejects before drawing anything.
    name, args = drv.choice(
        [
            ("randint", [5, 5]),
            ("randint", [7, 3]),
            ("randint_below", [0]),
            ("randint_i32", [0, 2**31 + 1]),
            ("randint_i32", [-(2**31) - 1, 0]),
            ("choice", [0]),
            ("choice_p", [[0.5, 0.6]]),
            ("choice_p", [[1.5, -0.5]]),
            ("choice_noreplace", [3, 5]),
            ("choice_noreplace_p", [[0.5, 0.5, 0.0], 3]),
            ("uniform", [-1e308, 1e308]),
            ("normal", [0.0, -1.0]),
            ("normal", [0.0, -0.0]),
        ]
    )
    fns = {
        "randint": lambda: rs.randint(*args),
        "randint_below": lambda: rs.randint(*args),
        "randint_i32": lambda: rs.randint(*args, dtype=np.int32),
        "choice": lambda: rs.choice(list(range(args[0]))),
        "choice_p": lambda: rs.choice(len(args[0]), p=args[0]),
        "choice_noreplace": lambda: rs.choice(args[0], size=args[1], replace=False),
        "choice_noreplace_p": lambda: rs.choice(
            len(args[0]), size=args[1], replace=False, p=args[0]
        ),
        "uniform": lambda: rs.uniform(*args),
        "normal": lambda: rs.normal(*args),
    }
    result = call(fns[name])
    assert isinstance(result, dict), (name, args, result)
    return name, args, result


def random_state_vectors():
    streams = []
    seeds = [0, 1, 42, 7, 12345, 2**31, 2**32 - 1, 123456789]
    arrays = [[0], [1, 2, 3], [2**32 - 1, 0, 5], list(range(700))]
    for index, seed in enumerate(seeds + arrays):
        rs = np.random.RandomState(seed)
        drv = random.Random(1000 + index)
        ops = [list(rs_op(drv, rs)) for _ in range(260)]
        key = "seed_array" if isinstance(seed, list) else "seed"
        streams.append({key: seed, "ops": ops})
    errors = []
    for seed in [-1, 2**32, 2**64]:
        errors.append({"seed": str(seed), "result": call(lambda: np.random.RandomState(seed))})
    for arr in [[], [2**32], [-1, 3]]:
        errors.append({"seed_array": arr, "result": call(lambda: np.random.RandomState(arr))})
    for e in errors:
        assert isinstance(e["result"], dict), e
    return {
        "generator": "numpy.random.RandomState",
        "numpy": np.__version__,
        "python": platform.python_version(),
        "seed_errors": errors,
        "streams": streams,
    }


# --- random.Random ---------------------------------------------------------------------

PY_RANGES = [
    (0, 1, 1), (0, 10, 1), (0, 10, 3), (10, 0, -1), (10, 0, -3), (-7, 7, 2), (5, 6, 1),
    (0, 2**32, 1), (0, 2**32 + 1, 1), (-(2**40), 2**40, 7), (-(2**63), 2**63 - 1, 1),
    (2**63 - 1, -(2**63), -5), (100, -100, -1), (3, 1000000, 1),
]
PY_INT_RANGES = [
    (0, 3), (1, 6), (2, 5), (0, 0), (-10, 10), (0, 2**32 - 1), (0, 2**32), (-(2**63), 2**63 - 1),
]
PY_SAMPLES = [(10, 3), (21, 5), (5, 5), (22, 5), (30, 6), (100, 6), (200, 50), (1000, 50),
              (0, 0), (16, 2), (36, 5), (64, 6), (50, 12), (7, 0)]


def py_op(drv, r):
    kind = drv.choices(
        [
            "random", "getrandbits", "randrange_below", "randrange", "randint", "choice",
            "shuffle", "sample", "uniform", "gauss", "normalvariate", "choices", "choices_w",
            "error", "state",
        ],
        weights=[8, 8, 4, 8, 8, 5, 3, 5, 4, 8, 3, 3, 3, 3, 1],
    )[0]
    if kind == "random":
        return kind, [], r.random()
    if kind == "getrandbits":
        k = drv.choice([0, 1, 2, 3, 7, 8, 31, 32, 33, 52, 63, 64, 65, 96, 100, 128, 200])
        return kind, [k], format(r.getrandbits(k), "x")
    if kind == "randrange_below":
        stop = drv.choice([1, 2, 3, 4, 5, 8, 9, 100, 2**31, 2**32, 2**33 + 1, 2**63 - 1])
        return kind, [stop], r.randrange(stop)
    if kind == "randrange":
        start, stop, step = drv.choice(PY_RANGES)
        return kind, [start, stop, step], r.randrange(start, stop, step)
    if kind == "randint":
        a, b = drv.choice(PY_INT_RANGES)
        return kind, [a, b], r.randint(a, b)
    if kind == "choice":
        n = drv.randint(1, 40)
        return kind, [n], r.choice(range(n))
    if kind == "shuffle":
        x = list(range(drv.randint(0, 40)))
        r.shuffle(x)
        return kind, [len(x)], x
    if kind == "sample":
        n, k = drv.choice(PY_SAMPLES)
        return kind, [n, k], r.sample(range(n), k)
    if kind == "uniform":
        a, b = drv.choice([(0.0, 1.0), (-3.5, 2.25), (10.0, -10.0), (1e-3, 1e3)])
        return kind, [a, b], r.uniform(a, b)
    if kind == "gauss":
        mu, sigma = drv.choice([(0.0, 1.0), (1.5, 0.2), (-3.0, 7.5)])
        return kind, [mu, sigma], r.gauss(mu, sigma)
    if kind == "normalvariate":
        mu, sigma = drv.choice([(0.0, 1.0), (1.5, 0.2)])
        return kind, [mu, sigma], r.normalvariate(mu, sigma)
    if kind == "choices":
        n, k = drv.randint(1, 20), drv.randint(0, 5)
        return kind, [n, k], r.choices(range(n), k=k)
    if kind == "choices_w":
        w = drv.choice([weights(drv, drv.randint(1, 8), drv.random() < 0.5), [1, 2, 3, 0, 4]])
        k = drv.randint(0, 5)
        return kind, [w, k], r.choices(range(len(w)), weights=w, k=k)
    if kind == "state":
        _, internal, gauss_next = r.getstate()
        return kind, [], [words_crc(internal[:624]), internal[624], gauss_next]
    name, args = drv.choice(
        [
            ("randrange", [5, 5, 1]),
            ("randrange", [0, 10, 0]),
            ("randrange", [10, 0, 1]),
            ("randrange", [0, 10, -1]),
            ("randrange_below", [0]),
            ("randint", [5, 4]),
            ("choice", [0]),
            ("sample", [3, 5]),
            ("choices_w", [[0.0, 0.0], 2]),
            ("choices_w", [[], 1]),
        ]
    )
    fns = {
        "randrange": lambda: r.randrange(*args),
        "randrange_below": lambda: r.randrange(*args),
        "randint": lambda: r.randint(*args),
        "choice": lambda: r.choice(range(args[0])),
        "sample": lambda: r.sample(range(args[0]), args[1]),
        "choices_w": lambda: r.choices(range(len(args[0])), weights=args[0], k=args[1]),
    }
    result = call(fns[name])
    assert isinstance(result, dict), (name, args, result)
    return name, args, result


def magnitude_words(seed):
    n = abs(seed)
    words = []
    while True:
        words.append(n & 0xFFFFFFFF)
        n >>= 32
        if n == 0:
            return words


def py_random_vectors():
    seeds = [0, 1, 42, 2**32 - 1, 2**32, 2**64 + 5, -1, -42, -(2**70), 10**30,
             2**100 + 12345, 3**200, -(7**150)]
    streams = []
    for index, seed in enumerate(seeds):
        r = random.Random(seed)
        drv = random.Random(2000 + index)
        ops = [list(py_op(drv, r)) for _ in range(240)]
        streams.append({"seed": str(seed), "words": magnitude_words(seed), "ops": ops})
    return {
        "generator": "random.Random",
        "python": platform.python_version(),
        "streams": streams,
    }


# --- the C library's log, sin and cos ----------------------------------------------------

MATH_COUNT = 200_000


def math_inputs(function):
    """Inputs for one function: four recipes in turn, from random.Random(seed)."""
    r = random.Random({"log": 11, "sin": 12, "cos": 13}[function])
    for i in range(MATH_COUNT):
        u = r.random()
        mode = i % 4
        if function == "log":
            if mode == 0:
                yield u
            elif mode == 1:
                yield u * u * u
            elif mode == 2:
                yield 1.0 + (u - 0.5) / 4.0
            else:
                yield math.ldexp(u + 0.5, r.randint(-1000, 1000))
        else:
            if mode == 0:
                yield u * random.TWOPI
            elif mode == 1:
                yield (u - 0.5) * 6.0
            elif mode == 2:
                yield (u - 0.5) * 0.3
            else:
                yield (u - 0.5) * 2e8


def glibc_math_vectors():
    out = {"count": MATH_COUNT, "machine": platform.machine()}
    for name, fn in (("log", math.log), ("sin", math.sin), ("cos", math.cos)):
        crc = 0
        for x in math_inputs(name):
            y = fn(x) if x > 0.0 or name != "log" else float("-inf")
            crc = zlib.crc32(struct.pack("<d", y), crc)
        out[name] = crc
    return out


def write(name, data):
    text = json.dumps(data, separators=(",", ":"))
    (OUT / name).write_text(text + "\n")
    print(f"{name}: {len(text)} bytes")


def main():
    if np.__version__ != NUMPY_VERSION:
        sys.exit(f"numpy {NUMPY_VERSION} expected, found {np.__version__}")
    if sys.version_info[:2] != (3, 11):
        print(f"warning: CPython 3.11 expected, running {platform.python_version()}")
    write("random_state.json", random_state_vectors())
    write("py_random.json", py_random_vectors())
    write("glibc_math.json", glibc_math_vectors())


if __name__ == "__main__":
    main()

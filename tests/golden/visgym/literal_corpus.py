"""Action strings for the `literal_eval` golden file: valid literals of every kind and
the malformed replies a model produces (prose, markdown, code, JSON, broken tuples).
Imported by generate.py."""

HAND = [
    # Valid actions and literals of every kind.
    "('move', 0)", "('move', 3)", "('stop', 'stop')", "('move', (1, 2))", "('move', [0, 6, 2, 0])",
    "('rotate', [15.0, 0.0, -10.0])", "('place', (0, 2, 3))", "('remove', 0)", "('undo', 'undo')",
    "'move', 0", "('move', 0),", "(('move', 0))", "  ('move', 0)", "\t('move', 0)", "\x0c('move', 0)",
    "('move', True)", "('move', False)", "('move', None)", "('move', ...)", "('move', 1.0)",
    "('move', -1)", "('move', +1)", "('move', - 1)", "('move', -(1))", "('move', 1e9)", "('move', 1e16)",
    "('move', 1e-05)", "('move', 0.1)", "('move', 123456789.123)", "('move', 1e400)", "('move', -1e400)",
    "('move', 2**3)", "('move', 1+2j)", "('move', 1-2j)", "('move', -1-2j)", "('move', 2j)", "('move', -0j)",
    "('move', 0x10)", "('move', 0o17)", "('move', 0b101)", "('move', 1_000)", "('move', 10**30)",
    "('move', 123456789012345678901234567890)", "('move', -123456789012345678901234567890)",
    "('move', 0xffffffffffffffffffffffffffffffffffffff)", "('move', '0')", "('move', \"0\")",
    "('move', 'it\\'s')", "('move', \"it's\")", "('move', 'a\"b')", "('move', 'a\\nb')", "('move', 'tab\\there')",
    "('move', '\\x00\\x7f\\x80')", "('move', 'é→😀')", "('move', '\\u200b')", "('move', '\\U0001F600')",
    "('move', b'abc')", "('move', b'\\xff')", "('move', rb'\\x')", "('move', r'\\n')", "('move', u'x')",
    "('move', 'a' 'b')", "('move', b'a' b'b')", "('move', {})", "('move', {1: 2})", "('move', {'a': [1]})",
    "('move', {1, 2})", "('move', {3, 1, 2})", "('move', set())", "('move', {1: 2, 1.0: 3})",
    "('move', {1, 1.0, True})", "('move', {-1, -2})", "('move', {0.5, 1.5, 2.5})", "('move', {(1, 2), (2, 1)})",
    "('move', [])", "('move', ())", "('move', (1,))", "('move', [1, [2, [3]]])", "('move', ((0, 0), (1, 1)))",
    "('move', 'stop')", "('stop', 'halt!')", "('stop', '')", "('stop', 'stopp')", "('stop', 1)",
    "(1, 2)", "('move',)", "('move', 0, 1)", "['move', 0]", "{'move': 0}", "'move'", "0", "()", "[]",
    "('move', 9999999999999999999999)", "('move', 2**63)", "('move', -2**63)",
    # Malformed: names, calls, operators.
    "move", "move(0)", "('move', x)", "('move', up)", "(move, 0)", "('move', 0) and ('move', 1)",
    "('move', 0), ('move', 1)", "move right", "hello world", "-x", "--1", "+True", "-True", "1+2",
    "(1+2j)+3j", "1j+2j", "True+1j", "not 1", "~1", "1 < 2", "x if y else z", "lambda x: x", "lambda: 0",
    "a.b", "a[1]", "a[1:2]", "a[1:2:3]", "a[::]", "a[1, 2]", "a[*b]", "a()", "a(1)(2)", "set()",
    "set([1])", "f(a=1)", "f(*a)", "f(**a)", "f(x for x in y)", "[x for x in y]", "{x for x in y}",
    "{x: 1 for x in y}", "(x for x in y)", "(a := 1)", "(yield x)", "(yield)", "(yield from x)",
    "await x", "f'{x}'", "f'abc'", "'a' f'b'", "F'{x!r:>{w}}'", "{**x}", "{1: 2, **x}", "{[1]}",
    "{[1]: 2}", "{(1, [2])}", "{{1}}", "{1: 2, [3]: x}", "{x, [1]}", "[1, 2,]", "[1 2]", "{'a' 1}",
    "{'a': 1 'b': 2}", "{'a':}", "{1:2, 3}", "{1, 2:3}", "{1:2 3:4}", "(*a)", "(**a)", "[*a for a in b]",
    "x if y", "x if y else", "1 if 2", "not", "a := 1", "a = 1", "1 = 2", "(a = 1)", "(1 = 2)", "f(True=1)",
    "f(a.b=1)", "f(a=1, b)", "f(**a, b)", "f(x for x in y, 1)", "f(1, x for x in y)", "f(a=x for x in y)",
    "yield x", "print 'a'", "print('hi')", "exec 'x'", "(move right)", "[move right]", "{move right}",
    "(move right", "('move', 0", "('move', 0))", "(]", "(\n]", "([)]", "'move', 0)", ")",
    "[x for x in]", "[x for 1 in y]", "[x for a + b in y]", "(x for x in y", "{1:2 for", "lambda",
    "(*)", "f(**)", "x=1,", "a.1", "1.a", "1. a", "..", "....", "'", "\"", "'''", "'''abc", "'''abc\ndef",
    "\"\"\"abc", "'abc\n'", "a b 'c", "a b\n'c", "I think (move", "x\n(", "(\n\n", "1 +", "1 +\n2",
    # Numbers.
    "1st", "2x2", "3rd move", "1.5x", "1e5x", "1jx", "1.e", "1e+", "1e", "1__2", "1_", "0_", "0x",
    "0b", "0o", "0e", "0x_1", "0x1_", "0b2", "0o8", "0b1_2", "0o1a", "0xag", "007", "00", "0_0", "09.5",
    "0e5", "0.e1", "1if 1else 2", "1or 2", "1in x", "1is x", "1not in x", "1and 2", "1ab", "1 if x",
    "1.5J", "1j", "00j", ".5", "1.", "1E5", "1_000.000_1",
    # Strings and escapes.
    "'\\x'", "'\\x1'", "'ab\\x1g'", "'é\\x1'", "'\\u12'", "'\\U1234'", "'\\U00110000'", "'\\N'",
    "'\\N{foo}'", "'\\N{}'", "'\\N{x'", "'\\Nx'", "b'\\x'", "b'a\\x1'", "'\\d'", "'\\777'", "b'\\777'",
    "'a\\\nb'", "f'{'", "f'}'", "f'{}'", "f'{x'", "f'{{}}'", "b'é'", "'a' b'b'", "b'a' 'b'",
    # Layout.
    "", " ", "\t", "\n", "\n\n", "1\n   ", "1\n", "1\n\n", "1 # c", "# c", "\n1", "\n  1", "1\n  2",
    "(1\n  ,2)", "1\\\n+2j", "1\\", "1\\x", "(1\\", "(1\\\n", "a\tb", "a\n  b", "a\n  b\nc",
    "if x:\n  y", "a\n\tb", "  a\n\tb", "(1,\n2\n", "(1,\n2", "[\n1,\n2", "a\x00b", "\r\n1", "1\r2",
    "1\r\n", "(1\r\n,2)",
    # Characters.
    "\u00a0", "a\u00a0b", "\u200b", "café", "é", "→", "x’s", "$", "?", "!", "`", "a $ b", "a ? b",
    "\u0001", "\u007f", "move\u0001", "😀", "move 😀", "移动", "向右移动", "…", "move…", "«move»",
    "‘move’", "“move”", "('move', ‘0’)", "（'move', 0）",
]

PROSE = [
    "I will move right.",
    "I'll move right.",
    "Let's move down!",
    "The target is to the right, so I should move right.",
    "It's blocked, so I'll go up.",
    "Moving down.",
    "move down",
    "Move right",
    "stop",
    "Stop.",
    "I think we're done",
    "The answer is 3",
    "Based on the image, the blue circle is at the top left corner.",
    "I cannot see the maze clearly.",
    "There is a wall to the right; I'll try moving down instead.",
    "Action: move right",
    "Action: ('move', 0)",
    "ACTION: stop",
    "**Action**: move right",
    "The next move should be down (3).",
    "I choose direction 0 (right).",
    "Direction: 0",
    "move(0)",
    "move(direction=0)",
    "{\"action\": \"move\", \"direction\": 0}",
    "{'action': 'move', 'payload': 0}",
    "<answer>('move', 0)</answer>",
    "<think>I should go right</think>",
    "```python\nmove(0)\n```",
    "```\n('move', 0)\n```",
    "`('move', 0)`",
    "Step 1: move right\nStep 2: move down",
    "First, move right.\n\nThen, move down.",
    "Thinking...\n  The path goes right.\n  I'll move right.",
    "- move right\n- move down",
    "1. move right\n2. stop",
    "I'm not sure.",
    "Hmm, let me think about this carefully.",
    "Sorry, I can't help with that.",
    "The red target square is 3 cells away.",
    "Rotate by 45° clockwise.",
    "Move the stick 2 units left and rotate -30 degrees.",
    "Place patch 0 at (2, 3).",
    "place(0, 2, 3)",
    "('place', 0, 2, 3)",
    "Swap tiles 1 and 3.",
    "The equation 5+3=8 is correct.",
    "Move a match from symbol 0 to symbol 2",
    "(move, 0)",
    "('move' 0)",
    "('move', 0",
    "[('move', 0)]",
    "('move', up)",
    "('move', 'up')",
    "move right → then down",
    "I’ll move right",
    "It’s done.",
    "Go right…",
    "Right!",
    "right?",
    "Up & left",
    "50% sure: move right",
    "@agent move",
    "#1 move right",
    "move right # because the path is open",
    "\\(move\\)",
    "x = ('move', 0)",
    "action = ('move', 0)",
    "return ('move', 0)",
    "if free: move right",
    "for i in range(3): move right",
    "not sure, maybe right",
    "right or down",
    "right and then down",
    "right if possible else down",
    "yes",
    "None of the moves work",
    "True",
    "False",
    "None",
    "0",
    "3",
    "-1",
    "(0)",
    "[0]",
    "0, 1",
    "'stop'",
    "\"stop\"",
    "'move', 'right'",
    "The blue stick should move by [2, 0, 45].",
    "[2, 0, 45]",
    "('rotate', [15, 0, 0]) seems good",
    "I'd rotate ('rotate', [15, 0, 0])",
    "move block 1 up: ('move', (1, 0))",
    "Answer:\n('move', (1, 0))\n",
    "Answer:\n    ('move', (1, 0))",
    "\n\n('move', (1, 0))\n\n",
    "   \n  ('move', 0)",
]


PROBES = [
    "1é", "1°", "1.5°", "0x1°", "1j°", "1e5°", "0°", "1_°", "[- a\n- b", "[- a", "[a\n- b", "[-\n a",
    "[move right\n", "[move right\nx", "[a b\n'c", "(a b\n'c", "[move right\n- move down",
    "[move right\nmove down", "[-a b\n-c d", "[a\nb", "[a\nb c", "[a b\nc", "[move right\nx\n'",
    "[move right\nx y", "[move right x\ny", "[move right\n\nx", "[move\nright\nx", "[move right\nx]",
    "[move right\nx,", "(move right\nx", "[a b\nc ]", "[a b\nc d]", "[a b\nc d",
]

# Random token soups (fixed seed): exercise the tokenizer and the parser's error paths.
SOUP = [
    "(", ")", "[", "]", "{", "}", "'", '"', ",", ":", "=", " ", "\n", "  ", "\t", "move", "0", "1.5",
    "x", "if", "else", "for", "in", "lambda", "not", "and", "*", "**", "-", "+", "j", "\\", "#", "é",
    "°", "’", ".", "...", "f'", "b'", ";", "'move'", "'stop'", "1e5", "2x", ":=", "==", "print", "None",
    "True", "yield", "await", "async", "is", "or", "<", ">", "/", "%", "@", "~", "^", "|", "&", "$", "?",
]


# Ints at CPython's 4300-digit limit on int/text conversion: decimal literals beyond it
# are a SyntaxError (raised as soon as the parser builds the number), literals in base
# 2, 8 or 16 of any length are read but cannot be printed.
BIG_INTS = [
    "1" * 4300, "1" * 4301, "1_" * 4300 + "1", "0" * 5000, "1" * 5000 + ".5", "1" * 5000 + "j",
    "(1,\n" + "2" * 5000 + ")", "(" + "2" * 5000 + " 3)", "[1 2, " + "3" * 5000 + "]",
    "-" + "9" * 4301, "0x" + "0" * 20000 + "1", "0o" + "7" * 5000, "-0x" + "f" * 3600,
    "0x" + "1F" * 4000, "('move', 0x" + "1F" * 4000 + ")", "{0x" + "f" * 4000 + ": 1}",
    "(0x" + "f" * 4000 + ", 'move')", "0x" + "f" * 3571, "0x" + "f" * 3572,
] + ["0b1" + "0" * n for n in (14283, 14284, 14285, 14286, 14290, 14300)]


# Left-recursive chains CPython parses but cannot turn into `ast` objects past three
# times the recursion limit (RecursionError), around the limit as this generator calls
# `literal_eval`, and far past it (millions of nodes must not exhaust memory or stack).
DEEP_CHAINS = [
    "('a', " + "1+" * n + "1)" for n in (2000, 2982, 2983, 2984, 5000, 1_000_000)
] + [
    "x" + ".a" * 2990, "x" + ".a" * 2995, "set()" + "()" * 4000, "[1]" + "[0]" * 4000,
    "1" + "*1" * 3000, "-1" + "-1" * 2997, "(" + "1+" * 3000 + "1) or 2",
    "[" + "1+" * 3000 + "1 for x in y]", "1" + "+1" * 3000 + " +", "{1: " + "1+" * 4000 + "1}",
]


def soup(rng, n):
    out = []
    for _ in range(n):
        k = rng.randint(1, 9)
        out.append("".join(rng.choice(SOUP) for _ in range(k)))
    return out


def corpus():
    out = []
    seen = set()
    import random

    for s in HAND + PROSE + PROBES + soup(random.Random(11), 2500):
        if s not in seen:
            seen.add(s)
            out.append(s)
    # Prose variants: the same sentences on several lines and inside brackets.
    for s in PROSE[:40]:
        for v in (s + "\n" + s, "(" + s + ")", "[" + s, s + "\n\n  " + s, "'" + s + "'"):
            if v not in seen:
                seen.add(v)
                out.append(v)
    return out + BIG_INTS + DEEP_CHAINS

#!/usr/bin/env python3
"""Checks that every diagnostic the compiler emits has a test.

Scans the C++ sources under lib/, tools/ and include/ (recursively: files
move between folders) for diagnostics -- emitError, emitOpError,
emitWarning, emitRemark (and their Op/Silenceable forms), parser.emitError,
mlir::emitError(loc) and attachNote -- and extracts each one's message as a
pattern: the string literals of the message in order, with a wildcard for
each value streamed in between (`<< type`, `<< (c ? "a" : "b")`, ...).

(Driver errors that tools/pcc prints with reportError, not through MLIR's
diagnostics, are not checked here.)

A diagnostic is tested if some line of some file under test/ matches the
start of its pattern: up to the first MAX_LITERAL characters of literal text,
at least MIN_LITERAL of them. The usual forms match as they are written:
`expected-error {{...}}` with -verify-diagnostics, `CHECK: error: ...`, with
or without `{{.*}}` in place of the values.

Diagnostics that no input can reach are listed in ALLOWLIST, each with the
reason; an entry that no longer matches a diagnostic is an error too, so the
list stays current.

Usage: check_diagnostics_tested.py [--root DIR] [--list] [--verbose]
                                   [--ignore-allowlist]
  --root DIR          the repository (default: two folders above this script)
  --list              print every diagnostic found, with its pattern, and exit
  --verbose           also print where each tested diagnostic's test is
  --ignore-allowlist  check the allowlisted diagnostics too
"""

import argparse
import os
import re
import sys

# The least and the most literal text of a message that a test must show.
MIN_LITERAL = 12
MAX_LITERAL = 40

SOURCE_DIRS = ("lib", "tools", "include")
SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".h", ".hpp", ".td")

# A made-up repository (next to this script) on which the lit test checks
# that this script finds diagnostics and reports the untested ones.
FIXTURE = "diagnostics-tested"

# Calls that start a diagnostic; the message follows in their arguments or
# in a `<<` chain after them.
DIAGNOSTIC_CALL = re.compile(
    r"\b(emit(?:Op)?(?:Error|Warning|Remark)|emitSilenceableError|"
    r"emitOptionalError|attachNote)\s*\(")

# Diagnostics that no input can reach (defensive checks), keyed by the start
# of their pattern as --list prints it (literal text, `...` for a value),
# each with the reason no input reaches it. Keep this list short: where some
# input -- to pcc-opt with any pass, or to pcc -- reaches a diagnostic, write
# that test instead. Today every diagnostic has a test, so it is empty; an
# entry looks like
#
#     "must be bufferized before it is lowered":
#         "LowerRuntimeCalls.cpp: every pipeline bufferizes before it, and "
#         "the pass is not registered on its own",
ALLOWLIST = {
}


def strip_comments(text):
    """Replaces C++ comments with spaces, keeping strings and line numbers."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            # A string or character literal ends on its line (an apostrophe
            # in a .td description is no literal).
            j = i + 1
            while j < n and text[j] not in (c, "\n"):
                j += 2 if text[j] == "\\" else 1
            if j >= n or text[j] == "\n" or (c == "'" and j - i > 8):
                out.append(c)
                i += 1
                continue
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'", "0": "\0"}


def unescape(body):
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)),
                  body)


TOKEN = re.compile(r'''
    (?P<string>(?:[uUL]|u8)?"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)*')
  | (?P<shift><<)
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | (?P<end>[;,])
  | (?P<space>\s+)
  | (?P<other>[A-Za-z_0-9]+|.)
''', re.VERBOSE | re.DOTALL)


def tokens(text, pos):
    while pos < len(text):
        m = TOKEN.match(text, pos)
        kind = m.lastgroup
        if kind != "space":
            yield kind, m.group(), m.start()
        pos = m.end()


def string_value(token):
    return unescape(token[token.index('"') + 1:-1])


def operand_pieces(operand):
    """The message pieces of one operand: its text if it is string literals
    only (adjacent ones concatenate), possibly in a Twine(...) or
    StringRef(...), else a wildcard (None)."""
    values = [value for _, value in operand]
    while (len(values) >= 3 and values[-1] == ")" and
           re.fullmatch(r"(\w+::)*(Twine|StringRef|StringLiteral|string)",
                        "".join(values[:values.index("(")]))):
        # Unwrap `llvm::Twine("...")`.
        inner = values.index("(")
        values = values[inner + 1:-1]
        operand = operand[inner + 1:-1]
    if operand and all(kind == "string" for kind, _ in operand):
        return ["".join(string_value(text) for _, text in operand)]
    return [None]


def sum_pieces(argument):
    """The pieces of `"a" + value + "b"` (or of a single operand)."""
    pieces, operand, depth = [], [], 0
    for kind, value in argument:
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
        if depth == 0 and value == "+":
            pieces += operand_pieces(operand)
            operand = []
            continue
        operand.append((kind, value))
    return pieces + operand_pieces(operand)


def parse_message(text, call_end):
    """The pieces (strings, None for a value) of the message of the
    diagnostic whose call's `(` ends at call_end."""
    pieces = []
    stream = tokens(text, call_end)
    # The call's own arguments: a literal argument is part of the message
    # (emitOpError("..."), parser.emitError(loc, "...")); the others are
    # locations.
    def add_argument(argument):
        nonlocal pieces
        argument_pieces = sum_pieces(argument)
        if any(piece is not None for piece in argument_pieces):
            pieces += argument_pieces

    depth = 1
    argument = []
    for kind, value, _ in stream:
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                break
        if depth == 1 and kind == "end":
            add_argument(argument)
            argument = []
            continue
        argument.append((kind, value))
    add_argument(argument)

    # Then the `<<` chain, to the end of the expression.
    depth = 0
    operand = None  # None until the first `<<`.
    for kind, value, _ in stream:
        if kind == "open":
            depth += 1
        elif kind == "close":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and kind == "end":
            break
        elif depth == 0 and kind == "shift":
            if operand is not None:
                pieces += operand_pieces(operand)
            operand = []
            continue
        if operand is None:
            # Something other than `<<` after the call (`.attachNote`, `;`).
            break
        operand.append((kind, value))
    if operand:
        pieces += operand_pieces(operand)
    return pieces


def find_diagnostics(root):
    """Yields (path, line, pieces) for each diagnostic in the sources."""
    for top in SOURCE_DIRS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = strip_comments(f.read())
                for m in DIAGNOSTIC_CALL.finditer(text):
                    # A declaration or definition, not a call.
                    before = text[max(0, m.start() - 40):m.start()]
                    if re.search(r"(InFlightDiagnostic|LogicalResult|void)"
                                 r"\s*[&*]?\s*(\w+::)*$", before):
                        continue
                    line = text.count("\n", 0, m.start()) + 1
                    yield (os.path.relpath(path, root), line,
                           parse_message(text, m.end()))


def message_key(pieces):
    """The start of the message a test must show, as a list of literal
    pieces (values between them elided), and its literal length."""
    key, length = [], 0
    for piece in pieces:
        if piece is None:
            if key and key[-1] is not None:
                key.append(None)
            continue
        if not piece.strip():
            continue
        take = piece[:MAX_LITERAL - length]
        key.append(take)
        length += len(take)
        if length >= MAX_LITERAL:
            break
    while key and key[-1] is None:
        key.pop()
    return key, length


def describe(key):
    return "".join("..." if piece is None else piece for piece in key)


def key_regex(key):
    """Matches a line that shows the key, with anything (a value, `{{.*}}`)
    in place of the values."""
    pieces = list(key)
    # The key's outer spaces separate it from values that it leaves out.
    pieces[0] = pieces[0].lstrip()
    pieces[-1] = pieces[-1].rstrip()
    return re.compile("".join(".*" if piece is None else re.escape(piece)
                              for piece in pieces))


def read_tests(root, skip):
    """The lines of the files under root/test, as (path, number, text),
    except those of the paths in skip (files or folders)."""
    lines = []
    for folder, dirs, files in os.walk(os.path.join(root, "test")):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and
                         os.path.abspath(os.path.join(folder, d)) not in skip)
        for name in sorted(files):
            path = os.path.join(folder, name)
            if os.path.abspath(path) in skip:
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    lines += [(path, number + 1, line) for number, line in
                              enumerate(f.read().splitlines())]
            except (UnicodeDecodeError, OSError):
                continue
    return lines


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(here)))
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--ignore-allowlist", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    allowlist = {} if args.ignore_allowlist else ALLOWLIST

    diagnostics = list(find_diagnostics(root))
    if not diagnostics:
        print(f"error: found no diagnostics under {root}", file=sys.stderr)
        return 1
    if args.list:
        for path, line, pieces in diagnostics:
            print(f"{path}:{line}: {describe(message_key(pieces)[0])}")
        return 0

    # This script names the allowlisted messages, and its own test's
    # sources (FIXTURE) are made-up diagnostics: neither tests anything.
    tests = read_tests(root, {os.path.abspath(__file__),
                              os.path.join(here, FIXTURE)})
    untested = []
    used = set()
    for path, line, pieces in diagnostics:
        key, length = message_key(pieces)
        text = describe(key)
        allowed = [entry for entry in allowlist if text.startswith(entry)]
        if allowed:
            used.update(allowed)
            continue
        if length < MIN_LITERAL:
            untested.append(
                f"{path}:{line}: the message '{text}' has fewer than "
                f"{MIN_LITERAL} characters of literal text to look for; "
                "write more of it as literals, or allowlist it with the "
                "reason")
            continue
        regex = key_regex(key)
        match = next((test for test in tests if regex.search(test[2])), None)
        if match and args.verbose:
            print(f"{path}:{line}: '{text}' is tested in "
                  f"{os.path.relpath(match[0], root)}:{match[1]}")
        if not match:
            untested.append(
                f"{path}:{line}: no test under test/ shows the diagnostic "
                f"'{text}'; add one (an expected-error in an invalid-input "
                "test, say), or, if no input can reach it, add it to the "
                f"ALLOWLIST in {os.path.basename(__file__)} with the reason")
    stale = sorted(set(allowlist) - used)
    for problem in untested:
        print("error: " + problem)
    for entry in stale:
        print(f"error: the ALLOWLIST entry '{entry}' matches no diagnostic; "
              "remove it")
    if untested:
        print(f"{len(untested)} of {len(diagnostics)} diagnostics untested")
    if untested or stale:
        return 1
    print(f"all {len(diagnostics)} diagnostics are tested "
          f"({len(used)} allowlisted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

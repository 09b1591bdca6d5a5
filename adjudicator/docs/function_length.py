#!/usr/bin/env python3
"""No function over 120 lines in model/ or adjudicator/ (tests included).

Lists every function body longer than the limit, longest first, and exits 1 when there is
one (a ctest runs it: `function_length`). A function is counted from the first line of its
signature to its closing brace; lambdas and local classes count toward the function holding
them. The reading is lexical, not a compiler's: comments, string and character literals (raw
strings too) are skipped, and a `{` at namespace or class level opens a function body when
the text before it ends like a signature: `)` with optional qualifiers, a trailing return
type or a constructor's initializer list.

    python3 adjudicator/docs/function_length.py [--limit N] [paths...]
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIRS = ["model", "adjudicator"]
LIMIT = 120
# Functions allowed over the limit for now, as "path:function name"; an entry that is no
# longer long fails too, so the list only shrinks.
KNOWN: set = set()

SIGNATURE_END = re.compile(
    r"\)\s*(?:const|override|final|noexcept(?:\([^)]*\))?|mutable|&&|&|\s)*"
    r"(?:->\s*[\w:<>,\s*&\[\]]+)?\s*$")
NOT_FUNCTION = re.compile(r"^\s*(?:namespace|class|struct|union|enum|extern)\b")

def strip(text):
    """The text with comments and literals blanked (newlines kept, so lines still count)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.find("(", i + 2)
            delim = text[i + 2:k]
            j = text.find(")" + delim + '"', k)
            j = n if j < 0 else j + len(delim) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
        elif c in "\"'":
            # A digit separator (1'000) is not a character literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)

def functions(text):
    """(name, first line, last line) of every outermost function body in `text`."""
    code = strip(text)
    # Preprocessor lines are not statements.
    code = re.sub(r"(?m)^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group()), code)
    found = []
    stack = []  # per open brace: (function, start, name), "scope", or "inner" (in a function)
    header_start = 0  # offset just after the last ; { } at the current level
    for i, c in enumerate(code):
        if c in ";":
            if not in_function(stack):
                header_start = i + 1
        elif c == "{":
            if in_function(stack):
                stack.append("inner")
                continue
            header = code[header_start:i]
            # A constructor's initializer list: cut at the last ") :" before the brace.
            m = re.search(r"\)\s*(?:noexcept\s*)?:(?!:)", header)
            sig = header[:m.start() + 1] if m else header
            is_fn = (not NOT_FUNCTION.match(header) and "(" in header and "=" not in sig.split("(")[0]
                     and (SIGNATURE_END.search(sig) or m is not None))
            if is_fn:
                start = header_start + len(header) - len(header.lstrip())
                name = re.findall(r"([~\w:]+(?:operator\W+)?)\s*\(", sig)
                stack.append(("function", start, name[0] if name else "?"))
            else:
                stack.append("scope")
            header_start = i + 1
        elif c == "}":
            if not stack:
                continue
            top = stack.pop()
            if isinstance(top, tuple):
                _, start, name = top
                first = code.count("\n", 0, start) + 1
                last = code.count("\n", 0, i) + 1
                found.append((name, first, last))
            if not in_function(stack):
                header_start = i + 1
    return found

def in_function(stack):
    return any(isinstance(s, tuple) for s in stack)

def main(argv):
    limit = LIMIT
    args = argv[1:]
    if args[:1] == ["--limit"]:
        limit = int(args[1])
        args = args[2:]
    paths = [pathlib.Path(a).resolve() for a in args] or [ROOT / d for d in DIRS]
    files = []
    for p in paths:
        files += sorted(p.rglob("*")) if p.is_dir() else [p]
    long_ones = []
    for path in files:
        if path.suffix not in (".cc", ".h") or "build" in path.relative_to(ROOT).parts[:1]:
            continue
        for name, first, last in functions(path.read_text(encoding="utf-8", errors="replace")):
            length = last - first + 1
            if length > limit:
                long_ones.append((length, path.relative_to(ROOT).as_posix(), first, name))
    long_ones.sort(reverse=True)
    bad = 0
    seen = set()
    for length, rel, first, name in long_ones:
        key = rel + ":" + name
        seen.add(key)
        tag = " (known, being split)" if key in KNOWN else ""
        bad += key not in KNOWN
        print(f"{rel}:{first}: {name} is {length} lines (limit {limit}){tag}")
    for key in sorted(KNOWN - seen) if not args and limit == LIMIT else []:
        print(f"{key}: listed as known but no longer over {limit} lines: take it off KNOWN")
        bad += 1
    if bad:
        print(f"{bad} function(s) over {limit} lines")
        return 1
    print(f"no function over {limit} lines in {', '.join(DIRS)}")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""A proof tree written with bussproofs (`\\begin{prooftree}` … `\\end{prooftree}`) as text.

Logic notes write their inference rules as bussproofs proofs, which Obsidian's MathJax
draws as a tree: premises side by side over a line, the conclusion under it. A math
garden's logic pages hold 19 such proofs, shown as their TeX before. `proof_lines` draws
one with the same commands, read as bussproofs reads them, bottom-up on a stack:

- `\\AXC{…}` (`\\AxiomC`) puts an axiom on the stack; `\\UIC{…}`, `\\BIC{…}`, `\\TIC{…}`
  (`\\UnaryInfC`, `\\BinaryInfC`, `\\TrinaryInfC`, and four and five premises) take one,
  two, three proofs off it and put back their inference: the premises side by side,
  bottoms aligned, three cells apart, a rule as wide as the premises' conclusions or the
  new conclusion, whichever is wider, the conclusion centred under it;
- `\\RightLabel{…}` (`\\RL`) and `\\LeftLabel{…}` (`\\LL`) label the next rule beside it;
  `\\noLine`, `\\doubleLine` and `\\dashedLine` draw it as none, `═` or `┄` (`─` else);
- a node's text is text, its `$…$` math (written by `math`, `core.math_text`).

One proof whole, or nothing: another command, text between commands, or a stack not
ending with one proof gives None (the formula stays as written).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["proof_lines"]

PREMISES = {"AXC": 0, "AxiomC": 0, "UIC": 1, "UnaryInfC": 1, "BIC": 2, "BinaryInfC": 2}
PREMISES |= {"TIC": 3, "TrinaryInfC": 3, "QuaternaryInfC": 4, "QuinaryInfC": 5}
"""Each step's command and the proofs it takes off the stack (0: an axiom)."""
LABELS = {"RightLabel": "right", "RL": "right", "LeftLabel": "left", "LL": "left"}
RULES = {"noLine": "", "singleLine": "─", "solidLine": "─", "doubleLine": "═", "dashedLine": "┄"}
"""How the next rule is drawn, by the command that says so."""
GAP = 3
"""Cells between two premises side by side."""
MOST_STEPS = 500
"""Commands read in one proof (a longer one stays as written)."""

_COMMAND = re.compile(r"\s*\\([A-Za-z]+)\s*")
_MATH = re.compile(r"\$([^$]*)\$")


@dataclass(frozen=True, slots=True)
class _Proof:
    """A proof drawn: its lines, top to bottom, each `width` cells, and where its
    conclusion stands on the last one (`start`, `end`)."""

    lines: tuple[str, ...]
    width: int
    start: int
    end: int


def proof_lines(inside: str, math: Callable[[str], str]) -> str | None:
    """The proof written `inside` a `prooftree` environment as lines of text (see the
    module doc), its math written by `math`; None when it is not one whole proof."""
    stack: list[_Proof] = []
    labels = {"left": "", "right": ""}
    rule = "─"
    at, steps = 0, 0
    while at < len(inside):
        command = _COMMAND.match(inside, at)
        if command is None:
            return None if inside[at:].strip() else _last(stack)
        steps += 1
        if steps > MOST_STEPS:
            return None
        name, at = command[1], command.end()
        if name in RULES:
            rule = RULES[name]
            continue
        argument, at = _group(inside, at)
        if argument is None:
            return None
        if name in LABELS:
            labels[LABELS[name]] = _node_text(argument, math)
            continue
        taken = PREMISES.get(name)
        if taken is None or len(stack) < taken:
            return None
        text = _node_text(argument, math)
        if taken == 0:
            stack.append(_Proof((text,), len(text), 0, len(text)))
            continue
        premises = stack[len(stack) - taken :]
        del stack[len(stack) - taken :]
        stack.append(_inference(premises, text, rule, labels["left"], labels["right"]))
        labels, rule = {"left": "", "right": ""}, "─"
    return _last(stack)


def _last(stack: list[_Proof]) -> str | None:
    return "\n".join(line.rstrip() for line in stack[0].lines) if len(stack) == 1 else None


def _group(text: str, at: int) -> tuple[str | None, int]:
    """The `{…}` group starting at `at` (braces inside it paired) and where it ends."""
    if not text.startswith("{", at):
        return None, at
    depth = 0
    for end in range(at, len(text)):
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        if depth == 0:
            return text[at + 1 : end], end + 1
    return None, at


def _node_text(argument: str, math: Callable[[str], str]) -> str:
    """A node's text: its words as written (braces gone), its `$…$` as `math` writes it."""
    pieces: list[str] = []
    done = 0
    for found in _MATH.finditer(argument):
        pieces += [argument[done : found.start()].replace("{", "").replace("}", "")]
        pieces.append(math(found[1]))
        done = found.end()
    pieces.append(argument[done:].replace("{", "").replace("}", ""))
    return " ".join("".join(pieces).split())


def _inference(premises: list[_Proof], conclusion: str, rule: str, left: str, right: str) -> _Proof:
    """`premises` side by side over a rule (labelled), `conclusion` centred under it."""
    height = max(len(premise.lines) for premise in premises)
    rows = [""] * height
    offsets, at = [], 0
    for premise in premises:
        offsets.append(at)
        padded = ("",) * (height - len(premise.lines)) + premise.lines
        for number, line in enumerate(padded):
            rows[number] += line.ljust(premise.width) + " " * GAP
        at += premise.width + GAP
    rows = [row[: at - GAP] for row in rows]
    over = (offsets[0] + premises[0].start, offsets[-1] + premises[-1].end)
    middle = (over[0] + over[1]) / 2
    span = max(over[1] - over[0], len(conclusion))
    rule_start = round(middle - span / 2)
    shift = max(0, -rule_start) + (len(left) + 1 if left else 0)
    rule_start += shift
    lines = [" " * shift + row for row in rows]
    if rule:
        drawn = " " * rule_start + rule * span
        if left:
            drawn = drawn[: rule_start - len(left) - 1] + left + " " + drawn[rule_start:]
        lines.append(drawn + (" " + right if right else ""))
    start = rule_start + (span - len(conclusion)) // 2
    lines.append(" " * start + conclusion)
    width = max(len(line) for line in lines)
    return _Proof(tuple(line.ljust(width) for line in lines), width, start, start + len(conclusion))

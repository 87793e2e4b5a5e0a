"""`; EXPECT:` lines: the verdicts a tv file's instances must get, written in
the file itself (the way lit reads CHECK lines), read by
tests/test_tv_expect.py.

    ; EXPECT: 30 instances
    ; EXPECT: unsupported @dpp_v2i16_add gfx803 "v_add_u16_sdwa"
    ; EXPECT: refuted @f gfx1100 wave64
    ; EXPECT: compiler error @g gfx1100

A verdict line names the verdict, then optionally the function (`@name`),
the target and the wave (`wave32`/`wave64`), and a quoted text that one of
the instance's notes must contain.  An instance no verdict line matches
must be proved; the first line that matches decides.  `N instances` says
how many (function, RUN line) instances the file has in all.  Every verdict
line must match at least one instance, so a stale line fails too."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

VERDICTS = ("proved", "refuted", "unknown", "unsupported", "compiler error")
_LINE = re.compile(r";\s*EXPECT:\s*(.*?)\s*$")
_WORD = re.compile(r'"([^"]*)"|(\S+)')


@dataclass(frozen=True)
class Rule:
    line: int
    verdict: str
    function: str | None = None
    target: str | None = None
    wave: int | None = None
    note: str | None = None

    def matches(self, function: str, target: str, wave: int) -> bool:
        return ((self.function is None or self.function == function) and (self.target is None or self.target == target)
                and (self.wave is None or self.wave == wave))


@dataclass
class Expectations:
    path: str
    rules: list[Rule] = field(default_factory=list)
    instances: int | None = None

    def rule_for(self, function: str, target: str, wave: int) -> Rule | None:
        return next((r for r in self.rules if r.matches(function, target, wave)), None)


def _error(path: str, line: int, col: int, what: str) -> ValueError:
    return ValueError(f"{path}:{line}:{col}: error: {what}")


def parse(path: str, text: str) -> Expectations:
    """The file's EXPECT lines; a malformed one raises ValueError naming
    `path:line:col`."""
    out = Expectations(path)
    for k, line in enumerate(text.splitlines(), 1):
        m = _LINE.match(line.strip())
        if not m:
            continue
        col = line.index("EXPECT:") + len("EXPECT:") + 2
        words: list[tuple[str, str]] = _WORD.findall(m.group(1))
        if words[:2] == [("", "compiler"), ("", "error")]:  # the one verdict of two words
            words = [("", "compiler error"), *words[2:]]
        if len(words) == 2 and words[1] == ("", "instances") and words[0][1].isdigit():
            if out.instances is not None:
                raise _error(path, k, col, "a second instance count")
            out.instances = int(words[0][1])
            continue
        if not words or words[0][1] not in VERDICTS:
            raise _error(path, k, col, f"EXPECT wants a verdict ({', '.join(VERDICTS)}) or 'N instances', "
                                       f"got '{m.group(1)}'")
        rule: dict[str, object] = {"line": k, "verdict": words[0][1]}
        for quoted, word in words[1:]:
            if not word:
                key, val = "note", quoted
            elif word.startswith("@"):
                key, val = "function", word[1:]
            elif re.fullmatch(r"wave(32|64)", word):
                key, val = "wave", int(word[4:])
            elif re.fullmatch(r"gfx[0-9a-f]+", word):
                key, val = "target", word
            else:
                key, val = "?", word
            if key == "?" or key in rule:
                raise _error(path, k, col, f"EXPECT: unexpected '{word or quoted}' (after the verdict: "
                                           "@function, a target, wave32/wave64, a \"note\", once each)")
            rule[key] = val
        out.rules.append(Rule(**rule))  # type: ignore[arg-type]
    return out


def read(path: Path) -> Expectations:
    return parse(str(path), path.read_text())

"""Split Rocq source text into sentences, dropping comments and keeping strings intact.

A sentence ends at a ``.`` followed by whitespace or the end of the text, outside
comments and string literals. Whitespace outside string literals is collapsed to
single spaces so that each sentence fits on one line (both backends rely on that).
"""

from __future__ import annotations

from dataclasses import dataclass


class SentenceError(ValueError):
    """The text cannot be split into sentences (unterminated comment, string or sentence)."""


@dataclass(frozen=True)
class Sentence:
    """One sentence: its normalised text (ending with ``.``) and its 1-based source line."""

    text: str
    line: int

    def words(self) -> list[str]:
        """The whitespace-separated words of the sentence (strings included verbatim)."""
        return self.text[:-1].split()


def split_sentences(source: str) -> list[Sentence]:
    """The sentences of ``source``; raises ``SentenceError`` naming the line of a problem."""
    sentences: list[Sentence] = []
    buffer: list[str] = []
    start_line = 1
    line = 1
    i = 0
    n = len(source)
    while i < n:
        ch = source[i]
        if source.startswith("(*", i):
            i, line = _skip_comment(source, i, line)
            buffer.append(" ")
            continue
        if ch == '"':
            end, line_after = _read_string(source, i, line)
            if not "".join(buffer).strip():
                start_line = line
            buffer.append(source[i:end])
            i, line = end, line_after
            continue
        if ch == "\n":
            line += 1
        if ch.isspace():
            buffer.append(" ")
            i += 1
            continue
        if not "".join(buffer).strip():
            start_line = line
        if ch == "." and (i + 1 == n or source[i + 1].isspace()) and not _is_ellipsis(source, i):
            buffer.append(".")
            sentences.append(Sentence(_collapse("".join(buffer)), start_line))
            buffer = []
            i += 1
            continue
        buffer.append(ch)
        i += 1
    rest = "".join(buffer).strip()
    if rest:
        raise SentenceError(f"line {start_line}: sentence does not end with '.': {rest[:60]!r}")
    return sentences


def _is_ellipsis(source: str, i: int) -> bool:
    """True when the dot at ``i`` ends a ``..`` token rather than a sentence."""
    return i > 0 and source[i - 1] == "."


def _skip_comment(source: str, i: int, line: int) -> tuple[int, int]:
    """Skip a (possibly nested) comment starting at ``i``; returns the index after it and the line."""
    depth = 0
    start_line = line
    n = len(source)
    while i < n:
        if source.startswith("(*", i):
            depth += 1
            i += 2
        elif source.startswith("*)", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i, line
        elif source[i] == '"':
            i, line = _read_string(source, i, line)
        else:
            if source[i] == "\n":
                line += 1
            i += 1
    raise SentenceError(f"line {start_line}: comment is not closed")


def _read_string(source: str, i: int, line: int) -> tuple[int, int]:
    """Read a string literal starting at ``i`` (``""`` escapes a quote); returns the end index and line."""
    start_line = line
    j = i + 1
    n = len(source)
    while j < n:
        if source[j] == '"':
            if j + 1 < n and source[j + 1] == '"':
                j += 2
                continue
            return j + 1, line
        if source[j] == "\n":
            line += 1
        j += 1
    raise SentenceError(f"line {start_line}: string literal is not closed")


def _collapse(text: str) -> str:
    """Collapse runs of whitespace outside string literals to one space and strip the ends."""
    out: list[str] = []
    in_string = False
    previous_space = False
    for ch in text:
        if ch == '"':
            in_string = not in_string
        if not in_string and ch.isspace():
            if not previous_space:
                out.append(" ")
            previous_space = True
            continue
        previous_space = False
        out.append(ch)
    return "".join(out).strip()

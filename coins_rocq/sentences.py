"""Split Rocq source text into sentences exactly where Rocq's lexer ends them.

A sentence ends at a ``.`` followed by a Rocq blank (space, tab, newline, carriage
return, form feed) or the end of the text, outside comments (which nest, and whose
string literals are lexed as strings) and string literals (``""`` escapes a quote).
At the start of a sentence, a bullet (a run of one of ``-``, ``+``, ``*``) or a brace
(``{``, ``}``) is a sentence of its own, as in proof mode.

Each sentence keeps its exact source text (comments inside it included), so what
Rocq runs is byte for byte what the screen read; ``code`` is the same text with
comments blanked, for screening. Text between sentences holds only blanks and
comments, which Rocq skips too.
"""

from __future__ import annotations

from dataclasses import dataclass

BLANKS = frozenset(" \t\n\r\x0c")
"""The characters Rocq's lexer treats as blanks."""

BULLET_CHARS = frozenset("-+*")


class SentenceError(ValueError):
    """The text cannot be split into sentences (unterminated comment, string or sentence)."""


@dataclass(frozen=True)
class Sentence:
    """One sentence: its exact source ``text``, its ``code`` (comments blanked) and its 1-based line."""

    text: str
    code: str
    line: int

    def words(self) -> list[str]:
        """The blank-separated words of the code, without the final ``.``."""
        body = self.code[:-1] if self.code.endswith(".") else self.code
        return body.split()

    @property
    def is_bullet(self) -> bool:
        """True for a bullet or brace sentence (no final ``.``)."""
        return not self.code.endswith(".")


def split_sentences(source: str) -> list[Sentence]:
    """The sentences of ``source``; raises ``SentenceError`` naming the line of a problem."""
    sentences: list[Sentence] = []
    lexer = _Lexer(source)
    while True:
        lexer.skip_blanks_and_comments()
        if lexer.at_end():
            return sentences
        sentences.append(lexer.sentence())


class _Lexer:
    """A cursor over the source that knows comments, strings and sentence ends."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.pos = 0
        self.line = 1

    def at_end(self) -> bool:
        return self.pos >= len(self.source)

    def _advance(self, to: int) -> None:
        self.line += self.source.count("\n", self.pos, to)
        self.pos = to

    def skip_blanks_and_comments(self) -> None:
        """Move past blanks and comments between sentences."""
        while not self.at_end():
            if self.source.startswith("(*", self.pos):
                self._advance(_comment_end(self.source, self.pos, self.line))
            elif self.source[self.pos] in BLANKS:
                self._advance(self.pos + 1)
            else:
                return

    def sentence(self) -> Sentence:
        """Read one sentence starting at the cursor."""
        start, start_line = self.pos, self.line
        source = self.source
        first = source[start]
        if first in "{}":
            self._advance(start + 1)
            return Sentence(first, first, start_line)
        if first in BULLET_CHARS and not source.startswith("*)", start):
            end = start
            while end < len(source) and source[end] == first:
                end += 1
            self._advance(end)
            return Sentence(source[start:end], source[start:end], start_line)
        code: list[str] = []
        i = start
        while i < len(source):
            if source.startswith("(*", i):
                end = _comment_end(source, i, self.line)
                code.append(" ")
                self._advance(end)
                i = end
                continue
            ch = source[i]
            if ch == '"':
                end = _string_end(source, i, self.line)
                code.append(source[i:end])
                self._advance(end)
                i = end
                continue
            if ch == "." and (i + 1 == len(source) or source[i + 1] in BLANKS):
                code.append(".")
                self._advance(i + 1)
                return Sentence(source[start : i + 1], "".join(code), start_line)
            code.append(ch)
            i += 1
        rest = source[start:].strip()
        raise SentenceError(f"line {start_line}: sentence does not end with '.': {rest[:60]!r}")


def _comment_end(source: str, i: int, line: int) -> int:
    """The index after the (possibly nested) comment starting at ``i``."""
    depth = 0
    n = len(source)
    while i < n:
        if source.startswith("(*", i):
            depth += 1
            i += 2
        elif source.startswith("*)", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        elif source[i] == '"':
            i = _string_end(source, i, line)
        else:
            i += 1
    raise SentenceError(f"line {line}: comment is not closed")


def _string_end(source: str, i: int, line: int) -> int:
    """The index after the string literal starting at ``i`` (``""`` escapes a quote)."""
    j = i + 1
    n = len(source)
    while j < n:
        if source[j] == '"':
            if j + 1 < n and source[j + 1] == '"':
                j += 2
                continue
            return j + 1
        j += 1
    raise SentenceError(f"line {line}: string literal is not closed")

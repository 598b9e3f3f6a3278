"""A prover model's answer made into one tactic that Rocq runs under the per-goal limit, or refused.

The answer is untrusted text. Its proof script (the last fenced block, else the whole answer)
is split into sentences exactly as Rocq splits them (``coins_rocq.sentences``) and every
sentence is screened: the spec screen's forbidden tokens and characters
(``coins_rocq.safety.screen_tokens``: ``admit``, ``Admitted``, ``ltac:``, attributes, ``..``),
then only tactics (a lower-case head, after an optional goal selector ``N:``, ``N-M:``,
``N, M:`` or ``all:``), bullets and braces, with an optional ``Proof.`` first and
``Qed.``/``Defined.`` last. Commands (``Axiom``, ``Abort``, ``Set``, ``Drop``, ``Load``,
``Fail``, a second sentence after ``Qed``, ...) are refused with the spec screen's reason, and
so are tactics whose effect is output or timing (their output has no bound) or another program
(``QUIET_TACTICS``). A leading restatement (``Lemma name : ... .``) is dropped: the statement
proved is always the checker's.

The sentences then become one Ltac expression with their meaning in proof mode
(``to_tactic``): each tactic sentence runs on the first goal, or the goals its selector names,
and commits to its first success (``once (only 1: (t))``); a brace or a bullet focuses the
first goal and must solve it; the whole must leave no goal. Comments are dropped (each
sentence's ``code``) and every sentence's brackets must balance, so no text of the model's
can reach past its own parentheses. The expression runs in one definition whose statement is
written before it (``Definition name : statement := ltac:(...)``), and the kernel checks the
term it builds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from coins_rocq.safety import FORBIDDEN, UnsafeSpec, screen_tokens
from coins_rocq.sentences import Sentence, SentenceError, split_sentences

MAX_SCRIPT_CHARS = 20_000
"""The longest proof script read; a longer one is refused unread."""
MAX_SENTENCES = 400
"""The most sentences a proof script may have."""

QUIET_TACTICS: dict[str, str] = {
    "idtac": "prints a message",
    "time": "prints timings",
    "time_constr": "prints timings",
    "restart_timer": "prints timings",
    "finish_timing": "prints timings",
    "debug": "prints a search trace",
    "info_auto": "prints a search trace",
    "info_eauto": "prints a search trace",
    "info_trivial": "prints a search trace",
    "infoH": "prints the hypotheses it introduces",
    "ltac": "controls Ltac profiling, which prints",
    "psatz": "runs an external program",
    "native_cast_no_check": "runs the native compiler",
    "exact_no_check": "skips its type check, which the kernel then does outside the per-goal timeout",
    "vm_cast_no_check": "skips its type check, which the kernel then does outside the per-goal timeout",
    "change_no_check": "skips its type check, which the kernel then does outside the per-goal timeout",
    "optimize_heap": "compacts the prover's memory",
}
"""Tactics a proof never needs whose effect is output, timing or another program (output inside
a timeout has no bound), or that leave their check to the kernel, which runs after the timeout:
refused."""

STATEMENT_HEADS = frozenset({"Lemma", "Theorem", "Example", "Fact", "Remark", "Corollary", "Proposition", "Goal"})
"""Heads of a restated statement, dropped when it is the script's first sentence."""

DONE = 'tryif (let n := numgoals in guard n = 0) then idtac else fail 0 "the proof leaves goals unsolved"'
"""Fails unless the focused goals are all solved, with a message saying so."""

Target = Literal["goal", "negation"]

_FENCE = re.compile(r"```[ \t]*(?:coq|rocq|v|ltac)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_TARGET = re.compile(r"(?im)^[ \t*_#>]*proves[ \t*_]*:[ \t*_`]*(goal|negation)\b.*$")
_SELECTOR = re.compile(r"^(all|\d+(?:\s*-\s*\d+)?(?:\s*,\s*\d+(?:\s*-\s*\d+)?)*)\s*:(?!=)(.*)$", re.DOTALL)
_WORD = re.compile(r"(?<![A-Za-z0-9_'.])[A-Za-z_][A-Za-z0-9_']*")
_PAIRS = {")": "(", "]": "[", "}": "{"}


class RefusedScript(ValueError):
    """The model's answer cannot be run: the reason names the rule it broke (and the line, where one)."""


@dataclass(frozen=True)
class ProofScript:
    """A screened answer: which statement it proves and the one tactic that proves it."""

    target: Target
    tactic: str


def parse_answer(text: str) -> ProofScript:
    """The screened script of a model's answer, as one tactic; raises ``RefusedScript`` with the reason.

    The answer says ``Proves: negation`` on a line of its own to prove the obligation's negation;
    otherwise it proves the goal.
    """
    if not isinstance(text, str) or not text.strip():
        raise RefusedScript("the answer is empty")
    blocks = _FENCE.findall(text)
    script = _TARGET.sub("", blocks[-1] if blocks else text)
    if len(script) > MAX_SCRIPT_CHARS:
        raise RefusedScript(f"the proof script is longer than {MAX_SCRIPT_CHARS} characters")
    marker = _TARGET.search(text)
    target: Target = "negation" if marker is not None and marker.group(1).lower() == "negation" else "goal"
    return ProofScript(target, to_tactic(script))


def to_tactic(script: str) -> str:
    """One Ltac expression that does what ``script``'s sentences do in proof mode; raises ``RefusedScript``."""
    if "\x00" in script:
        raise RefusedScript("the proof script contains a NUL character")
    if "prompt>" in script:
        raise RefusedScript("the proof script contains the prover's prompt marker 'prompt>'")
    try:
        sentences = split_sentences(script)
    except SentenceError as exc:
        raise RefusedScript(f"the proof script cannot be split into sentences: {exc}") from None
    if len(sentences) > MAX_SENTENCES:
        raise RefusedScript(f"the proof script has more than {MAX_SENTENCES} sentences")
    for sentence in sentences:
        try:
            screen_tokens(sentence)
        except UnsafeSpec as exc:
            raise RefusedScript(str(exc)) from None
    body = _proof_body(sentences)
    if not body:
        raise RefusedScript("the proof script holds no tactic")
    tactic = _Blocks().build(body)
    _check_one_sentence(tactic)
    return tactic


def _proof_body(sentences: list[Sentence]) -> list[Sentence]:
    """The sentences between an optional restatement and ``Proof.`` and an optional final ``Qed.``."""
    body = list(sentences)
    if body and (body[0].words() or [""])[0] in STATEMENT_HEADS:
        body = body[1:]
    if body and body[0].code == "Proof.":
        body = body[1:]
    for at, sentence in enumerate(body):
        if sentence.code in ("Qed.", "Defined."):
            if at != len(body) - 1:
                after = body[at + 1]
                raise RefusedScript(f"line {after.line}: {after.text[:40]!r} after '{sentence.code}' (one proof only)")
            return body[:at]
    return body


@dataclass
class _Frame:
    """An open focus: the sentences' tactics so far and what opened it (a bullet, ``{``, or None for the proof)."""

    opener: str | None
    items: list[str] = field(default_factory=list)


class _Blocks:
    """Builds the tactic from the sentences, tracking the braces and bullets that focus goals."""

    def __init__(self) -> None:
        self.stack = [_Frame(None)]

    def build(self, sentences: list[Sentence]) -> str:
        for sentence in sentences:
            if sentence.code == "{":
                self.stack.append(_Frame("{"))
            elif sentence.code == "}":
                self._close_bullets()
                if self.stack[-1].opener != "{":
                    raise RefusedScript(f"line {sentence.line}: '}}' closes no '{{'")
                self._close()
            elif sentence.is_bullet:
                self._bullet(sentence.code)
            else:
                self.stack[-1].items.append(_sentence_tactic(sentence))
        self._close_bullets()
        if len(self.stack) > 1:
            raise RefusedScript("a '{' of the proof script is never closed")
        return _sequence([*self.stack[0].items, DONE])

    def _bullet(self, bullet: str) -> None:
        """A bullet closes the open one of its kind at this brace level (and those inside it), then opens."""
        for depth in range(len(self.stack) - 1, 0, -1):
            opener = self.stack[depth].opener
            if opener == "{":
                break
            if opener == bullet:
                while len(self.stack) > depth:
                    self._close()
                break
        self.stack.append(_Frame(bullet))

    def _close_bullets(self) -> None:
        while self.stack[-1].opener not in ("{", None):
            self._close()

    def _close(self) -> None:
        """End the innermost focus: it runs on the first goal and must solve it."""
        frame = self.stack.pop()
        self.stack[-1].items.append(f"only 1: ({_sequence([*frame.items, DONE])})")


def _sequence(items: list[str]) -> str:
    """Tactics run one after the other on the whole goal list (Ltac's ``;`` does not distribute ``only``)."""
    return "; ".join(f"({item})" for item in items)


def _sentence_tactic(sentence: Sentence) -> str:
    """The tactic of one tactic sentence: its goal selector applied, its first success kept."""
    code = sentence.code[:-1].strip()
    selector, body = "1", code
    match = _SELECTOR.match(code)
    if match is not None:
        selector, body = match.group(1), match.group(2).strip()
    _screen_tactic(body, sentence.line)
    if selector == "all":
        return f"once ({body})"
    return f"once (only {selector}: ({body}))"


def _screen_tactic(body: str, line: int) -> None:
    """Refuse a sentence that is not a tactic, holds a quiet tactic, or whose brackets do not balance."""
    head = body.split(maxsplit=1)[0] if body else ""
    if not head:
        raise RefusedScript(f"line {line}: a sentence with no tactic")
    if head[0].isupper():
        word = re.split(r"[^A-Za-z0-9_']", head)[0]
        reason = FORBIDDEN.get(word, "")
        if not reason or "spec" in reason:  # the spec screen's reasons for proof commands speak of specs
            reason = "is a command, not a tactic"
        raise RefusedScript(f"line {line}: '{word}' {reason}")
    if not (head[0].islower() or head[0] in "(_"):
        raise RefusedScript(f"line {line}: {head[:20]!r} does not start a tactic (only tactics, bullets, braces)")
    code = re.sub(r'"(?:[^"]|"")*"', '""', body)
    for word in _WORD.findall(code):
        if word in QUIET_TACTICS:
            raise RefusedScript(f"line {line}: '{word}' {QUIET_TACTICS[word]}; not allowed in a proof")
    _check_brackets(code, line)


def _check_brackets(code: str, line: int) -> None:
    """Refuse unbalanced parentheses, brackets or braces (strings blanked): the text must stay inside its own."""
    stack: list[str] = []
    for ch in code:
        if ch in "([{":
            stack.append(ch)
        elif ch in _PAIRS and (not stack or stack.pop() != _PAIRS[ch]):
            raise RefusedScript(f"line {line}: unbalanced {ch!r} in a tactic")
    if stack:
        raise RefusedScript(f"line {line}: unclosed {stack[-1]!r} in a tactic")


def _check_one_sentence(tactic: str) -> None:
    """The tactic, inside a definition, must be exactly one sentence for Rocq's lexer (it always is; checked)."""
    probe = f"Definition coins_probe : True := ltac:({tactic})."
    try:
        if len(split_sentences(probe)) == 1:
            return
    except SentenceError:
        pass
    raise RefusedScript("the proof script does not make one sentence")

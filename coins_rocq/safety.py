"""Screen an untrusted Rocq specification before it reaches the prover.

Only the vernacular a specification needs is allowed: ``Require``/``From ... Require``
of standard-library modules and of the trusted libraries in ``TRUSTED_LIBRARIES``,
``Import``/``Export`` of them, ``Open``/``Close Scope``,
``Definition``, ``Fixpoint``, ``Inductive``, ``Variant``, ``Record``, (local)
``Notation``/``Infix``, and unit-test ``Example``s whose proofs hold only tactics and
end with ``Qed``/``Defined`` (``Admitted`` is refused). Everything else is rejected; commands that could fake a proof,
touch files or load code are rejected with a named reason (see ``FORBIDDEN``).
"""

from __future__ import annotations

import functools
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from coins_rocq.sentences import BLANKS, Sentence, SentenceError, split_sentences

MAX_SPEC_CHARS = 50_000

FORBIDDEN: dict[str, str] = {
    "Axiom": "declares an unproved assumption",
    "Axioms": "declares an unproved assumption",
    "Parameter": "declares an unproved assumption",
    "Parameters": "declares an unproved assumption",
    "Conjecture": "declares an unproved assumption",
    "Hypothesis": "declares an unproved assumption",
    "Hypotheses": "declares an unproved assumption",
    "Variable": "declares an unproved assumption",
    "Variables": "declares an unproved assumption",
    "Context": "declares an unproved assumption",
    "Admitted": "admits a proof without proving it",
    "admit": "admits a goal without proving it",
    "give_up": "admits a goal without proving it",
    "Redirect": "writes output to a file",
    "Load": "loads and runs another file",
    "Cd": "changes the working directory",
    "Drop": "leaves the prover for the OCaml toplevel",
    "Declare": "loads native code or declares prover machinery",
    "Extraction": "extraction writes files and loads a plugin",
    "Extract": "extraction writes files and loads a plugin",
    "Recursive": "extraction writes files and loads a plugin",
    "Separate": "extraction writes files and loads a plugin",
    "Set": "changes prover settings (e.g. guard or universe checking)",
    "Unset": "changes prover settings (e.g. guard or universe checking)",
    "Add": "changes load paths or prover machinery",
    "Reset": "rewinds the prover state",
    "Back": "rewinds the prover state",
    "BackTo": "rewinds the prover state",
    "Abort": "manipulates the prover's proof state",
    "Undo": "manipulates the prover's proof state",
    "Restart": "manipulates the prover's proof state",
    "Module": "opens a module, which would escape the spec's sandbox module",
    "End": "closes a module or section, which would escape the spec's sandbox module",
    "Section": "opens a section",
    "Time": "is a control command",
    "Timeout": "is a control command",
    "Fail": "is a control command that hides errors",
    "Succeed": "is a control command",
    "Program": "generates proof obligations",
    "Lemma": "states a proof; a spec only defines propositions",
    "Theorem": "states a proof; a spec only defines propositions",
    "Proof": "starts a proof; a spec only defines propositions",
    "Qed": "ends a proof; a spec only defines propositions",
    "Defined": "ends a proof; a spec only defines propositions",
    "Ltac": "defines tactics; a spec only defines propositions",
    "Tactic": "defines tactics; a spec only defines propositions",
    "Hint": "changes proof automation",
    "Instance": "declares instances that can change proof automation",
    "Existing": "changes proof automation",
    "Number": "redefines number literals",
    "String": "redefines string literals",
    "Eval": "is a query",
    "Compute": "is a query",
    "Check": "is a query",
    "Print": "is a query",
    "Search": "is a query",
    "Locate": "is a query",
    "Quit": "stops the prover",
}

ALLOWED_HEADS = frozenset(
    {
        "Require",
        "From",
        "Import",
        "Export",
        "Open",
        "Close",
        "Definition",
        "Fixpoint",
        "Inductive",
        "Variant",
        "Record",
        "Notation",
        "Infix",
        "Example",
    }
)

FORBIDDEN_TOKENS: dict[str, str] = {
    "admit": FORBIDDEN["admit"],
    "Admitted": FORBIDDEN["Admitted"],
    "give_up": FORBIDDEN["give_up"],
    "ltac:": "runs tactics inside a term",
    "ltac2:": "runs tactics inside a term",
    "#[": "uses attributes (which can bypass guard or positivity checking)",
    "native_compute": "compiles native code",
}

TRUSTED_LIBRARIES: dict[str, str] = {"Coquelicot": "libcoq-coquelicot"}
"""Libraries a spec may ``Require`` besides the standard library: logical root -> the Debian package
that installs it for this Rocq. Loading one adds no axiom by itself: every proof is still audited with
``Print Assumptions`` against ``ALLOWED_AXIOMS`` (Coquelicot's lemmas rest only on the standard
library's axioms of the reals, which that list already holds), and its modules are compiled ``.vo``
files that the screen never runs as source."""

DEFINITION_HEADS = frozenset({"Definition", "Fixpoint", "Inductive", "Variant", "Record"})
EXCLUDED_STDLIB_PREFIXES = ("Coq.extraction", "Coq.Compat", "Coq.ssr", "Coq.ssrmatching", "Coq.derive")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_']*$")
_MODULE_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_']*(\.[A-Za-z_][A-Za-z0-9_']*)*$")


class UnsafeSpec(ValueError):
    """A spec was rejected by the screen; ``reason`` names the rule it broke."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        super().__init__(f"line {line}: {reason}" if line else reason)


@dataclass(frozen=True)
class ScreenedSpec:
    """A spec that passed the screen: its sentences and the names it defines."""

    sentences: tuple[str, ...]
    defined: tuple[str, ...]
    definitions: tuple[str, ...]


def screen(source: str) -> ScreenedSpec:
    """Check ``source`` against the allow-list; returns its sentences or raises ``UnsafeSpec``.

    Every sentence Rocq will run is screened: top-level commands against ``ALLOWED_HEADS``,
    and inside an ``Example``'s proof only tactics (lower-case heads), bullets and braces,
    up to ``Qed``/``Defined``.
    """
    if not isinstance(source, str):
        raise UnsafeSpec("spec is not text")
    if len(source) > MAX_SPEC_CHARS:
        raise UnsafeSpec(f"spec is longer than {MAX_SPEC_CHARS} characters")
    if "\x00" in source:
        raise UnsafeSpec("spec contains a NUL character")
    if "prompt>" in source:
        raise UnsafeSpec("spec contains the prover's prompt marker 'prompt>'")
    try:
        sentences = split_sentences(source)
    except SentenceError as exc:
        raise UnsafeSpec(f"cannot be parsed into sentences: {exc}") from None
    if not sentences:
        raise UnsafeSpec("spec is empty")
    defined: list[str] = []
    definitions: list[str] = []
    in_proof: Sentence | None = None
    for sentence in sentences:
        screen_tokens(sentence)
    for sentence in sentences:
        if in_proof is not None:
            if _screen_tactic(sentence):
                in_proof = None
            continue
        if _screen_sentence(sentence):
            in_proof = sentence
        name = _defined_name(sentence)
        if name:
            defined.append(name)
            if _head(sentence.words()) == "Definition":
                definitions.append(name)
    if in_proof is not None:
        raise UnsafeSpec("the proof of this Example is not closed with Qed", in_proof.line)
    return ScreenedSpec(tuple(s.text for s in sentences), tuple(defined), tuple(definitions))


def _head(words: list[str]) -> str:
    """The command word of a sentence, after a ``Local`` prefix."""
    return words[1] if len(words) > 1 and words[0] == "Local" else words[0]


def screen_tokens(sentence: Sentence) -> None:
    """Raise ``UnsafeSpec`` when a sentence holds a forbidden token or character outside strings."""
    code = _strip_strings(sentence.code)
    for token, reason in FORBIDDEN_TOKENS.items():
        if _has_token(code, token):
            raise UnsafeSpec(f"'{token}' {reason}", sentence.line)
    if ".." in code:
        raise UnsafeSpec("'..' is not allowed (Rocq's lexer may read it as a sentence end)", sentence.line)
    odd = [ch for ch in code if (ch.isspace() and ch not in BLANKS) or (ord(ch) < 32 and ch not in BLANKS)]
    if odd:
        raise UnsafeSpec(f"character {odd[0]!r} outside strings is not a Rocq blank", sentence.line)


def _screen_tactic(sentence: Sentence) -> bool:
    """Screen one sentence inside an ``Example``'s proof; True when it closes the proof."""
    if sentence.is_bullet:
        return False
    words = sentence.words()
    head = words[0] if words else ""
    if sentence.code == "Proof.":
        return False
    if sentence.code in ("Qed.", "Defined."):
        return True
    if head == "Admitted":
        raise UnsafeSpec(f"'Admitted' {FORBIDDEN['Admitted']}", sentence.line)
    if not (head[:1].islower() or head[:1].isdigit()):
        raise UnsafeSpec(f"'{head}' is not allowed inside a proof (only tactics, bullets, Qed)", sentence.line)
    return False


def _screen_sentence(sentence: Sentence) -> bool:
    """Raise ``UnsafeSpec`` when one top-level command is not allowed; True when it opens a proof."""
    if sentence.is_bullet:
        raise UnsafeSpec(f"'{sentence.code}' outside a proof is not a command a spec needs", sentence.line)
    code = _strip_strings(sentence.code)
    words = sentence.words()
    head = words[0]
    if head in ("Local", "Global") and len(words) > 1:
        if head == "Global":
            raise UnsafeSpec("'Global' is not allowed in a spec", sentence.line)
        head = words[1]
        words = words[1:]
        if head not in ("Notation", "Infix", "Open", "Close", "Definition", "Fixpoint"):
            raise UnsafeSpec(f"'Local {head}' is not allowed in a spec", sentence.line)
    if head not in ALLOWED_HEADS:
        reason = FORBIDDEN.get(head, "is not a command a spec needs")
        raise UnsafeSpec(f"'{head}' {reason}", sentence.line)
    if head in ("Open", "Close") and (len(words) != 3 or words[1] != "Scope"):
        raise UnsafeSpec(f"'{head}' must be '{head} Scope <scope>.'", sentence.line)
    if head == "Example":
        return not has_top_level_assign(code)
    if head in DEFINITION_HEADS and not has_top_level_assign(code):
        raise UnsafeSpec(f"'{head}' without a top-level ':=' would open a proof", sentence.line)
    if head in ("Require", "From", "Import", "Export"):
        _screen_require(words, sentence.line)
    return False


def has_top_level_assign(code: str) -> bool:
    """True when ``code`` (strings blanked) has ``:=`` outside every bracket, i.e. a body."""
    depth = 0
    for i, ch in enumerate(code):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ":" and depth == 0 and code.startswith(":=", i):
            return True
    return False


def _screen_require(words: list[str], line: int) -> None:
    """Allow only standard-library and trusted-library modules in ``Require``/``From``/``Import``/``Export``."""
    names = list(words[1:])
    root = "Coq"
    if words[0] == "From":
        if len(names) < 3 or names[0] not in ("Coq", *TRUSTED_LIBRARIES) or names[1] != "Require":
            roots = " or ".join(f"'From {r} Require ...'" for r in ("Coq", *TRUSTED_LIBRARIES))
            raise UnsafeSpec(f"only {roots} is allowed", line)
        root, names = names[0], names[2:]
    if names and names[0] in ("Import", "Export"):
        names = names[1:]
    if not names:
        raise UnsafeSpec("Require names no module", line)
    known = stdlib_modules() | library_modules()
    for name in names:
        if not _MODULE_PATH.match(name):
            raise UnsafeSpec(f"not a module name: {name!r}", line)
        if words[0] in ("Import", "Export") and "." not in name and name in _IMPORTABLE_SHORT:
            continue
        full = name if root == "Coq" else f"{root}.{name}"
        if not _is_known(full, known):
            raise UnsafeSpec(_unknown_module(full), line)


def _unknown_module(name: str) -> str:
    """Why ``name`` is refused: a trusted library that is not installed, or a module outside the allow-list."""
    package = TRUSTED_LIBRARIES.get(name.split(".")[0])
    if package is not None:
        return f"module {name!r} is not installed (Debian package {package})"
    allowed = ", ".join(TRUSTED_LIBRARIES)
    return f"module {name!r} is neither in the standard library nor in a trusted library ({allowed})"


_IMPORTABLE_SHORT = frozenset({"ListNotations", "Z", "N", "Nat", "Pos", "Q", "ZArith", "List", "String"})


def _is_known(name: str, modules: frozenset[str]) -> bool:
    """True when ``name`` resolves to one of ``modules`` (full or partial path)."""
    if name in modules:
        return True
    suffix = "." + name
    return any(module.endswith(suffix) for module in modules)


@functools.lru_cache(maxsize=1)
def stdlib_modules() -> frozenset[str]:
    """Logical names of the installed standard library's compiled modules (``Coq.X.Y``)."""
    try:
        where = subprocess.run(["coqc", "-where"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    root = Path(where) / "theories"
    modules = set()
    for path in root.rglob("*.vo"):
        logical = "Coq." + ".".join(path.relative_to(root).with_suffix("").parts)
        if not logical.startswith(EXCLUDED_STDLIB_PREFIXES):
            modules.add(logical)
    return frozenset(modules)


@functools.lru_cache(maxsize=1)
def library_modules() -> frozenset[str]:
    """Logical names of the installed trusted libraries' compiled modules (``Coquelicot.X``)."""
    try:
        where = subprocess.run(["coqc", "-where"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    modules = set()
    for root in TRUSTED_LIBRARIES:
        folder = Path(where) / "user-contrib" / root
        modules |= {f"{root}." + ".".join(p.relative_to(folder).with_suffix("").parts) for p in folder.rglob("*.vo")}
    return frozenset(modules)


def _defined_name(sentence: Sentence) -> str | None:
    """The name a ``Definition``/``Fixpoint``/... sentence defines, if any."""
    words = sentence.words()
    if words[0] == "Local":
        words = words[1:]
    if len(words) >= 2 and words[0] in DEFINITION_HEADS:
        name = re.split(r"[\s:({]", words[1])[0]
        return name if _IDENT.match(name) else None
    return None


def _strip_strings(text: str) -> str:
    """``text`` with the contents of string literals blanked out."""
    return re.sub(r'"(?:[^"]|"")*"', '""', text)


def _has_token(code: str, token: str) -> bool:
    """True when ``token`` occurs in ``code`` as a whole word (or as punctuation for symbol tokens)."""
    if not token[0].isalpha():
        return token in code
    return re.search(rf"(?<![A-Za-z0-9_'.]){re.escape(token)}(?![A-Za-z0-9_'])", code) is not None

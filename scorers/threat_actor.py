"""Threat actor attribution: extracting the named actor and matching it with an alias table.

Names are compared after normalisation (case, punctuation and spacing removed, so
``APT 36``, ``apt-36`` and ``APT36`` agree). An alias table groups names of one actor
(``["MUSTANG PANDA", "TA416", "RedDelta"]``); a prediction is right when its normalised
name is the truth's or one of the truth's aliases. :class:`ActorRelations` adds CTI-Bench's
second tier, ``plausible``: a group related to the truth through the related-group table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal

from scorers.extract import last_answer_value, last_nonempty_line, tail

MAX_NAME_CHARS = 120
MAX_ALIAS_FILE_BYTES = 20_000_000

_TAG = re.compile(
    r"(?im)^[^\w\n]{0,10}(?:final[ \t]+)?"
    r"(?:threat[ \t]+actor|attribution|attributed[ \t]+(?:threat[ \t]+)?actor|actor|answer)"
    r"[^\w\n]{0,4}[ \t]*[:=](.*)$"
)
# Phrases after which a free-form answer names the actor it attributes the incident to.
_TRIGGERS = (
    re.compile(r"(?i)\battribut(?:e|ed|es|ing|able)\b[^.\n]{0,80}?\bto\s+"),
    re.compile(r"(?i)\battribution\s+(?:of\s+[^.\n]{0,60}?\s+)?to\s+"),
    re.compile(
        r"(?i)\b(?:threat\s+actor|actor|group|culprit|perpetrator|adversary|attacker)s?\b[^.\n]{0,150}?"
        r"\b(?:is|was|are|would\s+be|appears\s+to\s+be|seems\s+to\s+be)\s+"
    ),
    re.compile(r"(?i)\bresponsible\s+(?:for\s+[^.\n]{0,80}?\s+)?(?:is|was)\s+"),
    re.compile(r"(?i)(?<!also\s)\b(?:known|tracked|identified)\s+as\s+"),
    re.compile(r"(?i)\b(?:point(?:s|ing)?|lead(?:s|ing)?)\s+(?:towards?|to)\s+"),
    re.compile(r"(?i)\b(?:the\s+work|involvement)\s+of\s+"),
    re.compile(r"(?i)\b(?:this|it)\s+(?:is|was)\s+(?:(?:most\s+)?likely|probably|almost\s+certainly)\s+"),
)
# Words that introduce a name (articles, hedges, nationalities, "threat actor group known as").
_LEAD = re.compile(
    r"(?i)^(?:the|a|an|this|likely|most|more|probably|possibly|highly|indeed|very|be|is|was|known|as|called|named|"
    r"dubbed|tracked|referred|to|identified|group|actor|threat|apt|\(apt\)|advanced|persistent|cyber|cyber-espionage|"
    r"cyberespionage|espionage|hacking|hacker|criminal|cybercriminal|financially|motivated|state|sponsored|"
    r"state-sponsored|nation-state|sophisticated|notorious|well-known|prolific|infamous|"
    r"chinese|russian|iranian|north|south|korean|pakistani|indian|vietnamese|israeli|palestinian|turkish|"
    r"lebanese|belarusian|ukrainian|syrian|arabic|middle|eastern|nigerian|brazilian|american|western|asian|"
    r"african|european|latin|southeast|east|west|central|"
    r"[a-z]+-(?:based|linked|aligned|nexus|backed|sponsored|affiliated|speaking))$"
)
_REDACTED_ALIAS = re.compile(
    r"(?i)^\[[^\]\n]{1,40}\]\s*,?\s*(?:\(\s*)?(?:(?:also|formerly|previously)\s+(?:known|referred\s+to|tracked)\s+as|"
    r"aka|a\.k\.a\.|which\s+is\s+the\s+(?:new|current)\s+name\s+(?:for|of))\s+"
)
_GENERIC = frozenset(
    {
        "apt",
        "group",
        "threat",
        "actor",
        "unknown",
        "placeholder",
        "none",
        "n/a",
        "na",
        "it",
        "they",
        "advanced",
        "persistent",
        "we",
        "i",
        "ransomware",
        "malware",
        "report",
        "incident",
    }
)
_NAME_TOKEN = re.compile(r"^[A-Z0-9][A-Za-z0-9\-_.&']*$")
_AFFIXES = re.compile(r"^\s*the\s+|\s+(?:threat\s+group|apt\s+group|group|team|gang|threat\s+actor)\s*$")
_FILLER = re.compile(
    r"(?i)^(?:(?:likely|most\s+likely|probably|possibly|the|a|an)\s+)+|"
    r"\s+(?:threat\s+actor|threat\s+group|apt\s+group|group|actor|gang|team)$"
)


def normalise_name(name: str) -> str:
    """Lowercase letters and digits only, without a leading 'the' or a trailing 'group': ``"APT 36"`` → ``"apt36"``."""
    text = str(name).lower()[: MAX_NAME_CHARS * 4]
    for _ in range(2):
        text = _AFFIXES.sub("", text)
    return re.sub(r"[^0-9a-z]+", "", text)


def clean_candidate(raw: str) -> str:
    """A candidate name without markdown, parentheticals, quotes, hedges and a trailing 'group'."""
    text = re.sub(r"[*`_#]+", "", raw[: MAX_NAME_CHARS * 4])
    text = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", text)
    text = text.strip().strip("\"'“”‘’").strip().rstrip(".!,;:").strip()
    for _ in range(3):
        text = _FILLER.sub("", text).strip()
    return text[:MAX_NAME_CHARS]


def _only_names(text: str) -> bool:
    """True when ``text`` (parentheticals aside) holds name tokens only, joined by spaces or slashes."""
    words = re.split(r"[\s/]+", re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", text))
    return all(not w.strip(".,;:!?") or _NAME_TOKEN.match(w.strip(".,;:!?")) for w in words)


def name_at_start(text: str, whole: bool = False) -> str | None:
    """The actor name ``text`` starts with, after lead-in words (``the Chinese APT group known as``).

    A name is a run of up to six capitalised or digit-bearing tokens (``Lazarus Group``,
    ``APT-C-36``, ``MUSTANG PANDA``); it ends at punctuation, a parenthesis, a slash or a
    lowercase word. With ``whole``, the name must be all that ``text`` holds. None when
    there is no name, or it is a redaction (``[PLACEHOLDER]``) or a generic word.
    """
    tokens = re.sub(r"[*`_\"“”‘’]+", "", text[: MAX_NAME_CHARS * 4]).split()
    index = 0
    while index < len(tokens) and _LEAD.match(tokens[index].rstrip(",")):
        follows_digits = index + 1 < len(tokens) and tokens[index + 1][:1].isdigit()
        if tokens[index].lower() == "apt" and follows_digits:
            break
        index += 1
    name: list[str] = []
    for token in tokens[index : index + 6]:
        part, slash, _ = token.partition("/")
        core = part.rstrip(".,;:!?)]")
        if not _NAME_TOKEN.match(core) or core.lower() in ("and", "or"):
            break
        name.append(core)
        if slash or core != part:
            break
    if not name or (whole and not _only_names(" ".join(tokens[index:]))):
        return None
    cleaned = clean_candidate(" ".join(name))
    if not normalise_name(cleaned) or cleaned.lower() in _GENERIC or all(w.lower() in _GENERIC for w in name):
        return None
    return cleaned


def _stated_attribution(body: str) -> str | None:
    """The first name that follows an attribution phrase (earliest in the text), or None.

    A redacted name (``[PLACEHOLDER]``) counts only through the name the answer gives it
    (``[PLACEHOLDER], also known as PHOSPHORUS``).
    """
    starts = sorted({match.end() for pattern in _TRIGGERS for match in pattern.finditer(body)})
    for start in starts:
        window = body[start : start + MAX_NAME_CHARS * 2].split("\n", 1)[0]
        redacted = _REDACTED_ALIAS.match(window)
        if redacted is not None:
            window = window[redacted.end() :]
        elif window.startswith("["):
            continue
        found = name_at_start(window)
        if found is not None:
            return found
    return None


def extract_actor(text: str) -> str | None:
    """The threat actor a free-form attribution names, or None.

    Looks, in order, for a labelled line (``Threat actor: X``, ``Answer: X``), the first
    stated attribution (``attributed to the threat actor group known as X``, ``the threat
    actor is indeed the X``, ``most likely X (Y)``) and finally a last line that is only a
    name. A redacted name (``[PLACEHOLDER]``) or a phrase that is no name gives None.
    """
    if not text:
        return None
    body = tail(text)
    tagged = [value for value in _TAG.findall(body) if value.strip()]
    if tagged:
        found = name_at_start(tagged[-1]) or name_at_start(tagged[-1].split(",")[0], whole=True)
        if found is not None:
            return found
    found = _stated_attribution(body)
    if found is not None:
        return found
    answer = last_answer_value(body)
    line = answer if answer is not None else last_nonempty_line(body)
    return name_at_start(line, whole=True) if line is not None and len(line.split()) <= 6 else None


class AliasTable:
    """Groups of names that denote one threat actor, looked up by normalised name."""

    def __init__(self, groups: Iterable[Iterable[str]] = ()) -> None:
        self._group_of: dict[str, frozenset[str]] = {}
        for group in groups:
            keys = frozenset(k for k in (normalise_name(n) for n in group) if k)
            merged = set(keys)
            for key in keys:
                merged |= self._group_of.get(key, frozenset())
            frozen = frozenset(merged)
            for key in frozen:
                self._group_of[key] = frozen

    def names_for(self, name: str) -> frozenset[str]:
        """The normalised names equivalent to ``name`` (itself included)."""
        key = normalise_name(name)
        return self._group_of.get(key, frozenset({key}))

    def same_actor(self, predicted: str, truth: str) -> bool:
        """True when ``predicted`` is ``truth`` or one of its aliases after normalisation."""
        key = normalise_name(predicted)
        return bool(key) and key in self.names_for(truth)

    @classmethod
    def from_json(cls, path: str | Path) -> AliasTable:
        """Read ``{"actor": ["alias", ...], ...}`` or ``[["name", "alias", ...], ...]`` from a JSON file.

        Raises ValueError naming the file and what is wrong with it.
        """
        return cls(cls.groups_from_json(path))

    @staticmethod
    def groups_from_json(path: str | Path) -> list[list[str]]:
        """The alias groups of a JSON alias file (see :meth:`from_json`); ValueError naming what is wrong."""
        source = Path(path)
        if not source.is_file():
            raise ValueError(f"alias table {source}: no such file")
        if source.stat().st_size > MAX_ALIAS_FILE_BYTES:
            raise ValueError(f"alias table {source}: larger than {MAX_ALIAS_FILE_BYTES} bytes")
        try:
            data = json.loads(source.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"alias table {source}: not valid JSON ({exc})") from None
        return _groups_from(data, source)


def _groups_from(data: object, source: Path) -> list[list[str]]:
    """The alias groups of a parsed alias file, validated."""
    if isinstance(data, Mapping):
        items = [[name, *aliases] if isinstance(aliases, list) else None for name, aliases in data.items()]
    elif isinstance(data, list):
        items = [group if isinstance(group, list) else None for group in data]
    else:
        raise ValueError(f"alias table {source}: expected a JSON object or list, got {type(data).__name__}")
    groups: list[list[str]] = []
    for index, group in enumerate(items):
        if group is None or not all(isinstance(n, str) for n in group):
            raise ValueError(f"alias table {source}: entry {index} is not a list of strings")
        groups.append(group)
    return groups


Tier = Literal["correct", "plausible", "incorrect"]
DROPPED_ENTRIES = frozenset({"nan", ""})


def table_groups(table: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """``{actor: [names]}`` as groups ``[actor, *names]``, without the literal ``'nan'`` entries.

    The upstream tables hold ``'nan'`` (a spreadsheet's empty cell) under several actors;
    read as a name it would chain unrelated actors through one ``nan`` node.
    """
    return [
        [name for name in (actor, *names) if normalise_name(name) not in DROPPED_ENTRIES]
        for actor, names in table.items()
    ]


class ActorRelations:
    """The CTI-TAA tiers: ``correct`` (the truth or an alias of it), ``plausible`` (a related group).

    Both tiers follow chains, as the authors' evaluation does (a breadth-first search over
    aliases, then over aliases and related groups together): two names are aliases when
    alias entries link them, related when alias or related entries do.
    """

    def __init__(self, aliases: Iterable[Iterable[str]] = (), related: Iterable[Iterable[str]] = ()) -> None:
        alias_groups = [list(group) for group in aliases]
        self.aliases = AliasTable(alias_groups)
        self.related = AliasTable([*alias_groups, *(list(group) for group in related)])

    def tier(self, predicted: str, truth: str) -> Tier:
        """How ``predicted`` relates to ``truth``: the same actor, a related one, or neither."""
        if self.aliases.same_actor(predicted, truth):
            return "correct"
        if self.related.same_actor(predicted, truth):
            return "plausible"
        return "incorrect"

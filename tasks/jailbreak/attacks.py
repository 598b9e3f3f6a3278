"""Reading attack files: JSONL records or a JailbreakBench artifact JSON, read as it is.

A JSONL record is ``{"behavior_id", "suffix" | "prompt", "source_model", "attack", "params"}``:
``suffix`` is appended to the behaviour's request after one space (as llm-attacks joins
instruction and control), ``prompt`` replaces the request. A record without ``behavior_id``, or
with ``"*"``, is a *universal* attack applied to every behaviour. A JailbreakBench artifact is
``{"parameters": {"method", "model", "method_parameters", ...}, "jailbreaks": [{"index", "goal",
"behavior", "category", "prompt", "response", "jailbroken", ...}]}``; each jailbreak with a
prompt is an attack on the behaviour it names (JBB's ``Behavior`` short name, or else its goal),
carrying the artifact's recorded response and ``jailbroken`` flag; one without a prompt is kept as
not submitted (never sent, counted by JailbreakBench's ASR over all behaviours). Files are read through
:mod:`harness.json_input`, so hostile JSON is one clear error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.api import ConfigError, JsonInputError, parse_json

MAX_ATTACK_FILE_BYTES = 256 * 1024 * 1024
MAX_ATTACK_TEXT_CHARS = 200_000
UNIVERSAL = "*"


@dataclass(frozen=True)
class Attack:
    """One attack: which behaviour (None: universal), its suffix or whole prompt, and where it came from."""

    key: str
    behavior_id: str | None
    suffix: str | None = None
    prompt: str | None = None
    goal: str | None = None
    category: str = ""
    source_model: str = "unknown"
    attack: str = "unknown"
    params: dict[str, Any] = field(default_factory=dict)
    recorded_response: str | None = None
    recorded_jailbroken: bool | None = None
    submitted: bool = True
    """False for an artifact's jailbreak without a prompt (the attack found none): never sent, but
    JailbreakBench counts it as a failure over all its behaviours."""

    @property
    def universal(self) -> bool:
        """True for one suffix or prompt applied to every behaviour."""
        return self.behavior_id is None

    def applied_to(self, request: str) -> str:
        """The prompt sent for a behaviour whose request is ``request``."""
        if self.prompt is not None:
            return self.prompt
        return f"{request} {self.suffix}" if self.suffix else request

    def describe(self) -> dict[str, Any]:
        """The attack as sample metadata (no recorded response)."""
        return {
            "key": self.key,
            "attack": self.attack,
            "source_model": self.source_model,
            "universal": self.universal,
            "kind": "prompt" if self.prompt is not None else "suffix",
            "params": self.params,
            "recorded_jailbroken": self.recorded_jailbroken,
        }


def _text(value: object, where: str, name: str, required: bool = False) -> str | None:
    """A string field (None when absent and not required); ConfigError for another type or an oversized one."""
    if value is None:
        if required:
            raise ConfigError(f"{where}: '{name}' is missing")
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{where}: '{name}' must be a string, got {type(value).__name__}")
    if len(value) > MAX_ATTACK_TEXT_CHARS:
        raise ConfigError(f"{where}: '{name}' is {len(value):,} characters, over {MAX_ATTACK_TEXT_CHARS:,}")
    return value


def _label(value: object, where: str, name: str) -> str:
    """A short label (model, attack name): a string, or a number written as text; 'unknown' when absent."""
    if value is None:
        return "unknown"
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ConfigError(f"{where}: '{name}' must be a string, got {type(value).__name__}")
    text = str(value).strip()
    if not text or len(text) > 200:
        raise ConfigError(f"{where}: '{name}' must be 1 to 200 characters")
    return text


def _params(value: object, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: 'params' must be an object, got {type(value).__name__}")
    return value


def _jsonl_attack(record: object, where: str, number: int) -> Attack:
    if not isinstance(record, dict):
        raise ConfigError(f"{where}: expected a JSON object, got {type(record).__name__}")
    suffix = _text(record.get("suffix"), where, "suffix")
    prompt = _text(record.get("prompt"), where, "prompt")
    if (suffix is None) == (prompt is None):
        raise ConfigError(f"{where}: give exactly one of 'suffix' and 'prompt'")
    raw_id = record.get("behavior_id")
    if raw_id is not None and (isinstance(raw_id, bool) or not isinstance(raw_id, str | int)):
        raise ConfigError(f"{where}: 'behavior_id' must be a string (or '*' for a universal attack)")
    behavior_id = None if raw_id is None or str(raw_id) == UNIVERSAL else str(raw_id)
    attack = _label(record.get("attack"), where, "attack")
    return Attack(
        key=f"{attack}-{number}",
        behavior_id=behavior_id,
        suffix=suffix,
        prompt=prompt,
        source_model=_label(record.get("source_model"), where, "source_model"),
        attack=attack,
        params=_params(record.get("params"), where),
    )


def read_jsonl_attacks(text: str, origin: str) -> list[Attack]:
    """Attacks of a JSONL file, one per non-blank line."""
    attacks = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            where = f"attacks file {origin}:{number}"
            attacks.append(_jsonl_attack(parse_json(line, where), where, number))
    if not attacks:
        raise ConfigError(f"attacks file {origin} holds no attacks")
    return attacks


def read_artifact(document: object, origin: str) -> list[Attack]:
    """Attacks of a JailbreakBench artifact; a jailbreak without a prompt (none found) is ``submitted=False``."""
    where = f"JailbreakBench artifact {origin}"
    if not isinstance(document, dict) or not isinstance(document.get("jailbreaks"), list):
        raise ConfigError(f"{where}: expected an object with a 'jailbreaks' list")
    parameters = document.get("parameters")
    if not isinstance(parameters, dict):
        raise ConfigError(f"{where}: 'parameters' must be an object")
    method = _label(parameters.get("method"), where, "parameters.method")
    model = _label(parameters.get("model"), where, "parameters.model")
    params = _params(parameters.get("method_parameters"), where)
    attacks = []
    for position, entry in enumerate(document["jailbreaks"]):
        at = f"{where}: jailbreaks[{position}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{at}: expected an object, got {type(entry).__name__}")
        prompt = _text(entry.get("prompt"), at, "prompt")
        goal = _text(entry.get("goal"), at, "goal", required=True)
        behavior = _text(entry.get("behavior"), at, "behavior")
        jailbroken = entry.get("jailbroken")
        if jailbroken is not None and not isinstance(jailbroken, bool):
            raise ConfigError(f"{at}: 'jailbroken' must be true, false or null")
        attacks.append(
            Attack(
                key=f"{method}/{model}",
                behavior_id=(behavior or "").strip() or goal,
                prompt=prompt,
                goal=goal,
                category=_text(entry.get("category"), at, "category") or "",
                source_model=model,
                attack=method,
                params={**params, "attack_type": parameters.get("attack_type")},
                recorded_response=_text(entry.get("response"), at, "response"),
                recorded_jailbroken=jailbroken,
                submitted=prompt is not None,
            )
        )
    return attacks


def is_artifact(document: object) -> bool:
    """Whether a decoded JSON document is a JailbreakBench artifact (an object with 'jailbreaks')."""
    return isinstance(document, dict) and "jailbreaks" in document


def read_attacks(path: Path) -> list[Attack]:
    """The attacks of ``path``: a JailbreakBench artifact (one JSON object) or JSONL records."""
    try:
        size = path.stat().st_size
        if size > MAX_ATTACK_FILE_BYTES:
            raise ConfigError(f"attacks file {path}: {size:,} bytes is over the {MAX_ATTACK_FILE_BYTES:,}-byte limit")
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"attacks file {path}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"attacks file {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines:
        raise ConfigError(f"attacks file {path} holds no attacks")
    try:
        document = parse_json(text, f"attacks file {path}")
    except JsonInputError as exc:
        if exc.syntax and len(lines) > 1:
            return read_jsonl_attacks(text, str(path))
        raise
    if is_artifact(document):
        return read_artifact(document, str(path))
    if len(lines) == 1:
        return read_jsonl_attacks(text, str(path))
    raise ConfigError(f"attacks file {path}: one JSON document that is not a JailbreakBench artifact (no 'jailbreaks')")

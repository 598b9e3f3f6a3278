"""Coercion and validation of method parameters given as strings (``--method name:k=v,k=v``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from harness.errors import ConfigError


class MethodParams:
    """Typed access to a method's string parameters; every problem is a ConfigError naming the parameter.

    Call ``finish()`` once all parameters were read: unknown ones are reported then.
    """

    def __init__(self, method: str, raw: Mapping[str, object]) -> None:
        self.method = method
        self.raw = {str(k): v for k, v in raw.items()}
        self._read: set[str] = set()

    def _fail(self, name: str, problem: str) -> ConfigError:
        return ConfigError(f"method {self.method}: parameter '{name}' {problem}")

    def _get(self, name: str) -> object | None:
        self._read.add(name)
        value = self.raw.get(name)
        if isinstance(value, str) and not value.strip():
            raise self._fail(name, "is empty")
        return value

    def integer(
        self, name: str, default: int | None, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        """An integer (``1e4`` and ``10_000`` accepted when integral), within bounds."""
        value = self._get(name)
        if value is None:
            return default
        try:
            number = float(str(value).replace("_", ""))
        except ValueError:
            raise self._fail(name, f"must be an integer, got {value!r}") from None
        if not number.is_integer():
            raise self._fail(name, f"must be an integer, got {value!r}")
        result = int(number)
        if minimum is not None and result < minimum:
            raise self._fail(name, f"must be at least {minimum}, got {result}")
        if maximum is not None and result > maximum:
            raise self._fail(name, f"must be at most {maximum}, got {result}")
        return result

    def number(
        self,
        name: str,
        default: float | None,
        minimum: float | None = None,
        maximum: float | None = None,
        strict_minimum: bool = False,
    ) -> float | None:
        """A finite float within bounds (``strict_minimum`` excludes the minimum itself)."""
        value = self._get(name)
        if value is None:
            return default
        try:
            result = float(str(value))
        except ValueError:
            raise self._fail(name, f"must be a number, got {value!r}") from None
        if result != result or result in (float("inf"), float("-inf")):
            raise self._fail(name, f"must be finite, got {value!r}")
        if minimum is not None and (result < minimum or (strict_minimum and result == minimum)):
            relation = "greater than" if strict_minimum else "at least"
            raise self._fail(name, f"must be {relation} {minimum}, got {result}")
        if maximum is not None and result > maximum:
            raise self._fail(name, f"must be at most {maximum}, got {result}")
        return result

    def choice(self, name: str, default: str, choices: Iterable[str]) -> str:
        """One of ``choices``."""
        options = tuple(choices)
        value = self._get(name)
        if value is None:
            return default
        text = str(value).strip()
        if text not in options:
            raise self._fail(name, f"must be one of {', '.join(options)}, got {text!r}")
        return text

    def flag(self, name: str, default: bool) -> bool:
        """A boolean: true/false, yes/no, 1/0, on/off."""
        value = self._get(name)
        if value is None:
            return default
        text = str(value).strip().lower()
        if text in ("true", "yes", "1", "on"):
            return True
        if text in ("false", "no", "0", "off"):
            return False
        raise self._fail(name, f"must be true or false, got {value!r}")

    def text(self, name: str, default: str | None) -> str | None:
        """A free string."""
        value = self._get(name)
        return default if value is None else str(value)

    def finish(self) -> None:
        """Reject parameters that were never read (typos, parameters of another method)."""
        unknown = sorted(set(self.raw) - self._read)
        if unknown:
            known = ", ".join(sorted(self._read)) or "none"
            raise ConfigError(f"method {self.method}: unknown parameter(s) {', '.join(unknown)} (known: {known})")

"""The site's jinja2 environment: package templates, autoescaping, and the filters its pages use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).parent


def _num(value: Any, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{value:.{digits}f}"


def _tokens(value: Any) -> str:
    if value is None or value != value:  # None or NaN: not known (a call's usage was not believed)
        return "–"
    value = float(value)
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= size:
            return f"{value / size:.1f}{unit}"
    return f"{value:.0f}"


def _ci(low: Any, high: Any, digits: int = 3) -> Any:
    """A confidence interval as markup (numbers only, so nothing to escape)."""
    from markupsafe import Markup

    if not isinstance(low, (int, float)) or not isinstance(high, (int, float)):
        return ""
    return Markup(f'<span class="ci">[{float(low):.{int(digits)}f}, {float(high):.{int(digits)}f}]</span>')


def _usd(value: Any) -> str:
    if value is None:
        return "–"
    return f"{value:.4f}" if value < 1 else f"{value:,.2f}"


def package_version() -> str:
    """The installed frontier-evals version (the one the footer and every page show)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("frontier-evals")
    except PackageNotFoundError:
        return "(not installed)"


def _breakable(text: Any) -> Any:
    """Untrusted text, escaped, with break opportunities only after ``/ - @ : . _``, so a long model
    name wraps at its own separators and never inside a word."""
    import re

    from markupsafe import Markup, escape

    return Markup(re.sub(r"([/\-@:._])", r"\1<wbr>", str(escape(str(text)))))


def _bytecode_cache() -> Any:
    """Jinja's cache of compiled templates in this user's private temporary folder (keyed by each template's
    source, so an edited template is compiled again): compiling the site's templates cost a report 70 ms of
    CPU in every process. None where that folder cannot be made safely (Jinja refuses one another user owns)."""
    import jinja2

    try:
        return jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):
        return None


def environment() -> Any:
    """The jinja2 environment: package templates, autoescaping on for every template."""
    import jinja2

    class RecordEnvironment(jinja2.Environment):
        """``row.field`` looked up as a dict key first: the pages' rows are dicts, and Jinja's default
        (attribute first, then key after an AttributeError) costs an exception per field."""

        def getattr(self, obj: Any, attribute: str) -> Any:
            if type(obj) is dict and attribute in obj:
                return obj[attribute]
            return super().getattr(obj, attribute)

    env = RecordEnvironment(
        loader=jinja2.FileSystemLoader(str(PACKAGE / "templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
        auto_reload=False,  # package files: no stat of a template (and its parents) per page of thousands
        bytecode_cache=_bytecode_cache(),
    )
    from leaderboard.glossary import define, glossary

    env.filters.update(num=_num, tokens=_tokens, usd=_usd, define=define, breakable=_breakable)
    env.globals.update(ci=_ci, glossary=glossary)
    return env

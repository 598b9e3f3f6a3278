"""YAML from untrusted files, bounded before anything walks it.

PyYAML's safe loader still expands aliases: a few hundred bytes of nested ``*alias``
references (a "billion laughs" document) become a structure too large to validate or
print. :func:`load_bounded` refuses aliases outright, and caps the nesting depth and the
node count while composing, so what it returns is at most ``MAX_NODES`` nodes deep
``MAX_DEPTH`` and every later step (schema validation, error messages) stays small.
"""

from __future__ import annotations

from typing import Any

from harness.errors import ConfigError

MAX_DEPTH = 64
MAX_NODES = 100_000


def _loader_class() -> type:
    import yaml

    class BoundedLoader(yaml.SafeLoader):
        """A safe loader that refuses aliases and documents too deep or too large."""

        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self.depth = 0
            self.nodes = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.peek_event()
            mark = event.start_mark
            where = f"line {mark.line + 1}, column {mark.column + 1}"
            if isinstance(event, yaml.AliasEvent):
                raise ConfigError(f"{where}: YAML aliases (*{event.anchor}) are not allowed here")
            self.nodes += 1
            if self.nodes > MAX_NODES:
                raise ConfigError(f"{where}: more than {MAX_NODES:,} YAML nodes")
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise ConfigError(f"{where}: nested more than {MAX_DEPTH} levels deep")
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    return BoundedLoader


def load_bounded(text: str, source: str) -> Any:
    """The YAML document in ``text``.

    ConfigError naming ``source`` for bad YAML, aliases, or too deep or big a document.
    """
    import yaml

    loader = _loader_class()(text)
    try:
        return loader.get_single_data()
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source} is not valid YAML: {str(exc)[:500]}") from None
    except RecursionError:
        raise ConfigError(f"{source}: nested too deeply") from None
    finally:
        loader.dispose()

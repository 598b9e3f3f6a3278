"""The inference server of an engine sweep: the port it listens on and the model spec pointed at it."""

from __future__ import annotations

from pathlib import Path

from harness.errors import ConfigError


def engine_model(model: str, port: int) -> str:
    """The model spec pointed at the engine: its ``{port}`` filled in, or the engine's URL added."""
    if "{port}" in model:
        return model.replace("{port}", str(port))
    if model.startswith("openai-compatible/") and "@" not in model:
        return f"{model}@http://127.0.0.1:{port}/v1"
    raise ConfigError(
        "--engine needs --model openai-compatible/NAME (the engine's URL is added) "
        "or a URL with {port}, e.g. openai-compatible/NAME@http://127.0.0.1:{port}/v1"
    )


def choose_port(engine: str | None, asked: int | None, out_dir: Path) -> int:
    """The port of an engine sweep: ``--engine-port``, else the one the sweep in ``out_dir`` used, else a free one.

    0 for a sweep without an engine.
    """
    from harness.engine import free_port
    from harness.json_input import JsonInputError, parse_json

    if not engine:
        if asked is not None:
            raise ConfigError("--engine-port needs --engine")
        return 0
    if asked is not None:
        return asked
    try:
        recorded = parse_json((out_dir / "sweep.json").read_text(), "sweep.json").get("engine_port")
    except (OSError, JsonInputError, AttributeError):
        recorded = None
    return recorded if isinstance(recorded, int) and 0 < recorded < 65536 else free_port()

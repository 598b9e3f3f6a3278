"""What CLI commands share: parsing of ``key=value`` options, file-name slugs and click option groups."""

from __future__ import annotations

import functools
import re
import typing
from collections.abc import Callable, Mapping

import click
from pydantic import BaseModel

from harness.errors import ConfigError
from harness.json_input import JsonInputError, parse_json
from harness.run_options import DEFAULT_TIMEOUT_S, RetryPolicy, RunOptions

SEQUENCE_TYPES = (list, tuple, set, frozenset)


def parse_key_values(pairs: tuple[str, ...], flag: str) -> dict[str, str]:
    """``key=value`` strings into a dict; values stay strings for the task's Args to coerce."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{flag} expects key=value, got {pair!r}")
        out[key.strip()] = value
    return out


def _takes_sequence(annotation: object) -> bool:
    """True when a field's type is a sequence (``tuple[str, ...]``, ``list[int] | None``, ...) and not a string."""
    origin = typing.get_origin(annotation)
    if origin in SEQUENCE_TYPES or annotation in SEQUENCE_TYPES:
        return True
    if origin is typing.Union or type(annotation).__name__ == "UnionType":
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        return bool(members) and all(_takes_sequence(a) for a in members)
    return False


def coerce_sequences(model: type[BaseModel], args: Mapping[str, object]) -> dict[str, object]:
    """``-T`` strings for sequence-typed fields of ``model`` as lists: JSON (``["a","b"]``) or a comma list (``a,b``).

    Other values are left for the model to coerce; an empty string is an empty list.
    """
    out = dict(args)
    for key, value in args.items():
        field = model.model_fields.get(key)
        if field is None or not isinstance(value, str) or not _takes_sequence(field.annotation):
            continue
        text = value.strip()
        if text.startswith("["):
            parsed = parse_json(text, f"-T {key}")
            if not isinstance(parsed, list):
                raise ConfigError(f"-T {key}: expected a JSON list or a comma-separated list, got {value!r}")
            out[key] = parsed
        else:
            out[key] = [part.strip() for part in text.split(",") if part.strip()]
    return out


def parse_option_values(pairs: tuple[str, ...], flag: str = "-M") -> dict[str, object]:
    """``key=value`` adapter options; a JSON value (``4``, ``true``, ``"x"``) is decoded, any other kept as text."""
    values: dict[str, object] = {}
    for key, raw in parse_key_values(pairs, flag).items():
        try:
            values[key] = parse_json(raw, f"{flag} {key}")
        except JsonInputError:
            values[key] = raw
    return values


def path_slug(text: str) -> str:
    """``text`` as part of a file name: each run of characters other than letters, digits and ``.=-`` becomes ``-``."""
    return re.sub(r"[^A-Za-z0-9.=-]+", "-", text).strip("-")[:60]


MODEL_OPTION = click.option(
    "-M",
    "--model-option",
    "model_option",
    multiple=True,
    metavar="KEY=VALUE",
    help="Adapter option, e.g. -M n_ctx=4096 for local models (repeatable; values read as JSON when they are).",
)


def call_options(command: Callable[..., None]) -> Callable[..., None]:
    """Add the options of how model calls are made; the command gets them as ``run_options: RunOptions``.

    ``--concurrency``, ``--timeout``, ``--max-retries``, ``--retry-base``, ``--cache/--no-cache``,
    ``--force-cache`` and ``--progress/--no-progress``, with the defaults of :class:`RunOptions`.
    """

    @functools.wraps(command)
    def with_run_options(
        *args: object,
        concurrency: int,
        timeout: float,
        max_retries: int,
        retry_base: float,
        cache: bool,
        force_cache: bool,
        progress: bool,
        **kwargs: object,
    ) -> None:
        from harness.cache import default_cache_path

        options = RunOptions(
            concurrency=concurrency,
            retry=RetryPolicy(max_retries=max_retries, base_delay_s=retry_base),
            request_timeout_s=timeout,
            cache_path=default_cache_path() if cache else None,
            force_cache=force_cache,
            progress=progress,
        )
        command(*args, run_options=options, **kwargs)

    wrapped: Callable[..., None] = with_run_options
    for option in reversed(CALL_OPTIONS):
        wrapped = option(wrapped)
    return wrapped


CALL_OPTIONS = (
    click.option(
        "--concurrency",
        type=click.IntRange(min=1),
        default=RunOptions.concurrency,
        show_default=True,
        help="Samples in flight, and model requests in flight per adapter (a method's many calls wait their turn).",
    ),
    click.option(
        "--timeout",
        type=click.FloatRange(min=0.1),
        default=DEFAULT_TIMEOUT_S,
        show_default=True,
        help="Seconds per model request before it counts as a transient failure.",
    ),
    click.option(
        "--max-retries",
        type=click.IntRange(min=0),
        default=RetryPolicy.max_retries,
        show_default=True,
        help="Retries of a transient failure (429, 5xx, timeout, dropped connection).",
    ),
    click.option(
        "--retry-base",
        type=click.FloatRange(min=0),
        default=RetryPolicy.base_delay_s,
        show_default=True,
        help="First backoff delay in seconds; doubles each retry, with full jitter, "
        f"capped at {RetryPolicy.max_delay_s:g} s.",
    ),
    click.option("--cache/--no-cache", default=True, show_default=True, help="Use the response cache."),
    click.option(
        "--force-cache", is_flag=True, default=RunOptions.force_cache, help="Cache even non-deterministic requests."
    ),
    click.option(
        "--progress/--no-progress",
        default=RunOptions.progress,
        help="Show the progress bar on a terminal, else a plain "
        "progress line every $FRONTIER_PROGRESS_INTERVAL seconds (default 30).",
    ),
)


def settings_options(command: Callable[..., None]) -> Callable[..., None]:
    """Add ``--max-tokens`` and ``--temperature``; the command gets them as ``overrides`` of every task's settings."""

    @functools.wraps(command)
    def with_overrides(*args: object, max_tokens: int | None, temperature: float | None, **kwargs: object) -> None:
        given = {"max_tokens": max_tokens, "temperature": temperature}
        command(*args, overrides={k: v for k, v in given.items() if v is not None}, **kwargs)

    wrapped = click.option("--temperature", type=click.FloatRange(min=0), help="Override every task's temperature.")(
        with_overrides
    )
    return click.option("--max-tokens", type=click.IntRange(min=1), help="Override every task's max_tokens.")(wrapped)


def plan_options(required: bool) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Add ``--task``, ``--model``, ``-M``, ``-T``, ``--limit`` and ``--seed`` (``required``: the first two)."""
    options = (
        click.option(
            "--task",
            "tasks",
            multiple=True,
            required=required,
            help="Task name; repeat for several (see 'frontier list tasks').",
        ),
        click.option(
            "--model",
            required=required,
            help="Adapter spec: provider/model (litellm), openai-compatible/<m>@<url>, builtin/oracle, ...",
        ),
        MODEL_OPTION,
        click.option(
            "-T", "task_arg", multiple=True, metavar="KEY=VALUE", help="Task argument, such as a data location."
        ),
        click.option("--limit", type=click.IntRange(min=1), help="At most this many samples per task."),
        click.option(
            "--seed", type=int, default=0, show_default=True, help="Seed of random baselines, methods and CIs."
        ),
    )

    def add(command: Callable[..., None]) -> Callable[..., None]:
        for option in reversed(options):
            command = option(command)
        return command

    return add

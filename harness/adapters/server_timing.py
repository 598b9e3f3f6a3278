"""What an OpenAI-compatible server reports about a call's time, beyond OpenAI's fields.

llama.cpp's server adds ``timings`` (``prompt_n``, ``prompt_ms``, ``predicted_n``, ``predicted_ms``,
``predicted_per_second``, ...); vLLM and SGLang add fields to ``usage``; a diffusion-LM server may
add its denoising steps or function evaluations (``steps``, ``nfe``) at the top of its reply. Each
number found there is kept under a dotted name (``timings.predicted_ms``, ``usage.num_steps``,
``steps``); anything else (text, nested lists, non-finite numbers) is left out, and so is
everything past :data:`MAX_FIGURES` (the reply is untrusted).
"""

from __future__ import annotations

import math
from typing import Any

from harness.types import Timing

OPENAI_BODY_FIELDS = frozenset(
    {"id", "object", "created", "model", "choices", "usage", "system_fingerprint", "service_tier", "prompt_logprobs"}
)
"""Top-level fields of a chat completion that say nothing about the call's time."""
OPENAI_USAGE_FIELDS = frozenset({"prompt_tokens", "completion_tokens", "total_tokens"})
"""``usage`` fields the harness reads into :class:`~harness.types.Usage` already."""
MAX_FIGURES = 64
MAX_NAME = 80


def _figures(prefix: str, value: object, out: dict[str, float], depth: int) -> None:
    """Every finite number in ``value`` (nested dicts to ``depth`` levels) into ``out`` under dotted names."""
    if len(out) >= MAX_FIGURES or len(prefix) > MAX_NAME:
        return
    if isinstance(value, bool):
        return
    if isinstance(value, (int, float)):
        number = float(value)
        if math.isfinite(number):
            out[prefix] = number
        return
    if isinstance(value, dict) and depth > 0:
        for key, item in value.items():
            _figures(f"{prefix}.{key}" if prefix else str(key), item, out, depth - 1)


def server_figures(body: dict[str, Any]) -> dict[str, float]:
    """The numbers a chat-completion ``body`` carries beyond OpenAI's own fields (see the module docstring)."""
    out: dict[str, float] = {}
    for key, value in body.items():
        if key == "usage" and isinstance(value, dict):
            extras = {k: v for k, v in value.items() if k not in OPENAI_USAGE_FIELDS}
            _figures("usage", extras, out, 2)
        elif key not in OPENAI_BODY_FIELDS:
            _figures(str(key), value, out, 2)
    return out


def logprob_tokens(body: dict[str, Any]) -> int | None:
    """The tokens of the first choice's text, when the reply lists its logprobs (one entry a token)."""
    choices = body.get("choices")
    first = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    logprobs = first.get("logprobs")
    content = logprobs.get("content") if isinstance(logprobs, dict) else None
    return len(content) if isinstance(content, list) else None


def timing_of(body: dict[str, Any], ttft_s: float | None = None, text_tokens: int | None = None) -> Timing | None:
    """The call's :class:`Timing` from its reply (and, when streamed, its first token time and deltas), or None
    when the reply says nothing."""
    figures = server_figures(body)
    tokens = text_tokens if text_tokens is not None else logprob_tokens(body)
    if not figures and tokens is None and ttft_s is None:
        return None
    return Timing(ttft_s=ttft_s, text_tokens=tokens, server=figures)

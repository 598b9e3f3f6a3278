"""What a sample's own page shows: its conversation, its score criterion by criterion, its calls.

Built from one logged result at a time (pages are written as the log streams). Every text is
left as text: the templates escape it (autoescape), and none of it is ever markup. Long texts
are cut at ``MAX_TEXT`` characters, saying how many were left out, and folded past ``FOLD``.
"""

from __future__ import annotations

import json
from typing import Any

from harness.score_view import criteria, verdict
from harness.transcript import WITHOUT_TRANSCRIPTS, call_views, conversation, ending, has_transcript
from harness.types import Message, SampleResult

MAX_TEXT = 20_000
FOLD = 1_500
"""A text longer than this is folded: its first lines are shown, the rest one click away."""
PREVIEW = 300


def cut(text: str, limit: int = MAX_TEXT) -> str:
    """``text`` cut to ``limit`` characters, saying how many were left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… [{len(text) - limit} more characters not shown]"


def text_view(text: str | None, limit: int = MAX_TEXT) -> dict[str, Any]:
    """A text as shown: cut at ``limit``, with its length and whether it is folded."""
    text = text or ""
    return {"text": cut(text, limit), "chars": len(text), "folded": len(text) > FOLD, "preview": text[:PREVIEW]}


def message_view(message: Message, ends: str | None = None) -> dict[str, Any]:
    """One message: role, text, tool calls (name, arguments as sent, id), the call a tool result answers, and how
    it ended the conversation (``ends``: the user's stop) when it did."""
    return {
        "ends": cut(ends, 200) if ends else None,
        "role": message.role,
        "content": text_view(message.content),
        "tool_calls": [
            {"name": cut(call.name, 200), "arguments": text_view(call.arguments), "id": cut(call.id, 200)}
            for call in message.tool_calls
        ],
        "answers": cut(message.tool_call_id or "", 200),
    }


def content_warning(result: SampleResult) -> str | None:
    """The warning a task put on a sample's content (``metadata["content_warning"]``): the pages show the
    sample's messages and replies collapsed behind it. None when there is none."""
    warning = result.metadata.get("content_warning")
    return cut(warning, 300) if isinstance(warning, str) and warning.strip() else None


def transcript_view(result: SampleResult) -> dict[str, Any]:
    """The whole page of one sample (every string still to be escaped by the template)."""
    score = result.score
    calls = call_views(result)
    shown = conversation(result)
    stop = ending(result, shown)
    return {
        "id": result.sample_id,
        "task": result.task,
        "verdict": verdict(score),
        "value": score.value,
        "outcome": score.outcome,
        "transcript_note": None if has_transcript(result) else WITHOUT_TRANSCRIPTS,
        "content_warning": content_warning(result),
        "messages": [message_view(m, stop if i == len(shown) - 1 else None) for i, m in enumerate(shown)],
        "target": cut(json.dumps(result.target, ensure_ascii=False, default=str), 4000),
        "answer": cut(score.answer or "", 2000),
        "explanation": cut(score.explanation, 4000),
        "criteria": [{"name": c.name, "value": c.value, "held": c.held} for c in criteria(score.details)],
        "calls": [
            {
                "number": call.number,
                "role": cut(call.role, 60),
                "messages": call.messages,
                "reply": message_view(call.reply),
                "input_tokens": call.input_tokens,
                "output_tokens": call.output_tokens,
                "cost_usd": call.cost_usd,
                "latency_s": call.latency_s,
                "cached": call.cached,
                "retries": call.retries,
                "selected": call.selected,
            }
            for call in calls
        ],
        "selection": any(call.selected for call in calls),
        "method_notes": [{"name": c.name, "value": c.value, "held": c.held} for c in criteria(result.method_data)],
        "usage": result.usage.model_dump(),
        "cost_usd": result.cost_usd if result.cost_known else None,
        "latency_s": result.latency_s,
    }

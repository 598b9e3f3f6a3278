"""Natural-language assertions judged by a model during the episode (never at scoring time)."""

from __future__ import annotations

import json
import re
from typing import Any

from harness.types import GenerateRequest, Message

JUDGE_PROMPT = """You judge a customer-service conversation. For each numbered assertion about the agent,
decide whether the conversation shows it is true. Answer with JSON only:
{{"results": [{{"index": 1, "met": true, "justification": "..."}}, ...]}}

# Conversation
{conversation}

# Assertions
{assertions}
"""


def render_conversation(messages: tuple[Message, ...]) -> str:
    """The conversation as plain text, tool calls and results included."""
    lines = []
    for m in messages:
        if m.role == "system":
            continue
        for call in m.tool_calls:
            lines.append(f"assistant calls {call.name}({call.arguments[:2000]})")
        if m.content:
            lines.append(f"{m.role}: {m.content[:4000]}")
    return "\n".join(lines)


def parse_judgement(text: str, assertions: list[str]) -> list[dict[str, Any]] | None:
    """The per-assertion verdicts from a judge's reply, or None when it is not usable."""
    match = re.search(r"\{.*\}", text, re.DOTALL)
    if match is None:
        return None
    try:
        results = json.loads(match.group(0)).get("results")
    except (json.JSONDecodeError, AttributeError):
        return None
    if not isinstance(results, list):
        return None
    verdicts: dict[int, dict[str, Any]] = {}
    for item in results:
        if isinstance(item, dict) and isinstance(item.get("index"), int) and isinstance(item.get("met"), bool):
            verdicts[item["index"]] = item
    if sorted(verdicts) != list(range(1, len(assertions) + 1)):
        return None
    return [
        {
            "assertion": a,
            "met": verdicts[i + 1]["met"],
            "justification": str(verdicts[i + 1].get("justification", ""))[:1000],
        }
        for i, a in enumerate(assertions)
    ]


async def judge_assertions(
    adapter: Any, messages: tuple[Message, ...], assertions: list[str]
) -> list[dict[str, Any]] | None:
    """Ask ``adapter`` to judge ``assertions``; None when its answer cannot be parsed."""
    prompt = JUDGE_PROMPT.format(
        conversation=render_conversation(messages),
        assertions="\n".join(f"{i + 1}. {a}" for i, a in enumerate(assertions)),
    )
    generation = await adapter.generate(
        GenerateRequest(messages=(Message(role="user", content=prompt),), temperature=0.0, max_tokens=1024)
    )
    return parse_judgement(generation.text, assertions)

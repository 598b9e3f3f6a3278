"""The optional model judge for math/chemistry answers the deterministic verifiers left undecided.

Its verdict never changes the deterministic score; it is reported as ``accuracy_with_judge``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from harness.api import GenerateRequest, Message
from tasks.longcot.data import Question
from tasks.longcot.verify.extract import solution_payload

MAX_RESPONSE_CHARS = 4000


def judge_prompt(question: Question, response: str) -> str:
    """The judge's instructions: compare the final answer with the reference, reply in JSON."""
    payload = solution_payload(response) or response[-MAX_RESPONSE_CHARS:]
    return (
        "You are a strict answer-equivalence judge. Decide whether the predicted final answer is "
        "equivalent to the reference answer (mathematically, or as the same molecule). Reply with JSON "
        '{"equivalent": true|false, "reason": "..."} and nothing else.\n\n'
        + json.dumps(
            {"reference": question.answer, "predicted": payload[:MAX_RESPONSE_CHARS]}, ensure_ascii=False, default=str
        )
    )


def parse_judgement(text: str) -> dict[str, Any]:
    """``{"equivalent": bool | None, "reason": str}`` from the judge's reply."""
    match = re.search(r"\{.*\}", text or "", re.DOTALL)
    if match:
        try:
            data = json.loads(match.group(0))
            if isinstance(data, dict) and isinstance(data.get("equivalent"), bool):
                return {"equivalent": data["equivalent"], "reason": str(data.get("reason", ""))[:500]}
        except ValueError:
            pass
    return {"equivalent": None, "reason": "the judge's reply was not the requested JSON"}


async def judge_answer(spec: str, question: Question, response: str) -> dict[str, Any]:
    """Ask the judge adapter ``spec`` about ``response``; failures give ``equivalent: None``."""
    from harness.api import FrontierError, auxiliary_model

    try:
        adapter = auxiliary_model(spec, "judge")
    except (FrontierError, OSError, ValueError) as exc:
        return {"equivalent": None, "reason": f"judge unavailable: {exc}"}
    request = GenerateRequest(
        messages=(Message(role="user", content=judge_prompt(question, response)),), max_tokens=512, temperature=0.0
    )
    try:
        generation = await adapter.generate(request)
    except (FrontierError, OSError, ValueError) as exc:
        return {"equivalent": None, "reason": f"judge call failed: {exc}"}
    finally:
        await adapter.aclose()
    return parse_judgement(generation.text)

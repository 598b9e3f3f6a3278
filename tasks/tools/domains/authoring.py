"""Helpers to write τ²-format task dicts for the built-in domains' task generators."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Call = tuple[str, dict[str, Any]] | tuple[str, str, dict[str, Any]]


def make_task(
    task_id: str,
    domain: str,
    purpose: str,
    reason: str,
    known: str,
    actions: Sequence[Call],
    *,
    instructions: str = "Be concise and cooperative.",
    unknown: str | None = None,
    communicate: list[str] | None = None,
    basis: tuple[str, ...] = ("DB",),
    initial_state: dict[str, Any] | None = None,
    env_assertions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One task dict in τ²'s format; ``actions`` are ``(name, args)`` or ``(requestor, name, args)``."""
    gold = []
    for index, call in enumerate(actions):
        requestor, name, arguments = call if len(call) == 3 else ("assistant", call[0], call[1])
        gold.append(
            {
                "action_id": f"{task_id}_{index}",
                "requestor": requestor,
                "name": name,
                "arguments": arguments,
                "info": None,
                "compare_args": None,
            }
        )
    return {
        "id": task_id,
        "description": {"purpose": purpose, "relevant_policies": None, "notes": None},
        "user_scenario": {
            "persona": None,
            "instructions": {
                "task_instructions": instructions,
                "domain": domain,
                "reason_for_call": reason,
                "known_info": known,
                "unknown_info": unknown,
            },
        },
        "initial_state": initial_state,
        "evaluation_criteria": {
            "actions": gold,
            "env_assertions": env_assertions,
            "communicate_info": communicate or [],
            "nl_assertions": None,
            "reward_basis": list(basis),
        },
        "annotations": None,
    }

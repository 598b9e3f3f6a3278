"""The reference participants for offline runs and tests: the oracle agent and a scripted user.

Both are stateless functions of the request they are sent (the conversation as that side
sees it), so they work in-process and behind ``builtin/oracle``.

The oracle agent replays the task's gold actions in order: a tool call for each agent
action, a message asking the user to perform each user action (one per message, named
``tool(arguments)``), and a closing message stating every ``communicate_info`` string.

The scripted user opens with the reason for the call and what it knows, performs the next
gold user action (with the gold arguments) when the agent's message names it, reports
the result, and says ``###STOP###`` as soon as the agent's message asks for nothing it can do.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from harness.api import Generation, Message, ToolCall

if TYPE_CHECKING:
    from tau2.data_model.tasks import Action
    from tau2.data_model.tasks import Task as Tau2Task

STOP = "###STOP###"


def gold_actions(task: Tau2Task) -> list[Action]:
    """The task's gold actions, in order."""
    criteria = task.evaluation_criteria
    return list(criteria.actions or []) if criteria is not None else []


def render_call(action: Action) -> str:
    """How the oracle names a user action it asks for."""
    return f"{action.name}({json.dumps(action.arguments, sort_keys=True)})"


def oracle_plan(task: Tau2Task) -> list[Generation]:
    """The oracle agent's messages after the greeting, in order."""
    return scripted_plan(gold_actions(task), closing_message(task))


def scripted_plan(actions: list[Action], closing: Generation) -> list[Generation]:
    """An agent's messages for ``actions``: a tool call per agent action, a request per user action, then
    ``closing``."""
    steps = []
    for index, action in enumerate(actions):
        if action.requestor == "user":
            steps.append(Generation(text=f"Please do this on your device: {render_call(action)}", finish_reason="stop"))
        else:
            call = ToolCall(id=f"oracle_{index}", name=action.name, arguments=json.dumps(action.arguments))
            steps.append(Generation(tool_calls=(call,), finish_reason="tool_calls"))
    steps.append(closing)
    return steps


def closing_message(task: Tau2Task) -> Generation:
    """The oracle's last message, stating what the user must be told."""
    infos = (task.evaluation_criteria.communicate_info or []) if task.evaluation_criteria is not None else []
    return Generation(
        text="Your request is handled." + (f" Details: {'; '.join(infos)}." if infos else ""), finish_reason="stop"
    )


def history_counts(task: Tau2Task) -> tuple[int, int]:
    """How many agent and user messages the task's initial message history holds (no history: the greeting)."""
    history = (task.initial_state.message_history or []) if task.initial_state is not None else []
    if not history:
        return 1, 0
    return (sum(1 for m in history if m.role == "assistant"), sum(1 for m in history if m.role == "user"))


def oracle_reply(task: Tau2Task, messages: tuple[Message, ...]) -> Generation:
    """The oracle's next message: the plan step after as many agent messages as it has sent (greeting and the
    task's message history excluded)."""
    steps = oracle_plan(task)
    sent = sum(1 for m in messages if m.role == "assistant") - history_counts(task)[0]
    return steps[sent] if 0 <= sent < len(steps) else closing_message(task)


def opening_text(task: Tau2Task) -> str:
    """The scripted user's first message: the reason for the call and the known information."""
    instructions = task.user_scenario.instructions
    if isinstance(instructions, str):
        return instructions.strip()
    return " ".join(x.strip() for x in (instructions.reason_for_call, instructions.known_info or "") if x)


def scripted_user_reply(
    task: Tau2Task, messages: tuple[Message, ...], actions: list[Action] | None = None
) -> Generation:
    """The scripted user's next message, from its own view of the conversation (its turns are 'assistant').

    ``actions`` (default: the gold actions) are the user actions it performs, in order, when asked.
    """
    own = [m for m in messages if m.role == "assistant"]
    if len(own) <= history_counts(task)[1]:
        return Generation(text=opening_text(task), finish_reason="stop")
    last = messages[-1]
    if last.role == "tool":
        return Generation(text=f"Done. The result was: {(last.content or '')[:500]}", finish_reason="stop")
    performed = sum(len(m.tool_calls) for m in own)
    pending = [a for a in (gold_actions(task) if actions is None else actions) if a.requestor == "user"][performed:]
    if last.role == "user" and pending and render_call(pending[0]) in (last.content or ""):
        action = pending[0]
        call = ToolCall(id=f"user_{performed}", name=action.name, arguments=json.dumps(action.arguments))
        return Generation(tool_calls=(call,), finish_reason="tool_calls")
    return Generation(text=STOP, finish_reason="stop")


IDLE_REPLIES = ("I am sorry, I cannot help with that.", "Could you tell me more?", "Thank you for waiting.")

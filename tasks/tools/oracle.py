"""The reference agent: replays a task's gold actions, one tool call per turn, then finishes.

The plan has one step per assistant message: a tool call for each gold assistant action,
a request to the user for each run of gold user actions (device operations), and a final
message stating everything in ``communicate_info``. Which step comes next is the number
of assistant messages already in the conversation, so the oracle is stateless.
"""

from __future__ import annotations

import json

from harness.types import GenerateRequest, Generation, ToolCall
from tasks.tools.taskformat import TauTask


def plan(task: TauTask) -> list[Generation]:
    """The oracle's messages, in order."""
    steps: list[Generation] = []
    pending_user: list[str] = []
    for index, action in enumerate(task.gold_actions()):
        if action.requestor == "user":
            pending_user.append(action.name)
            continue
        if pending_user:
            steps.append(
                Generation(text=f"Please do this on your phone: {', '.join(pending_user)}.", finish_reason="stop")
            )
            pending_user = []
        call = ToolCall(id=f"oracle_{index}", name=action.name, arguments=json.dumps(action.arguments))
        steps.append(Generation(tool_calls=(call,), finish_reason="tool_calls"))
    if pending_user:
        steps.append(Generation(text=f"Please do this on your phone: {', '.join(pending_user)}.", finish_reason="stop"))
    steps.append(final_message(task))
    return steps


def final_message(task: TauTask) -> Generation:
    """The closing message, stating every piece of information the user must be told."""
    infos = task.criteria().communicate_info or []
    text = "Your request is complete." + (f" Details: {'; '.join(infos)}." if infos else "")
    return Generation(text=text, finish_reason="stop")


def reference_generation(task: TauTask, request: GenerateRequest) -> Generation:
    """The oracle's next message given the conversation so far."""
    steps = plan(task)
    done = sum(1 for m in request.messages if m.role == "assistant")
    return steps[done] if done < len(steps) else final_message(task)

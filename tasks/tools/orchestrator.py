"""The episode loop: agent ↔ user simulator ↔ environment, with step and error limits.

Each agent generation and each user turn is one step. An agent message with tool calls
is executed against the environment (every call, valid or not, is answered, and failures
count toward the error limit); an agent message without tool calls goes to the user.
The episode ends with one termination reason from ``TERMINATIONS``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from harness.types import Generation, Message, ToolCall, Usage
from tasks.tools.framework.environment import Environment
from tasks.tools.users import STOP, STOP_TOKENS, LoggedCall, UserSimulator

TERMINATIONS = (
    "agent_stop",
    "user_stop",
    "transfer",
    "out_of_scope",
    "max_steps",
    "too_many_errors",
    "infrastructure_error",
)
AGENT_STOP = STOP
MAX_LOGGED_ARGUMENT_CHARS = 32_768

Agent = Callable[[tuple[Message, ...], tuple[dict[str, Any], ...]], Awaitable[Generation]]


@dataclass
class Episode:
    """What happened: the agent's view of the conversation, every tool call, and how it ended."""

    messages: list[Message]
    calls: list[LoggedCall] = field(default_factory=list)
    termination: str = ""
    steps: int = 0
    tool_errors: int = 0
    error: str | None = None
    agent_usage: Usage = field(default_factory=Usage)

    def final_text(self) -> str:
        """The agent's last text message."""
        for message in reversed(self.messages):
            if message.role == "assistant" and message.content:
                return message.content
        return ""


def _clip(text: str) -> str:
    if len(text) <= MAX_LOGGED_ARGUMENT_CHARS:
        return text
    return f"<{len(text)} characters omitted>"


def stop_reason(text: str) -> str | None:
    """The termination a user message asks for, if it holds a stop token."""
    for token, reason in STOP_TOKENS.items():
        if token in text:
            return reason
    return None


def agent_system_prompt(policy: str) -> str:
    """The agent's instructions: the domain policy and how to end."""
    return (
        "You are a customer-service agent. Help the user according to the policy below, using the tools "
        "when you need data or must change something. Do not invent information. "
        f"When the user's request is complete, say so; to end the conversation yourself, reply with {AGENT_STOP}.\n\n"
        f"# Policy\n{policy}"
    )


async def run_episode(
    env: Environment, agent: Agent, user: UserSimulator, *, max_steps: int = 40, max_errors: int = 10
) -> Episode:
    """Run one conversation to its end; never raises for model or tool failures."""
    episode = Episode(messages=[Message(role="system", content=agent_system_prompt(env.domain.policy))])
    tools = env.domain.agent_toolkit.openai_tools()
    agent_text: str | None = None
    while True:
        try:
            user_text = await user.respond(agent_text, env, episode.calls)
        except Exception as exc:  # the user model failed: infrastructure, not the agent's fault
            episode.termination, episode.error = "infrastructure_error", f"user simulator: {type(exc).__name__}: {exc}"
            break
        episode.steps += 1
        episode.messages.append(Message(role="user", content=user_text))
        reason = stop_reason(user_text)
        if reason is not None:
            episode.termination = reason
            break
        agent_text = await _agent_turns(env, agent, tools, episode, max_steps, max_errors)
        if agent_text is None:
            break
    episode.tool_errors = sum(1 for call in episode.calls if call.error and call.side == "assistant")
    return episode


async def _agent_turns(
    env: Environment, agent: Agent, tools: tuple[dict[str, Any], ...], episode: Episode, max_steps: int, max_errors: int
) -> str | None:
    """Let the agent act until it speaks to the user; None when the episode ended instead."""
    errors = sum(1 for call in episode.calls if call.error and call.side == "assistant")
    while True:
        if episode.steps >= max_steps:
            episode.termination = "max_steps"
            return None
        try:
            generation = await agent(tuple(episode.messages), tools)
        except Exception as exc:
            episode.termination, episode.error = "infrastructure_error", f"agent: {type(exc).__name__}: {exc}"
            return None
        episode.steps += 1
        episode.agent_usage = episode.agent_usage + generation.usage
        calls = tuple(ToolCall(id=c.id, name=c.name[:200], arguments=_clip(c.arguments)) for c in generation.tool_calls)
        episode.messages.append(Message(role="assistant", content=generation.text or None, tool_calls=calls))
        if not calls:
            if AGENT_STOP in generation.text:
                episode.termination = "agent_stop"
                return None
            return generation.text
        for original, logged in zip(generation.tool_calls, calls, strict=True):
            result = env.call("assistant", original.name, original.arguments)
            episode.calls.append(LoggedCall("assistant", logged.name, logged.arguments, result.content, result.error))
            episode.messages.append(
                Message(role="tool", tool_call_id=logged.id, name=logged.name, content=result.content)
            )
            errors += result.error
        if errors >= max_errors:
            episode.termination = "too_many_errors"
            return None

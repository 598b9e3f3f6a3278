"""Gold answers verify as correct for every template in the shared data; perturbed ones do not."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tasks.longcot.catalog import KNOWN_TEMPLATES
from tasks.longcot.data import Question
from tasks.longcot.official import verify_official
from tasks.longcot.oracle.render import RECONSTRUCT_NODES_VAR, reference_payload
from tasks.longcot.oracle.search import DEFAULT_NODE_BUDGET
from tasks.longcot.verify import verify

pytestmark = pytest.mark.slow

README_TEMPLATES = {
    "chemistry": {"easy1", "easy2", "hard1", "hard2", "hard3", "hard4", "med1", "med2", "med3", "med4"},
    "chess": {
        "best_3_moves",
        "best_move",
        "forced_checkmate",
        "knight_game",
        "knight_path",
        "knight_path_enemy",
        "max_rooks",
        "piece_combinations",
        "reconstruct_moves",
        "uci_to_fen",
    },
    "cs": {"Backprop", "DistMem", "HM", "MCM", "MFMC", "Scheduling", "TM", "VLIW"},
    "logic": {
        "BlocksWorld",
        "Dungeon",
        "PackagingMinWaste",
        "RandomHanoi",
        "Sokoban",
        "Sudoku",
        "TrapezoidCounting",
        "WizardsTotalStrength",
    },
    "math": {"backtracking", "conditional", "dag", "dag_first", "linear"},
}


@pytest.fixture(scope="session", autouse=True)
def quick_reconstruct_budget() -> Iterator[None]:
    """Give the proof-game solver no node budget for reconstruct_moves in the session fixtures
    (50 questions at the default budget would take many minutes); the tests below solve one in full."""
    patch = pytest.MonkeyPatch()
    patch.setenv(RECONSTRUCT_NODES_VAR, "0")
    yield
    patch.undo()


@pytest.mark.slow
def test_every_readme_template_is_present_and_known(by_template):
    found = {key for key in by_template}
    for domain, templates in README_TEMPLATES.items():
        assert templates <= KNOWN_TEMPLATES[domain]
        assert {f"{domain}/{t}" for t in templates} <= found


def test_gold_answers_verify_per_template(by_template):
    report = {}
    for key, items in sorted(by_template.items()):
        if key == "chess/reconstruct_moves":
            assert all(q.answer == "" for q, _ in items), "reconstruct_moves stores no gold game"
            solved = [verify(q, f"Reasoning...\nsolution = {payload}").status for q, payload in items if payload]
            assert solved.count("correct") == len(solved), "a solver game does not verify"
            continue
        verdicts = [verify(q, f"Reasoning...\nsolution = {payload}").status for q, payload in items]
        official = [verify_official(q, f"Reasoning...\nsolution = {payload}").status for q, payload in items]
        report[key] = (min(verdicts.count("correct"), official.count("correct")), len(verdicts))
    failing = {k: v for k, v in report.items() if v[0] != v[1]}
    assert not failing, f"gold answers not verified: {failing}"
    assert len(report) == sum(len(t) for t in README_TEMPLATES.values()) - 1


def test_other_questions_answers_fail(by_template):
    checked = 0
    for key, items in by_template.items():
        for (q, payload), (other, other_payload) in zip(items, items[1:] + items[:1], strict=False):
            if other_payload is None or payload is None or q is other or other_payload == payload:
                continue
            if (
                q.domain == "logic"
                and q.template in ("Dungeon", "TrapezoidCounting")
                and q.problem["solution"] == other.problem["solution"]
            ):
                continue
            if q.domain == "math" and [a.strip() for a in q.answer] == [a.strip() for a in other.answer]:
                continue
            verdict = verify(q, f"solution = {other_payload}")
            assert verdict.status != "correct", (key, q.question_id, other.question_id)
            checked += 1
    assert checked > 900


def _bump_first_digit(text: str) -> str:
    for i, ch in enumerate(text):
        if ch.isdigit():
            return text[:i] + str((int(ch) + 1) % 10) + text[i + 1 :]
    raise AssertionError(f"no digit in {text!r}")


def test_changed_number_fails(by_template):
    for key in (
        "cs/Scheduling",
        "cs/Backprop",
        "cs/VLIW",
        "chemistry/med1",
        "chemistry/hard1",
        "chemistry/hard2",
        "chess/piece_combinations",
        "logic/Dungeon",
        "logic/WizardsTotalStrength",
        "math/linear",
        "math/dag",
    ):
        for q, payload in by_template[key][:5]:
            if q.domain == "chemistry" and key.endswith("hard2"):
                answer = list(q.answer)
                answer[1] = round(answer[1] + 0.01, 2)
                changed = json.dumps(answer)
            elif q.domain == "math":
                answer = list(q.answer)
                answer[-1] = f"({answer[-1]}) + 1"
                changed = "[" + ", ".join(answer) + "]"
            else:
                changed = _bump_first_digit(payload)
            assert verify(q, f"solution = {changed}").status != "correct", (key, q.question_id, changed)


def test_changed_atom_square_and_move_fail(by_template):
    for q, payload in by_template["chemistry/easy1"][:10]:
        changed = payload.replace("N", "O", 1) if "N" in payload else payload.replace("C", "N", 1)
        assert verify(q, f"solution = {changed}").status == "wrong"
    for q, payload in by_template["chess/uci_to_fen"][:10]:
        placement = payload.split()[0]
        ranks = placement.split("/")
        ranks[0], ranks[7] = ranks[7], ranks[0]
        if ranks[0] == ranks[7]:
            continue
        assert verify(q, "solution = " + "/".join(ranks) + " w - - 0 1").status == "wrong"
    for q, payload in by_template["chess/best_move"][:20]:
        assert verify(q, "solution = Kh1" if payload != "Kh1" else "solution = Ka1").status == "wrong"


def test_truncated_moves_and_broken_grids_fail(by_template):
    for key in ("logic/BlocksWorld", "logic/RandomHanoi"):
        for q, payload in by_template[key]:
            moves = json.loads(payload)
            assert verify(q, f"solution = {json.dumps(moves[:-1])}").status == "wrong"
            swapped = moves[:]
            swapped[0] = [swapped[0][0], swapped[0][2], swapped[0][1]]
            assert verify(q, f"solution = {json.dumps(swapped)}").status == "wrong"
    for q, payload in by_template["logic/Sokoban"]:
        assert verify(q, f"solution = {payload[:-1]}").status == "wrong"
    for q, payload in by_template["logic/Sudoku"]:
        grid = json.loads(payload)
        grid[0][0], grid[0][1] = grid[0][1], grid[0][0]
        assert verify(q, f"solution = {json.dumps(grid)}").status == "wrong"
    for q, payload in by_template["chess/best_3_moves"]:
        assert verify(q, f"solution = {json.dumps(json.loads(payload)[:2])}").status == "wrong"
    for q, payload in by_template["chess/forced_checkmate"]:
        moves = json.loads(payload)
        moves.pop(max(moves, key=int))
        if moves:
            assert verify(q, f"solution = {json.dumps(moves)}").status == "wrong"


@pytest.mark.slow
def test_reconstruct_reference_is_a_verified_game(by_template, monkeypatch):
    question = next(q for q, _ in by_template["chess/reconstruct_moves"] if q.question_id == "53")
    monkeypatch.setenv(RECONSTRUCT_NODES_VAR, str(DEFAULT_NODE_BUDGET))
    payload = reference_payload(question)
    assert payload is not None
    assert verify(question, f"Reasoning...\nsolution = {payload}").status == "correct"
    moves = json.loads(payload)
    moves.pop("25")
    assert verify(question, f"solution = {json.dumps(moves)}").status == "wrong"


def test_reconstruct_moves_replays_real_games():
    import random

    import chess

    rng = random.Random(7)
    for game in range(5):
        board = chess.Board()
        sans: list[str] = []
        while len(sans) < 40 + game:
            legal = sorted(board.legal_moves, key=lambda m: m.uci())
            move = rng.choice(legal)
            sans.append(board.san(move))
            board.push(move)
        moves = {str(i // 2 + 1): " ".join(sans[i : i + 2]) for i in range(0, len(sans), 2)}
        forced = {k: moves[k] for k in ("5", "9")}
        question = Question(
            "g",
            "chess",
            "medium",
            "reconstruct_moves",
            "FEN: " + board.fen(),
            {"template": "reconstruct_moves", "final_fen": board.fen(), "forced_moves": forced},
            "",
        )
        assert verify(question, f"solution = {json.dumps(moves)}").status == "correct"
        truncated = dict(moves)
        truncated.pop(str(len(moves)))
        assert verify(question, f"solution = {json.dumps(truncated)}").status == "wrong"
        wrong_forced = dict(forced, **{"5": "a4 a5"})
        question_b = Question(
            "g", "chess", "medium", "reconstruct_moves", "", dict(question.problem, forced_moves=wrong_forced), ""
        )
        assert verify(question_b, f"solution = {json.dumps(moves)}").status == "wrong"

"""A prover model's answer: screened sentence by sentence, refused with a reason, or made one tactic
that Rocq runs exactly as it runs the sentences in proof mode."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from coins_rocq.prover_script import MAX_SCRIPT_CHARS, RefusedScript, parse_answer, to_tactic


def test_the_answer_names_the_statement_it_proves_and_the_last_block_is_the_script() -> None:
    assert parse_answer("```coq\nexact I.\n```").target == "goal"
    negation = parse_answer("Proves: negation\n```coq\nintros H. exact H.\n```")
    assert negation.target == "negation" and "intros H" in negation.tactic
    assert parse_answer("**Proves:** `negation`\nintros H.\nexact H.").target == "negation"
    last = parse_answer("```coq\nsplit.\n```\nbetter:\n```coq\nexact I.\n```").tactic
    assert "exact I" in last and "split" not in last


def test_proof_and_qed_and_a_restated_statement_are_dropped() -> None:
    plain = to_tactic("exact I.")
    assert to_tactic("Proof. exact I. Qed.") == plain
    assert to_tactic("Lemma mine : True.\nProof.\nexact I.\nDefined.") == plain


def test_sentences_keep_their_goal_selectors_and_focus() -> None:
    tactic = to_tactic("split. 2: lia. all: auto. - exact I. { trivial. }")
    assert "once (only 1: (split))" in tactic
    assert "once (only 2: (lia))" in tactic and "once (auto)" in tactic
    assert tactic.count("only 1: ((once") == 2  # the bullet's and the brace's focus


def test_comments_are_dropped_so_a_hidden_period_cannot_end_a_sentence() -> None:
    hidden = to_tactic("exact (* . Axiom f : False. *) I.")
    assert " ".join(hidden.split()) == " ".join(to_tactic("exact I.").split())
    with pytest.raises(RefusedScript, match="'admit'"):
        to_tactic("split. (* . Axiom f : False. *) reflexivity. admit.")


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ("Admitted.", "'Admitted' admits a proof"),
        ("exact I. Admitted.", "'Admitted' admits a proof"),
        ("admit.", "'admit' admits a goal"),
        ("give_up.", "'give_up' admits a goal"),
        ("Axiom f : False.", "'Axiom' declares an unproved assumption"),
        ("exact I. Qed. Axiom f : False.", "'Axiom f : False.' after 'Qed.'"),
        ("exact I. Qed. exact I.", "after 'Qed.'"),
        ("Abort.", "'Abort' manipulates the prover's proof state"),
        ("Fail exact I.", "'Fail' is a control command"),
        ("Set Printing All. exact I.", "'Set' changes prover settings"),
        ("Unset Guard Checking. exact I.", "'Unset' changes prover settings"),
        ("Drop.", "'Drop' leaves the prover"),
        ('Load "x".', "'Load' loads and runs another file"),
        ("Timeout 100 exact I.", "'Timeout' is a control command"),
        ("Show.", "'Show' is a command, not a tactic"),
        ("Proof using. exact I.", "'Proof' is a command, not a tactic"),
        ("exact I. Lemma x : False.", "'Lemma' is a command, not a tactic"),
        ('idtac "hello".', "'idtac' prints a message"),
        ("repeat (idtac).", "'idtac' prints a message"),
        ("time auto.", "'time' prints timings"),
        ("debug auto.", "'debug' prints a search trace"),
        ("start ltac profiling. auto.", "'ltac' controls Ltac profiling"),
        ("psatz Z.", "'psatz' runs an external program"),
        ("exact ltac:(exact I).", "'ltac:' runs tactics inside a term"),
        ("#[bypass_check(guard)] exact I.", "uses attributes"),
        ("native_compute.", "compiles native code"),
        ("native_cast_no_check I.", "runs the native compiler"),
        ("exact_no_check (eq_refl (Nat.pow 2 30)).", "'exact_no_check' skips its type check"),
        ("vm_cast_no_check I.", "'vm_cast_no_check' skips its type check"),
        ("change_no_check True.", "'change_no_check' skips its type check"),
        ("exact I)). Definition x := ((I.", "unbalanced ')'"),
        ("exact (I.", "unclosed '('"),
        ("}", "'}' closes no '{'"),
        ("{ exact I.", "never closed"),
        ("exact I", "sentence does not end with '.'"),
        ("exact I. (* open", "comment is not closed"),
        ("exact I..", "'..' is not allowed"),
        ("exact\u00a0I.", "is not a Rocq blank"),
        ("exact I. prompt> Axiom f : False.", "prompt marker"),
        ("[x]: exact I.", "does not start a tactic"),
        ("1: .", "a sentence with no tactic"),
        ("", "the answer is empty"),
        ("Proof. Qed.", "holds no tactic"),
        ("split. " * 5000, f"longer than {MAX_SCRIPT_CHARS} characters"),
        ("auto. " * 401, "more than 400 sentences"),
    ],
)
def test_hostile_and_malformed_scripts_are_refused_with_their_reason(script: str, reason: str) -> None:
    with pytest.raises(RefusedScript) as refused:
        parse_answer(f"```coq\n{script}\n```" if script else script)
    assert reason in str(refused.value)


_STATEMENTS = {
    "pair": "True /\\ (True /\\ True)",
    "three": "True /\\ True /\\ True",
    "plus": "forall n : nat, n + 0 = n",
    "refute": "~ (1 = 2 /\\ True)",
}
_SCRIPTS = [
    ("pair", "split.\n- exact I.\n- split; [exact I | exact I].\nQed.", True),
    ("pair", "split. - exact I. - split. + exact I. + exact I.", True),
    ("pair", "split. { exact I. } split. all: exact I.", True),
    ("three", "split. 2: split. 1, 3: exact I. exact I.", True),
    ("three", "split. 1-2: split. all: exact I.", True),
    ("three", "split; [ | split ]; exact I.", True),
    ("plus", "intros n. induction n as [|n IH].\n- reflexivity.\n- simpl. rewrite IH. reflexivity.", True),
    ("refute", "intros [H _]. discriminate H.", True),
    ("pair", "split. - exact I.", False),  # a goal left
    ("pair", "split. - exact I. exact I. - split; exact I.", False),  # a tactic past the bullet's goal
    ("pair", "split. { exact I. exact I. }", False),  # the brace's goal already solved
    ("pair", "exact I. exact I.", False),
    ("plus", "intros n. constructor.", False),  # first success only, no backtracking across sentences
    ("three", "split. - exact I. + exact I.", False),  # a new bullet before the last is finished
]


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc is not installed")
@pytest.mark.parametrize(("statement", "script", "proves"), _SCRIPTS)
def test_the_tactic_succeeds_exactly_when_the_sentences_do_in_proof_mode(
    tmp_path: Path, statement: str, script: str, proves: bool
) -> None:
    goal = _STATEMENTS[statement]
    tactic = to_tactic(script)
    as_sentences = f"Lemma x : {goal}.\nProof.\n{script.removesuffix('Qed.')}\nQed.\n"
    as_tactic = f"Definition x : {goal} := ltac:(timeout 10 ({tactic})).\n"
    assert _compiles(tmp_path, "Sentences", as_sentences) is proves
    assert _compiles(tmp_path, "Tactic", as_tactic) is proves


def _compiles(folder: Path, name: str, text: str) -> bool:
    (folder / f"{name}.v").write_text(text, encoding="utf-8")
    return subprocess.run(["coqc", "-q", f"{name}.v"], cwd=folder, capture_output=True, timeout=60).returncode == 0

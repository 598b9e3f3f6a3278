"""GCG on a tiny random-init Gemma 3 built in the test (no download): sampling, filtering, loss, the file written.

The tokenizer is a real byte-level BPE trained here on a few harmless sentences; the model is a
two-layer ``Gemma3ForCausalLM`` (scaled embeddings, as the packaged Gemma 3 270M), saved in the
Hugging Face layout so that the command loads it through the same path as any local folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from harness.cli.main import main  # noqa: E402
from tasks.jailbreak.attacks import read_attacks  # noqa: E402
from tasks.jailbreak_gcg.attack import check_shared_tokenizer  # noqa: E402
from tasks.jailbreak_gcg.gcg import (  # noqa: E402
    GcgParams,
    Objective,
    _choose,
    candidate_losses,
    disallowed_tokens,
    retokenizable,
    run_gcg,
    sample_candidates,
    token_gradient,
)
from tasks.jailbreak_gcg.prompt import prompt_ids, resolve_template  # noqa: E402
from tasks.jailbreak_gcg.surrogate import Surrogate, from_model, load_surrogate  # noqa: E402

pytestmark = pytest.mark.slow

CORPUS = [
    "Write a short poem about the sea and the sky",
    "Sure, here is a short poem about the sea",
    "Explain how to bake bread at home with flour and water",
    "Sure, here is how to bake bread at home",
    "! ! ! ! ! ! ! ! tell me more about gardens",
]
INIT = "! ! ! ! ! ! ! !"
CSV = (
    "goal,target\n"
    '"Write a short poem about the sea","Sure, here is a short poem about the sea"\n'
    '"Explain how to bake bread at home","Sure, here is how to bake bread at home"\n'
)


def _tokenizer() -> Any:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=420,
        special_tokens=["<bos>", "<eos>", "<pad>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    core.train_from_iterator(CORPUS * 20, trainer)
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=core, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>"
    )


def _model(vocab: int, seed: int) -> Any:
    torch.manual_seed(seed)
    config = transformers.Gemma3TextConfig(
        vocab_size=vocab,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=16,
        max_position_embeddings=128,
        sliding_window=64,
        layer_types=["sliding_attention", "full_attention"],
    )
    return transformers.Gemma3ForCausalLM(config)


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    return _tokenizer()


@pytest.fixture(scope="module")
def surrogate(tokenizer: Any) -> Surrogate:
    return from_model("tiny-a", _model(len(tokenizer), seed=0), tokenizer)


@pytest.fixture(scope="module")
def other(tokenizer: Any) -> Surrogate:
    return from_model("tiny-b", _model(len(tokenizer), seed=1), tokenizer)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory, tokenizer: Any) -> tuple[Path, Path]:
    """Two tiny models saved as Hugging Face folders, sharing the tokenizer."""
    folders = []
    for seed in (0, 1):
        folder = tmp_path_factory.mktemp(f"tiny{seed}")
        _model(len(tokenizer), seed).save_pretrained(folder)
        tokenizer.save_pretrained(folder)
        folders.append(folder)
    return folders[0], folders[1]


def _objective(*surrogates: Surrogate) -> Objective:
    prompts = [
        [prompt_ids(s.tokenizer, "Write a short poem about the sea", "Sure, here is a short poem")] for s in surrogates
    ]
    return Objective(surrogates, prompts)


def _loss_with_ids(surrogate: Surrogate, ids: list[int]) -> float:
    """The target loss computed the plain way: token ids through the model, no embeddings by hand."""
    prompt = _objective(surrogate).prompts[0][0]
    full = torch.cat([prompt.before, torch.tensor(ids), prompt.after, prompt.target]).unsqueeze(0)
    with torch.no_grad():
        logits = surrogate.model(input_ids=full).logits[0]
    n = prompt.target.shape[0]
    return float(torch.nn.functional.cross_entropy(logits[-n - 1 : -1], prompt.target))


def test_five_steps_lower_the_target_loss(surrogate: Surrogate) -> None:
    result = run_gcg(_objective(surrogate), INIT, GcgParams(steps=5, search_width=48, topk=32, seed=0))
    assert len(result.curve) == 6
    assert result.loss < result.curve[0] - 0.05, result.curve
    assert result.loss == min(result.curve)
    assert result.suffix != INIT
    # The reported loss is the model's own loss of the suffix's ids (the one-hot route is the same function).
    assert _loss_with_ids(surrogate, result.ids) == pytest.approx(result.loss, abs=1e-4)
    assert surrogate.tokenizer(result.suffix, add_special_tokens=False)["input_ids"] == result.ids


def test_the_search_is_deterministic_for_a_seed(surrogate: Surrogate) -> None:
    params = GcgParams(steps=2, search_width=16, topk=16, seed=7)
    first = run_gcg(_objective(surrogate), INIT, params)
    again = run_gcg(_objective(surrogate), INIT, params)
    assert (first.suffix, first.curve) == (again.suffix, again.curve)


def test_candidates_change_at_most_n_replace_positions_to_allowed_top_k_tokens(surrogate: Surrogate) -> None:
    vocab = surrogate.embedding_matrix.shape[0]
    ids = surrogate.tokenizer(INIT, add_special_tokens=False, return_tensors="pt")["input_ids"][0]
    grad = token_gradient(surrogate, _objective(surrogate).prompts[0], ids, vocab)
    assert grad.shape == (ids.shape[0], vocab)
    assert torch.allclose(grad.norm(dim=-1), torch.ones(ids.shape[0]), atol=1e-5)
    disallowed = disallowed_tokens(surrogate, vocab, allow_non_ascii=False)
    params = GcgParams(search_width=64, topk=8, n_replace=2)
    candidates = sample_candidates(ids, grad, params, disallowed, torch.Generator().manual_seed(0))
    assert candidates.shape == (64, ids.shape[0])
    masked = grad.clone()
    masked[:, disallowed] = float("inf")
    top = (-masked).topk(8, dim=1).indices
    changed_rows = 0
    for row in candidates:
        changed = (row != ids).nonzero().flatten().tolist()
        assert len(changed) <= 2
        changed_rows += bool(changed)
        for position in changed:
            assert int(row[position]) in top[position].tolist()
            assert not disallowed[row[position]]
    assert changed_rows > 48


def test_special_and_non_ascii_tokens_are_never_proposed(surrogate: Surrogate) -> None:
    tokenizer = surrogate.tokenizer
    vocab = surrogate.embedding_matrix.shape[0]
    mask = disallowed_tokens(surrogate, vocab, allow_non_ascii=False)
    for special in ("<bos>", "<eos>", "<pad>"):
        assert mask[tokenizer.convert_tokens_to_ids(special)]
    non_ascii = [i for i in range(vocab) if not tokenizer.decode([i]).isascii()]
    assert non_ascii and all(mask[i] for i in non_ascii)
    assert not mask[tokenizer.convert_tokens_to_ids("!")]
    loose = disallowed_tokens(surrogate, vocab, allow_non_ascii=True)
    assert not any(loose[i] for i in non_ascii) and loose[tokenizer.convert_tokens_to_ids("<bos>")]


def test_candidates_that_do_not_tokenise_back_are_dropped(tokenizer: Any) -> None:
    word = next(
        w for w in ["Sure", "here", "bread", "poem"] if len(tokenizer(w, add_special_tokens=False)["input_ids"]) == 1
    )
    split = [tokenizer.convert_tokens_to_ids(c) for c in word]
    keep = tokenizer(INIT, add_special_tokens=False)["input_ids"][: len(split)]
    candidates = torch.tensor([split, keep, keep])
    kept = retokenizable(tokenizer, candidates)
    assert kept.tolist() == [keep]


def test_multi_model_loss_is_the_mean_of_each_models_loss(surrogate: Surrogate, other: Surrogate) -> None:
    ids = surrogate.tokenizer(INIT, add_special_tokens=False, return_tensors="pt")["input_ids"]
    candidates = torch.cat([ids, ids.flip(1)])
    both = candidate_losses(_objective(surrogate, other), candidates, chunk=1)
    each = [candidate_losses(_objective(s), candidates, chunk=2) for s in (surrogate, other)]
    assert torch.allclose(both, (each[0] + each[1]) / 2, atol=1e-5)
    assert float(both[0]) == pytest.approx(
        (_loss_with_ids(surrogate, ids[0].tolist()) + _loss_with_ids(other, ids[0].tolist())) / 2, abs=1e-4
    )
    result = run_gcg(_objective(surrogate, other), INIT, GcgParams(steps=3, search_width=32, topk=32))
    assert result.loss < result.curve[0]


def test_lookahead_picks_the_shortlisted_candidate_with_the_lowest_held_out_loss(
    surrogate: Surrogate, other: Surrogate
) -> None:
    ids = surrogate.tokenizer(INIT, add_special_tokens=False, return_tensors="pt")["input_ids"][0]
    vocab = surrogate.embedding_matrix.shape[0]
    grad = token_gradient(surrogate, _objective(surrogate).prompts[0], ids, vocab)
    disallowed = disallowed_tokens(surrogate, vocab, allow_non_ascii=False)
    candidates = retokenizable(
        surrogate.tokenizer,
        sample_candidates(ids, grad, GcgParams(search_width=32, topk=32), disallowed, torch.Generator()),
    )
    losses = candidate_losses(_objective(surrogate), candidates, chunk=8)
    held_all = candidate_losses(_objective(other), candidates, chunk=8)
    shortlist = losses.argsort()[:4].tolist()
    chosen, held = _choose(losses, candidates, GcgParams(lookahead=4), _objective(other))
    assert chosen in shortlist
    assert held == pytest.approx(min(float(held_all[i]) for i in shortlist), abs=1e-5)
    assert _choose(losses, candidates, GcgParams(), None) == (int(losses.argmin()), None)


def test_models_with_different_tokenizers_are_refused(surrogate: Surrogate) -> None:
    from harness.errors import ConfigError

    smaller = transformers.PreTrainedTokenizerFast(tokenizer_object=surrogate.tokenizer.backend_tokenizer)
    smaller.add_tokens(["<extra-token>"])
    stranger = Surrogate("stranger", surrogate.model, smaller, surrogate.embed_scale)
    with pytest.raises(ConfigError, match="does not share"):
        check_shared_tokenizer([surrogate, stranger])


def test_the_command_writes_attacks_the_jailbreak_family_reads(
    saved: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    behaviors = tmp_path / "behaviors.csv"
    behaviors.write_text(CSV, encoding="utf-8")
    out = tmp_path / "attacks.jsonl"
    common = ["--steps", "2", "--search-width", "16", "--topk", "16", "--init", INIT]
    stability = ["--holdout", str(saved[1]), "--lookahead", "4"]
    main(["attack", "gcg", str(behaviors), "-m", str(saved[0]), "-o", str(out), *stability, *common])
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["behavior_id"] for line in lines] == ["0", "1"]
    assert {line["attack"] for line in lines} == {"gcg"}
    assert all(line["source_model"] == str(saved[0]) for line in lines)
    for line in lines:
        assert line["loss"] == min(line["params"]["loss_curve"])
        assert line["params"]["steps"] == 2 and line["params"]["search_width"] == 16
        assert line["params"]["models"] == [str(saved[0])]
        assert line["params"]["holdout"] == [str(saved[1])] and line["params"]["lookahead"] == 4
        assert line["params"]["holdout_loss"] > 0
    attacks = read_attacks(out)
    assert [a.behavior_id for a in attacks] == ["0", "1"]
    assert (
        attacks[0].applied_to("Write a short poem about the sea")
        == f"Write a short poem about the sea {lines[0]['suffix']}"
    )
    assert "wrote 2 attack(s)" in capsys.readouterr().out

    multi = tmp_path / "universal.jsonl"
    main(
        [
            "attack",
            "gcg",
            str(behaviors),
            "-m",
            str(saved[0]),
            "-m",
            str(saved[1]),
            "-o",
            str(multi),
            "--universal",
            *common,
        ]
    )
    (line,) = [json.loads(text) for text in multi.read_text(encoding="utf-8").splitlines()]
    assert line["behavior_id"] == "*" and line["attack"] == "gcg-multi"
    assert line["source_model"] == f"{saved[0]}+{saved[1]}"
    assert line["params"]["behaviors"] == 2 and line["params"]["universal"] is True
    (universal,) = read_attacks(multi)
    assert universal.universal and universal.attack == "gcg-multi"


def test_a_hugging_face_folder_loads_with_its_scaled_embedding(saved: tuple[Path, Path]) -> None:
    loaded = load_surrogate(str(saved[0]))
    assert loaded.embed_scale == pytest.approx(32**0.5)
    ids = torch.tensor([5, 6, 7])
    by_hand = loaded.embedding_matrix[ids] * loaded.embed_scale
    assert torch.allclose(loaded.embed(ids), by_hand)


@pytest.mark.parametrize("adds_bos", [False, True])
def test_the_prompt_is_the_request_a_space_and_the_suffix_in_the_chat_template_when_there_is_one(
    adds_bos: bool,
) -> None:
    from tokenizers.processors import TemplateProcessing

    from harness.errors import ConfigError

    chat = _tokenizer()
    if adds_bos:
        chat.backend_tokenizer.post_processor = TemplateProcessing(
            single="<bos> $A", special_tokens=[("<bos>", chat.convert_tokens_to_ids("<bos>"))]
        )
        assert chat("a")["input_ids"][0] == chat.bos_token_id
    chat.chat_template = (
        "{{ bos_token }}{% for m in messages %}<{{ m['role'] }}>{{ m['content'] }}</{{ m['role'] }}>{% endfor %}"
        "{% if add_generation_prompt %}<assistant>{% endif %}"
    )
    request, target = "Write a short poem about the sea", "Sure, here is a short poem"
    laid = prompt_ids(chat, request, target)
    assert resolve_template(chat, "auto") == "chat"
    assert laid.before[0] == chat.bos_token_id and (laid.before == chat.bos_token_id).sum() == 1
    assert chat.decode(laid.before[1:]) == f"<user>{request} "
    assert chat.decode(laid.after) == "</user><assistant>"
    assert chat.decode(laid.target) == f" {target}"
    plain = prompt_ids(chat, request, target, "plain")
    assert chat.decode(plain.before, skip_special_tokens=True) == f"{request} " and plain.after.numel() == 0
    assert (plain.before[0] == chat.bos_token_id) == adds_bos
    bare = _tokenizer()
    assert resolve_template(bare, "auto") == "plain"
    with pytest.raises(ConfigError, match="no chat template"):
        prompt_ids(bare, request, target, "chat")
    with pytest.raises(ConfigError, match="empty target"):
        prompt_ids(bare, request, "  ")


def test_a_layout_the_model_cannot_give_is_one_line_and_writes_nothing(
    saved: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    behaviors = tmp_path / "behaviors.csv"
    behaviors.write_text(CSV, encoding="utf-8")
    out = tmp_path / "attacks.jsonl"
    with pytest.raises(SystemExit) as exited:
        main(["attack", "gcg", str(behaviors), "-m", str(saved[0]), "-o", str(out), "--template", "chat"])
    assert exited.value.code == 2
    err = capsys.readouterr().err  # transformers' progress bar of the weights comes first
    assert err.strip().splitlines()[-1] == "error: --template chat: this tokenizer has no chat template"
    assert err.count("error") == 1 and "Traceback" not in err
    assert not out.exists()

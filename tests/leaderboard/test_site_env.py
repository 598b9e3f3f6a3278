"""The site's templates are compiled once per machine: a second environment loads them from Jinja's bytecode
cache, and renders the same page."""

from __future__ import annotations

from pathlib import Path

import jinja2

from leaderboard.site_env import environment


def test_a_second_environment_reads_compiled_templates_from_the_cache(tmp_path: Path, monkeypatch) -> None:
    cache = jinja2.FileSystemBytecodeCache
    monkeypatch.setattr(jinja2, "FileSystemBytecodeCache", lambda: cache(str(tmp_path)))
    first = environment()
    page = first.get_template("base.html").render(
        root="", site_title="T", generator_version="1", n_submissions=1, entries="e"
    )
    assert list(tmp_path.glob("*.cache")), "the compiled template is kept"
    second = environment()
    compiled: list[str] = []

    def compile_and_note(source: str, filename: str) -> object:
        compiled.append(filename)
        return jinja2.Environment._compile(second, source, filename)

    monkeypatch.setattr(second, "_compile", compile_and_note)
    again = second.get_template("base.html").render(
        root="", site_title="T", generator_version="1", n_submissions=1, entries="e"
    )
    assert again == page and compiled == [], "loaded from the cache, not compiled again"


def test_an_environment_without_a_usable_cache_folder_still_renders(monkeypatch) -> None:
    def refuse() -> None:
        raise RuntimeError("the cache folder is owned by another user")

    monkeypatch.setattr(jinja2, "FileSystemBytecodeCache", refuse)
    env = environment()
    assert env.bytecode_cache is None and "<title>" in env.get_template("base.html").render(
        root="", site_title="T", generator_version="1", n_submissions=1, entries="e"
    )

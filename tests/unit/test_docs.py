"""The README and the docs site: the site builds with ``mkdocs build --strict`` (a broken link or anchor fails),
the README stays a guide (at most 400 lines, a table of contents), and every ``aer`` command and option they
show exists in the CLI, so a renamed command or option cannot leave the docs behind."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from app.cli import LAZY_COMMANDS, cli, load_command

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
INLINE = re.compile(r"`([^`\n]+)`")
# the command inside a line: `aer`, `.venv/bin/aer` or `/path/to/.venv/bin/aer`, after env assignments
AER = re.compile(r"(?:^|[\s(;&|])(?:[\w./-]*/)?aer\s+(.*)$")


def documents() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


@dataclass(frozen=True)
class Usage:
    where: str
    text: str


def usages(path: Path) -> list[Usage]:
    """Every ``aer ...`` command in a Markdown file: in shell code blocks and in inline code."""
    found: list[Usage] = []
    lang: str | None = None
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path.relative_to(ROOT)}:{n}"
        fence = FENCE.match(line)
        if fence:
            lang = None if lang is not None else fence.group(2) or "text"
            continue
        if lang is not None:
            # a shell comment is prose, unless it lists more options of the command (`# --include GLOB`)
            code, *comment = re.split(r"(?:^|\s)#", line, maxsplit=1)
            line = f"{code} {comment[0]}" if comment and comment[0].strip().startswith("-") else code
            if lang in ("bash", "sh", "shell", "console") and (m := AER.search(line)):
                found.append(Usage(where, m.group(1)))
            continue
        for code in INLINE.findall(line):
            if m := AER.search(code):
                found.append(Usage(where, m.group(1)))
    return found


def tree() -> Any:
    """The CLI's commands, the lazily imported ones (``aer eval``, ``aer bench``, ...) loaded."""
    root = typer.main.get_command(cli)
    for name in LAZY_COMMANDS:
        root.commands[name] = load_command(name)  # type: ignore[attr-defined]
    return root


def options_of(command: Any) -> set[str]:
    opts = {"--help"}
    for param in command.params:
        if param.param_type_name == "option":
            opts |= set(param.opts) | set(param.secondary_opts)
    return opts


def check(usage: Usage) -> list[str]:
    """What is wrong with one usage: an unknown command, or an option the command does not have."""
    try:
        tokens = shlex.split(usage.text, comments=True)
    except ValueError:  # an unbalanced quote in prose: read up to it
        tokens = usage.text.split()
    command, path = tree(), ["aer"]
    rest = list(tokens)
    while getattr(command, "commands", None) and rest:
        word = rest[0].strip("[]()")
        if word.startswith("-"):
            break
        if re.fullmatch(r"[A-Z_]+", word):  # a placeholder (`aer COMMAND --help`)
            return []
        names = word.split("|")  # `aer local-llm install | serve` style alternatives are written as words
        sub = command.commands.get(names[0])
        if sub is None:
            return [f"{usage.where}: `aer {' '.join([*path[1:], word])}`: no such command "
                    f"(known: {', '.join(sorted(command.commands))})"]
        command, path = sub, [*path, names[0]]
        rest = rest[1:]
    if getattr(command, "commands", None):
        return []  # a group named alone (`aer entities`): fine
    known = options_of(command)
    problems = []
    for token in rest:
        for part in token.split("|"):
            option = part.strip("[](),").split("=", 1)[0]
            if re.fullmatch(r"--?[A-Za-z][\w-]*", option) and option not in known:
                problems.append(f"{usage.where}: `{' '.join(path)} {option}`: no such option "
                                f"(known: {', '.join(sorted(known))})")
    return problems


def all_usages() -> list[Usage]:
    return [u for path in documents() for u in usages(path)]


def test_every_aer_command_and_option_in_the_docs_exists() -> None:
    found = all_usages()
    assert len(found) > 40, "the parser found too few commands: is it reading the fences?"
    problems = [p for u in found for p in check(u)]
    assert not problems, "\n".join(problems)


def test_the_checker_catches_stale_commands() -> None:
    assert check(Usage("x", "ingest notes/ --prune --force")) == []
    assert check(Usage("x", "entities remove-alias 'Elon Musk' 老马 --server http://h")) == []
    assert check(Usage("x", 'query "…" [--json] [--mode auto|structured]  # --top-k 5')) == []
    assert check(Usage("x", "entities rename X"))[0].endswith("no such command (known: add, delete, import, list, "
                                                              "remove-alias)")
    assert "no such option" in check(Usage("x", "ingest notes/ --recursive"))[0]
    assert "no such option" in check(Usage("x", "documents list [--offset 0 --limt 100]"))[0]
    assert "no such command" in check(Usage("x", "re-embed"))[0]


def test_each_documented_command_answers_help() -> None:
    """Each command path the docs use parses and prints its help (in-process, as a user would call it)."""
    runner = CliRunner()
    paths = set()
    for usage in all_usages():
        tokens = usage.text.split()
        command, path = tree(), []
        while getattr(command, "commands", None) and tokens and tokens[0] in command.commands:
            command = command.commands[tokens[0]]
            path.append(tokens.pop(0))
        paths.add(tuple(path))
    assert ("ingest",) in paths and ("entities", "remove-alias") in paths
    for path in sorted(paths):
        result = runner.invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, f"aer {' '.join(path)} --help: {result.output}"
        assert "Usage:" in result.output


def test_the_readme_guides() -> None:
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 400, f"the README has {len(lines)} lines: move reference material into docs/"
    assert "## Contents" in text
    for heading in ("## Install", "## Try the demo", "## Load your documents", "## Ask", "### From the page",
                    "### From the command line", "### Over HTTP", "### From chat clients", "### From MCP clients",
                    "## Configure an LLM", "## Deploy", "## Tests"):
        assert any(line.startswith(heading) for line in lines), heading
    assert "../shared" not in text and not any("../shared" in p.read_text("utf-8") for p in DOCS.rglob("*.md"))
    for needed in ("remove-alias", "rm -rf data", "redis-server", "chromium", "questions.jsonl"):
        assert needed in text, needed
    # one invocation: after the install section says to activate the venv, commands are plain `aer`
    after_install = text.split("## Try the demo", 1)[1].split("## Tests", 1)[0]
    assert ".venv/bin/aer " not in after_install.replace('"/path/to/.venv/bin/aer"', "")


def test_the_docs_site_builds_strictly(tmp_path: Path) -> None:
    """``mkdocs build --strict``: a broken link, a missing page in the nav or a bad anchor fails it."""
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Reset the demo data" in home and 'href="cli/"' in home  # the README, its docs/ links made local


@pytest.mark.parametrize("broken", ["[x](no-such-page.md)", "[x](cli.md#no-such-section)"])
def test_a_broken_link_fails_the_docs_build(tmp_path: Path, broken: str) -> None:
    site = tmp_path / "project"
    (site / "docs").mkdir(parents=True)
    (site / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (site / "docs" / "cli.md").write_text(f"# CLI\n\n## Ingest\n\n{broken}\n", encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"(?ms)^hooks:.*?(?=^\w)", "", config)  # the README hook needs the real tree
    config = re.sub(r"(?ms)^nav:.*", "nav:\n  - index.md\n  - cli.md\n", config)
    (site / "mkdocs.yml").write_text(config, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=site,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode != 0 and ("no-such" in done.stderr + done.stdout), done.stderr

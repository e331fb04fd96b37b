"""Prompt files (``prompts/<node>.<role>.md``) loaded by name, with their variables checked."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

import graphs

_FENCE = re.compile(r"<\s*/?\s*(?:passages|disagreements)\s*>", re.IGNORECASE)


def fenced(text: str) -> str:
    """Retrieved text with any data-fence tag removed, so it cannot close the fence around it in a prompt."""
    return _FENCE.sub(" ", text)


class PromptError(ValueError):
    """A prompt is missing or was rendered with the wrong variables."""


def default_prompts_dir() -> Path:
    """Return the packaged prompts folder, or the repository's ``prompts/`` in a checkout."""
    packaged = Path(graphs.__file__).parent / "_prompts"
    return packaged if packaged.is_dir() else Path(graphs.__file__).resolve().parent.parent / "prompts"


@dataclass(frozen=True)
class PromptLibrary:
    """Read-once prompt templates using ``$variable`` placeholders."""

    directory: Path = field(default_factory=default_prompts_dir)
    _cache: dict[str, Template] = field(default_factory=dict, compare=False, repr=False)

    def template(self, name: str) -> Template:
        """Return the template ``<name>.md`` (e.g. ``write_answer.system``)."""
        if name not in self._cache:
            path = self.directory / f"{name}.md"
            if not path.is_file():
                raise PromptError(f"prompt {name!r} not found in {self.directory}")
            self._cache[name] = Template(path.read_text(encoding="utf-8"))
        return self._cache[name]

    def render(self, name: str, **variables: object) -> str:
        """Fill a prompt; every placeholder must be given and nothing else."""
        template = self.template(name)
        expected = set(template.get_identifiers())
        given = set(variables)
        if expected != given:
            raise PromptError(
                f"prompt {name!r} expects {sorted(expected)}, got {sorted(given)}"
            )
        return template.substitute({k: str(v) for k, v in variables.items()})

    def names(self) -> list[str]:
        """List the prompt names available."""
        return sorted(p.stem for p in self.directory.glob("*.md"))

"""Prompts by name: every prompt is a jinja2 text file under ``rag_assets/prompts/`` (a reviewed
diff), shipped in the package as package data so an installed wheel has them too.

Retrieved text goes through the ``data`` filter, which neutralizes the ``<document>`` fence tags
inside it, so a report cannot close its own fence and speak as the instructions.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

import jinja2

# the package's own prompts, wherever it is installed (a package installed as files, as pip
# installs a wheel: a real folder that jinja2's FileSystemLoader reads)
PACKAGED_PROMPTS = Path(str(resources.files("rag_assets") / "prompts"))
_FENCE_RE = re.compile(r"<\s*(/?)\s*document\b", re.IGNORECASE)


class PromptMissing(LookupError):
    """A prompt the code asks for has no file; ``str()`` names the file that is missing."""


def prompts_dir(folder: Path | None = None) -> Path:
    """``folder`` (the settings' ``runtime.prompts_dir``), else the package's own prompts."""
    return folder or PACKAGED_PROMPTS


def fence_data(text: object) -> str:
    """Document text as data: ``<document>``/``</document>`` inside it become inert."""
    return _FENCE_RE.sub(lambda m: f"‹{m.group(1)}document", str(text))


@lru_cache(maxsize=4)
def _environment(folder: str) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder), undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False, autoescape=False,  # plain text to a model, not HTML
    )
    env.filters["data"] = fence_data
    return env


def load_prompt(name: str, folder: Path | None = None) -> jinja2.Template:
    """The template ``<folder>/<name>.txt``; a missing file raises ``PromptMissing``."""
    folder = prompts_dir(folder)
    path = folder / f"{name}.txt"
    if not path.is_file():
        raise PromptMissing(f"prompt {name!r} has no file {path}")
    return _environment(str(folder)).get_template(f"{name}.txt")


def render(name: str, folder: Path | None = None, **values: object) -> str:
    return load_prompt(name, folder).render(**values).strip()

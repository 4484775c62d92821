"""The configuration tables, rendered from the settings' own fields and sections: every field
(name, environment variables, default, description) in ``docs/CONFIGURATION.md``, one row per
section in the README. ``rag-assets settings --readme README.md --reference
docs/CONFIGURATION.md`` (``make settings-table``) writes them between two marker lines, and a test
compares both files with the render, so neither can drift from
:class:`~rag_assets.core.settings.Settings`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel

from rag_assets.core.settings import NESTED, PREFIX, Settings, short_name

START = "<!-- settings-table:start -->"
END = "<!-- settings-table:end -->"


@dataclass(frozen=True)
class SettingRow:
    """One field of the settings: where it sits, the variables that set it, its default."""

    setting: str  # "retrieval.k"
    variables: list[str]  # the short one first where there is one
    default: str
    description: str


def setting_rows(model: type[BaseModel] = Settings, path: tuple[str, ...] = ()
                 ) -> Iterator[SettingRow]:
    """Every leaf field of ``model``, nested sections walked in the order they are declared."""
    for name, field in model.model_fields.items():
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            yield from setting_rows(annotation, (*path, name))
            continue
        nested = PREFIX + NESTED.join(part.upper() for part in (*path, name))
        short = short_name(path[0], name) if len(path) == 1 else None
        yield SettingRow(".".join((*path, name)), [short, nested] if short else [nested],
                         _shown(field.get_default(call_default_factory=True)),
                         " ".join((field.description or "").split()))


def _shown(value: object) -> str:
    """A default as it would be written in the environment."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if str(value) else '""'


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("<", "&lt;")  # a <name> is no HTML tag


def settings_table() -> str:
    """The markdown table of every setting (no trailing newline)."""
    lines = ["| Setting | Environment variables | Default | What it sets |",
             "| --- | --- | --- | --- |"]
    for row in setting_rows():
        variables = ", ".join(f"`{name}`" for name in row.variables)
        lines.append(f"| `{row.setting}` | {variables} | `{_cell(row.default)}` | "
                     f"{_cell(row.description) or '-'} |")
    return "\n".join(lines)


def sections_table() -> str:
    """The markdown table of the sections: what each holds, how its fields are set, how many."""
    lines = ["| Section | Environment variables | Fields | What it holds |",
             "| --- | --- | --- | --- |"]
    for name, field in Settings.model_fields.items():
        section = field.annotation
        assert isinstance(section, type) and issubclass(section, BaseModel)
        fields = sum(1 for _ in setting_rows(section))
        lines.append(f"| `{name}` | `{PREFIX}{name.upper()}{NESTED}<FIELD>` | {fields} | "
                     f"{_cell(field.description or '')} |")
    return "\n".join(lines)


def _bounds(text: str) -> tuple[int, int]:
    """Where the region between the marker lines starts and ends in ``text``."""
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise ValueError(f"no {START} ... {END} region: add the two lines where the table goes")
    return start + len(START), end


def table_region(text: str) -> str:
    """What stands between the marker lines, without the blank lines around it."""
    start, end = _bounds(text)
    return text[start:end].strip("\n")


def with_table(text: str, table: str) -> str:
    """``text`` with its region replaced by ``table``, one blank line either side."""
    start, end = _bounds(text)
    return f"{text[:start]}\n\n{table}\n\n{text[end:]}"

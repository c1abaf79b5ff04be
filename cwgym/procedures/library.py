"""The procedure library: every ``*.json`` under ``procedures/``, one folder per domain."""

from __future__ import annotations

from pathlib import Path

from cwgym.procedures.errors import ProcedureError
from cwgym.procedures.model import Procedure
from cwgym.procedures.validate import parse_procedure
from cwgym.resources import data_root, procedures_dir


def procedure_files(root: Path | None = None) -> list[Path]:
    """Every procedure file under ``root`` (the library folder by default), sorted by path."""
    folder = root if root is not None else procedures_dir()
    return sorted(folder.rglob("*.json"))


def display_path(path: Path) -> str:
    """``procedures/legal/engagement.json`` for a library file, the path itself otherwise."""
    try:
        return path.resolve().relative_to(data_root().resolve()).as_posix()
    except ValueError:
        return str(path)


def load_file(path: Path) -> Procedure:
    """One procedure file, validated; its domain must be the folder it sits in."""
    name = display_path(path)
    procedure = parse_procedure(path.read_bytes(), name)
    if path.parent.name != procedure.domain:
        raise ProcedureError(name, "$.domain", f"domain {procedure.domain!r} but the file is in folder {path.parent.name!r}")
    return procedure


def load_all(root: Path | None = None) -> list[Procedure]:
    """Every procedure in the library, sorted by id; duplicate ids are refused."""
    seen: dict[str, str] = {}
    procedures = []
    for path in procedure_files(root):
        procedure = load_file(path)
        if procedure.id in seen:
            raise ProcedureError(display_path(path), "$.id", f"id {procedure.id!r} is also used by {seen[procedure.id]}")
        seen[procedure.id] = display_path(path)
        procedures.append(procedure)
    return sorted(procedures, key=lambda p: p.id)


def procedure_ids(root: Path | None = None) -> list[str]:
    return [p.id for p in load_all(root)]


def load_procedure(procedure_id: str, root: Path | None = None) -> Procedure:
    """The library procedure with this id; ``KeyError`` naming the known ids otherwise."""
    for procedure in load_all(root):
        if procedure.id == procedure_id:
            return procedure
    raise KeyError(f"no procedure {procedure_id!r}; known: {', '.join(procedure_ids(root))}")

"""The procedure library: ``procedures/<domain>/<id>.json``, one folder per domain.

A file's name is its procedure's id and its folder is the procedure's domain, so one
procedure is found (and read) without parsing the others. A procedure given as data
(``cwgym.register_procedure``) is added with :func:`add_procedure` and found by id in
this process before the files.
"""

from __future__ import annotations

from pathlib import Path

from cwgym.procedures.errors import ProcedureError
from cwgym.procedures.model import Procedure
from cwgym.procedures.validate import parse_procedure
from cwgym.resources import data_root, procedures_dir

_GIVEN: dict[str, Procedure] = {}  # procedures given as data in this process, by id


def add_procedure(procedure: Procedure) -> None:
    """Make ``procedure`` (given as data, validated) loadable by id in this process."""
    _GIVEN[procedure.id] = procedure


def procedure_files(root: Path | None = None) -> list[Path]:
    """Every procedure file under ``root`` (the library folder by default), sorted by path."""
    folder = root if root is not None else procedures_dir()
    return sorted(folder.rglob("*.json"))


def display_path(path: Path) -> str:
    """``procedures/legal/legal-engagement-letter.json`` for a library file, the path itself otherwise."""
    try:
        return path.resolve().relative_to(data_root().resolve()).as_posix()
    except ValueError:
        return str(path)


def load_file(path: Path) -> Procedure:
    """One procedure file, validated; its domain must be its folder and its id its file name."""
    name = display_path(path)
    procedure = parse_procedure(path.read_bytes(), name)
    if path.parent.name != procedure.domain:
        raise ProcedureError(name, "$.domain", f"domain {procedure.domain!r} but the file is in folder {path.parent.name!r}")
    if path.stem != procedure.id:
        raise ProcedureError(name, "$.id", f"id {procedure.id!r} but the file is named {path.name!r} (name it {procedure.id}.json)")
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
    """Every procedure id in the library (its file names), sorted, without reading the files."""
    return sorted({path.stem for path in procedure_files(root)})


def procedure_path(procedure_id: str, root: Path | None = None) -> Path:
    """The file of the procedure ``procedure_id``: ``<domain>/<id>.json`` under the library.

    Raises:
        KeyError: no domain folder holds ``<id>.json`` (the message names the known ids).
        ProcedureError: more than one does.
    """
    folder = root if root is not None else procedures_dir()
    found = sorted(folder.glob(f"*/{procedure_id}.json")) if _plain_name(procedure_id) else []
    if not found:
        raise KeyError(f"no procedure {procedure_id!r}; known: {', '.join(procedure_ids(root))}")
    if len(found) > 1:
        raise ProcedureError(display_path(found[1]), "$.id", f"id {procedure_id!r} is also used by {display_path(found[0])}")
    return found[0]


def load_procedure(procedure_id: str, root: Path | None = None) -> Procedure:
    """The library procedure with this id (one given as data first), reading only its own file.

    Raises:
        KeyError: there is no such procedure (the message names the known ids).
        ProcedureError: its file does not hold together.
    """
    if root is None and procedure_id in _GIVEN:
        return _GIVEN[procedure_id]
    return load_file(procedure_path(procedure_id, root))


def _plain_name(procedure_id: str) -> bool:
    """Whether ``procedure_id`` can be a file name: no glob characters and no path."""
    return bool(procedure_id) and not any(c in procedure_id for c in "*?[]/\\") and procedure_id not in (".", "..")

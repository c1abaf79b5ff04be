"""``ProcedureError``: a procedure file that does not hold together, named by file and JSON path."""

from __future__ import annotations

import re

_MSGSPEC_AT = re.compile(r"^(?P<problem>.*) - at `(?P<path>\$[^`]*)`$", re.S)


class ProcedureError(ValueError):
    """A problem in a procedure: ``file: $.json.path: problem``.

    Attributes:
        file: the procedure file (``procedures/legal/legal-engagement-letter.json``), or ``<procedure>``
            for one given as data.
        path: the JSON path inside it (``$.phases[2].tool[0].op``).
        problem: what is wrong there.
    """

    def __init__(self, file: str, path: str, problem: str) -> None:
        self.file = file
        self.path = path
        self.problem = problem
        super().__init__(f"{file}: {path}: {problem}")


def from_msgspec(file: str, message: str) -> ProcedureError:
    """Turn a msgspec ``ValidationError`` message into a :class:`ProcedureError`."""
    match = _MSGSPEC_AT.match(message)
    if match is None:
        return ProcedureError(file, "$", message)
    problem = match["problem"]
    problem = problem[0].lower() + problem[1:] if problem else problem
    return ProcedureError(file, match["path"], problem)

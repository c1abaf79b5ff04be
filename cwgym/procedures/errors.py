"""``ProcedureError``: a procedure file that does not hold together, named by file and JSON path."""

from __future__ import annotations

import re

_MSGSPEC_AT = re.compile(r" - at `(?P<path>\$[^`]*)`$")


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
    """Turn a msgspec ``ValidationError`` message into a :class:`ProcedureError`.

    A message that says where twice (a value read by a ``dec_hook``, which names its place
    inside the value: ``problem - at `$.kind.field` - at `$.verify[3]```) gets the joined
    path, ``$.verify[3].kind.field``.
    """
    paths: list[str] = []
    while (match := _MSGSPEC_AT.search(message)) is not None:
        paths.append(match["path"])
        message = message[: match.start()]
    if not paths:
        return ProcedureError(file, "$", message)
    path = paths[0] + "".join(inner[1:] for inner in paths[1:])
    problem = message[0].lower() + message[1:] if message else message
    return ProcedureError(file, path, problem)

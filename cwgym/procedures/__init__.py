"""Expert procedures: professional work written once as data, performed and verified.

A procedure (JSON under ``procedures/``) names its world and machine, draws parameters
from a seed, lays a setup into the world, performs phases (GUI gestures and their tool
equivalents), captures values the world assigns, and verifies the outcome with checks,
each of a kind registered in :mod:`~cwgym.procedures.checks` (one module per kind).
The owner calls take the world first: ``stage``, ``project``, ``verify``, ``verify_with``.

The modules of this package import each other by the module that defines a name, never
through this ``__init__``, which only gathers the public names.

``project`` performs the phases on screen (:mod:`~cwgym.procedures.gui`, gestures whose
targets :mod:`~cwgym.procedures.targets` resolves on the typed scene) or through tools.
:mod:`~cwgym.procedures.dataset` turns many seeds into checked episodes, and
:mod:`~cwgym.procedures.debug` prints a run step by step (``cwgym dataset``,
``cwgym procedure debug``).
"""

from cwgym.procedures.checks import CheckResult
from cwgym.procedures.demonstration import (
    Demonstration,
    Failure,
    ProjectOptions,
    SessionRecord,
    Step,
)
from cwgym.procedures.errors import ProcedureError
from cwgym.procedures.instance import Instance
from cwgym.procedures.library import load_all, load_procedure
from cwgym.procedures.model import Procedure
from cwgym.procedures.negatives import KINDS as CORRUPTIONS
from cwgym.procedures.negatives import NoCorruption, corrupt, substitute
from cwgym.procedures.project import project
from cwgym.procedures.replay import replay
from cwgym.procedures.stage import stage
from cwgym.procedures.validate import parse_procedure
from cwgym.procedures.verification import Verification, verify, verify_with

__all__ = [
    "CORRUPTIONS",
    "CheckResult",
    "Demonstration",
    "Failure",
    "Instance",
    "NoCorruption",
    "Procedure",
    "ProcedureError",
    "ProjectOptions",
    "SessionRecord",
    "Step",
    "Verification",
    "corrupt",
    "load_all",
    "load_procedure",
    "parse_procedure",
    "project",
    "replay",
    "stage",
    "substitute",
    "verify",
    "verify_with",
]

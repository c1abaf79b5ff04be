"""``file_has_line``: some line of the file matches ``line`` (``{{*}}`` is any run)."""

from cwgym.procedures.checks import CheckKind, register
from cwgym.procedures.checks._lines import FileLine, line_judge

KIND = register(CheckKind("file_has_line", FileLine, line_judge(True), files_only=True, shows_values=True))

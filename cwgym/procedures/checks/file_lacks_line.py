"""``file_lacks_line``: the file exists and no line of it matches ``line``."""

from cwgym.procedures.checks import CheckKind, register
from cwgym.procedures.checks._lines import FileLine, line_judge

KIND = register(CheckKind("file_lacks_line", FileLine, line_judge(False), files_only=True))

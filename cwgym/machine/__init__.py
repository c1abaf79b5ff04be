"""Machines: an inode filesystem with users and permissions, processes, and the shell."""

from cwgym.machine.context import CommandContext, CommandResult
from cwgym.machine.filesystem import Credentials, Filesystem, FsError, Stat, UserFS
from cwgym.machine.machine import Machine

__all__ = [
    "CommandContext",
    "CommandResult",
    "Credentials",
    "Filesystem",
    "FsError",
    "Machine",
    "Stat",
    "UserFS",
]

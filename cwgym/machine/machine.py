"""One machine: its filesystem, users, shell state, processes and clipboard.

Everything here is plain data reachable from the machine, frozen into a ``MachineFrozen``
for snapshots (O(1) in the number of files) and thawed back for restore and fork.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from cwgym.kernel.clock import Clock
from cwgym.kernel.digest import value_digest
from cwgym.machine.context import CommandResult
from cwgym.machine.etc import HOSTS, RESOLV_CONF, hosts_text, resolv_conf_text
from cwgym.machine.filesystem import (
    DIR,
    NULLDEV,
    Credentials,
    Filesystem,
    FsError,
    FsFrozen,
    UserFS,
)
from cwgym.machine.processes import Process, ProcessTable
from cwgym.machine.shell.state import ShellState
from cwgym.machine.users import FIRST_UID, User, group_text, passwd_text, users_for
from cwgym.machine.view import NetPort
from cwgym.protocol.definition import Computer, Profile, file_bytes

#: Folders a desktop session's first login creates in the home folder.
FIRST_LOGIN_FOLDERS = (
    "Desktop",
    "Documents",
    "Downloads",
    "Music",
    "Pictures",
    "Public",
    "Templates",
    "Videos",
    ".local/share/Trash/files",
    ".local/share/Trash/info",
)
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"


def home_for(profile: Profile, user: str) -> str:
    home = profile.home.replace("{user}", user).replace("\\", "/")
    if len(home) >= 2 and home[1] == ":":  # a Windows drive path: C:/Users/x -> /C:/Users/x
        home = "/" + home
    return home


class MachineFrozen(msgspec.Struct, frozen=True):
    computer: Any
    computer_digest: bytes
    profile: Any
    fs: FsFrozen
    shell: tuple
    procs: tuple
    clipboard: str


class Machine:
    """A computer of the world. ``fs`` is the kernel's trusted view; use ``user_fs()`` to act as its user."""

    def __init__(
        self,
        computer: Computer,
        profile: Profile,
        clock: Clock,
        sleep: Callable[[int], None] | None = None,
        *,
        build: bool = True,
    ) -> None:
        self.computer = computer
        self.profile = profile
        self.clock = clock
        self.computer_digest = b""
        self.sleep = sleep or clock.advance
        #: the world's network as this machine's programs reach it (wired by the world; not state)
        self.net: NetPort | None = None
        self.home = home_for(profile, computer.user)
        self.users: tuple[User, ...] = users_for(computer.user, self.home)
        self.cred = Credentials(FIRST_UID, FIRST_UID)
        #: (the inputs of :meth:`visible_digest`, its value): every action's effect asks it twice
        self._visible_memo: tuple[tuple, bytes] | None = None
        if build:
            # The definition is immutable: digest it once, so hashing never walks its files.
            self.computer_digest = value_digest((msgspec.to_builtins(computer), msgspec.to_builtins(profile)))
            self.fs = Filesystem(clock, profile.case_sensitive)
            self.fs.viewer = self.cred
            self.shell = self._login_shell()
            self.procs = ProcessTable()
            self.clipboard = ""
            self._build()

    # -- identity -----------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.computer.id

    @property
    def hostname(self) -> str:
        return self.computer.id

    @property
    def user(self) -> str:
        return self.computer.user

    @property
    def packages(self) -> list[str]:
        """The packages installed beyond the base system (``computers[].packages``)."""
        return self.computer.packages

    @property
    def installed_apps(self) -> list[str]:
        return list(self.computer.installed_apps)

    # -- building ----------------------------------------------------------------------
    def _login_shell(self) -> ShellState:
        variables = {
            "HOME": self.home,
            "LANG": "C",
            "LOGNAME": self.user,
            "PATH": DEFAULT_PATH,
            "PWD": self.home,
            "SHELL": "/bin/bash",
            "USER": self.user,
        }
        return ShellState(self.home, variables, set(variables))

    def _build(self) -> None:
        fs = self.fs
        for folder, mode in (
            ("/bin", 0o755),
            ("/usr/bin", 0o755),
            ("/usr/local/bin", 0o755),
            ("/usr/share", 0o755),
            ("/etc", 0o755),
            ("/var/log", 0o755),
            ("/tmp", 0o1777),
            ("/root", 0o700),
            ("/dev", 0o755),
        ):
            fs.set_mode(fs.makedirs(folder), mode)
        dev = fs.resolve("/dev")
        fs.link_new(dev, "null", NULLDEV, 0o666, 0, 0)
        fs.put_file("/etc/hostname", f"{self.hostname}\n".encode())
        fs.put_file("/etc/passwd", passwd_text(self.users).encode())
        fs.put_file("/etc/group", group_text(self.users).encode())
        os_name = self.profile.name or self.profile.id
        fs.put_file("/etc/os-release", f'PRETTY_NAME="{os_name}"\nID={self.profile.family}\n'.encode())
        uid = gid = FIRST_UID
        fs.makedirs(self.home.rsplit("/", 1)[0] or "/")
        fs.makedirs(self.home, uid, gid, 0o755)
        for name, content in sorted(self.computer.initial_files.items()):
            path = name if name.startswith("/") else f"{self.home}/{name}"
            owned = path.startswith(self.home + "/")
            owner = (uid, gid) if owned else (0, 0)
            folder = path.rsplit("/", 1)[0] or "/"
            self._makedirs_owned(folder, owned)
            fs.put_file(path, file_bytes(content), *owner)
        for path, text in ((HOSTS, hosts_text(self.hostname)), (RESOLV_CONF, resolv_conf_text())):
            if not fs.exists(path):  # a world may seed its own
                fs.put_file(path, text.encode())

    def _makedirs_owned(self, folder: str, owned: bool) -> None:
        """Create missing folders; those under the home belong to the user."""
        fs = self.fs
        current = ""
        for part in [p for p in folder.split("/") if p]:
            current += "/" + part
            if not fs.exists(current):
                mine = owned and current.startswith(self.home + "/")
                ids = (FIRST_UID, FIRST_UID) if mine else (0, 0)
                fs.makedirs(current, *ids)

    def first_login(self) -> list[str]:
        """Create the desktop folders a first graphical login makes; returns those made."""
        made = []
        fs = self.fs
        try:  # the home, looked up once: every reset of an RL episode logs in afresh
            home = fs.resolve(self.home)
        except FsError:
            home = None
        for folder in FIRST_LOGIN_FOLDERS:
            path = f"{self.home}/{folder}"
            if home is not None and fs.inode(home).kind == DIR:
                if fs.child(fs.inode(home), folder) is None:
                    fs.makedirs(path, FIRST_UID, FIRST_UID)
                    made.append(path)
            elif not fs.exists(path):
                self._makedirs_owned(path, True)
                made.append(path)
        return made

    # -- acting ------------------------------------------------------------------------
    def user_fs(self) -> UserFS:
        """The filesystem as the machine's user sees it (permission-checked)."""
        return UserFS(self.fs, self.cred, self.shell.umask)

    def execute(self, command: str) -> CommandResult:
        """Run one command line through this machine's shell dialect."""
        from cwgym.machine.shell import execute

        return execute(self, command)

    def spawn(self, command: str, *, until_us: int | None = None) -> Process:
        return self.procs.spawn(self.cred.uid, command, self.clock.now_us, until_us=until_us)

    # -- state -------------------------------------------------------------------------
    def freeze(self) -> MachineFrozen:
        return MachineFrozen(
            self.computer,
            self.computer_digest,
            self.profile,
            self.fs.freeze(),
            self.shell.frozen(),
            self.procs.frozen(),
            self.clipboard,
        )

    @classmethod
    def thaw(
        cls, frozen: MachineFrozen, clock: Clock, sleep: Callable[[int], None] | None = None
    ) -> Machine:
        machine = cls(frozen.computer, frozen.profile, clock, sleep, build=False)
        machine.computer_digest = frozen.computer_digest
        machine.fs = Filesystem.thaw(frozen.fs, clock)
        machine.fs.viewer = machine.cred
        machine.shell = ShellState.thaw(frozen.shell)
        procs, next_pid = frozen.procs
        machine.procs = ProcessTable(procs, next_pid)
        machine.clipboard = frozen.clipboard
        return machine

    def digest(self) -> bytes:
        """A digest of the machine's whole state, cheap when little changed."""
        return value_digest(
            (
                self.id,
                self.computer_digest,
                self.fs.digest(),
                self.shell.frozen(),
                [msgspec.to_builtins(p) for p in self.procs.frozen()[0]],
                self.procs.next_pid,
                self.clipboard,
            )
        )

    def visible_digest(self) -> bytes:
        """A digest of what the machine's user can observe: the files it can reach and read
        (:meth:`Filesystem.visible_digest`), the shell state, the processes and the clipboard.
        Action effects report it, so an actor learns nothing of files it may not read."""
        procs, next_pid = self.procs.frozen()
        inputs = (self.id, self.computer_digest, self.fs.visible_digest(), self.shell.frozen(), procs, next_pid, self.clipboard)
        memo = self._visible_memo
        if memo is not None and memo[0] == inputs:  # equal inputs, equal digest: compared by value
            return memo[1]
        digest = value_digest((*inputs[:4], [msgspec.to_builtins(p) for p in procs], next_pid, self.clipboard))
        self._visible_memo = (inputs, digest)
        return digest

    def is_dir(self, path: str) -> bool:
        try:
            return self.fs.inode(self.fs.resolve(path)).kind == DIR
        except Exception:
            return False

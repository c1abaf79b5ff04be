"""``chown`` and ``chgrp``: change file owner and group (GNU coreutils).

``chown [OWNER][:[GROUP]] FILE...`` (``OWNER.GROUP`` with GNU's warning),
``chgrp GROUP FILE...``; ``-R -h -H -L -P -v -c -f --dereference --from=OWNER:GROUP
--reference=FILE --preserve-root``. Names are the machine's users and groups, or numbers.
Only root may give a file away: the machine's user gets ``Operation not permitted`` for
another owner, and may only pick groups it belongs to, exactly as on Linux.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import (
    child_path,
    gnu_spec,
    lookup_group,
    lookup_user,
    q,
    usage_error,
)
from cwgym.machine.context import CommandContext
from cwgym.machine.filesystem import DIR, SYMLINK, FsError
from cwgym.machine.users import group_name, user_name

SPEC = gnu_spec(
    "cfhvRHLP",
    {
        "changes": "c",
        "silent": "f",
        "quiet": "f",
        "no-dereference": "h",
        "dereference": "dereference",
        "verbose": "v",
        "recursive": "R",
        "from=": "from",
        "reference=": "reference",
        "preserve-root": "preserve-root",
        "no-preserve-root": "no-preserve-root",
    },
)


class Chown:
    def __init__(self, ctx: CommandContext, program: str) -> None:
        self.ctx = ctx
        self.program = program
        self.uid: int | None = None
        self.gid: int | None = None
        self.user_text: str | None = None  # as shown in "to ..." (None: no user part)
        self.group_text: str | None = None
        self.from_uid: int | None = None
        self.from_gid: int | None = None
        self.verbose = self.changes_only = self.silent = self.recursive = False
        self.no_deref = False
        self.traverse = "P"
        self.status = 0

    def _names(self, uid: int, gid: int) -> tuple[str, str]:
        users = self.ctx.machine.users
        return user_name(uid, users), group_name(gid, users)

    def _spec(self, user: str | None, group: str | None) -> str | None:
        if user is not None:
            return f"{user}:{group}" if group is not None else user
        return group

    def visit(self, path: str, top: bool) -> None:
        fs, cwd = self.ctx.fs, self.ctx.cwd
        try:
            link = fs.lookup(path, cwd, follow=False)
        except FsError as exc:
            if not self.silent:
                self.ctx.error(f"cannot access {q(path)}: {exc.strerror_text}")
            self.status = 1
            if self.verbose:
                spec = self._spec(self.user_text, self.group_text)
                verb = "ownership" if self.user_text is not None else "group"
                self.ctx.out(f"failed to change {verb} of {q(path)} to {spec}\n")
            return
        follow = not self.no_deref and (top or self.traverse == "L")
        inode = link
        if link.kind == SYMLINK and follow:
            try:
                inode = fs.lookup(path, cwd)
            except FsError as exc:
                if not self.silent:
                    self.ctx.error(f"cannot dereference {q(path)}: {exc.strerror_text}")
                self.status = 1
                return
        old_user, old_group = self._names(inode.uid, inode.gid)
        matches = (self.from_uid is None or self.from_uid == inode.uid) and (
            self.from_gid is None or self.from_gid == inode.gid
        )
        new_uid = self.uid if self.uid is not None else inode.uid
        new_gid = self.gid if self.gid is not None else inode.gid
        changed = matches and (new_uid != inode.uid or new_gid != inode.gid)
        failed = False
        if matches and (self.uid is not None or self.gid is not None):
            try:
                fs.chown(path, cwd, self.uid, self.gid, follow=follow)
            except FsError as exc:
                failed = True
                if not self.silent:
                    verb = "ownership" if self.program == "chown" else "group"
                    self.ctx.error(f"changing {verb} of {q(path)}: {exc.strerror_text}")
                self.status = 1
        if self.verbose or (self.changes_only and changed and not failed):
            self._describe(path, old_user, old_group, changed, failed, matches)
        descend = link.kind != SYMLINK or self.traverse == "L" or (top and self.traverse == "H")
        if self.recursive and inode.kind == DIR and descend:
            try:
                names = fs.listdir(path, cwd)
            except FsError as exc:
                if not self.silent:
                    self.ctx.error(f"cannot read directory {q(path)}: {exc.strerror_text}")
                self.status = 1
                return
            for name in names:
                self.visit(child_path(path, name), False)

    def _describe(
        self, path: str, old_user: str, old_group: str, changed: bool, failed: bool, matches: bool
    ) -> None:
        user, group = self.user_text, self.group_text
        spec = self._spec(user, group)
        old_spec = self._spec(
            old_user if user is not None else None, old_group if group is not None else None
        )
        out = self.ctx.out
        if not matches or (not changed and not failed):
            if user is not None:
                out(f"ownership of {q(path)} retained as {old_spec}\n")
            elif group is not None:
                out(f"group of {q(path)} retained as {old_spec}\n")
            else:
                out(f"ownership of {q(path)} retained\n")
        elif failed:
            if user is not None:
                out(f"failed to change ownership of {q(path)} from {old_spec} to {spec}\n")
            elif group is not None:
                out(f"failed to change group of {q(path)} from {old_spec} to {spec}\n")
            else:
                out(f"failed to change ownership of {q(path)}\n")
        else:
            if user is not None:
                out(f"changed ownership of {q(path)} from {old_spec} to {spec}\n")
            elif group is not None:
                out(f"changed group of {q(path)} from {old_spec} to {spec}\n")
            else:
                out(f"no change to ownership of {q(path)}\n")


def parse_spec(
    ctx: CommandContext, spec: str
) -> tuple[int | None, int | None, str | None, str | None] | None:
    """``OWNER[:GROUP]`` to (uid, gid, shown user, shown group); ``None`` after an error."""
    users = ctx.machine.users
    if ":" in spec:
        user_part, _, group_part = spec.partition(":")
        separator = True
    elif "." in spec and lookup_user(spec, users) is None:
        user_part, _, group_part = spec.partition(".")
        separator = True
        ctx.error(f"warning: '.' should be ':': {q(spec)}")
    else:
        user_part, group_part, separator = spec, "", False
    uid = gid = None
    user_text: str | None = None
    group_text: str | None = None
    if user_part:
        uid = lookup_user(user_part, users)
        if uid is None or ":" in group_part:
            ctx.error(f"invalid user: {q(spec)}")
            return None
        user_text = user_part
    elif separator:
        user_text = ""
    if group_part:
        gid = lookup_group(group_part, users)
        if gid is None:
            ctx.error(f"invalid group: {q(spec)}")
            return None
        group_text = group_part
    elif separator and user_part:
        for user in users:
            if user.uid == uid:
                gid = user.gid
                group_text = group_name(user.gid, users)
                break
        else:
            ctx.error(f"invalid spec: {q(spec)}")
            return None
    if not user_part and not group_part:
        user_text = None
    return uid, gid, user_text, group_text


def _run(ctx: CommandContext, program: str) -> int:
    opts, operands = ctx.options(SPEC)
    c = Chown(ctx, program)
    reference: str | None = None
    from_spec: str | None = None
    preserve_root = False
    for key, value in opts:
        if key == "v":
            c.verbose = True
        elif key == "c":
            c.changes_only = True
        elif key == "f":
            c.silent = True
        elif key == "h":
            c.no_deref = True
        elif key == "dereference":
            c.no_deref = False
        elif key == "R":
            c.recursive = True
        elif key in "HLP":
            c.traverse = key
        elif key == "reference":
            reference = value
        elif key == "from":
            from_spec = value
        elif key == "preserve-root":
            preserve_root = True
        elif key == "no-preserve-root":
            preserve_root = False
    if from_spec is not None:
        parsed = parse_spec(ctx, from_spec)
        if parsed is None:
            return 1
        c.from_uid, c.from_gid = parsed[0], parsed[1]
    if reference is not None:
        try:
            st = ctx.fs.stat(reference, ctx.cwd)
        except FsError as exc:
            ctx.error(f"failed to get attributes of {q(reference)}: {exc.strerror_text}")
            return 1
        users = ctx.machine.users
        c.gid, c.group_text = st.gid, group_name(st.gid, users)
        if program == "chown":
            c.uid, c.user_text = st.uid, user_name(st.uid, users)
    else:
        if not operands:
            return usage_error(ctx, "missing operand")
        spec = operands.pop(0)
        if program == "chgrp":
            gid = lookup_group(spec, ctx.machine.users)
            if gid is None:
                ctx.error(f"invalid group: {q(spec)}")
                return 1
            c.gid, c.group_text = gid, spec
        else:
            parsed = parse_spec(ctx, spec)
            if parsed is None:
                return 1
            c.uid, c.gid, c.user_text, c.group_text = parsed
        if not operands:
            return usage_error(ctx, f"missing operand after {q(spec)}")
    if not operands:
        return usage_error(ctx, "missing operand")
    for operand in operands:
        if c.recursive and preserve_root:
            try:
                if ctx.fs.realpath(operand, ctx.cwd) == "/":
                    ctx.error(f"it is dangerous to operate recursively on {q(operand)}")
                    ctx.error("use --no-preserve-root to override this failsafe")
                    c.status = 1
                    continue
            except FsError:
                pass
        c.visit(operand, True)
    return c.status


@command("chown")
def chown(ctx: CommandContext) -> int:
    return _run(ctx, "chown")


@command("chgrp")
def chgrp(ctx: CommandContext) -> int:
    return _run(ctx, "chgrp")

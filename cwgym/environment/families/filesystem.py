"""filesystem.v1: the actor's own file calls, permission-checked as the machine's user.

Paths resolve against the machine's shell cwd. A missing path is ``not_found``, a
permission failure ``denied``, a malformed payload ``invalid``, and any other filesystem
failure (a directory where a file was expected, a non-empty folder) ``action_failed``.
"""

from __future__ import annotations

from typing import Any

from cwgym.environment.families import FAMILIES, ActionContext, invalid, unsupported
from cwgym.machine.filesystem import DIR, SYMLINK, FsError
from cwgym.machine.users import group_name, user_name
from cwgym.protocol import errors

_CODES = {"ENOENT": errors.NOT_FOUND, "EACCES": errors.DENIED, "EPERM": errors.DENIED}


def _fail(exc: FsError) -> errors.ActionError:
    return errors.ActionError(_CODES.get(exc.code, errors.ACTION_FAILED))


def _path(payload: dict[str, Any], key: str = "path") -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value or "\x00" in value:
        raise invalid()
    return value


def _flag(payload: dict[str, Any], key: str) -> bool:
    value = payload.get(key, False)
    if not isinstance(value, bool):
        raise invalid()
    return value


class FilesystemFamily:
    version = "1"

    def dispatch(self, ctx: ActionContext, op: str, payload: dict[str, Any]) -> Any:
        handler = getattr(self, f"_op_{op}", None)
        if handler is None:
            raise unsupported()
        machine = ctx.machine
        fs = machine.user_fs()
        cwd = machine.shell.cwd
        try:
            return handler(ctx, fs, cwd, payload)
        except FsError as exc:
            raise _fail(exc) from None

    def _op_read(self, ctx, fs, cwd, payload):
        data = fs.read(_path(payload), cwd)
        return {"content": data.decode("utf-8", "replace"), "bytes": list(data)}

    def _op_write(self, ctx, fs, cwd, payload):
        path = _path(payload)
        content = payload.get("content")
        if not isinstance(content, str):
            raise invalid()
        append = _flag(payload, "append")
        fs.write(path, cwd, content.encode(), append=append)
        ctx.journal("filesystem.write", {"path": path, "bytes": len(content.encode()), "append": append})
        return None

    def _op_list(self, ctx, fs, cwd, payload):
        return fs.listdir(_path(payload), cwd)

    def _op_stat(self, ctx, fs, cwd, payload):
        st = fs.stat(_path(payload), cwd, follow=False)
        users = ctx.machine.users
        return {
            "accessed": st.atime,
            "changed": st.ctime,
            "created": st.btime,
            "group": group_name(st.gid, users),
            "inode": st.ino,
            "is_dir": st.kind == DIR,
            "is_symlink": st.kind == SYMLINK,
            "links": st.nlink,
            "mode": st.mode,
            "modified": st.mtime,
            "owner": user_name(st.uid, users),
            "size": st.size,
            "target": st.target,
        }

    def _op_mkdir(self, ctx, fs, cwd, payload):
        path = _path(payload)
        if _flag(payload, "parents"):
            current = "" if path.startswith("/") else cwd
            for part in [p for p in path.split("/") if p]:
                current = f"{current.rstrip('/')}/{part}"
                if not fs.exists(current, cwd):
                    fs.mkdir(current, cwd)
        else:
            fs.mkdir(path, cwd)
        ctx.journal("filesystem.mkdir", {"path": path})
        return None

    def _op_remove(self, ctx, fs, cwd, payload):
        path = _path(payload)
        recursive = _flag(payload, "recursive")
        self._remove(fs, path, cwd, recursive)
        ctx.journal("filesystem.remove", {"path": path, "recursive": recursive})
        return None

    def _remove(self, fs, path, cwd, recursive):
        inode = fs.lookup(path, cwd, follow=False)
        if inode.kind != DIR:
            fs.unlink(path, cwd)
            return
        if recursive:
            for name in fs.listdir(path, cwd):
                self._remove(fs, f"{path.rstrip('/')}/{name}", cwd, True)
        fs.rmdir(path, cwd)

    def _op_move(self, ctx, fs, cwd, payload):
        source, target = _path(payload, "from"), _path(payload, "to")
        if fs.is_dir(target, cwd):
            target = f"{target.rstrip('/')}/{source.rstrip('/').rsplit('/', 1)[-1]}"
        fs.rename(source, target, cwd)
        ctx.journal("filesystem.move", {"from": source, "to": target})
        return None


FAMILIES.register("filesystem.v1", FilesystemFamily())

"""Users and groups of a machine, and the ``/etc`` files that describe them."""

from __future__ import annotations

import msgspec


class User(msgspec.Struct, frozen=True):
    name: str
    uid: int
    gid: int
    home: str
    shell: str = "/bin/bash"


SYSTEM_USERS = (
    User("root", 0, 0, "/root"),
    User("daemon", 1, 1, "/usr/sbin", "/usr/sbin/nologin"),
    User("nobody", 65534, 65534, "/nonexistent", "/usr/sbin/nologin"),
)
FIRST_UID = 1000


def users_for(user: str, home: str) -> tuple[User, ...]:
    """The system users plus the machine's one login user."""
    return (*SYSTEM_USERS, User(user, FIRST_UID, FIRST_UID, home))


def group_name(gid: int, users: tuple[User, ...]) -> str:
    if gid == 65534:
        return "nogroup"
    for user in users:
        if user.gid == gid:
            return user.name
    return str(gid)


def user_name(uid: int, users: tuple[User, ...]) -> str:
    for user in users:
        if user.uid == uid:
            return user.name
    return str(uid)


def passwd_text(users: tuple[User, ...]) -> str:
    return "".join(f"{u.name}:x:{u.uid}:{u.gid}::{u.home}:{u.shell}\n" for u in users)


def group_text(users: tuple[User, ...]) -> str:
    return "".join(f"{group_name(u.gid, users)}:x:{u.gid}:\n" for u in users)

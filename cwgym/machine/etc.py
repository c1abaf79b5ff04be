"""The network files of a machine's ``/etc``: ``hosts`` and ``resolv.conf``.

Both are written when a machine is built, as Ubuntu writes them: ``/etc/hosts`` names the
loopback address ``localhost`` and ``127.0.1.1`` the machine's own name; ``/etc/resolv.conf``
points at the local stub resolver. ``/etc/hosts`` is honoured: a name listed there resolves
to its address before any DNS query, so an agent that edits it changes where this machine's
requests go (and only this machine's).
"""

from __future__ import annotations

__all__ = ["HOSTS", "RESOLV_CONF", "hosts_address", "hosts_text", "resolv_conf_text"]

HOSTS = "/etc/hosts"
RESOLV_CONF = "/etc/resolv.conf"


def hosts_text(hostname: str) -> str:
    """A fresh machine's ``/etc/hosts``."""
    return (
        "127.0.0.1\tlocalhost\n"
        f"127.0.1.1\t{hostname}\n"
        "\n"
        "# The following lines are desirable for IPv6 capable hosts\n"
        "::1     ip6-localhost ip6-loopback\n"
        "fe00::0 ip6-localnet\n"
        "ff00::0 ip6-mcastprefix\n"
        "ff02::1 ip6-allnodes\n"
        "ff02::2 ip6-allrouters\n"
    )


def resolv_conf_text() -> str:
    """A fresh machine's ``/etc/resolv.conf`` (systemd-resolved's stub, as on Ubuntu)."""
    return (
        "# This is /run/systemd/resolve/stub-resolv.conf managed by man:systemd-resolved(8).\n"
        "# Names are answered by the world's DNS as seen from this machine's network node.\n"
        "nameserver 127.0.0.53\n"
        "options edns0 trust-ad\n"
        "search .\n"
    )


def hosts_address(text: str, name: str) -> str | None:
    """The address ``/etc/hosts`` (its ``text``) gives ``name``, or ``None``: the first line
    listing it wins, names compare without case, ``#`` starts a comment."""
    wanted = name.lower().rstrip(".")
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split()
        if len(fields) >= 2 and wanted in (f.lower().rstrip(".") for f in fields[1:]):
            return fields[0]
    return None

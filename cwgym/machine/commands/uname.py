"""``uname``: system information, fixed per OS profile family.

==========  ===========  =========  ========  ===============  =========
family      kernel (-s)  release    machine   processor (-p)   OS (-o)
==========  ===========  =========  ========  ===============  =========
linux       Linux        6.8.0      x86_64    unknown          GNU/Linux
android     Linux        6.1.57     aarch64   unknown          Android
macos       Darwin       23.6.0     arm64     arm              Darwin
ios         Darwin       23.6.0     arm64     arm              Darwin
windows     MINGW64_NT-  3.4.10     x86_64    unknown          Msys
            10.0-19045
==========  ===========  =========  ========  ===============  =========

The node name (-n) is the machine's hostname; the hardware platform (-i) is ``unknown``
except on Darwin. As in GNU ``uname -a``, fields that are ``unknown`` are left out.
"""

from __future__ import annotations

from cwgym.machine.commands import command
from cwgym.machine.commands._fsutil import gnu_spec, q, usage_error
from cwgym.machine.context import CommandContext

SPEC = gnu_spec(
    "asnrvmpio",
    {
        "all": "a",
        "kernel-name": "s",
        "nodename": "n",
        "kernel-release": "r",
        "kernel-version": "v",
        "machine": "m",
        "processor": "p",
        "hardware-platform": "i",
        "operating-system": "o",
    },
)

_LINUX_VERSION = "#1 SMP PREEMPT_DYNAMIC Mon Jul  6 12:00:00 UTC 2026"
_DARWIN_VERSION = "Darwin Kernel Version 23.6.0: Mon Jul  6 12:00:00 PDT 2026; root:xnu-10063.141.2~1/RELEASE_ARM64_T6000"

#: family -> (kernel name, release, version, machine, processor, platform, os)
SYSTEMS = {
    "linux": ("Linux", "6.8.0", _LINUX_VERSION, "x86_64", "unknown", "unknown", "GNU/Linux"),
    "android": ("Linux", "6.1.57", _LINUX_VERSION, "aarch64", "unknown", "unknown", "Android"),
    "macos": ("Darwin", "23.6.0", _DARWIN_VERSION, "arm64", "arm", "arm64", "Darwin"),
    "ios": ("Darwin", "23.6.0", _DARWIN_VERSION, "arm64", "arm", "arm64", "Darwin"),
    "windows": (
        "MINGW64_NT-10.0-19045",
        "3.4.10-87d57229.x86_64",
        "2024-02-14 16:09 UTC",
        "x86_64",
        "unknown",
        "unknown",
        "Msys",
    ),
}
ORDER = "snrvmpio"


@command("uname")
def uname(ctx: CommandContext) -> int:
    opts, operands = ctx.options(SPEC)
    if operands:
        return usage_error(ctx, f"extra operand {q(operands[0])}")
    wanted = {key for key, _ in opts}
    show_all = "a" in wanted
    if show_all:
        wanted = set(ORDER)
    if not wanted:
        wanted = {"s"}
    kernel, release, version, machine, processor, platform, system = SYSTEMS.get(
        ctx.machine.profile.family, SYSTEMS["linux"]
    )
    values = {
        "s": kernel,
        "n": ctx.machine.hostname,
        "r": release,
        "v": version,
        "m": machine,
        "p": processor,
        "i": platform,
        "o": system,
    }
    fields = []
    for key in ORDER:
        if key not in wanted:
            continue
        if show_all and key in "pi" and values[key] == "unknown":
            continue
        fields.append(values[key])
    ctx.out(" ".join(fields) + "\n")
    return 0

"""The one registry every extension point uses: register, look up, discover, refuse twins."""

from __future__ import annotations

import sys
import textwrap

import pytest

from cwgym.kernel.registry import Registry, RegistryError


def test_register_as_call_and_as_decorator_and_look_up():
    reg: Registry[object] = Registry("widget")
    first = object()
    assert reg.register("b", first) is first

    @reg.register("a")
    def second() -> None: ...

    assert reg["a"] is second and reg.get("b") is first
    assert reg.get("missing") is None and "a" in reg and "missing" not in reg
    assert reg.names() == ["a", "b"] == list(reg)
    assert [name for name, _ in reg.items()] == ["a", "b"] and len(reg) == 2


def test_a_taken_name_is_refused_unless_replaced_and_errors_name_the_kind():
    reg: Registry[object] = Registry("theme")
    one, two = object(), object()
    reg.register("ubuntu", one)
    reg.register("ubuntu", one)  # the same object again is a no-op
    with pytest.raises(RegistryError, match="theme 'ubuntu' is already registered"):
        reg.register("ubuntu", two)
    reg.register("ubuntu", two, replace=True)
    assert reg["ubuntu"] is two
    with pytest.raises(RegistryError, match=r"unknown theme 'macos' \(registered: ubuntu\)"):
        reg["macos"]
    with pytest.raises(RegistryError, match="non-empty string"):
        reg.register("", one)
    assert reg.unregister("ubuntu") is two
    with pytest.raises(RegistryError, match="no theme 'ubuntu'"):
        reg.unregister("ubuntu")


def test_a_package_registry_imports_its_public_modules_on_first_read(tmp_path, monkeypatch):
    pkg = tmp_path / "toyplugins"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(
        "from cwgym.kernel.registry import Registry\nREGISTRY = Registry('plugin', __name__)\n"
    )
    for name in ("zeta", "alpha", "_private"):
        (pkg / f"{name}.py").write_text(
            textwrap.dedent(
                f"""
                from toyplugins import REGISTRY
                REGISTRY.register({name!r}, {name!r})
                """
            )
        )
    monkeypatch.syspath_prepend(str(tmp_path))
    import toyplugins

    try:
        assert "toyplugins.alpha" not in sys.modules  # nothing imported before the first read
        assert toyplugins.REGISTRY.names() == ["alpha", "zeta"]  # _private is not a plugin
    finally:
        for name in [m for m in sys.modules if m.startswith("toyplugins")]:
            del sys.modules[name]

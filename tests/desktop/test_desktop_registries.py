"""The application and theme registries: one kernel Registry each, and a Seat that is handed
its applications rather than importing them."""

from __future__ import annotations

import pytest
from desktop_fixture import M, world

from cwgym.apps import APPS, register
from cwgym.desktop import App, Desktop, Seat
from cwgym.desktop.themes import THEMES, Theme, names, theme
from cwgym.desktop.themes import register as register_theme
from cwgym.desktop.visible import visible_parts
from cwgym.kernel.registry import Registry, RegistryError
from cwgym.protocol.errors import ActionError

GUI = frozenset({"application.v1", "keyboard.v1", "pointer.v1"})


def test_both_registries_are_kernel_registries_that_discover_their_packages():
    assert isinstance(APPS, Registry) and isinstance(THEMES, Registry)
    assert {"editor", "files", "terminal"} <= set(APPS.names())
    assert all(app.id == name for name, app in APPS.items())
    assert "ubuntu" in names() and theme("ubuntu") is THEMES["ubuntu"]
    assert theme(None) is None and theme("") is None and theme("no-such-theme") is None


def test_a_second_instance_under_a_taken_name_is_refused():
    class Impostor(App):
        id = "terminal"

    with pytest.raises(RegistryError, match="application 'terminal' is already registered"):
        register(Impostor())
    with pytest.raises(ValueError, match="App instance with an id"):
        register(App())
    with pytest.raises(RegistryError, match="theme 'ubuntu' is already registered"):
        register_theme(type("Other", (Theme,), {"name": "ubuntu"})())


def test_a_seat_uses_the_applications_it_is_handed():
    w = world()
    machine = w.machine(M)
    ubuntu = theme("ubuntu")
    bare = Seat(Desktop(), machine, ubuntu, GUI, apps={})
    with pytest.raises(ActionError) as refused:
        bare.launch("terminal")  # installed and catalogued, but no application here
    assert refused.value.error.code == "action_failed"
    assert not any(entry["launchable"] for entry in bare.list_apps())

    seat = Seat(Desktop(), machine, ubuntu, GUI, apps=APPS)
    wid = seat.launch("editor")
    assert seat.app(seat.desk.windows[wid]) is APPS["editor"]
    # the editor's focus_keys split its state into content and focus parts
    assert visible_parts(seat.desk, APPS)["windows"][wid]["focus"] != 0
    copy = Desktop.thaw(seat.desk.frozen())
    assert visible_parts(copy, {})["windows"][wid]["focus"] == 0  # no application: no split


def test_the_test_notepad_is_registered_by_the_tests_not_shipped():
    import importlib.util

    import notepad_app

    assert importlib.util.find_spec("cwgym.apps.notepad_test") is None
    assert type(APPS["notepad_test"]) is notepad_app.NotepadTest

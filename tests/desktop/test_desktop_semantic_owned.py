"""Every ``semantic.v1`` view handed out is the caller's own: the projection cache keeps a
template and hands out copies that share only strings, numbers and bools with it, so
mutating one view (or anything inside it) never reaches a later one."""

from __future__ import annotations

import copy

import msgspec
from desktop_fixture import M, app, desktop, ok, type_, world

from cwgym.desktop.semantic import semantic_view

ECHO = {"family": "terminal.v1", "op": "execute", "machine": M, "payload": {"command": "echo hi"}}


def _env():
    w = world()
    env = desktop(w, actions=["application.v1", "keyboard.v1", "pointer.v1", "terminal.v1"])
    return w, env


def _view(out: dict) -> dict:
    return out["observation"]["channels"]["semantic.v1"][M]


def _containers(value: object, found: dict[int, object]) -> dict[int, object]:
    """Every dict and list inside ``value`` (itself included), by id (kept alive)."""
    if isinstance(value, (dict, list)):
        found[id(value)] = value
        for item in value.values() if isinstance(value, dict) else value:
            _containers(item, found)
    return found


def _scribble(value: object) -> None:
    """Change every dict and list inside ``value``, innermost first."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["forged"] = True
        value.pop("bounds", None)
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("forged")


def _plain_types(value: object) -> bool:
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and _plain_types(v) for k, v in value.items())
    if kind is list:
        return all(_plain_types(v) for v in value)
    return value is None or kind in (str, int, bool)


def test_two_views_of_one_screen_share_no_dict_or_list():
    _, env = _env()
    ok(env, app("launch", kind="files"))
    first, second = _view(env.step([ECHO])), _view(env.step([ECHO]))
    assert first == second and first["elements"] and first["text"] and first["windows"]
    shared = _containers(first, {}).keys() & _containers(second, {}).keys()
    assert shared == set()


def test_scribbling_on_views_never_changes_a_later_one():
    _, env = _env()
    ok(env, app("launch", kind="files"))
    ok(env, app("launch", kind="notepad_test"))
    handed = [_view(env.step([ECHO]))]
    expected = copy.deepcopy(handed[0])
    handed.append(env.observe()["channels"]["semantic.v1"][M])
    for view in handed:
        _scribble(view)
    assert _view(env.step([ECHO])) == expected
    # a view assembled again from the painted chunks' shares (another screen, then back)
    ok(env, type_("x"))
    changed = _view(env.step([ECHO]))
    _scribble(changed)
    ok(env, app("launch", kind="files"))
    again = env.observe()["channels"]["semantic.v1"][M]
    _scribble(again)
    assert env.observe()["channels"]["semantic.v1"][M] == _view(env.step([ECHO]))


def test_a_view_is_plain_data_equal_to_its_msgpack_round_trip():
    """Copies of the template are what decoding the projection's encoding gave before:
    the same values and the same plain types (no tuple, no shared object)."""
    w, env = _env()
    ok(env, app("launch", kind="files"))
    view = _view(env.step([ECHO]))
    assert _plain_types(view)
    assert view == msgspec.msgpack.decode(msgspec.msgpack.encode(view))
    scene = w.scene(env.id, 1280, 800)
    uncached = semantic_view(scene)
    assert _plain_types(uncached) and uncached == view
    assert _containers(uncached, {}).keys().isdisjoint(_containers(semantic_view(scene), {}).keys())

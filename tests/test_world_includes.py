"""A world folder may ship content beside its world.json: ``{"$include": "path"}`` anywhere
in the definition stands for that file (parsed when it is JSON), staying inside the folder."""

from __future__ import annotations

import json

import pytest

from cwgym.resources import DataError, load_world


def world_at(tmp_path, definition: dict, files: dict[str, str]):
    folder = tmp_path / "w"
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    (folder / "world.json").write_text(json.dumps(definition))
    return str(folder / "world.json")


def test_text_and_json_files_are_included(tmp_path):
    path = world_at(tmp_path, {"id": "w", "services": [{"initial_state": {"pages": {"$include": "pages.json"},
                                                                          "intro": {"$include": "text/intro.md"}}}]},
                    {"pages.json": '[{"title": "A", "text": "a"}]', "text/intro.md": "# Hello\n"})
    state = load_world(path)["services"][0]["initial_state"]
    assert state == {"pages": [{"title": "A", "text": "a"}], "intro": "# Hello\n"}


@pytest.mark.parametrize("include, problem", [
    ({"$include": "missing.txt"}, r"\$\.metadata\.x: cannot include 'missing.txt'"),
    ({"$include": "../outside.txt"}, r"\$\.metadata\.x: '../outside.txt' is outside the world's folder"),
    ({"$include": "a.txt", "other": 1}, r"\$\.metadata\.x: an include is"),
    ({"$include": 7}, r"\$\.metadata\.x: an include is"),
])
def test_a_bad_include_names_where_it_is(tmp_path, include, problem):
    (tmp_path / "outside.txt").write_text("secret")
    path = world_at(tmp_path, {"id": "w", "metadata": {"x": include}}, {"a.txt": "a"})
    with pytest.raises(DataError, match=problem):
        load_world(path)


def test_the_company_wiki_takes_pages_from_its_folder():
    wiki = next(s for s in load_world("company")["services"] if s["id"] == "wiki")
    on_call = next(p for p in wiki["initial_state"]["pages"] if p["title"] == "On-call")
    assert on_call["text"].startswith("This week: Maya Chen.")

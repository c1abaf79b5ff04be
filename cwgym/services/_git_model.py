"""The data model of the ``git`` kind: commits, history, diffs, three-way merges and the
check of ``initial_state`` (the routes are in :mod:`cwgym.services.git`).

A repository is ``{owner, name, description, private, collaborators, default_branch,
branches: {name: commit id}, commits: {id: commit}, issues: {"n": issue}, pulls: {"n":
pull}, next_number, at_us}``. A commit is ``{id, parent, merge_parent, message, author,
at_us, files: {path: text}}``: the full tree, its dict built from the parent's so the texts
are shared; ``id`` is the sha256 of the canonical JSON of everything else, so the same
content at the same logical time always has the same id. Issues and pull requests share
one numbering per repository, as on GitHub.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
from typing import Any

from cwgym.services.framework import check_fields

NAME = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
BRANCH = re.compile(r"^[A-Za-z0-9._-]{1,100}$")
#: "Closes #3", "fixes #3", "resolved #3": a pull request's body closing an issue on merge.
CLOSING = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b", re.I)
MAX_FILE = 200_000

# -- names ------------------------------------------------------------------------------------


def repo_name_problem(name: str) -> str | None:
    if not NAME.match(name) or name in (".", ".."):
        return "a repository name is letters, digits, '.', '-' and '_' (up to 100)"
    return None


def branch_problem(name: str) -> str | None:
    if not BRANCH.match(name) or name in (".", "..") or name.endswith(".lock"):
        return "a branch name is letters, digits, '.', '-' and '_' (up to 100, no '/')"
    return None


def path_problem(path: str) -> str | None:
    parts = path.split("/")
    if not path or len(path) > 400 or any(p in ("", ".", "..") for p in parts) or any(c in path for c in "\\\0\n\r\t"):
        return f"{path!r} is not a file path (segments separated by '/', no '.' or '..', no leading '/')"
    return None


# -- commits ----------------------------------------------------------------------------------


def make_commit(files: dict[str, str], parent: str | None, message: str, author: str, at_us: int,
                merge_parent: str | None = None) -> dict:
    """A commit of the tree ``files``; its id is the sha256 of its canonical JSON."""
    body = {"parent": parent, "merge_parent": merge_parent, "message": message, "author": author, "at_us": at_us,
            "files": files}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return {"id": hashlib.sha256(text.encode("utf-8")).hexdigest(), **body}


def parents(commit: dict) -> list[str]:
    return [p for p in (commit["parent"], commit.get("merge_parent")) if p]


def log(repo: dict, head: str, limit: int = 10_000) -> list[dict]:
    """Commits from ``head`` back along first parents, newest first."""
    out, at = [], head
    while at and len(out) < limit:
        commit = repo["commits"][at]
        out.append(commit)
        at = commit["parent"]
    return out


def ancestors(repo: dict, head: str) -> dict[str, int]:
    """Every commit reachable from ``head`` (itself included), with its distance."""
    seen, frontier, depth = {}, [head], 0
    while frontier:
        nxt = []
        for cid in frontier:
            if cid not in seen:
                seen[cid] = depth
                nxt.extend(parents(repo["commits"][cid]))
        frontier, depth = nxt, depth + 1
    return seen


def merge_base(repo: dict, a: str, b: str) -> str | None:
    """The nearest common ancestor of ``a`` and ``b`` (ties: the smaller id)."""
    of_a = ancestors(repo, a)
    of_b = ancestors(repo, b)
    common = [c for c in of_b if c in of_a]
    if not common:
        return None
    return min(common, key=lambda c: (of_a[c] + of_b[c], c))


def resolve(repo: dict, ref: str) -> str | None:
    """The commit id a branch name, full id or unique id prefix (4+ hex digits) names."""
    if ref in repo["branches"]:
        return repo["branches"][ref]
    if ref in repo["commits"]:
        return ref
    if len(ref) >= 4 and re.fullmatch(r"[0-9a-f]+", ref):
        found = [c for c in repo["commits"] if c.startswith(ref)]
        if len(found) == 1:
            return found[0]
    return None


# -- diffs and merges -------------------------------------------------------------------------


def diff_files(old: dict[str, str], new: dict[str, str]) -> list[dict]:
    """The changed files from ``old`` to ``new``, by path: ``{path, status, additions,
    deletions, diff}`` with a line-based unified diff (``status``: added, modified, deleted)."""
    out = []
    for path in sorted(set(old) | set(new)):
        a, b = old.get(path), new.get(path)
        if a == b:
            continue
        status = "added" if a is None else "deleted" if b is None else "modified"
        lines = list(difflib.unified_diff((a or "").splitlines(), (b or "").splitlines(),
                                          "/dev/null" if a is None else f"a/{path}",
                                          "/dev/null" if b is None else f"b/{path}", lineterm=""))
        body = lines[2:]
        out.append({"path": path, "status": status,
                    "additions": sum(1 for line in body if line.startswith("+")),
                    "deletions": sum(1 for line in body if line.startswith("-")),
                    "diff": "\n".join(lines)})
    return out


def merge_plan(repo: dict, base_ref: str, head_ref: str) -> dict:
    """How ``head_ref`` merges into ``base_ref``: ``{status, base, head, merge_base, files?,
    conflicts?}`` with status ``up_to_date`` (nothing to merge), ``fast_forward``, ``merge``
    (a merge commit with ``files``) or ``conflict`` (``conflicts``: the paths both sides
    changed differently)."""
    base, head = repo["branches"][base_ref], repo["branches"][head_ref]
    mb = merge_base(repo, base, head)
    plan = {"base": base, "head": head, "merge_base": mb}
    if mb == head or head == base:
        return {**plan, "status": "up_to_date"}
    if mb == base:
        return {**plan, "status": "fast_forward"}
    origin = repo["commits"][mb]["files"] if mb else {}
    ours, theirs = repo["commits"][base]["files"], repo["commits"][head]["files"]
    files: dict[str, str] = {}
    conflicts = []
    for path in sorted(set(origin) | set(ours) | set(theirs)):
        o, b, h = origin.get(path), ours.get(path), theirs.get(path)
        if b == h:
            pick = b
        elif b == o:
            pick = h
        elif h == o:
            pick = b
        else:
            conflicts.append(path)
            continue
        if pick is not None:
            files[path] = pick
    if conflicts:
        return {**plan, "status": "conflict", "conflicts": conflicts}
    return {**plan, "status": "merge", "files": files}


def closing_refs(text: str) -> list[int]:
    """The issue numbers ``text`` says it closes, in order, each once."""
    out: list[int] = []
    for match in CLOSING.finditer(text or ""):
        n = int(match.group(1))
        if n not in out:
            out.append(n)
    return out


# -- initial_state ----------------------------------------------------------------------------

REPO_FIELDS = {"owner": str, "name": str, "private": bool, "collaborators": list, "default_branch": str, "files": dict,
               "description": str, "issues": list, "pulls": list, "branches": dict}
BUILT_FIELDS = {"owner": str, "name": str, "private": bool, "collaborators": list, "default_branch": str,
                "description": str, "branches": dict, "commits": dict, "issues": dict, "pulls": dict,
                "next_number": int, "at_us": int}
COMMIT_FIELDS = {"id": str, "parent": (str, type(None)), "merge_parent": (str, type(None)), "message": str,
                 "author": str, "at_us": int, "files": dict}


def build_state(state: dict, where: str, users: dict) -> dict:
    """The ``git`` part of ``initial_state`` checked and filled (see the kind's docstring)."""
    given = state.get("repos", [])
    if isinstance(given, dict):  # a state this kind built (a snapshot)
        return {**state, "repos": {key: _check_built(repo, f"{where}.repos[{key!r}]", key, users)
                                   for key, repo in given.items()}}
    repos: dict[str, dict] = {}
    for i, spec in enumerate(given):
        at = f"{where}.repos[{i}]"
        repo = _build_repo(spec, at, users)
        key = f"{repo['owner']}/{repo['name']}"
        if key in repos:
            raise ValueError(f"{at}.name: the repository {key!r} is listed twice")
        repos[key] = repo
    return {**state, "repos": repos}


def _user(name: Any, at: str, users: dict) -> str:
    if not isinstance(name, str) or name not in users:
        raise ValueError(f"{at}: {name!r} is not one of the users")
    return name


def _files(value: dict, at: str, allow_none: bool = False) -> dict:
    for path, text in value.items():
        problem = path_problem(path)
        if problem:
            raise ValueError(f"{at}[{path!r}]: {problem}")
        if not (isinstance(text, str) or (allow_none and text is None)):
            raise ValueError(f"{at}[{path!r}]: the file's text, got {type(text).__name__}")
    return dict(value)


def _build_repo(spec: Any, at: str, users: dict) -> dict:
    check_fields(spec, at, REPO_FIELDS, ("owner", "name"))
    owner = _user(spec["owner"], f"{at}.owner", users)
    problem = repo_name_problem(spec["name"])
    if problem:
        raise ValueError(f"{at}.name: {problem}")
    collaborators = [_user(c, f"{at}.collaborators[{j}]", users) for j, c in enumerate(spec.get("collaborators", []))]
    default = spec.get("default_branch", "main")
    if branch_problem(default):
        raise ValueError(f"{at}.default_branch: {branch_problem(default)}")
    first = make_commit(_files(spec.get("files", {}), f"{at}.files"), None, "Initial commit", owner, 0)
    commits, branches = {first["id"]: first}, {default: first["id"]}
    for bname, bspec in spec.get("branches", {}).items():
        bat = f"{at}.branches[{bname!r}]"
        if branch_problem(bname) or bname == default:
            raise ValueError(f"{bat}: {branch_problem(bname) or 'the default branch exists already'}")
        check_fields(bspec, bat, {"files": dict, "message": str, "author": str}, ("files",))
        changes = _files(bspec["files"], f"{bat}.files", allow_none=True)
        author = _user(bspec.get("author", owner), f"{bat}.author", users)
        files = {p: t for p, t in {**first["files"], **changes}.items() if t is not None}
        commit = make_commit(files, first["id"], bspec.get("message", f"Update on {bname}"), author, 0)
        commits, branches = {**commits, commit["id"]: commit}, {**branches, bname: commit["id"]}
    repo = {"owner": owner, "name": spec["name"], "description": spec.get("description", ""),
            "private": spec.get("private", False), "collaborators": collaborators, "default_branch": default,
            "branches": branches, "commits": commits, "next_number": 1, "at_us": 0}
    issues: dict[str, dict] = {}
    pulls: dict[str, dict] = {}
    number = 1
    for j, issue in enumerate(spec.get("issues", [])):
        iat = f"{at}.issues[{j}]"
        check_fields(issue, iat, {"title": str, "body": str, "author": str, "state": str, "comments": list}, ("title",))
        if not issue["title"].strip():
            raise ValueError(f"{iat}.title: empty")
        if issue.get("state", "open") not in ("open", "closed"):
            raise ValueError(f"{iat}.state: 'open' or 'closed', got {issue['state']!r}")
        issues = {**issues, str(number): {
            "number": number, "title": issue["title"], "body": issue.get("body", ""),
            "author": _user(issue.get("author", owner), f"{iat}.author", users), "state": issue.get("state", "open"),
            "at_us": 0, "comments": _comments(issue.get("comments", []), f"{iat}.comments", users), "closed_by": None}}
        number += 1
    for j, pull in enumerate(spec.get("pulls", [])):
        pat = f"{at}.pulls[{j}]"
        check_fields(pull, pat, {"title": str, "body": str, "author": str, "head": str, "base": str, "state": str,
                                 "comments": list}, ("title", "head"))
        base = pull.get("base", default)
        for field, value in (("head", pull["head"]), ("base", base)):
            if value not in branches:
                raise ValueError(f"{pat}.{field}: no branch {value!r} (branches: {', '.join(sorted(branches))})")
        if base == pull["head"]:
            raise ValueError(f"{pat}.head: the same branch as the base")
        if pull.get("state", "open") not in ("open", "closed"):
            raise ValueError(f"{pat}.state: 'open' or 'closed', got {pull['state']!r}")
        pulls = {**pulls, str(number): {
            "number": number, "title": pull["title"], "body": pull.get("body", ""),
            "author": _user(pull.get("author", owner), f"{pat}.author", users), "head": pull["head"], "base": base,
            "state": pull.get("state", "open"), "at_us": 0,
            "comments": _comments(pull.get("comments", []), f"{pat}.comments", users), "reviews": [],
            "merged_by": None, "merge_commit": None, "merged_head": None, "merge_base": None,
            "merged_at_us": None}}
        number += 1
    return {**repo, "issues": issues, "pulls": pulls, "next_number": number}


def _comments(value: list, at: str, users: dict) -> list:
    out = []
    for k, comment in enumerate(value):
        check_fields(comment, f"{at}[{k}]", {"author": str, "body": str, "at_us": int}, ("author", "body"))
        out.append({"author": _user(comment["author"], f"{at}[{k}].author", users), "body": comment["body"],
                    "at_us": comment.get("at_us", 0)})
    return out


def _check_built(repo: Any, at: str, key: str, users: dict) -> dict:
    check_fields(repo, at, BUILT_FIELDS, tuple(BUILT_FIELDS))
    if key != f"{repo['owner']}/{repo['name']}":
        raise ValueError(f"{at}: the key is not owner/name")
    _user(repo["owner"], f"{at}.owner", users)
    for cid, commit in repo["commits"].items():
        check_fields(commit, f"{at}.commits[{cid!r}]", COMMIT_FIELDS, tuple(COMMIT_FIELDS))
        if commit["id"] != cid or any(p not in repo["commits"] for p in parents(commit)):
            raise ValueError(f"{at}.commits[{cid!r}]: its id or parents do not match")
    for name, cid in repo["branches"].items():
        if cid not in repo["commits"]:
            raise ValueError(f"{at}.branches[{name!r}]: no commit {cid!r}")
    if repo["default_branch"] not in repo["branches"]:
        raise ValueError(f"{at}.default_branch: no such branch")
    for part in ("issues", "pulls"):
        for n, item in repo[part].items():
            if not isinstance(item, dict) or str(item.get("number")) != n:
                raise ValueError(f"{at}.{part}[{n!r}]: its number does not match")
    return repo

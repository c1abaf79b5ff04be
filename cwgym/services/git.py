"""``git``: a small git host (the web side of GitHub or Gitea) — repositories whose files and
commits can be browsed, files edited in the browser (each save a commit, on the branch or a
new one), issues, and pull requests with a diff, comments, reviews, merge and close.

There is no ``git`` protocol: everything is pages and a JSON API. A repository's history is
commits (the full tree of files, structurally shared, ids the sha256 of their content, see
:mod:`cwgym.services._git_model`); branches name their head commits. Merging a pull request
fast-forwards the base when it has not moved, else makes a merge commit from a three-way
merge by file; a file both sides changed differently is a conflict (``409`` naming it).
"Closes #N" (or fixes/resolves) in a merged pull request's body closes issue N.

Who may do what: the owner and the listed collaborators push (edit files, create branches)
and merge; anyone signed in who can see a repository opens issues and pull requests and
comments; the author of an issue or pull request, or a collaborator, closes and reopens it;
a private repository is ``404`` to everyone else. Signed-in users create repositories.

Routes (``{o}/{r}``: owner and repository; ``{ref}``: a branch, commit id or id prefix):

- ``GET /`` your and all public repositories; ``GET|POST /new`` create one
- ``GET /{o}`` a user's repositories
- ``GET /{o}/{r}``, ``GET /{o}/{r}/tree/{ref}[/{dir}]`` files; ``GET /{o}/{r}/blob/{ref}/{path}``
  a file; ``GET /{o}/{r}/raw/{ref}/{path}`` its text
- ``GET|POST /{o}/{r}/edit/{branch}/{path}``, ``GET|POST /{o}/{r}/new/{branch}``,
  ``POST /{o}/{r}/delete/{branch}/{path}`` commit a change
- ``GET /{o}/{r}/commits[/{ref}]``, ``GET /{o}/{r}/commit/{id}``; ``GET|POST /{o}/{r}/branches``
- ``GET /{o}/{r}/issues[?state=open|closed|all]``, ``GET /{o}/{r}/issues/new``, ``POST /{o}/{r}/issues``,
  ``GET /{o}/{r}/issues/{n}``, ``POST /{o}/{r}/issues/{n}/comments|close|reopen``
- ``GET /{o}/{r}/pulls``, ``GET /{o}/{r}/pulls/new?base=&head=``, ``POST /{o}/{r}/pulls``,
  ``GET /{o}/{r}/pull/{n}``, ``GET /{o}/{r}/pull/{n}/files`` (the diff),
  ``POST /{o}/{r}/pull/{n}/comments|reviews|merge|close|reopen``
- ``GET /{o}/{r}/settings``, ``POST /{o}/{r}/settings`` (description, visibility),
  ``POST /{o}/{r}/settings/collaborators[/remove]``
- JSON under ``/api``: ``GET|POST /api/repos``, ``GET /api/repos/{o}/{r}``, ``GET|POST .../branches``,
  ``GET .../commits[?ref=]``, ``GET .../commits/{id}``, ``GET .../contents[/{path}][?ref=]``,
  ``PUT|DELETE .../contents/{path}``, ``GET|POST .../issues``, ``GET|PATCH .../issues/{n}``,
  ``POST .../issues/{n}/comments`` (issues and pull requests), ``GET|POST .../pulls``,
  ``GET|PATCH .../pulls/{n}``, ``GET .../pulls/{n}/files``, ``POST .../pulls/{n}/reviews``,
  ``PUT .../pulls/{n}/merge``.

``initial_state``: ``{users, repos?: [{owner, name, private?, collaborators?, default_branch?
("main"), description?, files?: {path: text}, branches?: {name: {files: {path: text|null},
message?, author?}}, issues?: [{title, body?, author?, state?, comments?: [{author, body}]}],
pulls?: [{title, head, base?, body?, author?, state?, comments?}]}]}``. ``files`` become the
initial commit of the default branch (one is made, empty, without them); each entry of
``branches`` is one commit on top of it (``null`` deletes a file); issues are numbered from
1 in order, then pull requests.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import quote

from cwgym.net.services import SERVICE_KINDS, text_response
from cwgym.protocol.page import (
    Button,
    Checkbox,
    Element,
    Form,
    Heading,
    Input,
    Link,
    ListBlock,
    Option,
    Radio,
    Select,
    Table,
    Text,
    TextArea,
)
from cwgym.services import _git_model as model
from cwgym.services._search_index import page_entry
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc_in,
    route,
    timestamp,
)

REVIEW_EVENTS = {"approve": "approved", "request_changes": "changes_requested", "comment": "commented"}


def _truthy(value: str) -> bool:
    return value.strip().lower() in ("on", "true", "1", "yes")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _u(*parts: str) -> str:
    return "/" + "/".join(quote(p, safe="/") for p in parts)


class Git(WebService):
    name = "git"
    title = "Git"
    fields: ClassVar[dict[str, type | tuple[type, ...]]] = {"repos": (list, dict)}

    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        return model.build_state(state, where, users)

    def public_pages(self, state: dict, base: str) -> list[dict]:
        """Every public repository, by ``owner/name``, at ``/<owner>/<name>``; the snippet is
        its description, else the first line of its README that is not a heading. A private
        one is ``404`` to a visitor, so it is not listed."""
        out = []
        for key, repo in sorted(state["repos"].items()):
            if repo["private"]:
                continue
            readme = repo["commits"][repo["branches"][repo["default_branch"]]]["files"].get("README.md", "")
            first = next((line for line in readme.splitlines() if line.strip() and not line.lstrip().startswith("#")), "")
            out.append(page_entry(key, base + _u(repo["owner"], repo["name"]), repo["description"] or first))
        return out

    # -- access ------------------------------------------------------------------------------
    @staticmethod
    def can_see(repo: dict, user: str | None) -> bool:
        return not repo["private"] or user == repo["owner"] or user in repo["collaborators"]

    @staticmethod
    def can_write(repo: dict, user: str | None) -> bool:
        return user is not None and (user == repo["owner"] or user in repo["collaborators"])

    def _repo(self, ctx: Ctx, write: bool = False, owner_only: bool = False) -> tuple[str, dict]:
        key = f"{ctx.params['owner']}/{ctx.params['repo']}"
        repo = ctx.state["repos"].get(key)
        if repo is None or not self.can_see(repo, ctx.user):
            raise HttpError(404, f"no repository {key}")
        if write or owner_only:
            user = ctx.require_user()
            if owner_only and user != repo["owner"]:
                raise HttpError(403, f"only {repo['owner']} may change the settings of {key}")
            if not self.can_write(repo, user):
                raise HttpError(403, f"you need write access to {key}")
        return key, repo

    @staticmethod
    def _put(ctx: Ctx, key: str, repo: dict) -> None:
        ctx.state = assoc_in(ctx.state, ["repos", key], repo)

    @staticmethod
    def _number(ctx: Ctx) -> str:
        n = ctx.params["n"]
        if not n.isdigit():
            raise HttpError(404, f"no issue or pull request {n!r}")
        return str(int(n))

    @staticmethod
    def _issue(repo: dict, n: str) -> dict:
        if n not in repo["issues"]:
            raise HttpError(404, f"no issue #{n} in {repo['owner']}/{repo['name']}")
        return repo["issues"][n]

    @staticmethod
    def _pull(repo: dict, n: str) -> dict:
        if n not in repo["pulls"]:
            raise HttpError(404, f"no pull request #{n} in {repo['owner']}/{repo['name']}")
        return repo["pulls"][n]

    @staticmethod
    def _commit_of(repo: dict, ref: str) -> dict:
        cid = model.resolve(repo, ref)
        if cid is None:
            raise HttpError(404, f"no branch or commit {ref!r}")
        return repo["commits"][cid]

    @staticmethod
    def _branch(repo: dict, name: str) -> str:
        if name not in repo["branches"]:
            raise HttpError(404, f"no branch {name!r}")
        return name

    # -- operations (shared by the pages and the API) ------------------------------------------
    def op_create_repo(self, ctx: Ctx) -> dict:
        user = ctx.require_user()
        name = ctx.field("name", limit=100).strip()
        problem = model.repo_name_problem(name)
        if problem:
            raise HttpError(400, problem)
        key = f"{user}/{name}"
        if key in ctx.state["repos"]:
            raise HttpError(409, f"you already have a repository named {name!r}")
        description = ctx.field("description", required=False, limit=1000).strip()
        files = {"README.md": f"# {name}\n\n{description}\n" if description else f"# {name}\n"}
        first = model.make_commit(files, None, "Initial commit", user, ctx.now_us)
        repo = {"owner": user, "name": name, "description": description,
                "private": _truthy(ctx.field("private", required=False)), "collaborators": [],
                "default_branch": "main", "branches": {"main": first["id"]}, "commits": {first["id"]: first},
                "issues": {}, "pulls": {}, "next_number": 1, "at_us": ctx.now_us}
        self._put(ctx, key, repo)
        return repo

    def op_commit(self, ctx: Ctx, key: str, repo: dict, branch: str, changes: dict[str, str | None],
                  message: str) -> dict:
        """Commit ``changes`` (``None`` deletes) on ``branch`` or the ``new_branch`` field."""
        user = ctx.user or ""
        self._branch(repo, branch)
        head = repo["commits"][repo["branches"][branch]]
        seen = ctx.field("base", required=False)  # the head the editor saw: refuse to overwrite a newer change
        if seen and seen != head["id"]:
            if seen not in repo["commits"]:
                raise HttpError(400, f"base {seen!r} is not a commit of {key}")
            old = repo["commits"][seen]["files"]
            moved = [p for p in changes if old.get(p) != head["files"].get(p)]
            if moved:
                raise HttpError(409, f"{', '.join(moved)} changed on {branch} since you opened it; reload and try again")
        target = branch
        if _truthy(ctx.field("create_branch", required=False)) or ctx.field("commit_to", required=False) == "new":
            target = ctx.field("new_branch", limit=100).strip()
            problem = model.branch_problem(target)
            if problem:
                raise HttpError(400, problem)
            if target in repo["branches"]:
                raise HttpError(409, f"a branch named {target!r} already exists")
        files = {p: t for p, t in {**head["files"], **changes}.items() if t is not None}
        if files == head["files"]:
            raise HttpError(400, "nothing changed: there is nothing to commit")
        commit = model.make_commit(files, head["id"], message, user, ctx.now_us)
        repo = {**repo, "commits": {**repo["commits"], commit["id"]: commit},
                "branches": {**repo["branches"], target: commit["id"]}}
        self._put(ctx, key, repo)
        return {**commit, "branch": target}

    def op_create_branch(self, ctx: Ctx, key: str, repo: dict) -> str:
        name = ctx.field("name", limit=100).strip()
        problem = model.branch_problem(name)
        if problem:
            raise HttpError(400, problem)
        if name in repo["branches"]:
            raise HttpError(409, f"a branch named {name!r} already exists")
        start = self._commit_of(repo, ctx.field("from", required=False, default=repo["default_branch"]) or repo["default_branch"])
        self._put(ctx, key, assoc_in(repo, ["branches", name], start["id"]))
        return name

    def op_open_issue(self, ctx: Ctx, key: str, repo: dict) -> dict:
        user = ctx.require_user()
        title = ctx.field("title", limit=300).strip()
        n = repo["next_number"]
        issue = {"number": n, "title": title, "body": ctx.field("body", required=False, limit=65_536), "author": user,
                 "state": "open", "at_us": ctx.now_us, "comments": [], "closed_by": None}
        self._put(ctx, key, {**repo, "issues": {**repo["issues"], str(n): issue}, "next_number": n + 1})
        return issue

    def op_comment(self, ctx: Ctx, key: str, repo: dict, n: str) -> dict:
        user = ctx.require_user()
        part = "issues" if n in repo["issues"] else "pulls" if n in repo["pulls"] else None
        if part is None:
            raise HttpError(404, f"no issue or pull request #{n} in {key}")
        body = ctx.field("body", limit=65_536)
        comment = {"author": user, "body": body, "at_us": ctx.now_us}
        item = repo[part][n]
        self._put(ctx, key, assoc_in(repo, [part, n, "comments"], [*item["comments"], comment]))
        return comment

    def op_issue_state(self, ctx: Ctx, key: str, repo: dict, n: str, state: str) -> dict:
        user = ctx.require_user()
        issue = self._issue(repo, n)
        if state not in ("open", "closed"):
            raise HttpError(400, f"state is 'open' or 'closed', not {state!r}")
        if user != issue["author"] and not self.can_write(repo, user):
            raise HttpError(403, f"only the author or a collaborator may {'close' if state == 'closed' else 'reopen'} #{n}")
        closed_by = {"user": user, "pull": None, "at_us": ctx.now_us} if state == "closed" else None
        issue = {**issue, "state": state, "closed_by": closed_by if issue["state"] != state else issue["closed_by"]}
        self._put(ctx, key, assoc_in(repo, ["issues", n], issue))
        return issue

    def op_open_pull(self, ctx: Ctx, key: str, repo: dict) -> dict:
        user = ctx.require_user()
        base = ctx.field("base", required=False, default=repo["default_branch"]) or repo["default_branch"]
        head = ctx.field("head")
        title = ctx.field("title", limit=300).strip()
        for branch in (base, head):
            if branch not in repo["branches"]:
                raise HttpError(400, f"no branch {branch!r} in {key}")
        if base == head:
            raise HttpError(400, "the head and the base are the same branch")
        if model.merge_plan(repo, base, head)["status"] == "up_to_date":
            raise HttpError(409, f"nothing to compare: {base} already has everything in {head}")
        for other in repo["pulls"].values():
            if other["state"] == "open" and (other["head"], other["base"]) == (head, base):
                raise HttpError(409, f"pull request #{other['number']} already proposes {head} into {base}")
        n = repo["next_number"]
        pull = {"number": n, "title": title, "body": ctx.field("body", required=False, limit=65_536), "author": user,
                "head": head, "base": base, "state": "open", "at_us": ctx.now_us, "comments": [], "reviews": [],
                "merged_by": None, "merge_commit": None, "merged_head": None, "merge_base": None, "merged_at_us": None}
        self._put(ctx, key, {**repo, "pulls": {**repo["pulls"], str(n): pull}, "next_number": n + 1})
        return pull

    def op_review(self, ctx: Ctx, key: str, repo: dict, n: str) -> dict:
        user = ctx.require_user()
        pull = self._pull(repo, n)
        event = ctx.field("event").strip().lower()
        if event not in REVIEW_EVENTS:
            raise HttpError(400, f"a review's event is approve, request_changes or comment, not {event!r}")
        body = ctx.field("body", required=event != "approve", limit=65_536)
        if pull["state"] != "open":
            raise HttpError(409, f"#{n} is {pull['state']}: reviews are for open pull requests")
        if user == pull["author"] and event != "comment":
            raise HttpError(403, "you cannot approve or request changes on your own pull request")
        review = {"author": user, "state": REVIEW_EVENTS[event], "body": body, "at_us": ctx.now_us}
        self._put(ctx, key, assoc_in(repo, ["pulls", n, "reviews"], [*pull["reviews"], review]))
        return review

    def op_merge(self, ctx: Ctx, key: str, repo: dict, n: str) -> dict:
        user = ctx.user or ""
        pull = self._pull(repo, n)
        if pull["state"] != "open":
            raise HttpError(409, f"#{n} is {pull['state']}: only an open pull request merges")
        for branch in (pull["base"], pull["head"]):
            if branch not in repo["branches"]:
                raise HttpError(409, f"the branch {branch!r} no longer exists")
        plan = model.merge_plan(repo, pull["base"], pull["head"])
        if plan["status"] == "conflict":
            raise HttpError(409, f"merge conflict: {', '.join(plan['conflicts'])} changed differently on "
                                 f"{pull['base']} and {pull['head']}; resolve them on {pull['head']} first")
        if plan["status"] == "up_to_date":
            raise HttpError(409, f"nothing to merge: {pull['base']} already has everything in {pull['head']}")
        if plan["status"] == "fast_forward":
            merged = plan["head"]
            commits = repo["commits"]
        else:
            message = ctx.field("message", required=False, limit=10_000).strip() or \
                f"Merge pull request #{n} from {key}/{pull['head']}\n\n{pull['title']}"
            commit = model.make_commit(plan["files"], plan["base"], message, user, ctx.now_us, plan["head"])
            merged, commits = commit["id"], {**repo["commits"], commit["id"]: commit}
        pull = {**pull, "state": "merged", "merged_by": user, "merge_commit": merged, "merged_head": plan["head"],
                "merge_base": plan["merge_base"], "merged_at_us": ctx.now_us}
        issues = repo["issues"]
        for ref in model.closing_refs(pull["body"]):
            issue = issues.get(str(ref))
            if issue is not None and issue["state"] == "open":
                issues = {**issues, str(ref): {**issue, "state": "closed",
                                               "closed_by": {"user": user, "pull": int(n), "at_us": ctx.now_us}}}
        repo = {**repo, "commits": commits, "branches": {**repo["branches"], pull["base"]: merged},
                "pulls": {**repo["pulls"], n: pull}, "issues": issues}
        self._put(ctx, key, repo)
        return pull

    def op_pull_state(self, ctx: Ctx, key: str, repo: dict, n: str, state: str) -> dict:
        user = ctx.require_user()
        pull = self._pull(repo, n)
        if state not in ("open", "closed"):
            raise HttpError(400, f"state is 'open' or 'closed', not {state!r}")
        if user != pull["author"] and not self.can_write(repo, user):
            raise HttpError(403, f"only the author or a collaborator may {'close' if state == 'closed' else 'reopen'} #{n}")
        if pull["state"] == "merged":
            raise HttpError(409, f"#{n} is merged")
        if state == "open" and any(p["state"] == "open" and (p["head"], p["base"]) == (pull["head"], pull["base"])
                                   for p in repo["pulls"].values() if p is not pull):
            raise HttpError(409, f"another pull request already proposes {pull['head']} into {pull['base']}")
        pull = {**pull, "state": state}
        self._put(ctx, key, assoc_in(repo, ["pulls", n], pull))
        return pull

    # -- views as data -------------------------------------------------------------------------
    @staticmethod
    def repo_json(repo: dict) -> dict:
        return {"owner": repo["owner"], "name": repo["name"], "full_name": f"{repo['owner']}/{repo['name']}",
                "description": repo["description"], "private": repo["private"],
                "collaborators": repo["collaborators"], "default_branch": repo["default_branch"],
                "branches": repo["branches"],
                "open_issues": sum(1 for i in repo["issues"].values() if i["state"] == "open"),
                "open_pulls": sum(1 for p in repo["pulls"].values() if p["state"] == "open")}

    @staticmethod
    def commit_json(commit: dict) -> dict:
        return {k: commit[k] for k in ("id", "parent", "merge_parent", "message", "author", "at_us")} | \
            {"at": timestamp(commit["at_us"])}

    def pull_json(self, repo: dict, pull: dict) -> dict:
        out = dict(pull)
        if pull["state"] == "open" and pull["base"] in repo["branches"] and pull["head"] in repo["branches"]:
            plan = model.merge_plan(repo, pull["base"], pull["head"])
            out["mergeable"] = plan["status"]
            out["conflicts"] = plan.get("conflicts", [])
        return out

    def pull_diff(self, repo: dict, pull: dict) -> list[dict]:
        if pull["state"] == "merged":
            base, head = pull["merge_base"], pull["merged_head"]
        elif pull["base"] in repo["branches"] and pull["head"] in repo["branches"]:
            head = repo["branches"][pull["head"]]
            base = model.merge_base(repo, repo["branches"][pull["base"]], head)
        else:
            return []
        old = repo["commits"][base]["files"] if base else {}
        return model.diff_files(old, repo["commits"][head]["files"])

    # -- pages: the site -----------------------------------------------------------------------
    def _visible(self, ctx: Ctx, owner: str | None = None) -> list[dict]:
        return [r for k, r in sorted(ctx.state["repos"].items())
                if self.can_see(r, ctx.user) and (owner is None or r["owner"] == owner)]

    def _repo_table(self, repos: list[dict]) -> Element:
        if not repos:
            return Text("No repositories yet.", id="no-repos")
        rows = tuple((Link(f"{r['owner']}/{r['name']}", _u(r["owner"], r["name"]), id=f"repo-{r['owner']}-{r['name']}"),
                      Text(r["description"]), Text("Private" if r["private"] else "Public")) for r in repos)
        return Table(("Repository", "Description", "Visibility"), rows, id="repos")

    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        body: list[Element] = [Heading("Repositories", id="home-title")]
        if ctx.user:
            body.append(Link("New repository", "/new", id="new-repo"))
        body.append(self._repo_table(self._visible(ctx)))
        return self.page(ctx, self.title, body)

    @route("GET", "/new")
    def new_repo_form(self, ctx: Ctx) -> Any:
        ctx.require_user()
        return self.page(ctx, "New repository", [
            Heading("Create a new repository", id="new-repo-title"),
            Form("/new", (Input("name", label="Repository name", required=True, id="new-repo-name"),
                          Input("description", label="Description (optional)", id="new-repo-description"),
                          Checkbox("private", label="Private: only you and collaborators see it", id="new-repo-private"),
                          Button("Create repository", id="new-repo-submit")), id="new-repo-form")])

    @route("POST", "/new")
    def new_repo(self, ctx: Ctx) -> Any:
        repo = self.op_create_repo(ctx)
        return Redirect(_u(repo["owner"], repo["name"]))

    @route("GET", "/{owner}")
    def user_page(self, ctx: Ctx) -> Any:
        owner = ctx.params["owner"]
        if owner not in ctx.state["users"]:
            raise HttpError(404, f"no user {owner}")
        return self.page(ctx, owner, [Heading(ctx.state["users"][owner]["display"], id="user-title"),
                                      Text(owner, id="user-name"), self._repo_table(self._visible(ctx, owner))])

    def _repo_page(self, ctx: Ctx, repo: dict, title: str, body: list[Element]) -> Any:
        base = _u(repo["owner"], repo["name"])
        issues = sum(1 for i in repo["issues"].values() if i["state"] == "open")
        pulls = sum(1 for p in repo["pulls"].values() if p["state"] == "open")
        nav: list[Element] = [Link("Code", base, id="nav-code"), Link(f"Issues ({issues})", base + "/issues", id="nav-issues"),
                              Link(f"Pull requests ({pulls})", base + "/pulls", id="nav-pulls"),
                              Link("Commits", base + "/commits", id="nav-commits"),
                              Link(f"Branches ({len(repo['branches'])})", base + "/branches", id="nav-branches")]
        if ctx.user == repo["owner"]:
            nav.append(Link("Settings", base + "/settings", id="nav-settings"))
        head: list[Element] = [Heading(f"{repo['owner']}/{repo['name']}", id="repo-title")]
        if repo["private"]:
            head.append(Text("Private", id="repo-private"))
        if repo["description"]:
            head.append(Text(repo["description"], id="repo-description"))
        return self.page(ctx, f"{title} · {repo['owner']}/{repo['name']}", [*head, ListBlock(tuple(nav), id="repo-nav"), *body])

    # -- pages: code ---------------------------------------------------------------------------
    @route("GET", "/{owner}/{repo}")
    def repo_home(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return self._tree(ctx, repo, repo["default_branch"], "")

    @route("GET", "/{owner}/{repo}/tree/{ref}")
    def tree_root(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return self._tree(ctx, repo, ctx.params["ref"], "")

    @route("GET", "/{owner}/{repo}/tree/{ref}/{path...}")
    def tree_dir(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return self._tree(ctx, repo, ctx.params["ref"], ctx.params["path"].strip("/"))

    @staticmethod
    def _listing(files: dict[str, str], folder: str) -> list[tuple[str, bool]]:
        prefix = folder + "/" if folder else ""
        entries: dict[str, bool] = {}
        for path in files:
            if path.startswith(prefix):
                first, sep, _ = path[len(prefix):].partition("/")
                entries = {**entries, first: bool(sep) or entries.get(first, False)}
        return sorted(entries.items(), key=lambda e: (not e[1], e[0]))

    def _tree(self, ctx: Ctx, repo: dict, ref: str, folder: str) -> Any:
        commit = self._commit_of(repo, ref)
        entries = self._listing(commit["files"], folder)
        if folder and not entries:
            raise HttpError(404, f"no folder {folder!r} at {ref}")
        base = _u(repo["owner"], repo["name"])
        prefix = folder + "/" if folder else ""
        rows = tuple((Link(name + ("/" if is_dir else ""), base + _u("tree" if is_dir else "blob", ref, prefix + name),
                           id=f"file-{prefix}{name}"), Text("folder" if is_dir else "file")) for name, is_dir in entries)
        body: list[Element] = [Text(f"Branch: {ref}" if ref in repo["branches"] else f"Commit: {commit['id'][:7]}", id="current-ref"),
                               Text(f"Latest commit {commit['id'][:7]}: {commit['message'].splitlines()[0] if commit['message'] else ''} "
                                    f"({commit['author']}, {timestamp(commit['at_us'])})", id="latest-commit")]
        if folder:
            body.append(Heading(folder, level=2, id="folder-title"))
        if self.can_write(repo, ctx.user) and ref in repo["branches"]:
            body.append(Link("Add file", base + _u("new", ref) + (f"?dir={quote(folder)}" if folder else ""), id="add-file"))
        body.append(Table(("Name", "Type"), rows, id="files") if rows else Text("This repository is empty.", id="no-files"))
        readme = commit["files"].get(prefix + "README.md")
        if readme is not None:
            body += [Heading("README.md", level=2, id="readme-title"), Text(readme.removesuffix("\n"), id="readme")]
        return self._repo_page(ctx, repo, folder or "Code", body)

    def _file(self, ctx: Ctx) -> tuple[str, dict, dict, str]:
        key, repo = self._repo(ctx)
        commit = self._commit_of(repo, ctx.params["ref"])
        path = ctx.params["path"]
        if path not in commit["files"]:
            raise HttpError(404, f"no file {path!r} at {ctx.params['ref']}")
        return key, repo, commit, path

    @route("GET", "/{owner}/{repo}/blob/{ref}/{path...}")
    def blob(self, ctx: Ctx) -> Any:
        _, repo, commit, path = self._file(ctx)
        ref = ctx.params["ref"]
        base = _u(repo["owner"], repo["name"])
        text = commit["files"][path]
        body: list[Element] = [Heading(path, level=2, id="file-path"), Text(f"{ref}: {len(text.splitlines())} lines", id="file-info"),
                               Link("Raw", base + _u("raw", ref, path), id="file-raw"),
                               Link("History", base + _u("commits", ref), id="file-history")]
        if self.can_write(repo, ctx.user) and ref in repo["branches"]:
            body += [Link("Edit", base + _u("edit", ref, path), id="file-edit"),
                     Form(base + _u("delete", ref, path), (Input("base", type="hidden", value=commit["id"], id="delete-base"),
                                                            Button("Delete file", id="delete-submit")), id="delete-form")]
        body.append(Text(text.removesuffix("\n"), id="file-content"))
        return self._repo_page(ctx, repo, path, body)

    @route("GET", "/{owner}/{repo}/raw/{ref}/{path...}")
    def raw(self, ctx: Ctx) -> Any:
        _, _, commit, path = self._file(ctx)
        return text_response(200, commit["files"][path])

    def _commit_fields(self, repo: dict, branch: str, default_message: str, head: str) -> tuple[Element, ...]:
        return (Input("message", label="Commit message", placeholder=default_message, id="commit-message"),
                Radio("commit_to", "direct", label=f"Commit directly to the {branch} branch", checked=True, id="commit-direct"),
                Radio("commit_to", "new", label="Create a new branch for this commit", id="commit-new"),
                Input("new_branch", label="New branch name", id="commit-new-branch"),
                Input("base", type="hidden", value=head, id="commit-base"),
                Button("Commit changes", id="commit-submit"))

    @route("GET", "/{owner}/{repo}/edit/{branch}/{path...}")
    def edit_form(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx, write=True)
        branch, path = self._branch(repo, ctx.params["branch"]), ctx.params["path"]
        head = repo["commits"][repo["branches"][branch]]
        if path not in head["files"]:
            raise HttpError(404, f"no file {path!r} on {branch}")
        url = _u(repo["owner"], repo["name"], "edit", branch, path)
        return self._repo_page(ctx, repo, f"Editing {path}", [
            Heading(f"Editing {path} on {branch}", level=2, id="edit-title"),
            Form(url, (TextArea("content", label="Content", value=head["files"][path], rows=20, id="edit-content"),
                       *self._commit_fields(repo, branch, f"Update {path}", head["id"])), id="edit-form")])

    @route("POST", "/{owner}/{repo}/edit/{branch}/{path...}")
    def edit(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, write=True)
        branch, path = self._branch(repo, ctx.params["branch"]), ctx.params["path"]
        if path not in repo["commits"][repo["branches"][branch]]["files"]:
            raise HttpError(404, f"no file {path!r} on {branch}")
        content = ctx.field("content", required=False, limit=model.MAX_FILE)
        message = ctx.field("message", required=False, limit=10_000).strip() or f"Update {path}"
        commit = self.op_commit(ctx, key, repo, branch, {path: content}, message)
        return Redirect(_u(repo["owner"], repo["name"], "blob", commit["branch"], path))

    @route("GET", "/{owner}/{repo}/new/{branch}")
    def new_file_form(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx, write=True)
        branch = self._branch(repo, ctx.params["branch"])
        folder = ctx.query.get("dir", "")
        return self._repo_page(ctx, repo, "New file", [
            Heading(f"New file on {branch}", level=2, id="new-file-title"),
            Form(_u(repo["owner"], repo["name"], "new", branch),
                 (Input("path", label="Name your file", value=folder + "/" if folder else "", required=True, id="new-file-path"),
                  TextArea("content", label="Content", rows=20, id="new-file-content"),
                  *self._commit_fields(repo, branch, "Create file", repo["branches"][branch])), id="new-file-form")])

    @route("POST", "/{owner}/{repo}/new/{branch}")
    def new_file(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, write=True)
        branch = self._branch(repo, ctx.params["branch"])
        path = ctx.field("path", limit=400).strip().strip("/")
        problem = model.path_problem(path)
        if problem:
            raise HttpError(400, problem)
        files = repo["commits"][repo["branches"][branch]]["files"]
        if path in files or any(p.startswith(path + "/") for p in files) or \
                any(path.startswith(p + "/") for p in files):
            raise HttpError(409, f"a file or folder named {path!r} already exists on {branch}")
        content = ctx.field("content", required=False, limit=model.MAX_FILE)
        message = ctx.field("message", required=False, limit=10_000).strip() or f"Create {path}"
        commit = self.op_commit(ctx, key, repo, branch, {path: content}, message)
        return Redirect(_u(repo["owner"], repo["name"], "blob", commit["branch"], path))

    @route("POST", "/{owner}/{repo}/delete/{branch}/{path...}")
    def delete_file(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, write=True)
        branch, path = self._branch(repo, ctx.params["branch"]), ctx.params["path"]
        if path not in repo["commits"][repo["branches"][branch]]["files"]:
            raise HttpError(404, f"no file {path!r} on {branch}")
        message = ctx.field("message", required=False, limit=10_000).strip() or f"Delete {path}"
        commit = self.op_commit(ctx, key, repo, branch, {path: None}, message)
        return Redirect(_u(repo["owner"], repo["name"], "tree", commit["branch"]))

    # -- pages: history ------------------------------------------------------------------------
    @route("GET", "/{owner}/{repo}/commits")
    def commits_default(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return self._commits(ctx, repo, repo["default_branch"])

    @route("GET", "/{owner}/{repo}/commits/{ref}")
    def commits(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return self._commits(ctx, repo, ctx.params["ref"])

    def _commits(self, ctx: Ctx, repo: dict, ref: str) -> Any:
        head = self._commit_of(repo, ref)
        base = _u(repo["owner"], repo["name"])
        rows = tuple((Link(c["message"].splitlines()[0] if c["message"] else "(no message)", base + _u("commit", c["id"]),
                           id=f"commit-{c['id'][:12]}"),
                      Text(c["author"]), Text(timestamp(c["at_us"])), Text(c["id"][:7]))
                     for c in model.log(repo, head["id"]))
        return self._repo_page(ctx, repo, f"Commits on {ref}", [
            Heading(f"Commits on {ref}", level=2, id="commits-title"),
            Table(("Message", "Author", "Date", "Commit"), rows, id="commits")])

    def _diff_elements(self, files: list[dict]) -> list[Element]:
        if not files:
            return [Text("No changes.", id="no-changes")]
        out: list[Element] = [Text(f"{_count(len(files), 'changed file')} with "
                                   f"{_count(sum(f['additions'] for f in files), 'addition')} and "
                                   f"{_count(sum(f['deletions'] for f in files), 'deletion')}", id="diff-summary")]
        for f in files:
            out += [Heading(f"{f['path']} ({f['status']}, +{f['additions']} -{f['deletions']})", level=3, id=f"diff-file-{f['path']}"),
                    Text(f["diff"], id=f"diff-{f['path']}")]
        return out

    @route("GET", "/{owner}/{repo}/commit/{sha}")
    def commit_view(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        commit = self._commit_of(repo, ctx.params["sha"])
        old = repo["commits"][commit["parent"]]["files"] if commit["parent"] else {}
        base = _u(repo["owner"], repo["name"])
        body: list[Element] = [Heading(commit["message"].splitlines()[0] if commit["message"] else "(no message)", level=2, id="commit-title"),
                               Text(commit["message"], id="commit-message"),
                               Text(f"{commit['author']} committed {timestamp(commit['at_us'])}", id="commit-meta"),
                               Text(f"commit {commit['id']}", id="commit-id")]
        for label, parent in (("parent", commit["parent"]), ("merged", commit["merge_parent"])):
            if parent:
                body.append(Link(f"{label} {parent[:7]}", base + _u("commit", parent), id=f"commit-{label}"))
        body.append(Link("Browse files", base + _u("tree", commit["id"]), id="commit-browse"))
        return self._repo_page(ctx, repo, f"Commit {commit['id'][:7]}", body + self._diff_elements(model.diff_files(old, commit["files"])))

    @route("GET", "/{owner}/{repo}/branches")
    def branches(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        base = _u(repo["owner"], repo["name"])
        rows = tuple((Link(name, base + _u("tree", name), id=f"branch-{name}"),
                      Text("default" if name == repo["default_branch"] else ""), Text(cid[:7]),
                      Link("Compare & pull request", base + f"/pulls/new?base={quote(repo['default_branch'])}&head={quote(name)}",
                           id=f"branch-compare-{name}") if name != repo["default_branch"] else Text(""))
                     for name, cid in sorted(repo["branches"].items()))
        body: list[Element] = [Heading("Branches", level=2, id="branches-title"),
                               Table(("Branch", "", "Head", ""), rows, id="branches")]
        if self.can_write(repo, ctx.user):
            options = tuple(Option(b, b) for b in sorted(repo["branches"]))
            body.append(Form(base + "/branches", (Input("name", label="New branch", required=True, id="branch-name"),
                                                  Select("from", options, label="from", value=repo["default_branch"], id="branch-from"),
                                                  Button("Create branch", id="branch-submit")), id="branch-form"))
        return self._repo_page(ctx, repo, "Branches", body)

    @route("POST", "/{owner}/{repo}/branches")
    def create_branch(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, write=True)
        name = self.op_create_branch(ctx, key, repo)
        return Redirect(_u(repo["owner"], repo["name"], "tree", name))

    # -- pages: issues ---------------------------------------------------------------------------
    def _state_filter(self, ctx: Ctx) -> str:
        state = ctx.query.get("state", "open")
        if state not in ("open", "closed", "merged", "all"):
            raise HttpError(400, f"state is open, closed or all, not {state!r}")
        return state

    def _list_page(self, ctx: Ctx, repo: dict, part: str) -> Any:
        state = self._state_filter(ctx)
        base = _u(repo["owner"], repo["name"])
        noun = "issue" if part == "issues" else "pull request"
        items = sorted(repo[part].values(), key=lambda i: -i["number"])
        shown = [i for i in items if state == "all" or i["state"] == state or (state == "closed" and i["state"] == "merged")]
        url = base + ("/issues" if part == "issues" else "/pulls")
        item_url = base + ("/issues/" if part == "issues" else "/pull/")
        counts = Text(f"{sum(1 for i in items if i['state'] == 'open')} open, "
                      f"{sum(1 for i in items if i['state'] != 'open')} closed", id=f"{part}-counts")
        filters = ListBlock((Link("Open", url + "?state=open", id="filter-open"), Link("Closed", url + "?state=closed", id="filter-closed"),
                             Link("All", url + "?state=all", id="filter-all")), id="filters")
        rows = tuple((Link(f"#{i['number']} {i['title']}", item_url + str(i["number"]), id=f"{'issue' if part == 'issues' else 'pull'}-{i['number']}"),
                      Text(i["state"]), Text(i["author"]), Text(str(len(i["comments"]))))
                     + ((Text(f"{i['head']} → {i['base']}"),) if part == "pulls" else ())
                     for i in shown)
        headers = ("Title", "State", "Author", "Comments") + (("Branches",) if part == "pulls" else ())
        body: list[Element] = [Heading("Issues" if part == "issues" else "Pull requests", level=2, id=f"{part}-title"), counts, filters]
        if ctx.user:
            body.append(Link(f"New {noun}", url + "/new", id=f"new-{'issue' if part == 'issues' else 'pull'}"))
        body.append(Table(headers, rows, id=part) if rows else Text(f"No {state if state != 'all' else ''} {noun}s.".replace("  ", " "), id=f"no-{part}"))
        return self._repo_page(ctx, repo, "Issues" if part == "issues" else "Pull requests", body)

    @route("GET", "/{owner}/{repo}/issues")
    def issues(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return self._list_page(ctx, repo, "issues")

    @route("GET", "/{owner}/{repo}/issues/new")
    def new_issue_form(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        ctx.require_user()
        return self._repo_page(ctx, repo, "New issue", [
            Heading("New issue", level=2, id="new-issue-title"),
            Form(_u(repo["owner"], repo["name"], "issues"), (Input("title", label="Title", required=True, id="issue-title-input"),
                                                             TextArea("body", label="Description", rows=10, id="issue-body-input"),
                                                             Button("Submit new issue", id="issue-submit")), id="new-issue-form")])

    @route("POST", "/{owner}/{repo}/issues")
    def open_issue(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        issue = self.op_open_issue(ctx, key, repo)
        return Redirect(_u(repo["owner"], repo["name"], "issues", str(issue["number"])))

    def _comments(self, item: dict, reviews: list | None = None) -> list[Element]:
        events = [(c["at_us"], 0, i, c) for i, c in enumerate(item["comments"])]
        events += [(r["at_us"], 1, i, r) for i, r in enumerate(reviews or [])]
        out: list[Element] = []
        for _, kind, i, e in sorted(events, key=lambda e: e[:3]):
            if kind == 0:
                out.append(Text(f"{e['author']} commented {timestamp(e['at_us'])}:\n{e['body']}", id=f"comment-{i + 1}"))
            else:
                verb = {"approved": "approved these changes", "changes_requested": "requested changes",
                        "commented": "reviewed"}[e["state"]]
                out.append(Text(f"{e['author']} {verb} {timestamp(e['at_us'])}" + (f":\n{e['body']}" if e["body"] else ""),
                                id=f"review-{i + 1}"))
        return out

    @route("GET", "/{owner}/{repo}/issues/{n}")
    def issue(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        n = self._number(ctx)
        if n in repo["pulls"]:
            return Redirect(_u(repo["owner"], repo["name"], "pull", n))
        issue = self._issue(repo, n)
        url = _u(repo["owner"], repo["name"], "issues", n)
        body: list[Element] = [Heading(f"{issue['title']} #{n}", level=2, id="issue-title"),
                               Text("Open" if issue["state"] == "open" else "Closed", emphasis=True, id="issue-state"),
                               Text(f"{issue['author']} opened this issue {timestamp(issue['at_us'])}", id="issue-meta"),
                               Text(issue["body"] or "No description provided.", id="issue-body")]
        closed = issue.get("closed_by")
        if issue["state"] == "closed" and closed:
            via = f" in #{closed['pull']}" if closed.get("pull") else ""
            body.append(Text(f"{closed['user']} closed this{via} {timestamp(closed['at_us'])}", id="issue-closed-by"))
        body += self._comments(issue)
        if ctx.user:
            body.append(Form(url + "/comments", (TextArea("body", label="Add a comment", id="comment-body"),
                                                 Button("Comment", id="comment-submit")), id="comment-form"))
            if ctx.user == issue["author"] or self.can_write(repo, ctx.user):
                action = "close" if issue["state"] == "open" else "reopen"
                body.append(Form(f"{url}/{action}", (Button("Close issue" if action == "close" else "Reopen issue", id=f"issue-{action}"),),
                                 id=f"{action}-form"))
        else:
            body.append(Link("Sign in to comment", f"/login?next={quote(url)}", id="sign-in-to-comment"))
        return self._repo_page(ctx, repo, f"{issue['title']} #{n}", body)

    @route("POST", "/{owner}/{repo}/issues/{n}/comments")
    def comment_issue(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        n = self._number(ctx)
        self.op_comment(ctx, key, repo, n)
        return Redirect(_u(repo["owner"], repo["name"], "issues" if n in repo["issues"] else "pull", n))

    @route("POST", "/{owner}/{repo}/issues/{n}/close")
    def close_issue(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        n = self._number(ctx)
        self.op_issue_state(ctx, key, repo, n, "closed")
        return Redirect(_u(repo["owner"], repo["name"], "issues", n))

    @route("POST", "/{owner}/{repo}/issues/{n}/reopen")
    def reopen_issue(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        n = self._number(ctx)
        self.op_issue_state(ctx, key, repo, n, "open")
        return Redirect(_u(repo["owner"], repo["name"], "issues", n))

    # -- pages: pull requests ------------------------------------------------------------------
    @route("GET", "/{owner}/{repo}/pulls")
    def pulls(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return self._list_page(ctx, repo, "pulls")

    @route("GET", "/{owner}/{repo}/pulls/new")
    def new_pull_form(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        ctx.require_user()
        options = tuple(Option(b, b) for b in sorted(repo["branches"]))
        base = ctx.query.get("base", repo["default_branch"])
        head = ctx.query.get("head", "")
        body: list[Element] = [Heading("Open a pull request", level=2, id="new-pull-title")]
        if base in repo["branches"] and head in repo["branches"] and base != head:
            plan = model.merge_plan(repo, base, head)
            if plan["status"] == "up_to_date":
                body.append(Text(f"There isn't anything to compare: {base} is up to date with all commits from {head}.", id="compare-status"))
            else:
                able = "Can't automatically merge." if plan["status"] == "conflict" else "Able to merge."
                body.append(Text(able, id="compare-status"))
                mb = plan["merge_base"]
                body += self._diff_elements(model.diff_files(repo["commits"][mb]["files"] if mb else {},
                                                             repo["commits"][plan["head"]]["files"]))
        body.append(Form(_u(repo["owner"], repo["name"], "pulls"), (
            Select("base", options, label="base", value=base, id="pull-base"),
            Select("head", options, label="compare", value=head, id="pull-head"),
            Input("title", label="Title", required=True, id="pull-title-input"),
            TextArea("body", label="Description", rows=10, id="pull-body-input"),
            Button("Create pull request", id="pull-submit")), id="new-pull-form"))
        return self._repo_page(ctx, repo, "New pull request", body)

    @route("POST", "/{owner}/{repo}/pulls")
    def open_pull(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        pull = self.op_open_pull(ctx, key, repo)
        return Redirect(_u(repo["owner"], repo["name"], "pull", str(pull["number"])))

    def _pull_from_url(self, ctx: Ctx) -> tuple[str, dict, str, dict]:
        key, repo = self._repo(ctx)
        n = self._number(ctx)
        if n in repo["issues"] and ctx.request.method in ("GET", "HEAD"):
            raise _Moved(_u(repo["owner"], repo["name"], "issues", n))
        return key, repo, n, self._pull(repo, n)

    @route("GET", "/{owner}/{repo}/pull/{n}")
    def pull(self, ctx: Ctx) -> Any:
        try:
            _, repo, n, pull = self._pull_from_url(ctx)
        except _Moved as moved:
            return Redirect(moved.url)
        url = _u(repo["owner"], repo["name"], "pull", n)
        state = {"open": "Open", "closed": "Closed", "merged": "Merged"}[pull["state"]]
        body: list[Element] = [Heading(f"{pull['title']} #{n}", level=2, id="pull-title"),
                               Text(state, emphasis=True, id="pull-state"),
                               Text(f"{pull['author']} wants to merge {pull['head']} into {pull['base']}" if pull["state"] != "merged"
                                    else f"{pull['merged_by']} merged {pull['head']} into {pull['base']}", id="pull-meta"),
                               Link("Files changed", url + "/files", id="pull-files"),
                               Text(pull["body"] or "No description provided.", id="pull-body")]
        approvals = {}
        for review in pull["reviews"]:
            if review["state"] != "commented":
                approvals = {**approvals, review["author"]: review["state"]}
        if approvals:
            body.append(Text("Reviews: " + ", ".join(f"{who} {'approved' if s == 'approved' else 'requested changes'}"
                                                      for who, s in sorted(approvals.items())), id="pull-reviews"))
        body += self._comments(pull, pull["reviews"])
        info = self.pull_json(repo, pull)
        if pull["state"] == "open":
            if "mergeable" not in info:
                body.append(Text("A branch of this pull request no longer exists.", id="merge-status"))
            elif info["mergeable"] == "conflict":
                body.append(Text("This branch has conflicts that must be resolved: " + ", ".join(info["conflicts"]), id="merge-status"))
            elif info["mergeable"] == "up_to_date":
                body.append(Text(f"{pull['base']} already has everything in {pull['head']}.", id="merge-status"))
            else:
                how = "fast-forward" if info["mergeable"] == "fast_forward" else "merge commit"
                body.append(Text(f"This branch has no conflicts with the base branch ({how}).", id="merge-status"))
                if self.can_write(repo, ctx.user):
                    body.append(Form(url + "/merge", (Button("Merge pull request", id="merge-submit"),), id="merge-form"))
        if ctx.user:
            body.append(Form(url + "/comments", (TextArea("body", label="Add a comment", id="comment-body"),
                                                 Button("Comment", id="comment-submit")), id="comment-form"))
            if pull["state"] == "open" and ctx.user != pull["author"]:
                body.append(Form(url + "/reviews", (
                    TextArea("body", label="Review", id="review-body"),
                    Radio("event", "comment", label="Comment", checked=True, id="review-comment"),
                    Radio("event", "approve", label="Approve", id="review-approve"),
                    Radio("event", "request_changes", label="Request changes", id="review-request-changes"),
                    Button("Submit review", id="review-submit")), id="review-form"))
            if pull["state"] != "merged" and (ctx.user == pull["author"] or self.can_write(repo, ctx.user)):
                action = "close" if pull["state"] == "open" else "reopen"
                body.append(Form(f"{url}/{action}", (Button("Close pull request" if action == "close" else "Reopen pull request",
                                                            id=f"pull-{action}"),), id=f"{action}-form"))
        return self._repo_page(ctx, repo, f"{pull['title']} #{n}", body)

    @route("GET", "/{owner}/{repo}/pull/{n}/files")
    def pull_files(self, ctx: Ctx) -> Any:
        try:
            _, repo, n, pull = self._pull_from_url(ctx)
        except _Moved as moved:
            return Redirect(moved.url)
        return self._repo_page(ctx, repo, f"Files changed · #{n}", [
            Heading(f"{pull['title']} #{n}", level=2, id="pull-title"),
            Link("Conversation", _u(repo["owner"], repo["name"], "pull", n), id="pull-conversation"),
            *self._diff_elements(self.pull_diff(repo, pull))])

    @route("POST", "/{owner}/{repo}/pull/{n}/comments")
    def comment_pull(self, ctx: Ctx) -> Any:
        key, repo, n, _ = self._pull_from_url(ctx)
        self.op_comment(ctx, key, repo, n)
        return Redirect(_u(repo["owner"], repo["name"], "pull", n))

    @route("POST", "/{owner}/{repo}/pull/{n}/reviews")
    def review_pull(self, ctx: Ctx) -> Any:
        key, repo, n, _ = self._pull_from_url(ctx)
        self.op_review(ctx, key, repo, n)
        return Redirect(_u(repo["owner"], repo["name"], "pull", n))

    @route("POST", "/{owner}/{repo}/pull/{n}/merge")
    def merge_pull(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, write=True)
        n = self._number(ctx)
        self.op_merge(ctx, key, repo, n)
        return Redirect(_u(repo["owner"], repo["name"], "pull", n))

    @route("POST", "/{owner}/{repo}/pull/{n}/close")
    def close_pull(self, ctx: Ctx) -> Any:
        key, repo, n, _ = self._pull_from_url(ctx)
        self.op_pull_state(ctx, key, repo, n, "closed")
        return Redirect(_u(repo["owner"], repo["name"], "pull", n))

    @route("POST", "/{owner}/{repo}/pull/{n}/reopen")
    def reopen_pull(self, ctx: Ctx) -> Any:
        key, repo, n, _ = self._pull_from_url(ctx)
        self.op_pull_state(ctx, key, repo, n, "open")
        return Redirect(_u(repo["owner"], repo["name"], "pull", n))

    # -- pages: settings -------------------------------------------------------------------------
    @route("GET", "/{owner}/{repo}/settings")
    def settings(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx, owner_only=True)
        base = _u(repo["owner"], repo["name"])
        rows = tuple((Text(c, id=f"collaborator-{c}"),
                      Form(base + "/settings/collaborators/remove", (Input("username", type="hidden", value=c),
                                                                     Button("Remove", id=f"remove-{c}")), id=f"remove-form-{c}"))
                     for c in repo["collaborators"])
        return self._repo_page(ctx, repo, "Settings", [
            Heading("Settings", level=2, id="settings-title"),
            Form(base + "/settings", (Input("description", label="Description", value=repo["description"], id="settings-description"),
                                      Checkbox("private", label="Private", checked=repo["private"], id="settings-private"),
                                      Button("Save", id="settings-submit")), id="settings-form"),
            Heading("Collaborators", level=3, id="collaborators-title"),
            Table(("User", ""), rows, id="collaborators") if rows else Text("No collaborators yet.", id="no-collaborators"),
            Form(base + "/settings/collaborators", (Input("username", label="Add people", required=True, id="collaborator-name"),
                                                    Button("Add collaborator", id="collaborator-submit")), id="collaborator-form")])

    @route("POST", "/{owner}/{repo}/settings")
    def save_settings(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, owner_only=True)
        description = ctx.field("description", required=False, default=repo["description"], limit=1000).strip()
        repo = {**repo, "description": description, "private": _truthy(ctx.field("private", required=False))}
        self._put(ctx, key, repo)
        return Redirect(_u(repo["owner"], repo["name"], "settings"))

    @route("POST", "/{owner}/{repo}/settings/collaborators")
    def add_collaborator(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, owner_only=True)
        name = ctx.field("username", limit=64).strip()
        if name not in ctx.state["users"]:
            raise HttpError(400, f"no user {name!r}")
        if name == repo["owner"] or name in repo["collaborators"]:
            raise HttpError(409, f"{name} can already push to {key}")
        self._put(ctx, key, {**repo, "collaborators": [*repo["collaborators"], name]})
        return Redirect(_u(repo["owner"], repo["name"], "settings"))

    @route("POST", "/{owner}/{repo}/settings/collaborators/remove")
    def remove_collaborator(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, owner_only=True)
        name = ctx.field("username", limit=64).strip()
        if name not in repo["collaborators"]:
            raise HttpError(404, f"{name} is not a collaborator of {key}")
        self._put(ctx, key, {**repo, "collaborators": [c for c in repo["collaborators"] if c != name]})
        return Redirect(_u(repo["owner"], repo["name"], "settings"))

    # -- JSON API ------------------------------------------------------------------------------
    @route("GET", "/api/repos")
    def api_repos(self, ctx: Ctx) -> Any:
        return Json([self.repo_json(r) for r in self._visible(ctx)])

    @route("POST", "/api/repos")
    def api_create_repo(self, ctx: Ctx) -> Any:
        return Json(self.repo_json(self.op_create_repo(ctx)), 201)

    @route("GET", "/api/repos/{owner}/{repo}")
    def api_repo(self, ctx: Ctx) -> Any:
        return Json(self.repo_json(self._repo(ctx)[1]))

    @route("GET", "/api/repos/{owner}/{repo}/branches")
    def api_branches(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return Json([{"name": n, "commit": c, "default": n == repo["default_branch"]} for n, c in sorted(repo["branches"].items())])

    @route("POST", "/api/repos/{owner}/{repo}/branches")
    def api_create_branch(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, write=True)
        name = self.op_create_branch(ctx, key, repo)
        return Json({"name": name, "commit": ctx.state["repos"][key]["branches"][name]}, 201)

    @route("GET", "/api/repos/{owner}/{repo}/commits")
    def api_commits(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        head = self._commit_of(repo, ctx.query.get("ref", repo["default_branch"]))
        return Json([self.commit_json(c) for c in model.log(repo, head["id"])])

    @route("GET", "/api/repos/{owner}/{repo}/commits/{sha}")
    def api_commit(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        commit = self._commit_of(repo, ctx.params["sha"])
        old = repo["commits"][commit["parent"]]["files"] if commit["parent"] else {}
        return Json({**self.commit_json(commit), "files": model.diff_files(old, commit["files"])})

    @route("GET", "/api/repos/{owner}/{repo}/contents")
    def api_root(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        commit = self._commit_of(repo, ctx.query.get("ref", repo["default_branch"]))
        return Json([{"name": n, "path": n, "type": "dir" if d else "file"} for n, d in self._listing(commit["files"], "")])

    @route("GET", "/api/repos/{owner}/{repo}/contents/{path...}")
    def api_contents(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        ref = ctx.query.get("ref", repo["default_branch"])
        commit = self._commit_of(repo, ref)
        path = ctx.params["path"].strip("/")
        if path in commit["files"]:
            return Json({"path": path, "type": "file", "content": commit["files"][path], "commit": commit["id"]})
        entries = self._listing(commit["files"], path)
        if not entries:
            raise HttpError(404, f"no file or folder {path!r} at {ref}")
        return Json([{"name": n, "path": f"{path}/{n}", "type": "dir" if d else "file"} for n, d in entries])

    @route("PUT", "/api/repos/{owner}/{repo}/contents/{path...}")
    def api_put_file(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, write=True)
        path = ctx.params["path"].strip("/")
        problem = model.path_problem(path)
        if problem:
            raise HttpError(400, problem)
        if not isinstance(ctx.json, dict) and "content" not in ctx.form:
            raise HttpError(400, "send {content, message?, branch?, new_branch?}")
        content = ctx.json.get("content") if isinstance(ctx.json, dict) else ctx.form["content"]
        if not isinstance(content, str) or len(content) > model.MAX_FILE:
            raise HttpError(400, f"content is the file's text (up to {model.MAX_FILE} characters)")
        branch = ctx.field("branch", required=False, default=repo["default_branch"]) or repo["default_branch"]
        self._branch(repo, branch)
        files = repo["commits"][repo["branches"][branch]]["files"]
        if path not in files and (any(p.startswith(path + "/") for p in files) or any(path.startswith(p + "/") for p in files)):
            raise HttpError(409, f"{path!r} clashes with a file or folder on {branch}")
        verb = "Update" if path in files else "Create"
        message = ctx.field("message", required=False, limit=10_000).strip() or f"{verb} {path}"
        new = ctx.field("new_branch", required=False)
        if new:
            ctx.form = {**ctx.form, "commit_to": "new"}
        commit = self.op_commit(ctx, key, repo, branch, {path: content}, message)
        return Json({"commit": self.commit_json(commit), "branch": commit["branch"], "path": path},
                    200 if verb == "Update" else 201)

    @route("DELETE", "/api/repos/{owner}/{repo}/contents/{path...}")
    def api_delete_file(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, write=True)
        path = ctx.params["path"].strip("/")
        branch = ctx.field("branch", required=False, default=repo["default_branch"]) or repo["default_branch"]
        self._branch(repo, branch)
        if path not in repo["commits"][repo["branches"][branch]]["files"]:
            raise HttpError(404, f"no file {path!r} on {branch}")
        message = ctx.field("message", required=False, limit=10_000).strip() or f"Delete {path}"
        commit = self.op_commit(ctx, key, repo, branch, {path: None}, message)
        return Json({"commit": self.commit_json(commit), "branch": commit["branch"], "path": path})

    @route("GET", "/api/repos/{owner}/{repo}/issues")
    def api_issues(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        state = self._state_filter(ctx)
        return Json([i for _, i in sorted(repo["issues"].items(), key=lambda e: int(e[0])) if state in ("all", i["state"])])

    @route("POST", "/api/repos/{owner}/{repo}/issues")
    def api_open_issue(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        return Json(self.op_open_issue(ctx, key, repo), 201)

    @route("GET", "/api/repos/{owner}/{repo}/issues/{n}")
    def api_issue(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return Json(self._issue(repo, self._number(ctx)))

    @route("PATCH", "/api/repos/{owner}/{repo}/issues/{n}")
    def api_edit_issue(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        user = ctx.require_user()
        n = self._number(ctx)
        issue = self._issue(repo, n)
        if "state" in ctx.form:
            issue = self.op_issue_state(ctx, key, repo, n, ctx.form["state"])
            repo = ctx.state["repos"][key]
        changes = {}
        for name, limit in (("title", 300), ("body", 65_536)):
            if name in ctx.form:
                changes = {**changes, name: ctx.field(name, required=name == "title", limit=limit)}
        if changes:
            if user != issue["author"] and not self.can_write(repo, user):
                raise HttpError(403, f"only the author or a collaborator may edit #{n}")
            issue = {**issue, **changes}
            self._put(ctx, key, assoc_in(repo, ["issues", n], issue))
        return Json(issue)

    @route("POST", "/api/repos/{owner}/{repo}/issues/{n}/comments")
    def api_comment(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        return Json(self.op_comment(ctx, key, repo, self._number(ctx)), 201)

    @route("GET", "/api/repos/{owner}/{repo}/pulls")
    def api_pulls(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        state = self._state_filter(ctx)
        return Json([self.pull_json(repo, p) for _, p in sorted(repo["pulls"].items(), key=lambda e: int(e[0]))
                     if state in ("all", p["state"]) or (state == "closed" and p["state"] == "merged")])

    @route("POST", "/api/repos/{owner}/{repo}/pulls")
    def api_open_pull(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        pull = self.op_open_pull(ctx, key, repo)
        return Json(self.pull_json(ctx.state["repos"][key], pull), 201)

    @route("GET", "/api/repos/{owner}/{repo}/pulls/{n}")
    def api_pull(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return Json(self.pull_json(repo, self._pull(repo, self._number(ctx))))

    @route("PATCH", "/api/repos/{owner}/{repo}/pulls/{n}")
    def api_edit_pull(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        ctx.require_user()
        n = self._number(ctx)
        self._pull(repo, n)
        pull = self.op_pull_state(ctx, key, repo, n, ctx.field("state"))
        return Json(self.pull_json(ctx.state["repos"][key], pull))

    @route("GET", "/api/repos/{owner}/{repo}/pulls/{n}/files")
    def api_pull_files(self, ctx: Ctx) -> Any:
        _, repo = self._repo(ctx)
        return Json(self.pull_diff(repo, self._pull(repo, self._number(ctx))))

    @route("POST", "/api/repos/{owner}/{repo}/pulls/{n}/reviews")
    def api_review(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx)
        return Json(self.op_review(ctx, key, repo, self._number(ctx)), 201)

    @route("PUT", "/api/repos/{owner}/{repo}/pulls/{n}/merge")
    def api_merge(self, ctx: Ctx) -> Any:
        key, repo = self._repo(ctx, write=True)
        pull = self.op_merge(ctx, key, repo, self._number(ctx))
        return Json({"merged": True, "sha": pull["merge_commit"], "pull": pull})


class _Moved(Exception):
    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url


SERVICE_KINDS.register(Git.name, Git())

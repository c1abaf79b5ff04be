"""``issues``: an issue tracker like Jira or Linear — projects with a key (``OPS``), issues
``OPS-12`` with a title, description, state, priority, labels, assignee, reporter, comments
and a history of every field change (who, when, from, to); lists with filters, a board by
state, search, and a JSON API.

Who may do what: the members of a project create, edit, transition and assign its issues
and add members (anyone else gets ``403``); members comment, and so does anyone signed in
when the project has ``public_comments``. A ``private`` project is ``404`` to non-members;
a public one can be read by anyone. Anyone signed in creates a project and is its first
member. States follow the project's ``workflow`` (``["open", "in progress", "done"]`` unless
it names others); any state may move to any other. Priorities are lowest, low, medium
(the default), high, highest.

Routes (``{key}``: a project key, ``{issue}``: an issue key such as ``OPS-12``):

- ``GET /`` projects, your open issues and a search box; ``GET /projects/new``, ``POST /projects``
- ``GET /projects/{key}?state=&label=&assignee=&priority=&q=`` the issues, filtered
  (``assignee=none`` unassigned, ``assignee=me`` yours); ``GET /projects/{key}/board`` by state
- ``GET /projects/{key}/issues/new``, ``POST /projects/{key}/issues`` create an issue
- ``GET /projects/{key}/members``, ``POST /projects/{key}/members[/remove]``
- ``GET /browse/{issue}`` an issue with its forms; ``POST /browse/{issue}/edit`` (title,
  description, priority, labels), ``/transition`` (state), ``/assign`` (assignee; empty
  unassigns), ``/comment`` (body)
- ``GET /search?q=`` (and the same filters) over every project you can see
- JSON: ``GET|POST /api/projects``, ``GET /api/projects/{key}``, ``GET|POST
  /api/projects/{key}/issues`` (filters as above), ``GET|PATCH /api/issues/{issue}`` (any of
  title, description, state, priority, labels, assignee), ``POST /api/issues/{issue}/comments``,
  ``GET /api/search?q=``.

``initial_state``: ``{users, projects?: [{key, name, description?, members? (every user
when left out), private?, public_comments?, workflow?: [state...], issues?: [{title,
description?, state?, priority?, labels?, assignee?, reporter? (the first member),
comments?: [{author, body, at_us?}]}]}]}``. Issues are numbered from 1 in order.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar
from urllib.parse import quote

from cwgym.net.services import SERVICE_KINDS
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
    Select,
    Table,
    Text,
    TextArea,
)
from cwgym.services._search_index import page_entry
from cwgym.services.framework import (
    Ctx,
    HttpError,
    Json,
    Redirect,
    WebService,
    assoc_in,
    check_fields,
    route,
    timestamp,
)

KEY = re.compile(r"^[A-Z][A-Z0-9]{1,9}$")
ISSUE_KEY = re.compile(r"^([A-Za-z][A-Za-z0-9]{1,9})-(\d{1,9})$")
LABEL = re.compile(r"^[A-Za-z0-9._:-]{1,50}$")
PRIORITIES = ("lowest", "low", "medium", "high", "highest")
WORKFLOW = ("open", "in progress", "done")
FILTERS = ("state", "label", "assignee", "priority", "q")

PROJECT_FIELDS = {"key": str, "name": str, "description": str, "members": list, "private": bool,
                  "public_comments": bool, "workflow": list, "issues": list}
BUILT_FIELDS = {"key": str, "name": str, "description": str, "members": list, "private": bool,
                "public_comments": bool, "workflow": list, "issues": dict, "next_number": int}
ISSUE_FIELDS = {"title": str, "description": str, "state": str, "priority": str, "labels": list,
                "assignee": (str, type(None)), "reporter": str, "comments": list}


def _labels(value: Any, where: str = "labels") -> list[str]:
    """Labels from a list or a comma-separated text, each checked, in order, each once."""
    items = value if isinstance(value, list) else [p.strip() for p in str(value).split(",")] if value else []
    out: list[str] = []
    for item in items:
        if item == "":
            continue
        if not isinstance(item, str) or not LABEL.match(item):
            raise ValueError(f"{where}: {item!r} is not a label (letters, digits, '.', '_', ':', '-'; up to 50)")
        if item not in out:
            out = [*out, item]
    return out


class Issues(WebService):
    name = "issues"
    title = "Issues"
    fields: ClassVar[dict[str, type | tuple[type, ...]]] = {"projects": (list, dict)}

    # -- initial_state -------------------------------------------------------------------------
    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        given = state.get("projects", [])
        if isinstance(given, dict):  # a state this kind built (a snapshot)
            for key, project in given.items():
                self._check_built(project, f"{where}.projects[{key!r}]", key, users)
            return state
        projects: dict[str, dict] = {}
        for i, spec in enumerate(given):
            at = f"{where}.projects[{i}]"
            project = self._build_project(spec, at, users)
            if project["key"] in projects:
                raise ValueError(f"{at}.key: the key {project['key']!r} is listed twice")
            projects = {**projects, project["key"]: project}
        return {**state, "projects": projects}

    @staticmethod
    def _user(name: Any, at: str, users: dict) -> str:
        if not isinstance(name, str) or name not in users:
            raise ValueError(f"{at}: {name!r} is not one of the users")
        return name

    def _build_project(self, spec: Any, at: str, users: dict) -> dict:
        check_fields(spec, at, PROJECT_FIELDS, ("key", "name"))
        if not KEY.match(spec["key"]):
            raise ValueError(f"{at}.key: a project key is 2-10 capital letters and digits, starting with a letter")
        if not spec["name"].strip():
            raise ValueError(f"{at}.name: empty")
        members = [self._user(m, f"{at}.members[{j}]", users) for j, m in enumerate(spec.get("members", list(users)))]
        workflow = spec.get("workflow", list(WORKFLOW))
        if not workflow or any(not isinstance(s, str) or not s.strip() or len(s) > 40 for s in workflow) \
                or len(set(workflow)) != len(workflow):
            raise ValueError(f"{at}.workflow: a list of distinct state names (1-40 characters)")
        issues: dict[str, dict] = {}
        for j, item in enumerate(spec.get("issues", [])):
            iat = f"{at}.issues[{j}]"
            check_fields(item, iat, ISSUE_FIELDS, ("title",))
            if not item["title"].strip():
                raise ValueError(f"{iat}.title: empty")
            state = item.get("state", workflow[0])
            if state not in workflow:
                raise ValueError(f"{iat}.state: {state!r} is not in the workflow ({', '.join(workflow)})")
            priority = item.get("priority", "medium")
            if priority not in PRIORITIES:
                raise ValueError(f"{iat}.priority: {priority!r} is not one of {', '.join(PRIORITIES)}")
            if "reporter" not in item and not members:
                raise ValueError(f"{iat}.reporter: required when the project has no members")
            reporter = self._user(item.get("reporter", members[0] if members else None), f"{iat}.reporter", users)
            assignee = item.get("assignee")
            if assignee is not None and assignee not in members:
                raise ValueError(f"{iat}.assignee: {assignee!r} is not a member of {spec['key']}")
            comments = []
            for k, c in enumerate(item.get("comments", [])):
                check_fields(c, f"{iat}.comments[{k}]", {"author": str, "body": str, "at_us": int}, ("author", "body"))
                if c.get("at_us", 0) < 0:
                    raise ValueError(f"{iat}.comments[{k}].at_us: a logical time is 0 or more")
                comments.append({"n": k + 1, "author": self._user(c["author"], f"{iat}.comments[{k}].author", users),
                                 "body": c["body"], "at_us": c.get("at_us", 0)})
            n = j + 1
            issues = {**issues, str(n): {
                "key": f"{spec['key']}-{n}", "number": n, "title": item["title"], "description": item.get("description", ""),
                "state": state, "priority": priority, "labels": _labels(item.get("labels", []), f"{iat}.labels"),
                "assignee": assignee, "reporter": reporter, "comments": comments, "history": [],
                "created_us": 0, "updated_us": 0}}
        return {"key": spec["key"], "name": spec["name"], "description": spec.get("description", ""), "members": members,
                "private": spec.get("private", False), "public_comments": spec.get("public_comments", False),
                "workflow": list(workflow), "issues": issues, "next_number": len(issues) + 1}

    def _check_built(self, project: Any, at: str, key: str, users: dict) -> None:
        check_fields(project, at, BUILT_FIELDS, tuple(BUILT_FIELDS))
        if project["key"] != key or not KEY.match(key):
            raise ValueError(f"{at}.key: does not match its entry")
        for j, m in enumerate(project["members"]):
            self._user(m, f"{at}.members[{j}]", users)
        for n, issue in project["issues"].items():
            if not isinstance(issue, dict) or issue.get("key") != f"{key}-{n}" or issue.get("state") not in project["workflow"]:
                raise ValueError(f"{at}.issues[{n!r}]: its key or state does not match the project")

    def public_pages(self, state: dict, base: str) -> list[dict]:
        """Every project that is not private (``/projects/<KEY>``, by key; the snippet is its
        description) followed by its issues (``/browse/<KEY-n>``, by number; the snippet is
        the description, the labels are keywords). A private project is ``404`` to a
        visitor, so neither it nor its issues are listed."""
        out = []
        for key, project in sorted(state["projects"].items()):
            if project["private"]:
                continue
            out.append(page_entry(f"{project['name']} ({key})", f"{base}/projects/{key}", project["description"]))
            for issue in sorted(project["issues"].values(), key=lambda i: i["number"]):
                out.append(page_entry(f"{issue['key']}: {issue['title']}", f"{base}/browse/{issue['key']}", issue["description"],
                                      issue["labels"]))
        return out

    # -- access --------------------------------------------------------------------------------
    @staticmethod
    def can_see(project: dict, user: str | None) -> bool:
        return not project["private"] or user in project["members"]

    def _project(self, ctx: Ctx, key: str | None = None, edit: bool = False) -> dict:
        key = (key or ctx.params["key"]).upper()
        project = ctx.state["projects"].get(key)
        if project is None or not self.can_see(project, ctx.user):
            raise HttpError(404, f"no project {key}")
        if edit:
            user = ctx.require_user()
            if user not in project["members"]:
                raise HttpError(403, f"only members of {key} may change it or its issues")
        return project

    def _issue(self, ctx: Ctx, edit: bool = False) -> tuple[dict, dict]:
        match = ISSUE_KEY.match(ctx.params["issue"])
        if match is None:
            raise HttpError(404, f"no issue {ctx.params['issue']!r} (an issue key looks like OPS-12)")
        project = self._project(ctx, match.group(1), edit)
        issue = project["issues"].get(str(int(match.group(2))))
        if issue is None:
            raise HttpError(404, f"no issue {match.group(1).upper()}-{int(match.group(2))}")
        return project, issue

    def _put_issue(self, ctx: Ctx, project: dict, issue: dict) -> None:
        ctx.state = assoc_in(ctx.state, ["projects", project["key"], "issues", str(issue["number"])], issue)

    # -- operations ----------------------------------------------------------------------------
    def op_create_project(self, ctx: Ctx) -> dict:
        user = ctx.require_user()
        key = ctx.field("key", limit=10).strip().upper()
        if not KEY.match(key):
            raise HttpError(400, "a project key is 2-10 capital letters and digits, starting with a letter (like OPS)")
        if key in ctx.state["projects"]:
            raise HttpError(409, f"a project with the key {key} exists already")
        project = {"key": key, "name": ctx.field("name", limit=200).strip(),
                   "description": ctx.field("description", required=False, limit=5000),
                   "members": [user], "private": self._flag(ctx, "private"),
                   "public_comments": self._flag(ctx, "public_comments"),
                   "workflow": list(WORKFLOW), "issues": {}, "next_number": 1}
        ctx.state = assoc_in(ctx.state, ["projects", key], project)
        return project

    @staticmethod
    def _flag(ctx: Ctx, name: str) -> bool:
        return ctx.field(name, required=False).strip().lower() in ("on", "true", "1", "yes")

    def _check_changes(self, project: dict, changes: dict) -> dict:
        """``changes`` (field -> raw value from a form or JSON) checked and normalised."""
        out: dict = {}
        for name, value in changes.items():
            if name == "title":
                if not isinstance(value, str) or not value.strip() or len(value) > 300:
                    raise HttpError(400, "the title is 1-300 characters")
                value = value.strip()
            elif name == "description":
                if not isinstance(value, str) or len(value) > 65_536:
                    raise HttpError(400, "the description is text up to 65536 characters")
            elif name == "state":
                if value not in project["workflow"]:
                    raise HttpError(400, f"state is one of {', '.join(project['workflow'])}, not {value!r}")
            elif name == "priority":
                if value not in PRIORITIES:
                    raise HttpError(400, f"priority is one of {', '.join(PRIORITIES)}, not {value!r}")
            elif name == "labels":
                if not isinstance(value, list | str):
                    raise HttpError(400, "labels are a list or comma-separated text")
                try:
                    value = _labels(value)
                except ValueError as exc:
                    raise HttpError(400, str(exc)) from None
            elif name == "assignee":
                value = value or None
                if value is not None and value not in project["members"]:
                    raise HttpError(400, f"{value!r} is not a member of {project['key']} and cannot be assigned")
            else:
                raise HttpError(400, f"{name!r} is not a field of an issue")
            out = {**out, name: value}
        return out

    def op_create_issue(self, ctx: Ctx, project: dict, values: dict) -> dict:
        user = ctx.user or ""
        if "title" not in values:
            raise HttpError(400, "the field 'title' is required")
        fields = self._check_changes(project, values)
        n = project["next_number"]
        issue = {"key": f"{project['key']}-{n}", "number": n, "title": fields["title"],
                 "description": fields.get("description", ""), "state": fields.get("state", project["workflow"][0]),
                 "priority": fields.get("priority", "medium"), "labels": fields.get("labels", []),
                 "assignee": fields.get("assignee"), "reporter": user, "comments": [], "history": [],
                 "created_us": ctx.now_us, "updated_us": ctx.now_us}
        project = {**project, "issues": {**project["issues"], str(n): issue}, "next_number": n + 1}
        ctx.state = assoc_in(ctx.state, ["projects", project["key"]], project)
        return issue

    def op_update(self, ctx: Ctx, project: dict, issue: dict, values: dict) -> dict:
        fields = self._check_changes(project, values)
        history = [{"author": ctx.user, "at_us": ctx.now_us, "field": name, "from": issue[name], "to": value}
                   for name, value in fields.items() if issue[name] != value]
        if history:
            issue = {**issue, **fields, "history": [*issue["history"], *history], "updated_us": ctx.now_us}
            self._put_issue(ctx, project, issue)
        return issue

    def op_comment(self, ctx: Ctx, project: dict, issue: dict) -> dict:
        user = ctx.require_user()
        if user not in project["members"] and not project["public_comments"]:
            raise HttpError(403, f"only members of {project['key']} may comment on its issues")
        body = ctx.field("body", limit=65_536)
        comment = {"n": len(issue["comments"]) + 1, "author": user, "body": body, "at_us": ctx.now_us}
        self._put_issue(ctx, project, {**issue, "comments": [*issue["comments"], comment], "updated_us": ctx.now_us})
        return comment

    # -- filters -------------------------------------------------------------------------------
    def _filters(self, ctx: Ctx) -> dict[str, str]:
        got = {k: ctx.query[k].strip() for k in FILTERS if ctx.query.get(k, "").strip()}
        if "priority" in got and got["priority"] not in PRIORITIES:
            raise HttpError(400, f"priority is one of {', '.join(PRIORITIES)}, not {got['priority']!r}")
        if got.get("assignee") == "me":
            got = {**got, "assignee": ctx.user or ""}
        return got

    @staticmethod
    def _matches(issue: dict, filters: dict[str, str]) -> bool:
        if "state" in filters and issue["state"] != filters["state"]:
            return False
        if "label" in filters and filters["label"] not in issue["labels"]:
            return False
        if "assignee" in filters and (issue["assignee"] or "none") != filters["assignee"]:
            return False
        if "priority" in filters and issue["priority"] != filters["priority"]:
            return False
        if "q" in filters:
            needle = filters["q"].lower()
            hay = "\n".join([issue["key"], issue["title"], issue["description"], *(c["body"] for c in issue["comments"])]).lower()
            if needle not in hay:
                return False
        return True

    def _found(self, ctx: Ctx, projects: list[dict], filters: dict[str, str]) -> list[dict]:
        return [i for p in projects for _, i in sorted(p["issues"].items(), key=lambda e: int(e[0])) if self._matches(i, filters)]

    def _visible(self, ctx: Ctx) -> list[dict]:
        return [p for _, p in sorted(ctx.state["projects"].items()) if self.can_see(p, ctx.user)]

    # -- pages ---------------------------------------------------------------------------------
    def _issue_table(self, issues: list[dict], table_id: str) -> Element:
        if not issues:
            return Text("No issues match.", id=f"{table_id}-empty")
        rows = tuple((Link(i["key"], f"/browse/{i['key']}", id=f"issue-{i['key']}"), Text(i["title"]), Text(i["state"]),
                      Text(i["priority"]), Text(i["assignee"] or "Unassigned"), Text(", ".join(i["labels"])))
                     for i in issues)
        return Table(("Key", "Title", "State", "Priority", "Assignee", "Labels"), rows, id=table_id)

    @route("GET", "/")
    def home(self, ctx: Ctx) -> Any:
        projects = self._visible(ctx)
        body: list[Element] = [Heading("Projects", id="home-title"),
                               Form("/search", (Input("q", label="Search issues", type="search", id="search-q"),
                                                Button("Search", id="search-submit")), method="GET", id="search-form")]
        if ctx.user:
            body.append(Link("Create project", "/projects/new", id="new-project"))
        if projects:
            body.append(Table(("Key", "Name", "Open issues"), tuple(
                (Link(p["key"], f"/projects/{p['key']}", id=f"project-{p['key']}"), Text(p["name"]),
                 Text(str(sum(1 for i in p["issues"].values() if i["state"] != p["workflow"][-1]))))
                for p in projects), id="projects"))
        else:
            body.append(Text("No projects yet.", id="no-projects"))
        if ctx.user:
            mine = [i for p in projects for i in self._found(ctx, [p], {"assignee": ctx.user}) if i["state"] != p["workflow"][-1]]
            body += [Heading("Assigned to me", level=2, id="mine-title"), self._issue_table(mine, "mine")]
        return self.page(ctx, self.title, body)

    @route("GET", "/projects/new")
    def new_project_form(self, ctx: Ctx) -> Any:
        ctx.require_user()
        return self.page(ctx, "Create project", [
            Heading("Create project", id="new-project-title"),
            Form("/projects", (Input("name", label="Name", required=True, id="project-name"),
                               Input("key", label="Key (like OPS)", required=True, id="project-key"),
                               TextArea("description", label="Description", id="project-description"),
                               Checkbox("private", label="Private: only members see it", id="project-private"),
                               Checkbox("public_comments", label="Anyone signed in may comment", id="project-public-comments"),
                               Button("Create", id="project-submit")), id="new-project-form")])

    @route("POST", "/projects")
    def create_project(self, ctx: Ctx) -> Any:
        project = self.op_create_project(ctx)
        return Redirect(f"/projects/{project['key']}")

    def _project_page(self, ctx: Ctx, project: dict, title: str, body: list[Element]) -> Any:
        key = project["key"]
        nav: list[Element] = [Link("Issues", f"/projects/{key}", id="nav-issues"), Link("Board", f"/projects/{key}/board", id="nav-board"),
                              Link("Members", f"/projects/{key}/members", id="nav-members")]
        if ctx.user in project["members"]:
            nav.append(Link("Create issue", f"/projects/{key}/issues/new", id="nav-create"))
        head: list[Element] = [Heading(f"{project['name']} ({key})", id="project-title")]
        if project["description"]:
            head.append(Text(project["description"], id="project-description"))
        return self.page(ctx, f"{title} · {key}", [*head, ListBlock(tuple(nav), id="project-nav"), *body])

    def _filter_form(self, action: str, project: dict | None, filters: dict[str, str], states: list[str]) -> Element:
        members = project["members"] if project else []
        controls: list[Element] = [
            Input("q", label="Text", type="search", value=filters.get("q", ""), id="filter-q"),
            Select("state", (Option("", "Any state"), *(Option(s, s) for s in states)), label="State",
                   value=filters.get("state", ""), id="filter-state"),
            Select("priority", (Option("", "Any priority"), *(Option(p, p) for p in PRIORITIES)), label="Priority",
                   value=filters.get("priority", ""), id="filter-priority"),
            Input("label", label="Label", value=filters.get("label", ""), id="filter-label")]
        if members:
            controls.append(Select("assignee", (Option("", "Anyone"), Option("none", "Unassigned"), *(Option(m, m) for m in members)),
                                   label="Assignee", value=filters.get("assignee", ""), id="filter-assignee"))
        else:
            controls.append(Input("assignee", label="Assignee", value=filters.get("assignee", ""), id="filter-assignee"))
        return Form(action, (*controls, Button("Filter", id="filter-submit")), method="GET", id="filter-form")

    @route("GET", "/projects/{key}")
    def project(self, ctx: Ctx) -> Any:
        project = self._project(ctx)
        filters = self._filters(ctx)
        found = self._found(ctx, [project], filters)
        return self._project_page(ctx, project, "Issues", [
            self._filter_form(f"/projects/{project['key']}", project, filters, project["workflow"]),
            Text(f"{len(found)} issue{'s' if len(found) != 1 else ''}", id="issue-count"),
            self._issue_table(found, "issues")])

    @route("GET", "/projects/{key}/board")
    def board(self, ctx: Ctx) -> Any:
        project = self._project(ctx)
        body: list[Element] = [Heading("Board", level=2, id="board-title")]
        for n, state in enumerate(project["workflow"], 1):
            cards = [i for _, i in sorted(project["issues"].items(), key=lambda e: int(e[0])) if i["state"] == state]
            body.append(Heading(f"{state} ({len(cards)})", level=3, id=f"column-{n}"))
            body.append(ListBlock(tuple(Link(f"{i['key']} {i['title']}" + (f" · {i['assignee']}" if i["assignee"] else ""),
                                             f"/browse/{i['key']}", id=f"card-{i['key']}") for i in cards), id=f"column-{n}-cards"))
        return self._project_page(ctx, project, "Board", body)

    def _issue_fields(self, project: dict, issue: dict | None) -> tuple[Element, ...]:
        issue = issue or {}
        return (Input("title", label="Summary", value=issue.get("title", ""), required=True, id="issue-title-input"),
                TextArea("description", label="Description", value=issue.get("description", ""), rows=8, id="issue-description-input"),
                Select("priority", tuple(Option(p, p) for p in PRIORITIES), label="Priority", value=issue.get("priority", "medium"),
                       id="issue-priority-input"),
                Input("labels", label="Labels (comma-separated)", value=", ".join(issue.get("labels", [])), id="issue-labels-input"))

    @route("GET", "/projects/{key}/issues/new")
    def new_issue_form(self, ctx: Ctx) -> Any:
        project = self._project(ctx, edit=True)
        return self._project_page(ctx, project, "Create issue", [
            Heading("Create issue", level=2, id="new-issue-title"),
            Form(f"/projects/{project['key']}/issues", (
                *self._issue_fields(project, None),
                Select("assignee", (Option("", "Unassigned"), *(Option(m, m) for m in project["members"])), label="Assignee",
                       id="issue-assignee-input"),
                Button("Create", id="issue-submit")), id="new-issue-form")])

    @route("POST", "/projects/{key}/issues")
    def create_issue(self, ctx: Ctx) -> Any:
        project = self._project(ctx, edit=True)
        values = self._form_values(ctx, ("title", "description", "priority", "labels", "assignee", "state"))
        issue = self.op_create_issue(ctx, project, values)
        return Redirect(f"/browse/{issue['key']}")

    @staticmethod
    def _form_values(ctx: Ctx, names: tuple[str, ...]) -> dict:
        """The fields present in the request (JSON values kept as sent)."""
        source = ctx.json if isinstance(ctx.json, dict) else ctx.form
        if ctx.json is not None and not isinstance(ctx.json, dict):
            raise HttpError(400, "send a JSON object")
        return {n: source[n] for n in names if n in source}

    @route("GET", "/browse/{issue}")
    def issue(self, ctx: Ctx) -> Any:
        project, issue = self._issue(ctx)
        url = f"/browse/{issue['key']}"
        member = ctx.user in project["members"]
        body: list[Element] = [
            Heading(f"{issue['key']}: {issue['title']}", level=2, id="issue-title"),
            Table(("Field", "Value"), (
                (Text("State"), Text(issue["state"], id="issue-state")),
                (Text("Priority"), Text(issue["priority"], id="issue-priority")),
                (Text("Assignee"), Text(issue["assignee"] or "Unassigned", id="issue-assignee")),
                (Text("Reporter"), Text(issue["reporter"], id="issue-reporter")),
                (Text("Labels"), Text(", ".join(issue["labels"]) or "None", id="issue-labels")),
                (Text("Created"), Text(timestamp(issue["created_us"]), id="issue-created")),
                (Text("Updated"), Text(timestamp(issue["updated_us"]), id="issue-updated"))), id="issue-fields"),
            Text(issue["description"] or "No description.", id="issue-description")]
        if member:
            body += [
                Form(url + "/transition", (Select("state", tuple(Option(s, s) for s in project["workflow"]), label="State",
                                                  value=issue["state"], id="transition-state"),
                                           Button("Transition", id="transition-submit")), id="transition-form"),
                Form(url + "/assign", (Select("assignee", (Option("", "Unassigned"), *(Option(m, m) for m in project["members"])),
                                              label="Assignee", value=issue["assignee"] or "", id="assign-assignee"),
                                       Button("Assign", id="assign-submit")), id="assign-form"),
                Form(url + "/edit", (*self._issue_fields(project, issue), Button("Save", id="edit-submit")), id="edit-form")]
        body.append(Heading("Comments", level=3, id="comments-title"))
        body += [Text(f"{c['author']} · {timestamp(c['at_us'])}\n{c['body']}", id=f"comment-{c['n']}") for c in issue["comments"]] \
            or [Text("No comments yet.", id="no-comments")]
        if ctx.user and (member or project["public_comments"]):
            body.append(Form(url + "/comment", (TextArea("body", label="Add a comment", id="comment-body"),
                                                Button("Comment", id="comment-submit")), id="comment-form"))
        elif ctx.user is None:
            body.append(Link("Sign in to comment", f"/login?next={quote(url)}", id="sign-in-to-comment"))
        body.append(Heading("History", level=3, id="history-title"))
        body.append(ListBlock(tuple(Text(f"{h['author']} changed {h['field']} from {self._show(h['from'])} to {self._show(h['to'])} "
                                         f"· {timestamp(h['at_us'])}", id=f"history-{n}")
                                    for n, h in enumerate(issue["history"], 1)), id="history"))
        return self._project_page(ctx, project, issue["key"], body)

    @staticmethod
    def _show(value: Any) -> str:
        if value is None:
            return "none"
        if isinstance(value, list):
            return ", ".join(value) or "none"
        return str(value)

    def _update_form(self, ctx: Ctx, names: tuple[str, ...], required: str | None = None) -> Any:
        project, issue = self._issue(ctx, edit=True)
        values = self._form_values(ctx, names)
        if required is not None and required not in values:
            raise HttpError(400, f"the field {required!r} is required")
        if not values:
            raise HttpError(400, f"send at least one of {', '.join(names)}")
        self.op_update(ctx, project, issue, values)
        return Redirect(f"/browse/{issue['key']}")

    @route("POST", "/browse/{issue}/edit")
    def edit(self, ctx: Ctx) -> Any:
        return self._update_form(ctx, ("title", "description", "priority", "labels"))

    @route("POST", "/browse/{issue}/transition")
    def transition(self, ctx: Ctx) -> Any:
        return self._update_form(ctx, ("state",), "state")

    @route("POST", "/browse/{issue}/assign")
    def assign(self, ctx: Ctx) -> Any:
        return self._update_form(ctx, ("assignee",), "assignee")

    @route("POST", "/browse/{issue}/comment")
    def comment(self, ctx: Ctx) -> Any:
        project, issue = self._issue(ctx)
        self.op_comment(ctx, project, issue)
        return Redirect(f"/browse/{issue['key']}")

    @route("GET", "/projects/{key}/members")
    def members(self, ctx: Ctx) -> Any:
        project = self._project(ctx)
        url = f"/projects/{project['key']}/members"
        member = ctx.user in project["members"]
        rows = tuple((Text(m, id=f"member-{m}"), Text(ctx.state["users"][m]["display"]),
                      Form(url + "/remove", (Input("username", type="hidden", value=m), Button("Remove", id=f"remove-{m}")),
                           id=f"remove-form-{m}") if member else Text(""))
                     for m in project["members"])
        body: list[Element] = [Heading("Members", level=2, id="members-title"),
                               Table(("User", "Name", ""), rows, id="members") if rows else Text("No members.", id="no-members")]
        if member:
            body.append(Form(url, (Input("username", label="Add member", required=True, id="member-name"),
                                   Button("Add", id="member-submit")), id="member-form"))
        return self._project_page(ctx, project, "Members", body)

    @route("POST", "/projects/{key}/members")
    def add_member(self, ctx: Ctx) -> Any:
        project = self._project(ctx, edit=True)
        name = ctx.field("username", limit=64).strip()
        if name not in ctx.state["users"]:
            raise HttpError(400, f"no user {name!r}")
        if name in project["members"]:
            raise HttpError(409, f"{name} is already a member of {project['key']}")
        ctx.state = assoc_in(ctx.state, ["projects", project["key"], "members"], [*project["members"], name])
        return Redirect(f"/projects/{project['key']}/members")

    @route("POST", "/projects/{key}/members/remove")
    def remove_member(self, ctx: Ctx) -> Any:
        project = self._project(ctx, edit=True)
        name = ctx.field("username", limit=64).strip()
        if name not in project["members"]:
            raise HttpError(404, f"{name} is not a member of {project['key']}")
        if len(project["members"]) == 1:
            raise HttpError(409, f"{name} is the last member of {project['key']}")
        issues = {n: ({**i, "assignee": None} if i["assignee"] == name else i) for n, i in project["issues"].items()}
        ctx.state = assoc_in(ctx.state, ["projects", project["key"]],
                             {**project, "members": [m for m in project["members"] if m != name], "issues": issues})
        return Redirect(f"/projects/{project['key']}/members")

    @route("GET", "/search")
    def search(self, ctx: Ctx) -> Any:
        filters = self._filters(ctx)
        projects = self._visible(ctx)
        found = self._found(ctx, projects, filters) if filters else []
        states = list(dict.fromkeys(s for p in projects for s in p["workflow"]))
        return self.page(ctx, "Search", [
            Heading("Search issues", id="search-title"), self._filter_form("/search", None, filters, states),
            Text(f"{len(found)} issue{'s' if len(found) != 1 else ''}" if filters else "Type some words or pick a filter.",
                 id="issue-count"),
            self._issue_table(found, "results")])

    # -- JSON API ------------------------------------------------------------------------------
    @staticmethod
    def project_json(project: dict) -> dict:
        return {k: project[k] for k in ("key", "name", "description", "members", "private", "public_comments", "workflow")} | \
            {"issues": len(project["issues"])}

    @route("GET", "/api/projects")
    def api_projects(self, ctx: Ctx) -> Any:
        return Json([self.project_json(p) for p in self._visible(ctx)])

    @route("POST", "/api/projects")
    def api_create_project(self, ctx: Ctx) -> Any:
        return Json(self.project_json(self.op_create_project(ctx)), 201)

    @route("GET", "/api/projects/{key}")
    def api_project(self, ctx: Ctx) -> Any:
        return Json(self.project_json(self._project(ctx)))

    @route("GET", "/api/projects/{key}/issues")
    def api_issues(self, ctx: Ctx) -> Any:
        project = self._project(ctx)
        return Json(self._found(ctx, [project], self._filters(ctx)))

    @route("POST", "/api/projects/{key}/issues")
    def api_create_issue(self, ctx: Ctx) -> Any:
        project = self._project(ctx, edit=True)
        values = self._form_values(ctx, ("title", "description", "priority", "labels", "assignee", "state"))
        return Json(self.op_create_issue(ctx, project, values), 201)

    @route("GET", "/api/issues/{issue}")
    def api_issue(self, ctx: Ctx) -> Any:
        return Json(self._issue(ctx)[1])

    @route("PATCH", "/api/issues/{issue}")
    def api_update(self, ctx: Ctx) -> Any:
        project, issue = self._issue(ctx, edit=True)
        values = self._form_values(ctx, ("title", "description", "state", "priority", "labels", "assignee"))
        extra = sorted(set(ctx.json if isinstance(ctx.json, dict) else ctx.form) - set(values))
        if extra:
            raise HttpError(400, f"{extra[0]!r} is not a field of an issue you can change")
        if not values:
            raise HttpError(400, "send at least one of title, description, state, priority, labels, assignee")
        return Json(self.op_update(ctx, project, issue, values))

    @route("POST", "/api/issues/{issue}/comments")
    def api_comment(self, ctx: Ctx) -> Any:
        project, issue = self._issue(ctx)
        return Json(self.op_comment(ctx, project, issue), 201)

    @route("GET", "/api/search")
    def api_search(self, ctx: Ctx) -> Any:
        filters = self._filters(ctx)
        return Json(self._found(ctx, self._visible(ctx), filters))


SERVICE_KINDS.register(Issues.name, Issues())

"""What the service tests share: a client for one site from one machine of a world."""

from __future__ import annotations

import base64
import json
from urllib.parse import urlencode

from cwgym import World


class SiteClient:
    """http.v1 and the terminal of one machine of ``world``, speaking to the site at ``host``
    (a subclass names it); ``user`` signs a request in with Basic credentials ``user:pw``."""

    host = ""

    def __init__(self, world: World, machine: str = "reception") -> None:
        self.world, self.machine = world, machine
        user = next(c["user"] for c in world.definition()["computers"] if c["id"] == machine)
        self.env = world.environment({"actor": user, "machines": [machine], "actions": ["http.v1", "terminal.v1"],
                                      "observations": []})

    def run(self, command: str) -> dict:
        out = self.env.step([{"family": "terminal.v1", "op": "execute", "machine": self.machine, "payload": {"command": command}}])
        return out["outcomes"][0]["value"]

    def http(self, method: str, path: str, user: str | None = None, form: dict | None = None, js=None) -> tuple[int, str]:
        headers = {}
        body = ""
        if user:
            headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:pw".encode()).decode()
        if form is not None:
            headers["Content-Type"], body = "application/x-www-form-urlencoded", urlencode(form)
        if js is not None:
            headers["Content-Type"], body = "application/json", json.dumps(js)
        out = self.env.step([{"family": "http.v1", "op": "request", "machine": self.machine,
                              "payload": {"method": method, "url": self.host + path, "headers": headers, "body": body}}])
        value = out["outcomes"][0]["value"]
        return value["status"], bytes(value["body"]).decode()

    def api(self, method: str, path: str, user: str | None = None, **kw):
        status, text = self.http(method, path, user, **kw)
        return status, json.loads(text)

"""``chat``: a team chat like Mattermost or Rocket.Chat — one team with public and private
channels, threads, @mentions, direct messages and search. The model and every page come from
:mod:`cwgym.services._chat_engine`; this kind puts the team at the root of the site.

Routes (all but ``/`` need a signed-in user):

====== ================================== =================================================
GET    ``/``                              your channels and direct messages (a welcome when signed out)
GET    ``/channels``                      browse channels; the create-channel form
POST   ``/channels``                      create: ``name``, ``private`` (checkbox), ``topic``
GET    ``/c/{channel}``                   the channel's messages in order, with author and time
POST   ``/c/{channel}``                   post ``text`` (members only: ``403`` otherwise)
POST   ``/c/{channel}/join``              join a public channel
POST   ``/c/{channel}/leave``             leave it
POST   ``/c/{channel}/invite``            add ``user`` to a channel you are in
GET    ``/c/{channel}/t/{id}``            a thread; ``POST`` replies with ``text``
GET    ``/c/{channel}/m/{id}/edit``       edit form; ``POST`` saves ``text`` (only your own: ``403``)
POST   ``/c/{channel}/m/{id}/delete``     delete your own message
GET    ``/dm/{user}``                     direct messages with ``user`` (``POST``, ``/t/``, ``/m/`` as above)
GET    ``/people``                        everyone, to message
GET    ``/mentions``                      messages that mention you (``@you``, ``@channel``)
GET    ``/search?q=``                     search what you can see (``from:@user``, ``in:#channel``)
====== ================================== =================================================

JSON API: ``GET /api/channels``, ``GET /api/channels/{channel}/messages``, ``POST
/api/channels/{channel}/messages`` with ``{"text", "thread"?: id}`` (``201``). A private channel
is ``404`` to non-members; another's message is ``403`` to edit or delete.

``initial_state``::

    {"users": [{name, password, display?}],
     "brand"?: "Chat",
     "channels"?: [{"name", "private"?: false, "topic"?: "", "members"?: [user] (default: everyone),
                    "messages"?: [{"author", "text", "at_us"?: 0, "id"?, "edited"?: false,
                                   "thread"?: [{"author", "text", "at_us"?}]}]}],
     "dms"?: [{"members": [a, b], "messages"?: [...]}],
     "next_message"?: int}

The service stores channels and direct conversations as objects keyed by name (a world may
seed them in that shape too) and counts message ids in ``next_message``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from cwgym.net.services import SERVICE_KINDS
from cwgym.services._chat_engine import ChatEngine, MessageIds
from cwgym.services.framework import Ctx


class Chat(ChatEngine):
    name = "chat"
    title = "Chat"
    prefix = ""
    fields: ClassVar[dict[str, Any]] = {"brand": str, "channels": (list, dict), "dms": (list, dict), "next_message": int}

    def validate(self, state: dict, where: str, users: dict[str, dict], definition: Any = None) -> dict:
        brand = self.check_brand(state, where)
        ids = MessageIds()
        space = self.check_space(state, where, users, ids)
        return {"brand": brand, **space, "next_message": ids.settle(state.get("next_message", 1))}

    def space_path(self, ctx: Ctx) -> tuple[str, ...]:
        return ()

    def base(self, ctx: Ctx) -> str:
        return ""


SERVICE_KINDS.register(Chat.name, Chat())

"""Action families: what an envelope's ``family`` names, dispatched by ``op``.

A family is an object with a ``version`` string and ``dispatch(ctx, op, payload)`` that
returns the outcome's ``value`` or raises :class:`~cwgym.protocol.errors.ActionError` (see
:mod:`cwgym.environment.extension`). The built-in families are the modules of this
package, each registering itself in :data:`FAMILIES`, so adding a family is adding a
module; owners add their own to one world with ``World.register_action_family``.

Three optional flags save work on every action. A family whose values share no object
with the world or a cache (built afresh on every call) may set ``owned = True``: the
runtime hands its value out as it is, and copies any other family's. One that refuses
(``invalid``, ``denied``) only before it has changed anything may set
``refuses_first = True``: the runtime then keeps no copy of the session to put back. One
that never reaches the session's desktop (no ``ctx.seat()``; the machine, network and
service layers below cannot) may set ``touches_desktop = False``: the desktop's part of
the action's effect is then looked at once, after the action.
"""

from __future__ import annotations

from cwgym.environment.extension import ActionContext, ActionFamily
from cwgym.kernel.registry import Registry
from cwgym.protocol import errors

__all__ = ["FAMILIES", "ActionContext", "ActionFamily", "invalid", "unsupported"]

#: The built-in action families, by name (``terminal.v1``, ...).
FAMILIES: Registry[ActionFamily] = Registry("action family", __name__)


def unsupported() -> errors.ActionError:
    return errors.ActionError(errors.INVALID, errors.UNSUPPORTED_OPERATION)


def invalid() -> errors.ActionError:
    return errors.ActionError(errors.INVALID)

"""``fbagent annotate --serve``: the Textual annotation app in a browser, for invited annotators only.

Rooms: :mod:`~fbagent.serve.tokens` (random tokens, hashes, lifetimes, names),
:mod:`~fbagent.serve.options` (what the server and each app process need),
:mod:`~fbagent.serve.server` (textual-serve's aiohttp server with sessions,
origin check, rate limit and process bounds, assembled from the route mixins
:mod:`~fbagent.serve.join` and :mod:`~fbagent.serve.apps`, which declare what
they use of it in :mod:`~fbagent.serve.host`), :mod:`~fbagent.serve.app_process`
(one annotate app process per browser tab), :mod:`~fbagent.serve.child` (the
entry point that process runs). Invites and sessions are stored by
:mod:`fbagent.store.invites`. Needs the ``serve`` extra (textual-serve, limits).

:class:`AnnotateServer` loads on first use (PEP 562): ``fbagent annotate`` imports this package (and its
light :mod:`.options`, :mod:`.tokens`), and textual-serve is an optional extra that its ``--help`` and
the terminal app must not need. Looking the name up raises ``ImportError`` (``.name``: the missing
package) when the ``serve`` extra is not installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fbagent.lean_imports import lazy_attributes

if TYPE_CHECKING:
    from fbagent.serve.server import AnnotateServer

#: module -> the names it defines (each loads with its module, on first use)
_MODULES = {
    "fbagent.serve.server": ("AnnotateServer",),
}
__all__ = ["AnnotateServer"]

__getattr__ = lazy_attributes(__name__, _MODULES)

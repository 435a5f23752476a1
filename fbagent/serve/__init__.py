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
"""

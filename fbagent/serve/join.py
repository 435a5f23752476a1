"""Invite links are redeemed only on purpose: a page of ours with one button, whose POST alone uses the link.

``GET /join?token=T`` (and ``HEAD``, as link previews of chat and mail
clients send) changes nothing: it shows "Start annotating as NAME", a form
that POSTs the token back with a CSRF token. Only that POST redeems the link,
and only when

- ``Origin`` is this server's origin and ``Sec-Fetch-Site`` (when sent) is
  ``same-origin``: a form on another site gets 403 and stores nothing;
- the CSRF token is :meth:`JoinForms.issue`'s for this link and this browser:
  an HMAC (SHA-256, a per-server random key) over the issue time, the link's
  hash and a random ``fbagent_join`` cookie (``HttpOnly; SameSite=Strict``,
  path ``/join``) set by the GET, valid :data:`FORM_MAX_AGE_S` seconds;
- a browser that holds a live session of *another* annotator confirmed the
  switch on our page (the POST then carries ``switch=1``; without it the
  answer is the question "signed in as X: switch to Y?"). A page elsewhere can
  never send that POST (first rule), so nobody is switched by a visit.

Non-document GETs started by another site (``<img src=".../join?...">``,
``Sec-Fetch-Dest`` other than ``document``) get 403 without a lookup and count
against nobody (:mod:`fbagent.serve.throttle`). A wrong link counts against its
address whatever the request's headers say (a ``Sec-Fetch-Site: cross-site`` or a
foreign ``Origin`` once bypassed the limit), and a cross-site request from an
address over its allowance gets 429 before any database lookup.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from datetime import datetime

import aiohttp_jinja2
from aiohttp import web

from fbagent.serve.host import ServerHost
from fbagent.serve.throttle import cross_site
from fbagent.serve.tokens import new_token, token_hash
from fbagent.store import invites

#: Seconds a join page's form stays valid.
FORM_MAX_AGE_S = 900
#: The session cookie (its value is the session id; the database keeps its SHA-256).
COOKIE = "fbagent_session"
#: The cookie that binds a join form to the browser that loaded it.
JOIN_COOKIE = "fbagent_join"
JOIN_TEMPLATE = "join.html"
#: The page that answers a good link: sets the cookie and moves to ``/`` with a same-origin
#: navigation. A 303 would not do: a SameSite=Strict cookie is not sent on a redirect that
#: follows a navigation started on another site (a link clicked in a web mail), so ``/`` would get 401.
JOINED_TEMPLATE = "joined.html"
#: Content-Security-Policy of the join page: no script at all; the form may post to this origin only.
JOIN_CSP = ("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none';"
            " base-uri 'none'")


class JoinForms:
    """Issues and checks the CSRF tokens of join forms (see the module doc); the key lives as long as the server."""

    def __init__(self, key: bytes | None = None, max_age_s: int = FORM_MAX_AGE_S) -> None:
        self.key = key or secrets.token_bytes(32)
        self.max_age_s = max_age_s

    def _mac(self, issued: int, binding: str, link_hash: str) -> str:
        return hmac.new(self.key, f"{issued}:{binding}:{link_hash}".encode(), hashlib.sha256).hexdigest()

    def issue(self, binding: str, link_hash: str, now: float | None = None) -> str:
        """The CSRF token of a form for the link ``link_hash`` shown to the browser holding ``binding``: ``ISSUED.HMAC``."""
        issued = int(time.time() if now is None else now)
        return f"{issued}.{self._mac(issued, binding, link_hash)}"

    def check(self, csrf: str, binding: str, link_hash: str, now: float | None = None) -> bool:
        """True when ``csrf`` was issued by this server for this link and browser, at most ``max_age_s`` ago."""
        issued_text, _, mac = csrf.partition(".")
        if not binding or not issued_text.isdigit() or len(issued_text) > 12:
            return False
        issued = int(issued_text)
        age = (time.time() if now is None else now) - issued
        return 0 <= age <= self.max_age_s and hmac.compare_digest(mac, self._mac(issued, binding, link_hash))


def new_binding() -> str:
    """A fresh value for the :data:`JOIN_COOKIE` cookie."""
    return secrets.token_urlsafe(24)


class JoinRoutes(ServerHost):
    """``GET``/``HEAD``/``POST /join`` of :class:`fbagent.serve.server.AnnotateServer` (a mixin: what it uses of the
    server is declared by :class:`~fbagent.serve.host.ServerHost`, and ``forms`` here)."""

    forms: JoinForms  # set by AnnotateServer

    async def _live_session(self, request: web.Request) -> invites.WebSession | None:
        """The live session of the request's cookie, or None (a wrong cookie here counts against nobody)."""
        cookie = request.cookies.get(COOKIE)
        if not cookie or len(cookie) > 200:
            return None
        state = await self._in_db(invites.session_state, token_hash(cookie))
        return state if isinstance(state, invites.WebSession) else None

    async def _wrong_link(self, request: web.Request, reason: str, token: str, counted: bool) -> web.Response:
        """401 for a link that does not let the browser in; 429 with Retry-After once its address is over the limit."""
        wait = self.throttle.wrong(self.address(request), token) if counted else None
        if wait is not None:
            return self._refuse(request, 429, "too many wrong links or cookies from this address", retry_after=wait)
        return self._refuse(request, 401, reason)

    async def handle_join_page(self, request: web.Request) -> web.StreamResponse:
        """GET/HEAD: the "Start annotating as NAME" page of an open link (writes nothing)."""
        foreign = cross_site(request.headers, self.origin)
        if foreign and request.headers.get("Sec-Fetch-Dest", "document") != "document":
            return self._refuse(request, 403, "an invite link opens only as a page")
        token = request.query.get("token", "")
        if not 0 < len(token) <= 200:
            return await self._wrong_link(request, invites.UNKNOWN, token, counted=True)
        wait = self.throttle.prefix_wait(token)
        if wait is not None:
            return self._refuse(request, 429, "too many wrong tries of this link", retry_after=wait)
        if foreign and self.throttle.address_wait(self.address(request)) is not None:   # over its allowance:
            return await self._wrong_link(request, invites.UNKNOWN, token, counted=True)   # no lookup, counted
        state = await self._in_db(invites.invite_state, token_hash(token))
        current = await self._live_session(request)
        if state.refused is not None:
            if current is not None and await self._in_db(invites.invite_of_session, current.id) == token_hash(token):
                return self._joined(request, current.annotator, None, None)  # her own link, reopened
            return await self._wrong_link(request, state.refused, token, counted=True)
        return self._join_form(request, token, state.annotator, current)

    def _join_form(self, request: web.Request, token: str, annotator: str,
                   current: invites.WebSession | None) -> web.Response:
        binding = request.cookies.get(JOIN_COOKIE) or ""
        fresh = not (0 < len(binding) <= 64)
        if fresh:
            binding = new_binding()
        other = current.annotator if current is not None and current.annotator != annotator else None
        context = {"annotator": annotator, "current": other, "token": token, "action": self.public_url + "/join",
                   "home": self.public_url + "/", "csrf": self.forms.issue(binding, token_hash(token))}
        response = aiohttp_jinja2.render_template(JOIN_TEMPLATE, request, context)
        response.headers["Content-Security-Policy"] = JOIN_CSP
        # "no-referrer" would make the browser send "Origin: null" with the form's POST; "same-origin" sends the
        # real origin to us and nothing (no Referer with the token) to any other site.
        response.headers["Referrer-Policy"] = "same-origin"
        if fresh:
            response.set_cookie(JOIN_COOKIE, binding, max_age=self.forms.max_age_s, path="/join", httponly=True,
                                samesite="Strict", secure=self.secure)
        return response

    async def handle_join_post(self, request: web.Request) -> web.StreamResponse:
        """POST from our join page: check origin and CSRF, ask before a switch, then redeem the link."""
        site = request.headers.get("Sec-Fetch-Site")
        if request.headers.get("Origin") != self.origin or site not in (None, "same-origin"):
            return self._refuse(request, 403, "an invite is used only from its own page on this server")
        form = await request.post()
        token, csrf = str(form.get("token", "")), str(form.get("csrf", ""))
        if not 0 < len(token) <= 200 or not self.forms.check(csrf, request.cookies.get(JOIN_COOKIE, ""), token_hash(token)):
            return self._refuse(request, 403, "this page has expired; open your invite link again")
        wait = self.throttle.prefix_wait(token)
        if wait is not None:
            return self._refuse(request, 429, "too many wrong tries of this link", retry_after=wait)
        current = await self._live_session(request)
        if current is not None and form.get("switch") != "1":
            state = await self._in_db(invites.invite_state, token_hash(token))
            if state.refused is None and state.annotator != current.annotator:
                return self._join_form(request, token, state.annotator, current)  # asked, never switched unasked
        session_token = new_token()
        result = await self._in_db(invites.redeem, token_hash(token), token_hash(session_token))
        if result.refused is not None:
            return await self._wrong_link(request, result.refused, token, counted=True)
        self.on_event("joined", {"annotator": result.annotator, "remote": self.address(request),
                                 "switched_from": None if current is None else current.annotator})
        response = self._joined(request, result.annotator, session_token, result.expires_at)
        response.del_cookie(JOIN_COOKIE, path="/join")
        return response

    def _joined(self, request: web.Request, annotator: str, session_token: str | None, expires_at: str | None) -> web.Response:
        """The page that lets ``annotator`` in; with a new session, its cookie (living until ``expires_at``)."""
        response = aiohttp_jinja2.render_template(JOINED_TEMPLATE, request, {"annotator": annotator, "next": self.public_url + "/"})
        if session_token is not None and expires_at is not None:
            max_age = int((datetime.fromisoformat(expires_at) - datetime.now(datetime.fromisoformat(expires_at).tzinfo)).total_seconds())
            response.set_cookie(COOKIE, session_token, max_age=max(max_age, 1), path="/", httponly=True,
                                samesite="Strict", secure=self.secure)
        return response

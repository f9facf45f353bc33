"""The HTTP/1.1 protocol `serve` runs: uvicorn's h11 protocol with a deadline for
request heads, so slow clients (slowloris) cannot hold connections open.

uvicorn closes a keep-alive connection that stays silent after a reply, but
any byte cancels that timer, and a fresh connection has none: a client sending
a header line now and then, or nothing at all, kept a connection forever.
Here every connection must deliver a complete request head within
`HEADER_TIMEOUT` seconds of connecting or of its previous reply; the body has
its own deadline in the app (`intake.read_body`).
"""

from __future__ import annotations

import asyncio
import logging

from uvicorn.protocols.http.h11_impl import H11Protocol

from okf_explorer.server.limits import HEADER_TIMEOUT

log = logging.getLogger(__name__)


class HeadDeadlineProtocol(H11Protocol):
    """`H11Protocol` that closes a connection with no request in hand at its deadline."""

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm()

    def on_response_complete(self) -> None:
        self._arm()  # before the base class starts any pipelined request
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(HEADER_TIMEOUT, self._head_overdue)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_overdue(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being answered; its body has its own deadline
        log.debug("closed a connection: no complete request head in %g s", HEADER_TIMEOUT)
        self.transport.close()

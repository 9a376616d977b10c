"""One queue for the trials of a suite whose cells play one after another.

With ``parallel_cells: 1`` a suite plays at most ``concurrency`` trials at once. Its cells
used to start strictly one after another, each once the last trial of the one before had
ended: at every cell's end a place (and with the embedded model, a server slot) stood idle
while that last trial played, and the next cell's first trial, which ingests its memory,
ran while no other trial did. Here every cell's trials wait for the same ``concurrency``
places, handed out in cell order and then trial order, so the next cell's trials start while
the last ones of the cell before still play. Two rules keep what playing the cells one by one
gave:

- a cell's first trial plays before its others: it ingests the memory the others reuse, so
  no trial waits for that ingestion while holding a place;
- the cells' first trials play in cell order, each once the one before ended, so two memories
  are never ingested at once (they may embed the same turns).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field

from cogarch.core.backend import TrialSpec


@dataclass(eq=False)
class _Ticket:
    cell: int
    index: int
    granted: asyncio.Future[None] = field(repr=False)


class SuiteQueue:
    """``places`` places shared by the trials of ``cells`` cells (see the module).

    A cell's trials ask through :meth:`gate` (or :meth:`place`); the suite calls
    :meth:`close` once a cell is over (played, resumed with nothing left, or unable to
    start), so the cells after it do not wait for its first trial.
    """

    def __init__(self, places: int, cells: int) -> None:
        if places < 1:
            raise ValueError(f"a suite plays at least one trial at a time, got {places}")
        self._free = places
        self._cells = cells
        self._waiting: list[_Ticket] = []
        self._lead: dict[int, _Ticket] = {}
        self._led: set[int] = set()
        """Cells whose first trial ended, or that are over."""

    def gate(self, cell: int) -> CellGate:
        """What the trials of cell number ``cell`` (in the suite's order) ask places of."""
        if not 0 <= cell < self._cells:
            raise ValueError(f"the suite has {self._cells} cells, not a cell {cell}")
        return CellGate(self, cell)

    def close(self, cell: int) -> None:
        """Cell ``cell`` plays no more trials: the cells after it need not wait for it."""
        self._led.add(cell)
        self._pump()

    @property
    def waiting(self) -> int:
        """Trials waiting for a place."""
        return len(self._waiting)

    @asynccontextmanager
    async def place(self, cell: int, index: int) -> AsyncIterator[None]:
        """Hold a place for trial ``index`` of cell ``cell`` (waiting for one first)."""
        ticket = _Ticket(cell, index, asyncio.get_running_loop().create_future())
        self._lead.setdefault(cell, ticket)
        self._waiting.append(ticket)
        self._pump()
        try:
            await ticket.granted
        except BaseException:
            self._leave(ticket)
            raise
        try:
            yield
        finally:
            self._leave(ticket)

    def _leave(self, ticket: _Ticket) -> None:
        if ticket in self._waiting:
            self._waiting.remove(ticket)
            if not ticket.granted.done():
                ticket.granted.cancel()
        elif ticket.granted.done() and not ticket.granted.cancelled():
            self._free += 1
        if self._lead.get(ticket.cell) is ticket:
            self._led.add(ticket.cell)
        self._pump()

    def _ready(self, ticket: _Ticket) -> bool:
        if self._lead.get(ticket.cell) is ticket:
            return all(c in self._led for c in range(ticket.cell))
        return ticket.cell in self._led

    def _pump(self) -> None:
        while self._free > 0:
            ready = [t for t in self._waiting if self._ready(t)]
            if not ready:
                return
            ticket = min(ready, key=lambda t: (t.cell, t.index))
            self._waiting.remove(ticket)
            self._free -= 1
            ticket.granted.set_result(None)


class CellGate:
    """One cell's way into a :class:`SuiteQueue`: ``async with gate.place(spec)``."""

    def __init__(self, queue: SuiteQueue, cell: int) -> None:
        self.queue = queue
        self.cell = cell

    def place(self, spec: TrialSpec) -> AbstractAsyncContextManager[None]:
        """Hold a place while the trial ``spec`` plays (waiting for one first)."""
        return self.queue.place(self.cell, spec.index)

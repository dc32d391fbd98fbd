"""A table's driver whose decisions go out and come back, as a networked one's do."""

from __future__ import annotations

from crownp2p.core.record import Record
from crownp2p.shell.solo import SOLO_COMMANDS


class WireDriver:
    """A driver whose other seat's decisions arrive from outside (:meth:`receive`): it applies
    every decision itself and tells the table of each step. ``held``: the seat's own decisions
    wait too, until the test delivers them (:meth:`deliver`; the table types ahead meanwhile)."""

    seat = 0
    who = {0: "you"}
    commands = SOLO_COMMANDS
    intro: list[str] = []
    leaving_resigns = False

    def __init__(self, g, *, held=False):
        self.game = g
        self.record = Record.begin(g, state=g.to_json())
        self.sent = []
        self.held = held
        self.pending = False  # a decision of the seat's, sent and not back yet

    @property
    def over(self):
        return self.game.over

    def start(self, table):
        self.table = table

    def legal(self):
        mine = not self.pending and self.game.prompt().seat == self.seat
        return self.game.legal() if mine else []

    def submit(self, decision):
        self.sent.append(decision)
        if self.held:
            self.pending = True
        else:
            self.apply(decision)

    def deliver(self):
        """The seat's decision sent last comes back: it is applied, and the table asked on."""
        self.pending = False
        self.apply(self.sent[-1])
        if self.game.prompt().seat == self.seat:
            decision = self.table.decide(self.game, self.seat)
            if decision is not None:
                self.submit(decision)

    def receive(self, decision):
        self.apply(decision)
        self.table.tell()

    def apply(self, decision):
        step = self.record.apply(self.game, decision)
        self.table.observe(self.game, step)

    def status(self):
        return None

    def leave(self):
        pass

    def clock(self):
        return None

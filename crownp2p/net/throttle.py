"""Throttles: join tries per address (:class:`Throttle`), chat per seat (:class:`Rate`).

Join tries cost time: a growing pause per address before its next try.

With SPAKE2 a code can only be tried online, one connection per guess; this makes each guess
past the first few slow. Every try is charged when it begins (so opening many connections at
once gains nothing) and an address that proves the code is forgotten. A few free tries leave
room for typing mistakes and for several players on one machine; past them the pause doubles
with every try, up to a ceiling. Memory is bounded: only the most recent addresses are kept.
"""

from __future__ import annotations

from collections import OrderedDict


class Throttle:
    FREE_TRIES = 4  # tries with no pause after them
    FIRST_PAUSE = 1.0  # seconds after the first try past the free ones, doubling after each
    MAX_PAUSE = 60.0
    REMEMBERED = 1024  # addresses kept; the least recently seen is forgotten first

    def __init__(self) -> None:
        self._tries: OrderedDict[str, tuple[int, float]] = OrderedDict()  # (tries, not before)

    def begin(self, address: str, now: float) -> float:
        """Charge a try to ``address`` and return 0, or return how long it must still wait
        (that try is refused, and not charged)."""
        tries, not_before = self._tries.pop(address, (0, now))
        if now < not_before:
            self._tries[address] = (tries, not_before)
            return not_before - now
        tries += 1
        extra = tries - self.FREE_TRIES
        pause = 0.0 if extra <= 0 else min(self.MAX_PAUSE, self.FIRST_PAUSE * 2 ** (extra - 1))
        self._tries[address] = (tries, now + pause)
        while len(self._tries) > self.REMEMBERED:
            self._tries.popitem(last=False)
        return 0.0

    def tries(self, address: str) -> int:
        return self._tries.get(address, (0, 0.0))[0]

    def proved(self, address: str) -> None:
        """``address`` knew the code: its tries are forgiven."""
        self._tries.pop(address, None)


class Rate:
    """A token bucket: at most ``burst`` at once, refilled at ``per_second``. Time is given,
    never read, so the lockstep stays deterministic."""

    def __init__(self, per_second: float, burst: int) -> None:
        self.per_second = per_second
        self.burst = burst
        self.tokens = float(burst)
        self.last = 0.0
        self.limited = False  # set by the caller once it has told of an outburst

    def allow(self, now: float) -> bool:
        """Whether one more may pass at ``now`` (then it is charged)."""
        elapsed = max(0.0, now - self.last)
        self.tokens = min(float(self.burst), self.tokens + elapsed * self.per_second)
        self.last = now
        if self.tokens == self.burst:
            self.limited = False  # slowed down for long enough: a new outburst is told again
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

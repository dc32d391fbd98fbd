"""Which boards a King and a Rook (or Queen) can force a win from against a lone King that may
pass, solved exactly under this game's rules.

    python bench/lone_king.py [R|Q] [--no-pass]

There is no check rule here: a side wins by taking the other's last King, a King may step into
attack (and is then taken), and either side may pass its orders. So what chess wins by zugzwang
may not be won at all. A counting retrograde analysis over every board (our King, our piece,
their King, either side to move; each side's options: a pass, a King step, and for us the
piece's moves) finds the boards from which we take their King however they play, and how many of
our orders that takes. What docs/shell.md says about the hunt's lone-King endings comes from
here. With ``--no-pass`` neither side may pass, and the solve gives chess's King and Rook back
(every board won, in at most 16 moves and then the capture): a check of the solve itself. (King
and Queen take at most 8 moves, not chess's 10: a King left only steps into attack is taken
here, where chess calls it stalemate.) The last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import deque

SQUARES = range(64)
STRAIGHT = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
STEPS = [
    [
        (s % 8 + df) + 8 * (s // 8 + dr)
        for df in (-1, 0, 1)
        for dr in (-1, 0, 1)
        if (df or dr) and 0 <= s % 8 + df < 8 and 0 <= s // 8 + dr < 8
    ]
    for s in SQUARES
]


def slides(frm: int, directions: tuple[tuple[int, int], ...], stops: tuple[int, int]) -> list[int]:
    """The squares a rider on ``frm`` reaches, each line ending on the first of ``stops``."""
    out = []
    for df, dr in directions:
        f, r = frm % 8 + df, frm // 8 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            t = f + 8 * r
            out.append(t)
            if t in stops:
                break
            f, r = f + df, r + dr
    return out


def board(king: int, piece: int, theirs: int) -> int:
    return (king * 64 + piece) * 64 + theirs


def squares_of(b: int) -> tuple[int, int, int]:
    return b // 4096, (b // 64) % 64, b % 64


def solve(piece: str, passing: bool = True) -> dict[str, int]:
    directions = STRAIGHT + (DIAGONAL if piece == "Q" else ())
    size = 64**3
    ours_won = bytearray(size)  # we are to move and win
    theirs_lost = bytearray(size)  # they are to move and lose
    orders: dict[int, int] = {}  # ours_won boards: our orders to the capture
    options: dict[int, int] = {}  # their boards that may be lost: options not yet seen lost
    queue: deque[int] = deque()
    for king in SQUARES:
        for at in SQUARES:
            if at == king:
                continue
            for them in SQUARES:
                if them in (king, at):
                    continue
                b = board(king, at, them)
                if them in STEPS[king] or them in slides(at, directions, (king, them)):
                    ours_won[b], orders[b] = 1, 1  # we take their King now
                    queue.append(b)
                if king in STEPS[them] or (at in STEPS[them] and at not in STEPS[king]):
                    continue  # they take our King, or our undefended piece: never lost for them
                # A pass, and each step but onto our defended piece (taken back: lost at once).
                options[b] = passing + sum(1 for t in STEPS[them] if t != at)
    while queue:
        won = queue.popleft()
        king, at, them = squares_of(won)
        # Their boards with an option that leads here: a pass, or a step onto ``them``.
        steps = [board(king, at, s) for s in STEPS[them] if s not in (king, at)]
        for b in [won, *steps] if passing else steps:
            left = options.get(b)
            if left is None or theirs_lost[b]:
                continue
            options[b] = left - 1
            if left > 1:
                continue
            theirs_lost[b] = 1
            k, p, t = squares_of(b)
            # Our boards with an order that leads there: a King step, a piece move, a pass.
            before = [board(s, p, t) for s in STEPS[k] if s not in (p, t)]
            before += [board(k, s, t) for s in slides(p, directions, (k, t)) if s not in (k, t)]
            if passing:
                before.append(b)
            for a in before:
                if not ours_won[a]:
                    ours_won[a], orders[a] = 1, orders[won] + 1
                    queue.append(a)
    valid = [b for b in range(size) if len(set(squares_of(b))) == 3]
    open_boards = [b for b in valid if orders.get(b) != 1]  # no capture at once
    won_boards = [b for b in open_boards if ours_won[b]]
    return {
        "boards": len(open_boards),
        "won": len(won_boards),
        "most_orders": max((orders[b] for b in won_boards), default=0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("piece", nargs="?", choices=("R", "Q"), default="R")
    parser.add_argument("--no-pass", action="store_true", help="neither side may pass (chess)")
    args = parser.parse_args()
    start = time.process_time()
    result = solve(args.piece, passing=not args.no_pass)
    name = {"R": "Rook", "Q": "Queen"}[args.piece]
    may = "may not" if args.no_pass else "may"
    print(
        f"King and {name} against a lone King that {may} pass, we to move, no capture at once: "
        f"{result['won']:,} of {result['boards']:,} boards won, the longest in "
        f"{result['most_orders']} orders (solved in {time.process_time() - start:.1f} s CPU)"
    )
    print(json.dumps({"piece": args.piece, "passing": not args.no_pass, **result}))


if __name__ == "__main__":
    main()

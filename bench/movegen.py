"""Move-generation benchmark: crownp2p's ``Position.all_moves`` against python-chess.

Both engines generate every pseudo-legal move (no check test) of one side in ~20 fixed positions
made of the six orthodox pieces only. Castling rights and en-passant squares are stripped from the
python-chess boards, so both produce the same kind of moves: marches and captures by the pieces'
normal rules. The positions have no pawn on rank 1 or 8 (our pawns may double-step from their
first rank) and no pawn able to promote (python-chess yields four moves per promotion, we yield
one); the count check below still counts promotions once, should a position gain one.

Run::

    /work/venv/bin/python bench/movegen.py            # full run, ~20 s
    /work/venv/bin/python bench/movegen.py --quick    # short run, ~3 s

The last line printed is JSON: {"ours_moves_per_s": ..., "chess_moves_per_s": ..., "ratio": ...}.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections.abc import Callable

import chess

from crownp2p.core.position import Position
from crownp2p.core.standard import unit_registry

GOAL = 1.0  # issue 14: at least on par

# (name, board field). Castling and en-passant fields are left out on purpose.
POSITIONS: list[tuple[str, str]] = [
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
    ("perft 2 'Kiwipete'", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R"),
    ("perft 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8"),
    ("perft 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1"),
    ("Italian Game, 3.Bc4", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R"),
    ("Ruy Lopez, 3.Bb5", "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R"),
    ("Sicilian Najdorf, 5...a6", "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R"),
    ("Queen's Gambit Declined, 4.Bg5", "rnbqkb1r/ppp2ppp/4pn2/3p2B1/2PP4/2N5/PP2PPPP/R2QKBNR"),
    ("King's Indian, 5.Nf3 O-O", "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP2BPPP/R1BQK2R"),
    ("open middlegame, queens on", "r2q1rk1/pp2bppp/2n1bn2/3p4/3P4/2NBBN2/PP3PPP/R2Q1RK1"),
    ("middlegame, opposite castling", "2kr3r/ppp2ppp/2n1bn2/2bqp3/8/2NPBN2/PPP1QPPP/R4RK1"),
    ("queen and rooks, many lines", "3r1rk1/1q3ppp/p3p3/1p1n4/3P4/P2B1Q2/1P3PPP/2R2RK1"),
    ("Lucena position", "1K1k4/1P6/8/8/8/8/r7/2R5"),
    ("Philidor position", "4k3/8/r7/4PK2/8/8/8/3R4"),
    ("king and pawn vs king", "8/8/8/4k3/8/4K3/4P3/8"),
    ("Lasker-Reichhelm (Fine 70)", "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7"),
    ("Reti study", "7K/8/k1P5/7p/8/8/8/8"),
    ("bishop and knight mate", "8/8/8/4k3/8/8/8/KBN5"),
    ("queen vs rook", "8/8/3k4/8/8/2Q5/8/K2r4"),
    ("rook and minor pieces endgame", "8/5pk1/4pnp1/1p1b3p/1P1B3P/4PNP1/5PK1/2R1r3"),
]

SEATS = (0, 1)  # 0 = white (upper case), 1 = black (lower case)
COLOURS = {0: chess.WHITE, 1: chess.BLACK}


def pin_to_one_core() -> str:
    """Run on a single CPU when the platform allows it; returns a note for the report."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        try:
            os.sched_setaffinity(0, {cpus[-1]})
            return f"pinned to CPU {cpus[-1]}"
        except OSError as exc:
            return f"not pinned ({exc})"
    return "not pinned (no sched_setaffinity)"


def chess_board(board_field: str, seat: int) -> chess.Board:
    board = chess.Board(f"{board_field} w - - 0 1")
    board.turn = COLOURS[seat]
    board.castling_rights = chess.BB_EMPTY
    board.ep_square = None
    return board


def check_positions() -> list[str]:
    """Problems with the fixed set itself: pawns on a back rank, or a possible promotion."""
    problems = []
    for name, fen in POSITIONS:
        board = chess.Board(f"{fen} w - - 0 1")
        if board.pawns & chess.BB_BACKRANKS:
            problems.append(f"{name}: a pawn stands on rank 1 or 8")
        for seat in SEATS:
            if any(m.promotion for m in chess_board(fen, seat).generate_pseudo_legal_moves()):
                problems.append(f"{name}: seat {seat} has a promotion (counted once below)")
    return problems


def count_check() -> tuple[int, int]:
    """Compare both engines' moves once, per position and side. Returns (cases, mismatches)."""
    registry = unit_registry()
    cases = mismatches = 0
    for name, fen in POSITIONS:
        pos = Position.from_fen(fen, registry)
        for seat in SEATS:
            cases += 1
            ours = [(m.frm, m.to) for m in pos.all_moves(seat)]
            theirs_all = list(chess_board(fen, seat).generate_pseudo_legal_moves())
            # A promotion is one move for us, four for python-chess: count each (from, to) once.
            theirs = {(m.from_square, m.to_square) for m in theirs_all}
            if len(ours) != len(theirs) or set(ours) != theirs:
                mismatches += 1
                only_ours = sorted(set(ours) - theirs)
                only_theirs = sorted(theirs - set(ours))
                print(
                    f"COUNT MISMATCH: {name!r} seat {seat} "
                    f"({'white' if seat == 0 else 'black'}): ours {len(ours)}, "
                    f"python-chess {len(theirs)} (promotions counted once)"
                )
                if len(ours) != len(set(ours)):
                    print("    ours has duplicate (from, to) pairs")
                if only_ours:
                    print("    only ours:", " ".join(_uci(f, t) for f, t in only_ours))
                if only_theirs:
                    print("    only python-chess:", " ".join(_uci(f, t) for f, t in only_theirs))
    return cases, mismatches


def _uci(frm: int, to: int) -> str:
    return chess.square_name(frm) + chess.square_name(to)


def make_ours() -> tuple[Callable[[], int], int]:
    registry = unit_registry()
    jobs = [(Position.from_fen(fen, registry), seat) for _, fen in POSITIONS for seat in SEATS]

    def one_pass() -> int:
        n = 0
        for pos, seat in jobs:
            n += len(pos.all_moves(seat))
        return n

    return one_pass, one_pass()


def make_theirs() -> tuple[Callable[[], int], int]:
    boards = [chess_board(fen, seat) for _, fen in POSITIONS for seat in SEATS]

    def one_pass() -> int:
        n = 0
        for board in boards:
            n += len(list(board.generate_pseudo_legal_moves()))
        return n

    return one_pass, one_pass()


def calibrate(one_pass: Callable[[], int], target_s: float) -> int:
    """How many passes make a round of about ``target_s`` seconds."""
    reps = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(reps):
            one_pass()
        elapsed = time.perf_counter() - t0
        if elapsed >= target_s / 4:
            return max(1, round(reps * target_s / elapsed))
        reps *= 2


def best_time(one_pass: Callable[[], int], reps: int, rounds: int) -> float:
    """Best (smallest) wall time of ``rounds`` rounds of ``reps`` passes each."""
    best = float("inf")
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(rounds):
            t0 = time.perf_counter()
            for _ in range(reps):
                one_pass()
            best = min(best, time.perf_counter() - t0)
    finally:
        if gc_was_enabled:
            gc.enable()
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (a few seconds)")
    args = parser.parse_args(argv)
    round_s, rounds = (0.15, 3) if args.quick else (1.0, 7)

    print(f"python {sys.version.split()[0]}, python-chess {chess.__version__}, {pin_to_one_core()}")
    print(f"{len(POSITIONS)} positions x {len(SEATS)} sides = {len(POSITIONS) * len(SEATS)} cases")

    for problem in check_positions():
        print("POSITION NOTE:", problem)
    cases, mismatches = count_check()
    if mismatches:
        print(f"count check: {mismatches} of {cases} cases DISAGREE (see lines above)")
    else:
        print(f"count check: all {cases} cases agree (same (from, to) move sets)")

    ours_pass, ours_per_pass = make_ours()
    theirs_pass, theirs_per_pass = make_theirs()
    print(f"moves per pass: ours {ours_per_pass}, python-chess {theirs_per_pass}")

    ours_reps = calibrate(ours_pass, round_s)
    theirs_reps = calibrate(theirs_pass, round_s)
    ours_t = best_time(ours_pass, ours_reps, rounds)
    theirs_t = best_time(theirs_pass, theirs_reps, rounds)

    ours_rate = ours_per_pass * ours_reps / ours_t
    theirs_rate = theirs_per_pass * theirs_reps / theirs_t
    ratio = ours_rate / theirs_rate
    cases_n = len(POSITIONS) * len(SEATS)
    print(
        f"ours:         {ours_rate:12,.0f} moves/s  "
        f"({ours_t / ours_reps / cases_n * 1e6:7.2f} us per all_moves call; "
        f"best of {rounds} x {ours_reps} passes)"
    )
    print(
        f"python-chess: {theirs_rate:12,.0f} moves/s  "
        f"({theirs_t / theirs_reps / cases_n * 1e6:7.2f} us per generation; "
        f"best of {rounds} x {theirs_reps} passes)"
    )
    print(f"ratio (ours / python-chess): {ratio:.3f}")
    print(f"goal: ratio >= {GOAL}  -> {'met' if ratio >= GOAL else 'NOT met'}")
    print(
        json.dumps(
            {
                "ours_moves_per_s": round(ours_rate, 1),
                "chess_moves_per_s": round(theirs_rate, 1),
                "ratio": round(ratio, 4),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

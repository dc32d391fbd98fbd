"""bench/lone_king.py, the exact solve behind what docs/shell.md says of lone-King endings, checked
against what chess knows: with passing ruled out, a King and a Rook win from every board."""

from __future__ import annotations

from benches import bench


def test_without_passing_a_king_and_rook_win_every_board_as_in_chess() -> None:
    # Chess's longest King-and-Rook win is 16 moves to mate; here the capture is one order more.
    result = bench("lone_king").solve("R", passing=False)
    assert result["won"] == result["boards"] > 0
    assert result["most_orders"] == 17


def test_a_king_that_may_pass_holds_most_boards_against_king_and_rook() -> None:
    result = bench("lone_king").solve("R")
    assert (result["won"], result["boards"]) == (2_804, 175_168)

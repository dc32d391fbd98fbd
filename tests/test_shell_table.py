"""A table without the terminal: lines in, replies out (solo games, and the seam a networked
table uses)."""

from __future__ import annotations

import random

from scenario import RULES, game
from wire import WireDriver

from crownp2p.core.decisions import decision_text
from crownp2p.core.record import Record, verify
from crownp2p.core.setup import Setup
from crownp2p.shell.render import plain
from crownp2p.shell.solo import LocalDriver, solo_table
from crownp2p.shell.table import Table

FIRST_GAME = Setup()


def solo(seat: int = 0, seed: int = 4, bot: str = "greedy") -> Table:
    table = solo_table(RULES, FIRST_GAME, seat=seat, bot=bot, seed=seed)
    table.opening()  # as the terminal does: what happened before the first prompt is told
    return table


def scripted(t: Table, *lines: str) -> list[str]:
    out: list[str] = []
    for line in lines:
        reply = t.handle(line)
        if reply.news:
            out.append(plain(reply.news))
        out.extend(reply.lines)
    return out


def test_blue_moves_first_and_the_bot_answers():
    t = solo()
    assert t.status() == "Order 1 of 1: march or end orders"
    said = scripted(t, "end", "end", "treasure all", "buy Champion")
    assert said[2] == "blue: plays Peon (treasure) ×3"  # every Treasure, in one line
    assert "blue: buys Champion" in said[3] and "—— turn 1: gold ——" in said[3]
    assert "gold: " in said[3]  # the bot's turn, told as it happened
    assert t.game.turn == 3 and t.legal()


def test_as_gold_the_bot_moves_first_and_the_board_is_turned():
    t = solo_table(RULES, FIRST_GAME, seat=1, seed=4)
    opening = plain(t.opening().news)
    assert "You play gold (lower case) against blue (greedy bot)" in opening
    assert "—— turn 1: blue ——" in opening and "blue: buys" in opening
    assert t.game.active == 1 and t.legal()
    lines = plain(t.screen()).splitlines()
    assert lines[0].strip() == "h g f e d c b a" and lines[1].startswith(" 1 ")


def test_a_mistake_is_one_line_and_the_game_carries_on():
    t = solo()
    before = len(t.record.steps)
    for line in ("fly away", "e2e4", "buy Tower", "hlep", "deploy Knight b1"):
        reply = t.handle(line)
        assert len(reply.lines) == 1 and "\n" not in reply.lines[0], line
        assert not reply.redraw and not reply.quit
    assert "Did you mean `help`?" in t.handle("hlep").lines[0]
    assert len(t.record.steps) == before
    assert scripted(t, "end")[0] == "blue: ends the order phase"


def test_help_cards_units_moves_and_log():
    t = solo()
    assert any("e2e4" in line for line in t.handle("help").lines)
    assert any(line.startswith("  undo") for line in t.handle("help").lines)
    assert t.handle("help stables").lines[0] == "Stables (cost 3)"
    assert t.handle("help Knight").lines[0].startswith("Knight (N): Mounted")
    assert t.handle("help Wombat").lines == ["There is no card or unit called 'Wombat'."]
    moves = t.handle("moves e1").lines
    assert moves[0] == "blue King on e1: Sovereign"
    assert moves[-1].startswith("  possible now: march e1")
    assert "march e1d1" in moves[-1]
    assert t.handle("moves e4").lines == ["There is no unit on e4."]
    assert t.handle("moves").lines[0].startswith("Usage")
    t.handle("end")
    assert t.handle("log 1").lines == ["blue: ends the order phase"]


def test_undo_takes_back_the_line_and_the_bots_reply_and_replays_the_same():
    t = solo()
    scripted(t, "end", "end", "treasure all", "buy Champion")
    after = t.game.state_hash()
    reply = t.handle("undo")
    assert reply.lines == ["Took back `buy Champion`."]
    assert t.game.turn == 1 and t.game.this_turn.phase == "buy" and t.game.this_turn.gold == 3
    scripted(t, "buy Champion")
    assert t.game.state_hash() == after  # the same shuffles and the same bot replies
    assert t.handle("undo").lines[0] == "Took back `buy Champion`."
    assert t.handle("undo").lines[0].startswith("Took back `treasure Peon`")  # all three
    assert t.game.this_turn.gold == 0
    scripted(t, "undo", "undo")
    assert t.handle("undo").lines == ["There is nothing of yours to undo."]
    assert t.game.turn == 1 and t.game.this_turn.phase == "order"


def test_undo_puts_back_what_a_search_bot_remembers():
    # The search bot remembers the boards its orders left (a side well ahead does not leave
    # one a third time) and the cards it knows lie on top of each deck: `undo` puts those back
    # with its random state, or it could decide otherwise the second time.
    t = solo(bot="normal", seed=5)
    bot = t.driver.bot
    before = bot.memory()
    scripted(t, "end", "end", "treasure all", "end")
    assert bot.left and bot.memory() != before  # its turn's orders are remembered
    scripted(t, "undo", "undo", "undo")
    assert bot.memory() == before


def test_order_n_of_m_counts_the_orders_a_card_adds():
    g = game(
        "4k3/8/8/8/8/8/4P3/R3K3",  # a Heavy Rook for Sanctuary
        hand=["Sanctuary", "Peon"],
        deck=["Peon", "Guard", "Peon"],
        piles=["Sanctuary"],
    )
    t = Table(LocalDriver(g, Record.begin(g, state=g.to_json()), seat=0))
    scripted(t, "play Sanctuary 2")
    assert t.status().startswith("Sanctuary: discard 2 card(s) (Tab lists the choices)")
    scripted(t, "discard Peon", "discard Guard")
    assert t.status() == "Order 2 of 2: march or end orders"
    scripted(t, "e2e4")
    assert t.status() == "Action 1 of 1: train a unit or end actions"


def test_the_game_ends_with_the_winner_and_the_player_may_leave(tmp_path):
    t = solo(seed=11, bot="greedy")
    rng = random.Random(11)
    said = []
    while not t.over:
        said += scripted(t, decision_text(rng.choice(t.legal())))
    assert said[-2].startswith("The game is over: ")
    assert said[-1] == "`log` shows the game, `save FILE` keeps it, `quit` leaves."
    assert t.handle("end").lines == [
        "The game is over: `log` reads it, `save FILE` keeps it, `quit` leaves."
    ]
    assert t.leave_question() is None  # nothing to lose now
    assert t.toolbar()[0][1].startswith(" game over: ")
    path = tmp_path / "game.jsonl"
    assert t.handle(f"save {path}").lines[0].startswith("Saved the record")
    assert verify(RULES, Record.load(path)).ok
    assert t.handle("quit").quit


def test_leaving_a_game_in_progress_asks_first():
    t = solo()
    assert "not saved" in t.leave_question()
    assert t.handle("exit").quit


def test_the_toolbar_shows_phase_counts_and_gold():
    t = solo()
    scripted(t, "end", "end", "treasure all")
    text = plain(t.toolbar())
    assert "turn 1: your turn · buy phase · orders 0 · actions 0 · buys 1 · gold 3" in text
    scripted(t, "buy Champion")
    text = plain(t.toolbar())
    assert "turn 2: your turn · order phase · orders 1 · actions 1 · buys 1 · gold 0" in text


# -------------------------------------------------------------------- the networked seam


def test_a_table_whose_opponent_is_outside():
    g = game("4k3/8/8/8/8/8/4P3/4K3", deck=["Peon"] * 5, opp_deck=["Peon"] * 5)
    wire = WireDriver(g)
    t = Table(wire)
    heard = []
    t.listen(heard.append)
    scripted(t, "e2e4")  # the last order: the empty action and buy phases pass by themselves
    assert wire.sent == [("march", "e2", "e4")]
    assert t.game.prompt().seat == 1
    reply = t.handle("end")
    assert reply.lines[0].startswith("It is gold's decision now.")
    assert t.legal() == []
    wire.receive(("march", "e8", "d8"))
    assert plain(heard[-1].news).startswith("gold: King e8–d8")
    assert heard[-1].redraw
    assert t.marks == [60, 59]  # e8 and d8 light up


def test_the_toolbar_shows_a_decision_clock_only_when_it_runs_low():
    from crownp2p.shell.toolbar import table_toolbar

    g = solo().game
    assert "left" not in plain(table_toolbar(g, 0, clock=(0, 31.0)))
    assert plain(table_toolbar(g, 0, clock=(0, 12.4))).startswith(" you have 12 s left ")
    assert plain(table_toolbar(g, 0, 20, clock=(1, 3.0))) == " gold has 3 s left "


def test_the_toolbar_fits_a_narrow_terminal():
    t = solo()
    wide, narrow = plain(t.toolbar(120)), plain(t.toolbar(60))
    assert "Tab choices" in wide
    assert len(narrow) <= 60 and "order · orders 1 · actions 1 · buys 1 · gold 0" in narrow


def test_a_driver_that_applies_decisions_itself_tells_the_table_of_each_step():
    g = game("4k3/8/8/8/8/8/4P3/4K3", counters={"orders": 2})
    t = Table(WireDriver(g))
    heard = []
    t.listen(heard.append)
    step = t.record.apply(g, ("march", "e2", "e4"))  # the session's own apply, not the table's
    t.observe(g, step)
    t.tell()
    (reply,) = heard
    assert plain(reply.news) == "blue: Pawn e2–e4"
    assert t.status() == "Order 2 of 2: march or end orders"
    assert t.marks == [12, 28]


def test_the_screen_marks_the_last_move_of_each_side():
    g = game("4k3/8/8/8/8/8/4P3/4K3", counters={"orders": 1})
    wire = WireDriver(g)
    t = Table(wire)
    scripted(t, "e2e4")
    wire.receive(("march", "e8", "d8"))
    lines = plain(t.screen()).splitlines()
    assert lines[1].startswith(" 8 · · ·*k*· · · · 8")  # theirs
    assert lines[5].startswith(" 4 · · · ·*P · · · 4")  # and ours, still
    assert lines[7].startswith(" 2 · · · ·*· · · · 2")
    wire.receive(("end",))
    assert plain(t.screen()).splitlines()[1].startswith(" 8 · · ·*k*· · · · 8")  # not by an end


def test_a_refused_order_to_the_shared_king_gives_the_partner_rule():
    from test_all_kings_men import SE, SW, TEAM, state

    g = state(TEAM, "K0d2 K1e8 P0a2", last_orders={SE: ["d2"]})
    t = Table(WireDriver(g))
    (said,) = t.handle("d2d3").lines
    assert said.startswith(
        "The King on d2 took your ally's order on their turn just before: you cannot order it now."
    )
    assert g.seat_name(SW) not in said


def test_the_status_line_says_an_attacked_sovereign_in_both_modes():
    t = Table(WireDriver(game("4k3/8/8/8/8/8/3p4/4K3", counters={"orders": 1})))
    assert (
        t.status() == "Your King on e1 is under attack. Order 1 of 1: march, attack, or end orders"
    )
    assert plain(t.screen(120)).splitlines()[-1] == t.status()

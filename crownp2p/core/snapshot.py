"""The game's full state as plain JSON data, and what one seat may see of it.

``to_json`` is the explicit state (docs/state.md): a test or the engine protocol can start a
game from any situation with ``Game.from_json``, which fills a fresh game with ``load``. Card
zones are written as card names; the engine's card ids are only positions and are assigned
again on loading. The hash covers this form. Everything here works on the game's data
(state.py), given the rules: the engine is built on this module, never the other way round.
"""

from __future__ import annotations

from typing import Any

from .board import parse_square, square_name
from .plain import from_plain, plain
from .position import Position, PositionError, Unit
from .rules import Rules
from .setup import Setup
from .state import Frame, GameState, Player
from .turn import TurnState

# The version of this form: a change that alters what is hashed bumps it (docs/state.md).
STATE_VERSION = 2
ZONES = ("deck", "hand", "discard", "in_play")


def to_json(g: GameState) -> dict[str, Any]:
    return {
        "version": STATE_VERSION,
        "setup": g.setup.to_json(),
        "piles": [list(p) for p in g.pile_lists],
        "turn": g.turn,
        "active": g.active,
        "this_turn": plain(g.this_turn),
        "board": [
            {
                "square": square_name(sq),
                "unit": u.kind.name,
                "owner": u.owner,
                "uid": u.uid,
                "uncapturable": u.uncapturable,
                "frozen": u.frozen,
            }
            for sq, u in g.position.units()
        ],
        "barracks": [sorted(k.name for k in b) for b in g.position.barracks],
        "players": [
            {zone: [g.cards[c] for c in getattr(p, zone)] for zone in ZONES} for p in g.players
        ],
        "supplies": [[[name, count] for name, count in s.items()] for s in g.supplies],
        "trash": [g.cards[c] for c in g.trash],
        "order_lock": list(g.order_lock),
        "stack": [f.to_json() for f in g.stack],
        "chance": dict(sorted(g.chance.items())) if g.chance else None,
        "next_uid": g.next_uid,
        "over": g.over,
        "winner": g.winner,
        "packs": {name: plain(state) for name, state in g.packs.items()},
    }


def setup_of(data: dict[str, Any]) -> Setup:
    """The setup an explicit state was made with (the state is loaded into a game of it)."""
    return Setup.from_json(data.get("setup", {"piles": []}))


def load(g: GameState, rules: Rules, data: dict[str, Any]) -> None:
    """Fill ``g``, fresh from ``setup_of(data)``, with an explicit state. Missing fields take
    their value at the start of a turn; ``fen`` may stand in for ``board`` and ``barracks``."""
    if "piles" in data:
        piles = data["piles"]
        if piles and all(isinstance(p, str) for p in piles):
            piles = [piles]  # one Supply's piles
        g.pile_lists = [list(p) for p in piles] or [[]]
    g.turn = int(data.get("turn", 1))
    g.active = int(data.get("active", 0))
    g.this_turn = from_plain(TurnState, data.get("this_turn", {}))
    if "fen" in data:
        g.position = Position.from_fen(data["fen"], rules.units, rules.seating)
        g.next_uid = 1 + max([u.uid for _, u in g.position.units()], default=0)
        for status in data.get("statuses", []):
            unit = g.position.board[parse_square(status["square"])]
            if unit is None:
                raise PositionError(f"no unit on {status['square']} to give a status to")
            unit.uncapturable = bool(status.get("uncapturable", False))
            unit.frozen = int(status.get("frozen", 0))
    else:
        g.position = Position(rules.units, rules.seating)
        next_uid = 1
        for entry in data.get("board", []):
            uid = int(entry.get("uid") or next_uid)
            next_uid = max(next_uid, uid + 1)
            unit = Unit(
                rules.units.get(entry["unit"]),
                int(entry["owner"]),
                uid,
                bool(entry.get("uncapturable", False)),
                int(entry.get("frozen", 0)),
            )
            g.position.board[parse_square(entry["square"])] = unit
        for seat, names in enumerate(data.get("barracks", [])):
            g.position.barracks[seat] = [rules.units.get(n) for n in names]
        g.next_uid = int(data.get("next_uid", next_uid))
    g.position.to_move = g.active
    g.players = []
    for seat in rules.seating.seats:
        zones = data.get("players", [])[seat] if seat < len(data.get("players", [])) else {}
        player = Player()
        for zone in ZONES:
            getattr(player, zone).extend(
                g.new_card(rules.cards.get(n).name) for n in zones.get(zone, [])
            )
        g.players.append(player)
    supplies = data.get("supplies") or ([data["supply"]] if "supply" in data else None)
    if supplies is not None:
        g.supplies = [{rules.cards.get(n).name: int(c) for n, c in s} for s in supplies]
    else:
        core = dict(g.setup.core_piles)
        g.supplies = [core | {n: g.setup.pile_size for n in piles} for piles in g.pile_lists]
    g.trash = [g.new_card(rules.cards.get(n).name) for n in data.get("trash", [])]
    g.order_lock = [int(x) for x in data.get("order_lock", [0] * len(g.players))]
    g.stack = [Frame.from_json(f) for f in data.get("stack", [])]
    g.chance = dict(data["chance"]) if data.get("chance") else None
    g.over = bool(data.get("over", False))
    g.winner = data.get("winner")
    packs = data.get("packs", {})
    g.packs = {name: from_plain(kind, packs.get(name, {})) for name, kind in rules.states.items()}


def public(g: GameState, rules: Rules) -> dict[str, Any]:
    """What every seat knows: the public view (``view(g, rules, None)``: hands and decks as
    counts, and each player's deck and hand together as ``unseen``, public by counting) and
    the cards in decks and hands that every seat has seen since (``shown``: a revealed top card
    kept, the card Wish found), by position. Nothing one seat alone knows, so no guess about a
    hidden card can be tested against its hash."""
    seen = view(g, rules, None)
    for p, entry in zip(g.players, seen["players"], strict=True):
        entry["shown"] = {
            zone: [[i, g.cards[c]] for i, c in enumerate(getattr(p, zone)) if c in g.shown]
            for zone in ("deck", "hand")
        }
    return seen


def view(g: GameState, rules: Rules, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see: its own hand (and allies' if the rules allow), every other hand
    only as a count, deck sizes but not their order, and everything public. (The engine adds
    the prompt and, for the seat to decide, the legal decisions: ``Game.view``.) With ``seat``
    None it is the public view, a spectator's: every hand only as a count, no glimpse.

    ``unseen`` lists, sorted, the cards of a player's deck and of a hand the seat does not see:
    public by counting, since every gain, trash and discard is seen by all and drawing only
    moves cards between the two."""
    full = to_json(g)
    players = []
    for other, p in enumerate(full["players"]):
        sees_hand = seat is not None and rules.sees_hand(seat, other)
        entry: dict[str, Any] = {
            "deck": len(p["deck"]),
            "hand_size": len(p["hand"]),
            "discard": p["discard"],
            "in_play": p["in_play"],
            "unseen": sorted(p["deck"] if sees_hand else p["deck"] + p["hand"]),
        }
        if sees_hand:
            entry["hand"] = p["hand"]
        players.append(entry)
    full["players"] = players
    turn = full["this_turn"]
    turn["glimpses"] = [x for x in turn["glimpses"] if x[0] == seat]
    full["seat"] = seat
    # Mid-card state may name cards drawn into a hand (Wish) or being revealed; keep only what
    # is public about the stack.
    full["stack"] = [
        {"card": f["card"], "seat": f["seat"], "kind": f["kind"]} for f in full["stack"]
    ]
    return full

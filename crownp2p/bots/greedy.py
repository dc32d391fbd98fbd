"""A one-look heuristic bot: takes material, guards its Sovereigns, builds an economy.

It scores each legal decision from the current state alone (no search, no copies of the game),
so it is cheap enough for long self-play runs; ties are broken by its seeded random source.
"""

from __future__ import annotations

from ..core.board import parse_square, relative_rank
from ..core.decisions import Decision
from ..core.game import Game
from ..core.position import Unit
from .base import Bot

UNIT_VALUES = {
    "Pawn": 1,
    "Striker": 1.5,
    "Immortal": 2,
    "Monk": 2,
    "Knight": 3,
    "Bishop": 3,
    "Spy": 3,
    "Oracle": 3,
    "Acolyte": 3,
    "Hero": 3,
    "Warlord": 4,
    "Charger": 4,
    "Nightrider": 4,
    "Rook": 5,
    "Phantom": 5,
    "Sniper": 5,
    "Gryphon": 6,
    "Banshee": 6,
    "Dragoon": 6,
    "Sphinx": 6,
    "Chancellor": 8,
    "Queen": 9,
}
SOVEREIGN_VALUE = 1000.0


def unit_value(unit_name: str, game: Game) -> float:
    kind = game.rules.units.get(unit_name)
    if kind.is_sovereign:
        return SOVEREIGN_VALUE
    return float(UNIT_VALUES.get(kind.name, 3))


def card_value(name: str, game: Game) -> float:
    """Rough worth of a card in the deck: its cost, plus what it trains."""
    card = game.card_type(name)
    trained = unit_value(card.trains, game) * card.train_count if card.trains else 0.0
    return card.cost + min(trained, 10.0)


class GreedyBot(Bot):
    name = "greedy"

    def decide(self, game: Game, seat: int) -> Decision:
        legal = game.legal()
        best: list[Decision] = []
        best_score = float("-inf")
        for decision in legal:
            score = self.score(game, seat, decision)
            if score > best_score:
                best, best_score = [decision], score
            elif score == best_score:
                best.append(decision)
        return self.rng.choice(best)

    # ------------------------------------------------------------------ scoring

    def score(self, game: Game, seat: int, d: Decision) -> float:
        verb = d[0]
        method = getattr(self, f"_score_{verb}", None)
        return method(game, seat, d) if method else 0.0

    def _unit(self, game: Game, square: str) -> Unit | None:
        return game.position.board[parse_square(square)]

    def _score_attack(self, game: Game, seat: int, d: Decision) -> float:
        target = self._unit(game, d[2])
        mover = self._unit(game, d[1])
        gain = unit_value(target.kind.name, game) if target else 0.0
        if target is None:  # a Charger running through: count what lies on its path
            gain = 2.0
        risk = escape = 0.0
        if mover is not None and mover.owner == seat:
            frm, to = parse_square(d[1]), parse_square(d[2])
            if target is not None and frm != to:
                if game.position.would_be_threatened(frm, to):
                    risk = unit_value(mover.kind.name, game)
                else:  # taking its attacker saves a unit as well as fleeing would
                    escape = self._escape(game, mover, frm)
        elif mover is not None:  # False Orders: an enemy unit of ours to move
            gain = -unit_value(target.kind.name, game) if target else 0.0
        return 100.0 + 10 * gain - 9 * risk + escape

    def _escape(self, game: Game, mover: Unit, frm: int) -> float:
        """What getting ``mover`` out of an enemy's reach is worth, if it is in one now: a
        Sovereign's above any capture."""
        if not game.position.would_be_threatened(frm, frm):
            return 0.0
        value = min(unit_value(mover.kind.name, game), 100.0)
        return 50.0 + value * (5 if mover.kind.is_sovereign else 1)

    def _score_march(self, game: Game, seat: int, d: Decision) -> float:
        mover = self._unit(game, d[1])
        if mover is None:
            return 0.0
        frm, to = parse_square(d[1]), parse_square(d[2])
        value = unit_value(mover.kind.name, game)
        if mover.owner != seat:  # moving an enemy unit (False Orders): into danger is good
            return 5.0 if game.position.would_be_threatened(frm, to) else 1.0
        danger_then = frm != to and game.position.would_be_threatened(frm, to)
        score = 0.0 if danger_then else self._escape(game, mover, frm)
        if danger_then:
            score -= 8 * min(value, 100.0) * (10 if mover.kind.is_sovereign else 1)
        if mover.kind.is_sovereign:
            return score - 3.0
        forward = game.rules.seating.forward(mover.owner)
        advance = relative_rank(to, forward) - relative_rank(frm, forward)
        return score + 2.0 + 0.5 * advance

    def _score_swap(self, game: Game, seat: int, d: Decision) -> float:
        return -1.0

    def _score_deploy(self, game: Game, seat: int, d: Decision) -> float:
        to = parse_square(d[2])
        value = unit_value(d[1], game)
        forward = game.rules.seating.forward(seat)
        return 20.0 + value + 0.2 * relative_rank(to, forward)

    def _score_play(self, game: Game, seat: int, d: Decision) -> float:
        card = game.card_type(d[1])
        effect = card.effects[int(d[2]) - 1]
        return 15.0 if effect.kind == "order" else 30.0

    def _score_train(self, game: Game, seat: int, d: Decision) -> float:
        card = game.card_type(d[1])
        trained = unit_value(card.trains or "Pawn", game) * card.train_count
        if card.cost >= 3 and game.turn < 8:
            return 5.0  # early on, a good treasure or action is worth more than its unit
        return 12.0 + trained

    def _score_treasure(self, game: Game, seat: int, d: Decision) -> float:
        return 50.0

    def _score_buy(self, game: Game, seat: int, d: Decision) -> float:
        return 10.0 + card_value(d[1], game)

    def _score_promote(self, game: Game, seat: int, d: Decision) -> float:
        return unit_value(d[1], game) if not game.rules.units.get(d[1]).is_sovereign else 8.0

    def _score_gain(self, game: Game, seat: int, d: Decision) -> float:
        return card_value(d[1], game)

    def _score_trash(self, game: Game, seat: int, d: Decision) -> float:
        return -card_value(d[1], game) if game.prompt().kind == "trash" else 1.0

    def _score_discard(self, game: Game, seat: int, d: Decision) -> float:
        return -card_value(d[1], game)

    def _score_topdeck(self, game: Game, seat: int, d: Decision) -> float:
        return card_value(game.hand_card_name(seat, d[1]), game)

    def _score_end(self, game: Game, seat: int, d: Decision) -> float:
        return 0.5 if game.prompt().kind == "buy" else 0.0

    def _score_protect(self, game: Game, seat: int, d: Decision) -> float:
        return 10.0

    def _score_morph(self, game: Game, seat: int, d: Decision) -> float:
        if d[1] == "barracks":
            return 5.0 - unit_value(d[2], game)
        unit = self._unit(game, d[1])
        return -unit_value(unit.kind.name, game) if unit else 0.0

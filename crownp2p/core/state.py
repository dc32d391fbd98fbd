"""The game's data and nothing else: the bottom layer of the engine.

:class:`GameState` is everything a game is at one moment — the board, the zones, the Supplies,
the turn, the card effects being resolved, what a variant's rules keep — and the few plain
operations on it that need no rules. The rules' policies (rules.py) read and change it; the
primitives card steps are made of (mechanics.py) and the engine loop (game.py) build on it.
Importing no rules, steps or engine is what lets every one of them name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from .cards import ORDER
from .decisions import IllegalDecision
from .keys import Key
from .plain import copied
from .position import FROZEN_NONE, Position
from .setup import Setup
from .turn import TurnState

T = TypeVar("T")
S = TypeVar("S", bound="GameState")


@dataclass
class Player:
    deck: list[int] = field(default_factory=list)  # card ids, top of the deck first
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    in_play: list[int] = field(default_factory=list)

    def copy(self) -> Player:
        return Player(list(self.deck), list(self.hand), list(self.discard), list(self.in_play))


@dataclass(slots=True)
class Frame:
    """A card effect (or a piece of the turn's machinery) being resolved."""

    card: str  # a card name, or "#setup", "#housekeeping", "#promote"
    effect: int  # index into the card's effects
    seat: int  # who plays it
    kind: str  # order, action, treasure, or system
    pc: int = 0  # the current step
    vars: dict[str, Any] = field(default_factory=dict)

    @property
    def as_order(self) -> bool:
        return self.kind == ORDER

    # What the steps share, only through declared keys (keys.py).

    def has(self, key: Key[Any]) -> bool:
        return key.name in self.vars

    def get(self, key: Key[T], default: T) -> T:
        return cast(T, self.vars.get(key.name, default))

    def value(self, key: Key[T]) -> T:
        """The value a step must have been given (a KeyError is a bug in the card)."""
        return cast(T, self.vars[key.name])

    def put(self, key: Key[T], value: T) -> None:
        self.vars[key.name] = value

    def drop(self, key: Key[Any]) -> None:
        self.vars.pop(key.name, None)

    def copy(self) -> Frame:
        return Frame(self.card, self.effect, self.seat, self.kind, self.pc, copied(self.vars))

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "effect": self.effect,
            "seat": self.seat,
            "kind": self.kind,
            "pc": self.pc,
            "vars": dict(sorted(self.vars.items())),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Frame:
        return cls(d["card"], d["effect"], d["seat"], d["kind"], d["pc"], dict(d["vars"]))


class GameState:
    """A game's data. ``position`` comes with the seats; ``packs`` holds a fresh state for each
    namespace a variant's rules keep (``Rules.states``)."""

    def __init__(self, setup: Setup, position: Position, active: int, packs: dict[str, Any]):
        seats = position.seating.seats
        self.setup = setup
        self.position = position
        self.players = [Player() for _ in seats]
        self.cards: list[str] = []  # card id -> card name
        # The variable piles of each Supply, once chosen, and what is left in each Supply.
        more = [list(p) for p in setup.more_piles]
        self.pile_lists: list[list[str]] = [list(setup.piles), *more]
        while len(self.pile_lists) < setup.supply_count:
            self.pile_lists.append([])
        self.supplies: list[dict[str, int]] = [{} for _ in self.pile_lists]
        self.trash: list[int] = []
        self.turn = 0
        self.active = active
        self.this_turn = TurnState(phase="setup", orders=0, actions=0, buys=0)
        self.order_lock = [FROZEN_NONE for _ in seats]  # Wish: no Order cards on that turn
        self.stack: list[Frame] = []
        self.chance: dict[str, Any] | None = None
        self.next_uid = 1
        self.over = False
        self.winner: int | None = None  # winning side; None with over=True is a draw
        self.log: list[str] = []
        # Cards in a deck or a hand whose name every seat has seen since that deck was last
        # shuffled (a revealed top card kept, the card Wish found), or knows (the cards of a
        # sealed game's deck all of one name): for the public hash. Not in the explicit state,
        # so a game loaded from one starts with none.
        self.shown: set[int] = set()
        # Cards in a deck or a hand whose name this engine does not know (a sealed game: the
        # cards of a sealed shuffle, and what another seat drew). Each holds a stand-in name
        # from its seat's pool, so that the names of a deck and hand together stay exact
        # (docs/sealed-decks.md, "The engine"). Empty for an engine that knows every card.
        self.unknown: set[int] = set()
        # Each look at a hand (Astrology): the seat that looked, whose hand, and the cards it
        # held then, for a sealed game to open them to the one who looks. Not in the explicit
        # state.
        self.looks: list[tuple[int, int, tuple[int, ...]]] = []
        # What a variant's rules keep besides (docs/plugins.md), by namespace: hashed and saved.
        self.packs = packs

    def copy(self: S) -> S:
        """An independent copy of the game's data, structure by structure (no encoding): what
        a search clones thousands of times a second. Attributes a subclass adds (the rules, a
        cache) are shared; each one that holds mutable game data is copied here. A game is
        copied by ``Game.clone``, which also drops the engine's caches."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.position = self.position.copy()
        new.players = [p.copy() for p in self.players]
        new.cards = list(self.cards)
        new.pile_lists = [list(p) for p in self.pile_lists]
        new.supplies = [dict(s) for s in self.supplies]
        new.trash = list(self.trash)
        new.this_turn = self.this_turn.copy()
        new.order_lock = list(self.order_lock)
        new.stack = [f.copy() for f in self.stack]
        new.chance = None if self.chance is None else dict(self.chance)
        new.log = list(self.log)
        new.shown = set(self.shown)
        new.unknown = set(self.unknown)
        new.looks = list(self.looks)
        new.packs = {name: copied(state) for name, state in self.packs.items()}
        return new

    def pack_state(self, kind: type[T]) -> T:
        """The state of type ``kind`` that the variant's rules keep (``Rules.states``)."""
        for state in self.packs.values():
            if isinstance(state, kind):
                return state
        raise KeyError(f"this game's rules keep no {kind.__name__}")

    def hides_hand(self, seat: int) -> bool:
        """In a sealed game, does ``seat``'s hand hold a card not every seat has seen? Then the
        engine decides nothing by itself from that hand (docs/rulings.md, calls 32 and 33)."""
        shown = self.shown
        return self.setup.sealed and any(c not in shown for c in self.players[seat].hand)

    def blind_to_hand(self, seat: int) -> bool:
        """Does ``seat``'s hand hold a card whose name this engine does not know? Then it
        cannot list that seat's choices of a card from the hand, and waits for them."""
        unknown = self.unknown
        return bool(unknown) and any(c in unknown for c in self.players[seat].hand)

    def face_up(self, cards: list[int]) -> bool:
        """Are these cards of a deck or hand open to every seat, so that an effect may go on
        from their names? In a sealed game those not yet shown wait for their opening: a
        chance prompt, answered with their names (``Game.apply``). A step that moves hidden
        cards where all can see them (the discard pile, the trash, a reveal) asks this first,
        and waits while it is False."""
        if not self.setup.sealed:
            return True
        hidden = [c for c in cards if c not in self.shown]
        if not hidden:
            return True
        self.chance = {"kind": "open", "cards": hidden}
        return False

    def learn(self, card: int, name: str, *, to_all: bool = False) -> None:
        """This engine now knows that ``card``, in a deck or a hand, is ``name`` (``to_all``:
        and so does every seat). A card it did not know swaps stand-in names with another
        unknown card of the same seat that holds ``name``. None holds it, or a known card has
        another name: the opening contradicts what was public, and is refused."""
        owner = next((p for p in self.players if card in p.deck or card in p.hand), None)
        if owner is None:
            raise IllegalDecision(f"card {card} is in no deck or hand")
        cards, unknown = self.cards, self.unknown
        if card in unknown:
            if cards[card] != name:
                swap = next(
                    (c for c in owner.deck + owner.hand if c in unknown and cards[c] == name),
                    None,
                )
                if swap is None:
                    raise IllegalDecision(f"that seat has no {name} left unseen")
                cards[swap], cards[card] = cards[card], name
            unknown.discard(card)
        elif cards[card] != name:
            raise IllegalDecision(f"card {card} is {cards[card]}, not {name}")
        if to_all:
            self.shown.add(card)

    def new_card(self, name: str) -> int:
        self.cards.append(name)
        return len(self.cards) - 1

    def note(self, text: str) -> None:
        self.log.append(text)

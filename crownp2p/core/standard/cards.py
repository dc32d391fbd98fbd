"""The 33 second-edition cards: cost, the unit trained, and both effects as steps.

The texts are ours; the facts (costs, effects, units) follow the rules reference.
"""

from __future__ import annotations

from ..cards import ACTION, ORDER, TRAINING, TREASURE, CardType, Effect
from ..keys import Key
from ..steps import (
    ChooseOpponent,
    Deploy,
    DiscardCards,
    Discount,
    Draw,
    GainCard,
    GoldPerTreasure,
    LockOrderCards,
    LookAtHand,
    Morph,
    MoveUnit,
    Onslaught,
    OrderUnit,
    Plus,
    ProtectSovereigns,
    RevealTopCard,
    SwapShared,
    Topdeck,
    TrashFromHand,
    WishFor,
)
from ..unit_rules import (
    BY_THE_RULES,
    FREEZE_NEIGHBOURS,
    FREEZE_UNIT,
    NEXT_TO_OWN,
    NEXT_TO_REGAL,
    REGAL_TO_SAFETY,
    UNCAPTURABLE,
    UNTHREATENED,
    around,
    next_to,
    on_rank,
)
from .units import FOOT, HEAVY, MOUNTED, PIOUS, REGAL, SOVEREIGN

# What the steps of one card's effect share (see keys.py).
SACRIFICED = Key[int]("sacrificed")  # Sacrifice: how many cards were discarded
CYCLED = Key[int]("cycled")  # Versatility: how many to draw back
SANCTUARY_HEAVY = Key[int]("heavy")  # Sanctuary: where the Heavy unit marched
STABLED = Key[int]("unit")  # Stables: where the Mounted unit marched


def trains(unit: str, count: int = 1) -> Effect:
    many = f"{count} {unit}s" if count > 1 else f"a {unit}"
    return Effect(TRAINING, f"Trash this card and put {many} in your Barracks.")


def card(
    name: str, cost: int, first: Effect, second: Effect, unit: str | None = None, count: int = 1
) -> CardType:
    return CardType(name, cost, (first, second), trains=unit, train_count=count if unit else 0)


def trainer(name: str, cost: int, unit: str, other: Effect, count: int = 1) -> CardType:
    return card(name, cost, trains(unit, count), other, unit, count)


STARTERS = (
    trainer("Peon", 0, "Pawn", Effect(TREASURE, "Add 1 gold.", (Plus(gold=1),))),
    trainer(
        "Guard",
        1,
        "Pawn",
        Effect(
            ORDER,
            "Deploy any unit from your Barracks onto an empty square touching one of your "
            "Sovereigns.",
            (Deploy(next_to(SOVEREIGN)),),
        ),
    ),
    trainer(
        "Squire",
        1,
        "Pawn",
        Effect(
            ORDER,
            "Deploy any unit from your Barracks onto an empty square of your second rank.",
            (Deploy(on_rank(2)),),
        ),
    ),
)

CORE = (
    trainer(
        "Champion",
        2,
        "Knight",
        Effect(
            ACTION, "Draw a card. You get an extra buy and 2 gold.", (Draw(1), Plus(buys=1, gold=2))
        ),
    ),
    trainer("Clergy", 3, "Bishop", Effect(TREASURE, "Add 2 gold.", (Plus(gold=2),))),
    trainer("Tower", 6, "Rook", Effect(TREASURE, "Add 3 gold.", (Plus(gold=3),))),
    trainer(
        "Consort",
        9,
        "Queen",
        Effect(
            ACTION,
            "Pick up one of your units that is not a Sovereign and put it on an empty square "
            "touching another of your Regal units.",
            (MoveUnit(NEXT_TO_REGAL),),
        ),
    ),
)

VARIABLE = (
    trainer(
        "Academy",
        4,
        "Spy",
        Effect(
            ORDER,
            "One more order this turn. Deploy a Foot unit by the usual rules.",
            (Plus(orders=1), Deploy(BY_THE_RULES, FOOT)),
        ),
    ),
    trainer(
        "Armor",
        7,
        "Warlord",
        Effect(
            ORDER,
            "March one of your Heavy units. Nothing can capture it until your next turn "
            "begins. (A Warlord may step out and back.)",
            (OrderUnit(HEAVY, attack=False, after=UNCAPTURABLE),),
        ),
    ),
    trainer(
        "Astrology",
        2,
        "Oracle",
        Effect(
            ORDER,
            "One more order, one more buy and 1 gold this turn; then see your opponent's hand.",
            (Plus(orders=1, buys=1, gold=1), ChooseOpponent(), LookAtHand()),
        ),
    ),
    trainer(
        "Aviary",
        9,
        "Gryphon",
        Effect(
            ORDER,
            "Pick up one of your Regal units and put it on any empty square where no enemy "
            "could capture it.",
            (MoveUnit(REGAL_TO_SAFETY),),
        ),
    ),
    trainer(
        "Bureaucracy",
        8,
        "Chancellor",
        Effect(
            ORDER,
            "One more order this turn. March or attack with one of your Foot units.",
            (Plus(orders=1), OrderUnit(FOOT)),
        ),
    ),
    trainer(
        "Destiny",
        8,
        "Anointed",
        Effect(
            ACTION,
            "Draw a card and get one more action. Then trash a training card from your hand "
            "and turn one of your units, on the board or in your Barracks, into the unit that card "
            "trains.",
            (Draw(1), Plus(actions=1), TrashFromHand(training_only=True), Morph()),
        ),
    ),
    trainer(
        "Evangelism",
        6,
        "Acolyte",
        Effect(
            ACTION,
            "Deploy a Pious unit from your Barracks onto an empty square touching one of "
            "your Pious units.",
            (Deploy(next_to(PIOUS), PIOUS),),
        ),
        count=2,
    ),
    card(
        "Executive Action",
        5,
        Effect(ORDER, "Draw two cards and get one more action.", (Draw(2), Plus(actions=1))),
        Effect(ACTION, "Deploy a unit by the usual rules.", (Deploy(),)),
    ),
    card(
        "False Orders",
        7,
        Effect(
            ORDER,
            "March or attack with an enemy unit that is not a Sovereign, moving it as "
            "its owner could (it can capture your units, not its owner's). Its owner cannot "
            "give it orders on their next turn.",
            (OrderUnit(enemy=True, after=FREEZE_UNIT),),
        ),
        Effect(
            ACTION,
            "Your opponent shows the top card of their deck. Trash it, or leave it where it was.",
            (ChooseOpponent(), RevealTopCard()),
        ),
    ),
    trainer(
        "Fog",
        7,
        "Phantom",
        Effect(ACTION, "March one of your Mounted units.", (OrderUnit(MOUNTED, attack=False),)),
    ),
    trainer(
        "Heir",
        8,
        "King",
        Effect(
            ORDER,
            "One more order this turn. March one of your Sovereigns to a square where no "
            "enemy could capture it.",
            (Plus(orders=1), OrderUnit(SOVEREIGN, attack=False, dest=UNTHREATENED)),
        ),
    ),
    trainer(
        "Legend",
        4,
        "Hero",
        Effect(
            TREASURE,
            "Add 1 gold for every Treasure effect you played earlier this turn.",
            (GoldPerTreasure(),),
        ),
    ),
    trainer(
        "Mourning",
        8,
        "Banshee",
        Effect(
            ORDER,
            "Attack with one of your Regal units. Every unit touching the captured unit's "
            "square cannot take orders on its owner's next turn.",
            (OrderUnit(REGAL, march=False, after=FREEZE_NEIGHBOURS),),
        ),
    ),
    trainer(
        "Onslaught",
        5,
        "Charger",
        Effect(
            ORDER,
            "Up to four of your Foot units, one after another: each either marches (from the "
            "board) or deploys (from your Barracks). No attacks.",
            (Onslaught(4),),
        ),
    ),
    trainer(
        "Patronage",
        5,
        "Dragoon",
        Effect(
            ACTION, "Draw a card; one more action and 1 gold.", (Draw(1), Plus(actions=1, gold=1))
        ),
    ),
    card(
        "Quartermaster",
        5,
        Effect(
            ORDER,
            "Deploy two units from your Barracks onto two different empty squares of "
            "your first rank.",
            (Deploy(on_rank(1), needs_squares=2), Deploy(on_rank(1), again=True)),
        ),
        Effect(
            TREASURE,
            "Add 1 gold and one more buy; every card costs 1 less this turn (never below 0).",
            (Plus(buys=1, gold=1), Discount(1)),
        ),
    ),
    card(
        "Refiner",
        4,
        Effect(
            ACTION,
            "Draw a card and get one more action. Then trash a training card from "
            "your hand and turn one unit in your Barracks into the unit it trains.",
            (
                Draw(1),
                Plus(actions=1),
                TrashFromHand(training_only=True),
                Morph(barracks_only=True),
            ),
        ),
        Effect(
            ACTION,
            "Draw a card and get one more action. Then trash a card from your hand "
            "and gain a card costing at most 2 more than it.",
            (Draw(1), Plus(actions=1), TrashFromHand(), GainCard(plus=2)),
        ),
    ),
    trainer(
        "Sacrifice",
        4,
        "Immortal",
        Effect(
            ACTION,
            "Discard a card from your hand. If you did, gain a card costing up to 6.",
            (DiscardCards(1, var=SACRIFICED), GainCard(limit=6, needs=SACRIFICED)),
        ),
    ),
    card(
        "Sanctuary",
        4,
        Effect(
            ORDER,
            "March one of your Heavy units to a square touching another of your "
            "units, then pick that unit up and put it on an empty square touching the Heavy "
            "unit.",
            (
                OrderUnit(HEAVY, attack=False, dest=NEXT_TO_OWN, remember=SANCTUARY_HEAVY),
                MoveUnit(around(SANCTUARY_HEAVY)),
            ),
        ),
        Effect(
            ORDER,
            "One more order and 1 gold this turn. Draw two cards, then discard two.",
            (Plus(orders=1, gold=1), Draw(2), DiscardCards(2)),
        ),
    ),
    trainer(
        "Scribes",
        3,
        "Monk",
        Effect(
            ACTION,
            "Draw three cards and get one more buy. You may put a card from your hand on top "
            "of your deck.",
            (Draw(3), Plus(buys=1), Topdeck(optional=True)),
        ),
    ),
    card(
        "Stables",
        3,
        Effect(
            ORDER,
            "March one of your Mounted units, then march the same unit once more. "
            "Neither move may capture.",
            (
                OrderUnit(MOUNTED, attack=False, remember=STABLED),
                OrderUnit(attack=False, same=STABLED),
            ),
        ),
        Effect(
            ACTION,
            "Draw two cards; one more action and one more buy. Then put a card from "
            "your hand on top of your deck.",
            (Draw(2), Plus(actions=1, buys=1), Topdeck()),
        ),
    ),
    trainer(
        "Subterfuge",
        6,
        "Sniper",
        Effect(
            ACTION,
            "Swap two of your units that have a class in common; one of them may be in your "
            "Barracks.",
            (SwapShared(),),
        ),
    ),
    trainer(
        "Temple",
        7,
        "Sphinx",
        Effect(
            ORDER,
            "One more order this turn. March one of your Pious units.",
            (Plus(orders=1), OrderUnit(PIOUS, attack=False)),
        ),
    ),
    trainer(
        "Versatility",
        2,
        "Striker",
        Effect(
            ORDER,
            "One more order this turn. Discard up to four cards, then draw as many as you "
            "discarded.",
            (Plus(orders=1), DiscardCards(4, up_to=True, var=CYCLED), Draw(count_var=CYCLED)),
        ),
        count=2,
    ),
    trainer(
        "Vigilance",
        5,
        "Nightrider",
        Effect(
            ACTION,
            "Draw a card; one more action, one more buy and 2 gold. Then put a card from your "
            "hand on top of your deck.",
            (Draw(1), Plus(actions=1, buys=1, gold=2), Topdeck()),
        ),
    ),
    card(
        "Wish",
        9,
        Effect(
            ORDER,
            "One more order this turn. Name a card, then turn over cards from your deck "
            "until you find one: keep it in your hand and discard the rest.",
            (Plus(orders=1), WishFor()),
        ),
        Effect(
            ORDER,
            "One more order this turn. Choose any of your Sovereigns: none can be "
            "captured until your next turn begins. On your next turn you cannot play cards "
            "for their Order effects.",
            (Plus(orders=1), ProtectSovereigns(), LockOrderCards()),
        ),
    ),
)

STANDARD_CARDS: tuple[CardType, ...] = STARTERS + CORE + VARIABLE
CORE_NAMES = tuple(c.name for c in CORE)
VARIABLE_NAMES = tuple(c.name for c in VARIABLE)

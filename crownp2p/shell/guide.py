"""The game in brief, for the ``rules`` command: one short section per topic, in our words.

``rules`` alone gives the overview and the list of sections; ``rules turn``, ``rules deploy``
... give one each, so a section fits a screen and reads the same in a pipe. The setup section
lists the Supplies, options and variants the installed packs offer.
"""

from __future__ import annotations

from ..packs import Catalog

__all__ = ["SECTIONS", "section"]

OVERVIEW = [
    "For the Crown is chess played with a deck of cards. You start with a King alone on the",
    "board and a hand of five cards. Cards give gold, extra orders and special moves, and each",
    "can be given up to train the soldier it shows; trained soldiers wait in your Barracks",
    "until an order brings them onto the board. Capture every enemy Sovereign to win.",
]

TURN = [
    "Your turn has four phases, always in this order:",
    "1. Orders. You have 1 order, and 1 more for each +1 Order a card gives. An order marches",
    "   a unit to an empty square, attacks (moves onto an enemy unit and captures it),",
    "   deploys a unit from your Barracks, or plays a card's Order effect. Each unit takes one",
    "   order a turn at most, and every order is optional. `moves SQUARE` shows a unit's moves.",
    "2. Actions. You have 1 action (+1 Action adds more). An action plays a card's Action",
    "   effect, or its Training effect: the card is trashed for good and its unit goes to your",
    "   Barracks, to be deployed on a later turn. Moving a unit by an action is no order.",
    "3. Buys. Play Treasures for gold (`treasure all`), then buy: 1 buy (+1 Buy adds more),",
    "   each a card from the Supply costing no more than the gold you have left. Bought cards",
    "   go to your discard pile. Treasures are played in this phase only.",
    "4. Housekeeping. Your hand and the cards you played go to your discard pile, and you",
    "   draw five new cards. An empty deck is remade by shuffling your discard pile.",
    "Gold, orders, actions and buys you do not use are lost at the end of the turn.",
]

DEPLOY = [
    "Deploying is an order: a unit waiting in your Barracks goes onto an empty square of your",
    "first rank; a Foot unit may also go onto your second rank. Some cards deploy elsewhere.",
    "A unit deployed this turn has had its order. Units get into the Barracks by training",
    "(a card's Training effect, in the action phase), so a unit is bought, trained and",
    "deployed on three different turns: your opponent sees it coming.",
]

PROMOTION = [
    "A Foot unit that marches or attacks onto the last rank (the one nearest your opponent)",
    "may promote: it becomes any unit type that a card of this game's Supply trains (a King",
    "if Heir is in the Supply), or stays as it is. You decide, even when your opponent's card",
    "moved it there. A unit put on the last rank by a card does not promote. A promoted unit",
    "is still the same unit, so it takes no further order that turn.",
]

WINNING = [
    "You win at the end of a turn in which your opponent has no Sovereign on the board (the",
    "King and the Anointed are Sovereigns; Heir trains more Kings). Units in a Barracks do",
    "not count. There is no check: a Sovereign may stand attacked, or walk into danger, and",
    "is simply captured. In a team game a side wins when the other side has no Sovereign.",
]

SECTIONS = {
    "turn": ("the four phases of a turn", TURN),
    "deploy": ("bringing units onto the board", DEPLOY),
    "promotion": ("Foot units on the last rank", PROMOTION),
    "winning": ("how a game is won", WINNING),
    "setup": ("Supplies, setup options and variants", []),
}


def setup_lines(catalog: Catalog) -> list[str]:
    lines = [
        "Each player starts with a King on the first rank (e1 and e8) and a deck of 6 Peons",
        "and 4 Guards, draws 5, and buys from a Supply of 4 core piles (Champion, Clergy,",
        "Tower, Consort) and 10 more chosen for the game. Chosen when the game starts:",
        f"  --supply   {', '.join(catalog.supplies)}, random, or CARD,CARD,...",
    ]
    lines += [f"  --option {o.name}: {o.help}" for o in catalog.options.values()]
    lines += [f"  --variant {v.name}: {v.help}" for v in catalog.variants.values()]
    return lines


def section(name: str, catalog: Catalog) -> list[str]:
    """The lines of section ``name`` (a key of :data:`SECTIONS`), or the overview for ""."""
    if not name:
        index = [f"  rules {key:<10} {about}" for key, (about, _) in SECTIONS.items()]
        return [*OVERVIEW, "", "More in sections:", *index]
    return setup_lines(catalog) if name == "setup" else list(SECTIONS[name][1])

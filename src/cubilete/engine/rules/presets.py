"""The named rule sets that ship with cubilete (RULES.md section 3) and their registry.

>>> find_rules("Generala").name
'generala'
>>> find_rules("kniffel").name
'yahtzee'
"""

from __future__ import annotations

import itertools
import unicodedata

from cubilete.engine.errors import UnknownRulesError
from cubilete.engine.rules.model import Box, Joker, Kind, Order, Points, Rules

_REGISTRY: dict[str, Rules] = {}
_ALIASES: dict[str, str] = {}


def _key(name: str) -> str:
    """Lower case, no accents, spaces and underscores as dashes."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return plain.strip().lower().replace("_", "-").replace(" ", "-")


def register(rules: Rules) -> Rules:
    """Add a rule set to the registry under its name and aliases."""
    _REGISTRY[rules.name] = rules
    for alias in (rules.name, *rules.aliases):
        _ALIASES[_key(alias)] = rules.name
    return rules


def find_rules(name: str) -> Rules:
    """The preset with that name or alias (case and accents ignored)."""
    key = _ALIASES.get(_key(name))
    if key is None:
        raise UnknownRulesError(f"unknown rules {name!r}; presets: {', '.join(preset_names())}")
    return _REGISTRY[key]


def preset_names() -> list[str]:
    """The names of every registered preset, in registration order."""
    return list(_REGISTRY)


def all_presets() -> list[Rules]:
    """Every registered preset."""
    return list(_REGISTRY.values())


# --- building blocks ----------------------------------------------------------


def upper(names: tuple[str, str, str, str, str, str]) -> tuple[Box, ...]:
    """The six boxes that add the dice of one face, ids ``1`` to ``6``."""
    return tuple(Box(str(f), names[f - 1], Kind.UPPER, Points.PATTERN, face=f) for f in range(1, 7))


def pat(*patterns: str) -> tuple[tuple[int, ...], ...]:
    """Straight patterns written as digit strings: ``pat("12345", "23456")``."""
    return tuple(tuple(sorted(int(c) for c in p)) for p in patterns)


def of_a_kind(box_id: str, name: str, n: int, points: Points = Points.SUM, value: int = 0) -> Box:
    """At least ``n`` dice showing one face."""
    return Box(box_id, name, Kind.GROUPS, points, value, groups=(n,))


ES_UPPER = ("Unos", "Doses", "Treses", "Cuatros", "Cincos", "Seises")
PT_UPPER = ("Jogada de 1", "Jogada de 2", "Jogada de 3", "Jogada de 4", "Jogada de 5", "Jogada de 6")
EN_UPPER = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes")

S1_STRAIGHTS = pat("12345", "23456", "13456")
ONE_GAP_STRAIGHTS = pat(*("".join(c) for c in itertools.combinations("123456", 5)))
ACE_FOR_TWO_STRAIGHTS = pat("12345", "23456", "13456", "11345")

# --- Argentine Generala and its switches (RULES.md 3.1) -------------------------

GENERALA = register(
    Rules(
        name="generala",
        title="Generala (Argentina)",
        description="5 dice, 3 throws, 11 boxes; servida values; Generala servida wins at once.",
        aliases=("generala-argentina", "default"),
        boxes=(
            *upper(ES_UPPER),
            Box("escalera", "Escalera", Kind.STRAIGHT, value=20, patterns=S1_STRAIGHTS, first_throw_value=25),
            Box("full", "Full", Kind.GROUPS, value=30, groups=(3, 2), first_throw_value=35),
            Box("poker", "Póker", Kind.GROUPS, value=40, groups=(4,), first_throw_value=45),
            Box("generala", "Generala", Kind.GROUPS, value=50, groups=(5,), instant_win=True),
            Box("doble", "Doble Generala", Kind.GROUPS, value=100, groups=(5,), requires="generala"),
        ),
    )
)


def _switch(name: str, title: str, rules: Rules, *aliases: str) -> Rules:
    return register(rules.replace(name=name, title=title, aliases=aliases, description=title))


_switch("generala-60", "Generala worth 60", GENERALA.with_box("generala", value=60))
_switch("generala-doble-120", "Doble Generala worth 120", GENERALA.with_box("doble", value=120))
_switch("generala-sin-doble", "Generala without Doble (10 boxes)", GENERALA.without_box("doble"), "generala-10")
for _bonus in (5, 10):
    _s2 = GENERALA
    for _id in ("escalera", "full", "poker"):
        _s2 = _s2.with_box(_id, first_throw_value=None, first_throw_bonus=_bonus)
    _switch(f"generala-bonus-{_bonus}", f"Servida adds {_bonus} to Escalera, Full, Póker (S2)", _s2)
_switch(
    "generala-escalera-hueco",
    "Escalera may miss one number, e.g. 1-2-4-5-6 (S2)",
    GENERALA.with_box("escalera", patterns=ONE_GAP_STRAIGHTS),
)
_switch(
    "generala-escalera-as",
    "A 1 may replace a 2 in the Escalera, e.g. 1-1-3-4-5 (S2)",
    GENERALA.with_box("escalera", patterns=ACE_FOR_TWO_STRAIGHTS),
)
_switch("generala-apartada", "Held dice stay held for the rest of the turn (S1)", GENERALA.replace(locked_holds=True))
_switch(
    "generala-sin-gana",
    "Generala servida is scored and play goes on",
    GENERALA.with_box("generala", instant_win=False),
)
_switch(
    "generala-poker-exacto",
    "Póker needs exactly four equal dice",
    GENERALA.with_box("poker", exact=True),
)
_switch(
    "generala-obligada",
    "Generala obligada: boxes in fixed order 1..6, Escalera, Full, Póker, Generala, Doble (S1)",
    GENERALA.replace(columns=(Order.DOWN,)),
    "obligada",
)
register(
    GENERALA.replace(
        name="generala-espanola",
        title="Generala (Spanish scoring)",
        description="Escalera 40, Full 60, Póker 70 (of aces 80), Generala 100; no Doble, no servida values.",
        aliases=("generala-española", "generala-spain"),
        boxes=(
            *upper(ES_UPPER),
            Box("escalera", "Escalera", Kind.STRAIGHT, value=40, patterns=pat("12345", "23456")),
            Box("full", "Full", Kind.GROUPS, value=60, groups=(3, 2)),
            Box("poker", "Póker", Kind.GROUPS, value=70, groups=(4,), face_values=((1, 80),)),
            Box("generala", "Generala", Kind.GROUPS, value=100, groups=(5,), instant_win=True),
        ),
    )
)

# --- Brazil: General and Bozó (RULES.md 3.2, 3.3, 3.7) -------------------------

GENERAL_BOXES = (
    *upper(PT_UPPER),
    of_a_kind("trinca", "Trinca", 3),
    of_a_kind("quadra", "Quadra", 4),
    Box("full", "Full-hand", Kind.GROUPS, value=25, groups=(3, 2)),
    Box("seq-alta", "Sequência alta", Kind.STRAIGHT, value=30, patterns=pat("23456")),
    Box("seq-baixa", "Sequência baixa", Kind.STRAIGHT, value=40, patterns=pat("12345")),
    Box("general", "General", Kind.GROUPS, value=50, groups=(5,)),
    Box("aleatoria", "Jogada aleatória", Kind.CHANCE, Points.SUM),
)
GENERAL = register(
    Rules(
        name="general",
        title="General (Brazil)",
        description="5 dice, 3 throws, 13 boxes; Trinca and Quadra add all the dice.",
        aliases=("yam", "general-brasil"),
        boxes=GENERAL_BOXES,
    )
)
_switch("general-de-mao", "General de mão (first throw) worth 100", GENERAL.with_box("general", first_throw_value=100))
_switch(
    "general-fixo",
    "Trinca 20 and Quadra 30 fixed",
    GENERAL.with_box("trinca", points=Points.FIXED, value=20).with_box("quadra", points=Points.FIXED, value=30),
)
_switch(
    "general-repetidos",
    "Trinca and Quadra count only the equal dice",
    GENERAL.with_box("trinca", points=Points.PATTERN).with_box("quadra", points=Points.PATTERN),
)
_switch("general-12", "General without Jogada aleatória (12 boxes)", GENERAL.without_box("aleatoria"))
register(
    GENERAL.replace(
        name="general-4-columns",
        title="General, 52-round sheet",
        description="The 13 boxes four times: down, up, free, first throw only.",
        aliases=("general-4-colunas", "general-52"),
        columns=(Order.DOWN, Order.UP, Order.FREE, Order.FIRST_THROW),
    )
)
register(
    Rules(
        name="bozo",
        title="Bozó (Centre-West Brazil)",
        description="Full 10, Sequência 20, Quadra 30, General 40; +5 de boca; general de boca wins; em baixo.",
        aliases=("bozó",),
        face_down_call=True,
        boxes=(
            *upper(PT_UPPER),
            Box("full", "Full", Kind.GROUPS, value=10, groups=(3, 2), first_throw_bonus=5),
            Box("sequencia", "Sequência", Kind.STRAIGHT, value=20, patterns=pat("12345", "23456"), first_throw_bonus=5),
            Box("quadra", "Quadra", Kind.GROUPS, value=30, groups=(4,), first_throw_bonus=5),
            # S3: "No caso do general de boca, é declarada a vitória instantânea do jogador" (no exception)
            Box("general", "General", Kind.GROUPS, value=40, groups=(5,), instant_win=True, win_after_scratch=True),
        ),
    )
)
_switch(
    "bozo-riscado",
    "Bozó: a general de boca does not win once General was scratched (the Argentine exception)",
    find_rules("bozo").with_box("general", win_after_scratch=False),
)

# --- Yahtzee, Yatzy, Maxi Yatzy (RULES.md 3.4-3.6) ------------------------------

YAHTZEE = register(
    Rules(
        name="yahtzee",
        title="Yahtzee (Hasbro)",
        description="13 boxes, bonus 35 at 63, +100 per extra Yahtzee, forced joker.",
        aliases=("kniffel", "yahtzee-forced"),
        upper_bonus_threshold=63,
        upper_bonus=35,
        extra_bonus_box="yahtzee",
        extra_bonus=100,
        joker=Joker.FORCED,
        boxes=(
            *upper(EN_UPPER),
            of_a_kind("three-kind", "Three of a kind", 3),
            of_a_kind("four-kind", "Four of a kind", 4),
            Box("full-house", "Full House", Kind.GROUPS, value=25, groups=(3, 2), joker=True),
            Box(
                "small-straight",
                "Small Straight",
                Kind.STRAIGHT,
                value=30,
                patterns=pat("1234", "2345", "3456"),
                joker=True,
            ),
            Box(
                "large-straight", "Large Straight", Kind.STRAIGHT, value=40, patterns=pat("12345", "23456"), joker=True
            ),
            Box("yahtzee", "Yahtzee", Kind.GROUPS, value=50, groups=(5,)),
            Box("chance", "Chance", Kind.CHANCE, Points.SUM),
        ),
    )
)
_switch("yahtzee-free-joker", "Yahtzee with the free-choice joker", YAHTZEE.replace(joker=Joker.FREE))
_switch("yahtzee-original-joker", "Yahtzee with the original (1956) joker", YAHTZEE.replace(joker=Joker.ORIGINAL))

YATZY = register(
    Rules(
        name="yatzy",
        title="Yatzy (Scandinavian)",
        description="15 boxes, bonus 50 at 63; pairs and kinds add the dice in the pattern.",
        aliases=("yatzy-scandinavian",),
        upper_bonus_threshold=63,
        upper_bonus=50,
        boxes=(
            *upper(EN_UPPER),
            of_a_kind("one-pair", "One Pair", 2, Points.PATTERN),
            Box("two-pairs", "Two Pairs", Kind.GROUPS, Points.PATTERN, groups=(2, 2)),
            of_a_kind("three-kind", "Three of a Kind", 3, Points.PATTERN),
            of_a_kind("four-kind", "Four of a Kind", 4, Points.PATTERN),
            Box("small-straight", "Small Straight", Kind.STRAIGHT, Points.PATTERN, patterns=pat("12345")),
            Box("large-straight", "Large Straight", Kind.STRAIGHT, Points.PATTERN, patterns=pat("23456")),
            Box("full-house", "Full House", Kind.GROUPS, Points.PATTERN, groups=(3, 2)),
            Box("chance", "Chance", Kind.CHANCE, Points.SUM),
            Box("yatzy", "Yatzy", Kind.GROUPS, value=50, groups=(5,)),
        ),
    )
)
_switch("yatzy-13", "Yatzy in 13 rounds: two boxes stay unused (S3)", YATZY.replace(rounds=13))
register(
    GENERAL.replace(
        name="yatzy-brasil",
        title="Yatzy as described in Brazil (S3)",
        description="The General sheet plus Par and Dois Pares worth the sum of all five dice; "
        "Sequência alta 20, baixa 15; 15 boxes in 13 rounds, two boxes stay unused.",
        aliases=("yatzy-brasileiro", "yatzy-br"),
        rounds=13,
        boxes=(
            *upper(PT_UPPER),
            # S3: "há duas jogadas adicionais: Par e Dois Pares, valendo cada um a soma dos 5 dados"
            of_a_kind("par", "Par", 2),
            Box("dois-pares", "Dois Pares", Kind.GROUPS, Points.SUM, groups=(2, 2)),
            *(b for b in GENERAL_BOXES if b.id in ("trinca", "quadra", "full")),
            # S3: "Também na regra escandinava, a 'seqüência alta' (2-3-4-5-6) vale 20 pontos e a
            # 'seqüência baixa' vale 15 pontos"
            Box("seq-alta", "Sequência alta", Kind.STRAIGHT, value=20, patterns=pat("23456")),
            Box("seq-baixa", "Sequência baixa", Kind.STRAIGHT, value=15, patterns=pat("12345")),
            *(b for b in GENERAL_BOXES if b.id in ("general", "aleatoria")),
        ),
    )
)

MAXI_YATZY = register(
    Rules(
        name="maxi-yatzy",
        title="Maxi Yatzy (6 dice)",
        description="6 dice, 20 boxes, bonus 100 at 84, unused throws carry over.",
        aliases=("super-yatzy", "maxi"),
        dice=6,
        carry_over_throws=True,
        upper_bonus_threshold=84,
        upper_bonus=100,
        boxes=(
            *upper(EN_UPPER),
            of_a_kind("one-pair", "One Pair", 2, Points.PATTERN),
            Box("two-pairs", "Two Pairs", Kind.GROUPS, Points.PATTERN, groups=(2, 2)),
            Box("three-pairs", "Three Pairs", Kind.GROUPS, Points.PATTERN, groups=(2, 2, 2)),
            of_a_kind("three-kind", "Three of a Kind", 3, Points.PATTERN),
            of_a_kind("four-kind", "Four of a Kind", 4, Points.PATTERN),
            of_a_kind("five-kind", "Five of a Kind", 5, Points.PATTERN),
            Box("small-straight", "Small Straight", Kind.STRAIGHT, Points.PATTERN, patterns=pat("12345")),
            Box("large-straight", "Large Straight", Kind.STRAIGHT, Points.PATTERN, patterns=pat("23456")),
            Box("full-straight", "Full Straight", Kind.STRAIGHT, Points.PATTERN, patterns=pat("123456")),
            Box("full-house", "Full House", Kind.GROUPS, Points.PATTERN, groups=(3, 2)),
            Box("villa", "Villa", Kind.GROUPS, Points.PATTERN, groups=(3, 3)),
            Box("tower", "Tower", Kind.GROUPS, Points.PATTERN, groups=(4, 2)),
            Box("chance", "Chance", Kind.CHANCE, Points.SUM),
            Box("maxi-yatzy", "Maxi Yatzy", Kind.GROUPS, value=100, groups=(6,)),
        ),
    )
)
register(
    MAXI_YATZY.replace(
        name="maxi-yatzy-no-saved",
        title="Maxi Yatzy without saved throws",
        description="Maxi Yatzy (6 dice, 20 boxes, bonus 100 at 84) where unused throws are lost: "
        "3 throws every turn. Solved exactly (cubilete solve --rules maxi-yatzy-no-saved).",
        aliases=("maxi-no-saved", "maxi-yatzy-3"),
        carry_over_throws=False,
    )
)

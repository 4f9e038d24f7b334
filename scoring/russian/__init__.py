"""Russian Preference (seed 001, the Kodeks): the pulka computed and checked, in pure Python.

Terminology
-----------
The words a referee reads on paper, kept as English identifiers (seed 001, the Kodeks):

pulka (пулька)
    The score sheet of one table, and the game played on it to an agreed size.
pulya (пуля, "the pool")
    Points for contracts made, written up to the agreed **target** (001 §4.2.2–4.2.3).
gora (гора, "the mountain")
    Penalty points: remizes, whisters' shortfalls, raspasy, penalties. Settled at
    ×10 / n against each player (001 §4.2.14).
whists (висты)
    What one player writes on another: trick whists, consolation, help. "p writes n
    whists on q" means p gains n and q loses n.
declarer (разыгрывающий), defenders, whister (вистующий), passer
    The player who named the contract; the two others (with four players the dealer
    sits out, 001 §3.2.10); a defender who said "whist"; one who said "pass".
contract (контракт)
    6♠ … 10БК, and misère between 8БК and 9♠ (001 §2.2.2); its **price** P is 2/4/6/8/10,
    misère 10. The **game cost** U (whists per defence trick) is P, or 2P in Leningrad.
obligation
    Tricks the whisting side must take: 4/2/1/1/1 on 6/7/8/9/10 (001 §3.8.2).
remiz (ремиз)
    A failed contract (the declarer's) or a whister's shortfall on his obligation.
consolation (консоляция)
    Whists every opponent writes on a declarer for each undertrick (001 §3.8.1.2).
half-whist (полвиста)
    The second defender after a pass, on a 6 or 7, writes half the obligation
    without play (001 §3.8.7).
greedy / gentleman whist (жлобский / джентльменский)
    Who writes the trick whists when one defender whisted and the declarer failed
    (001 §3.8.13, §3.8.14).
misère (мизер)
    A contract to take no trick (001 §3.6).
raspasy (распасы, распасовка)
    All passed; every trick costs gora (or, in Rostov, whists), with amnesty and a
    progression; no trick at all earns a pulya point (001 §3.7).
help (помощь)
    Pulya points above the target go into an opponent's pulya, 10 whists a point
    (001 §4.2.3); when everyone is closed, they come off the gora (001 §4.1.1).
amnesty (амнистия)
    Subtracting the same amount from everybody (raspasy 001 §3.7.3; gora 001 §4.2.14).
settlement (расчёт)
    The final result in whists, variant 1 or 2 (001 §4.2.14), rounded per §4.2.12.
bomb, dark (бомба, втёмную)
    Classic multipliers of a deal (001 §3.3.19, notes 29–31).

This package holds the Russian family's own modules and imports :mod:`rules` and the shared
machinery of :mod:`scoring` (findings, model, jsonio, notation_lexer, variant_base), never another
family nor the registry :mod:`scoring.variants`.

Modules: :mod:`scoring.russian.protocol` (the input model), :mod:`scoring.russian.pulka`
(scoring), :mod:`scoring.russian.writing` (what is written per deal),
:mod:`scoring.russian.settlement`, :mod:`scoring.russian.check` (findings) with
:mod:`scoring.russian.explain` (the rule behind each cell), :mod:`scoring.russian.jsonio` and
:mod:`scoring.russian.notation` (the formats; deal lines in :mod:`scoring.russian.notation_deals`),
:mod:`scoring.russian.result_json` (the result document), :mod:`scoring.russian.render` (the
readable sheet), :mod:`scoring.russian.stats` (the tie-break counters and pairwise results),
:mod:`scoring.russian.penalties` (penalty entries), :mod:`scoring.russian.generate` (random legal
protocols), :mod:`scoring.russian.variant` (the registry's interface).
"""

from ..findings import CheckReport, Finding, Severity
from .check import check, check_sheet
from .protocol import (
    Call,
    Ending,
    Game,
    Penalty,
    Protocol,
    Raspasy,
    Sheet,
    SheetLine,
)
from .pulka import ScoredPulka, convention_of, score
from .settlement import Settlement, settle

__all__ = [
    "Call",
    "CheckReport",
    "Ending",
    "Finding",
    "Game",
    "Penalty",
    "Protocol",
    "Raspasy",
    "ScoredPulka",
    "Settlement",
    "Severity",
    "Sheet",
    "SheetLine",
    "check",
    "check_sheet",
    "convention_of",
    "score",
    "settle",
]

"""The text notation of a pot game, in the players' words: one deal a line.

``docs/pot-format.md`` has the grammar. In short (Viennese, the words of seed 000)::

    format: pot 1
    convention: viennese
    options: max_amount=30
    players: Anna, Bertil, Cecilia
    first dealer: Cecilia

    1. Anna 1 / tvång, tvång / 6-2-2
    2. Bertil 3 utan köp / går med, stannar hemma / 4-6-0 förhandling
    3. Cecilia 2 efterköp Anna fem / 0-5-5
    4. rundpass 3-3-4
    5. Anna hjärter / bjuder in, inbjuden / 5-3-2 bud { Bertil pass, Cecilia pass, Anna hjärter }
    6. straff Bertil pott=10 regel="000 Budgivningen"
    kassa 1: -4, 2, 2; pott 0

German (seed 003) writes ``Eins``, ``Zwei aus der Hand``, ``Prämie``, ``mitgehen``, ``daheim
bleiben``, ``alle passen``, ``Strafe``, ``Kasse``, ``Topf``, ``Gebote``; every word of either
language (and English: ``go``, ``home``, ``invite``, ``invited``, ``forced``, ``penalty``,
``ledger``) is read in both games. Tricks are per seat in seat order (``6-2-2``; with four
players the dealer's 0 too).

The notation is read by :mod:`scoring.pot.notation_read` (one deal line by
:mod:`scoring.pot.notation_deal`) and written by :mod:`scoring.pot.notation_write`, with the words
of both languages in :mod:`scoring.pot.notation_words`; this module is their public face.

>>> text = "players: Anna, Bertil, Cecilia\\n1. Anna 1 / tvang, tvang / 6-2-2\\nrundpass 3-3-4\\n"
>>> p, _ = parse(text)
>>> p.deals[0].tricks, p.deals[1].tricks
((6, 2, 2), (3, 3, 4))
>>> print(format(p).splitlines()[-2])
1. Anna 1 / tvång, tvång / 6-2-2
>>> parse(format(p))[0] == p
True
"""

from __future__ import annotations

from scoring.notation_lexer import NotationError

from .notation_read import parse, parse_ledger
from .notation_words import FORMAT_LINE, bid_text, contract_from_words
from .notation_write import deal_text, format, format_ledger

__all__ = [
    "NotationError",
    "FORMAT_LINE",
    "parse",
    "parse_ledger",
    "format",
    "format_ledger",
    "deal_text",
    "contract_from_words",
    "bid_text",
]

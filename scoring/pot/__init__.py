"""Viennese Préférence (seed 000) and German Préférence (seed 003): the pot games, pure Python.

Neither game keeps a score sheet: every deal chips change hands between the players and a pot.
The state is each player's **net** and the **pot**; the identity Σ net + pot = the pot before the
first deal holds after every deal (reading aid, variants §5.1, §6).

Modules: :mod:`scoring.pot.protocol` (the input model), :mod:`scoring.pot.score` (each deal's
transfers), :mod:`scoring.pot.check` (findings), :mod:`scoring.pot.auction` (the bidding
constraints), :mod:`scoring.pot.jsonio` and :mod:`scoring.pot.notation` (the formats; the notation read by
:mod:`scoring.pot.notation_read` and :mod:`scoring.pot.notation_deal`, written by
:mod:`scoring.pot.notation_write`, in the words of :mod:`scoring.pot.notation_words`),
:mod:`scoring.pot.result_json` (the result document), :mod:`scoring.pot.render` (the readable
ledger), :mod:`scoring.pot.generate` (random legal games), :mod:`scoring.pot.variant` (the
registry's interface). It imports :mod:`rules` and the shared machinery of :mod:`scoring`
(findings, model, jsonio, notation_lexer, variant_base), never another family nor the registry
:mod:`scoring.variants`, which imports it.
"""

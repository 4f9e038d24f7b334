"""Croatian, Serbian and Slovenian Preference (seed 002), in pure Python (no Django).

The Balkan family keeps a score sheet of three columns per player: the declarer column started at
the **bula** (written without a sign, meaning minus; a **hat** when it crosses zero) and two
**soup** columns (juha, supa), one against each opponent. Everybody passing gives a **refa**
(radlc), doubling each player's next contract. The game ends when the declarer columns sum to zero
(with the end cap), and the final calculation settles it (seed 002 "Ending the Game").

Modules: :mod:`scoring.balkan.protocol` (the input model), :mod:`scoring.balkan.score` (scoring),
:mod:`scoring.balkan.check` (findings), :mod:`scoring.balkan.jsonio` and
:mod:`scoring.balkan.notation` (the formats), :mod:`scoring.balkan.result_json` (the result
document), :mod:`scoring.balkan.render` (the readable sheet), :mod:`scoring.balkan.generate`
(random legal games), :mod:`scoring.balkan.variant` (the registry's interface).
It imports :mod:`rules` and the shared machinery of :mod:`scoring` (findings, model, jsonio,
notation_lexer, variant_base), never another family nor the registry :mod:`scoring.variants`,
which imports it.
"""

"""Rules of Preference in pure Python (no Django): decks, contract ladders, conventions.

:mod:`rules.contracts` holds the deck and the contract ladder of seed 001 §2.2.2;
:mod:`rules.conventions` the Russian conventions (Sochi, Leningrad, Rostov, Classic)
as parameter sets with named options; :mod:`rules.bidding` the auction's legality;
:mod:`rules.balkan`, :mod:`rules.pot` and :mod:`rules.priffe` the other families' conventions,
:mod:`rules.variants` the families' registry. It imports only the standard library and itself:
never :mod:`scoring`, which builds on it, nor Django.
"""

"""Short builders for pot-game tests."""

from __future__ import annotations

from rules.pot import PotContract
from scoring.pot.protocol import Decision, PotProtocol

GO, HOME, INVITE, INVITED, FORCED = (Decision.GO, Decision.HOME, Decision.INVITE,
                                     Decision.INVITED, Decision.FORCED)  # fmt: skip
ABC = ("Anna", "Bertil", "Cecilia")
ABCD = ("Anna", "Bertil", "Cecilia", "David")


def c(code: str) -> PotContract:
    return PotContract.from_code(code)


def game(*deals, convention="viennese", players=ABC, first_dealer=2, opening_pot=0, **options):
    p = PotProtocol(players=players, deals=tuple(deals), convention=convention,
                    first_dealer=first_dealer, opening_pot=opening_pot)  # fmt: skip
    return p.with_options(**options) if options else p


def codes(report) -> list[str]:
    return [f.code for f in report.findings]

"""Seed 002's worked example, notes (a)–(p), as a protocol (variants.md §1.5 reconstruction).

Players A, B, C in playing order (seats 0, 1, 2), bula 30 (note (a)), one refa round.
"""

from scoring.balkan.protocol import AllPass, BalkanProtocol, Defence, Hand

PLAY, DROP, INVITE = Defence.PLAY, Defence.DROP, Defence.INVITE

DEALS = (
    # (b) C bells, A and B play, 2 tricks each
    Hand(2, 3, tricks=(2, 2, 6)),
    # (c) B acorns; defenders C (plays, 3 tricks) and A (drops)
    Hand(1, 5, defence=(PLAY, DROP), tricks=(0, 7, 3)),
    # (d) all pass: a refa for everyone
    AllPass(),
    # (e) A acorns with his refa; B drops, C plays and takes 3
    Hand(0, 5, defence=(DROP, PLAY), tricks=(7, 0, 3)),
    # (f) C igra hearts with his refa; A plays and invites B; team 4
    Hand(2, 4, game=True, defence=(INVITE, DROP), tricks=(3, 1, 6)),
    # (g) A leaves; B says kontra (C invited by it); defence 3: B fails
    Hand(0, 2, defence=(PLAY, DROP), kontra=1, kontra_by=1, tricks=(7, 2, 1)),
    # (h) B bettel with his refa, lost
    Hand(1, 6, tricks=(4, 2, 4)),
    # (i) C bettel, won: C goes under the hat
    Hand(2, 6, tricks=(5, 5, 0)),
    # (j) C acorns; A 4, B 1: C loses, nobody fails (team rule)
    Hand(2, 5, tricks=(4, 1, 5)),
    # (k) A hearts; C kontra, A rekontra; defence 4: C fails
    Hand(0, 4, defence=(DROP, PLAY), kontra=2, kontra_by=2, tricks=(6, 1, 3)),
    # (l) C igra sanac; B alone, 2 tricks
    Hand(2, 7, game=True, defence=(DROP, PLAY), tricks=(0, 2, 8)),
    # (m) B acorns; C drops, A invites him; team 4
    Hand(1, 5, defence=(DROP, INVITE), tricks=(2, 6, 2)),
    # (n) B igra acorns; both drop
    Hand(1, 5, game=True, defence=(DROP, DROP)),
    # (o) A bettel, won
    Hand(0, 6, tricks=(0, 5, 5)),
    # (p) B acorns; C 3, A 1: capped 10 → 6 to end the game
    Hand(1, 5, tricks=(1, 6, 3)),
)

PROTOCOL = BalkanProtocol(players=("A", "B", "C"), bula=30, deals=DEALS)

#: (note, value after multipliers and cap, columns A, B, C after the deal): variants.md §1.5.
TABLE = (
    ("b", 6, (-30, -30, -24)),
    ("c", 10, (-30, -20, -24)),
    ("d", 0, (-30, -20, -24)),
    ("e", 20, (-10, -20, -24)),
    ("f", 20, (-10, -20, -4)),
    ("g", 8, (-2, -28, -4)),
    ("h", 24, (-2, -52, -4)),
    ("i", 12, (-2, -52, 8)),
    ("j", 10, (-2, -52, -2)),
    ("k", 32, (30, -52, -34)),
    ("l", 16, (30, -52, -18)),
    ("m", 10, (30, -42, -18)),
    ("n", 12, (30, -30, -18)),
    ("o", 12, (42, -30, -18)),
    ("p", 6, (42, -24, -18)),
)

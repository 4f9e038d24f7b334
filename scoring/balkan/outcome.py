"""One declared hand: is the record possible, and who scores what (seed 002), before any value.

:func:`hand_outcome` reads a :class:`~scoring.balkan.protocol.Hand` and says, in units of the
deal's value, what the declarer and the defenders write: whether the declarer made it, which
defenders failed their quota, and how many values each defender writes in his soup against the
declarer. :mod:`scoring.balkan.score` then applies the refa, the kontra and the end cap.

The defenders (seed 002 "The Defenders' Decisions", "Kontra", ``variants.md`` §1.2):

* one plays alone: he needs 2 tricks and writes his own;
* both play voluntarily: ``defender_quota="team"`` (note (j)): a defender fails only if the
  team has fewer than 4 tricks **and** he fewer than 2; ``"each"``: each needs 2; each writes
  his own tricks;
* an invitation: the host (the inviter) needs a team of 4 and writes all the team's tricks; the
  guest never writes and never pays;
* a kontra: the kontra-sayer is the host, needs a team of **5** (note (k)) and writes all the
  team's tricks (``kontra_soups="own"``: each writes his own); the guest never pays;
* both drop: no play, the declarer wins;
* bettel (6): nobody may drop; won: no soups; lost: each defender writes 5 values (note (h));
  with kontra only the host (``bettel_kontra="host"``, A-HR-1) or both (``"each"``), and a
  warning, since the seed does not define it (``variants.md`` §9);
* preferans (8, Serbia, option ``preferans``): both play with no quota; won: no soups; a failed
  preferans is undefined by the seed: an error, not scored (``variants.md`` §9).

>>> from rules.balkan import CROATIAN
>>> from scoring.balkan.protocol import Defence, Hand
>>> errors, warnings, plan = hand_outcome(Hand(2, 5, tricks=(4, 1, 5)), CROATIAN, 8)
>>> plan.made, plan.failed, plan.soups                               # note (j)
(False, (), ((0, 4), (1, 1)))
>>> hand_outcome(Hand(0, 4, kontra=2, kontra_by=2, tricks=(6, 0, 4)), CROATIAN, 9)[2].failed
(2,)
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.balkan import BETTEL, PREFERANS, BalkanConvention

from ..findings import Finding, Severity, gettext_noop, seat_number, templated
from .protocol import Defence, Hand

__all__ = ["Plan", "hand_outcome", "plays"]

SOURCE = "002"
_TRICK_CONTRACTS = frozenset({2, 3, 4, 5, 7})


@dataclass(frozen=True, slots=True)
class Plan:
    """What a hand's record means, in units of its value (see the module docstring).

    ``kind`` is ``played``, ``no-play`` or ``plain-two``; ``outcome`` ``made``/``lost`` (played,
    no-play), or for a plain two ``declarer-wins``, ``thrown-in``, ``refa``, ``no-score``;
    ``made`` ``None`` when nothing is scored for the declarer; ``soups`` ``(writer, units)``.
    """

    kind: str
    outcome: str
    made: bool | None
    failed: tuple[int, ...] = ()
    soups: tuple[tuple[int, int], ...] = ()
    host: int | None = None
    guest: int | None = None

    @property
    def declarer_scores(self) -> bool:
        return self.made is not None


def _f(code: str, text: str, rule: str, deal: int, params: dict[str, object] | None = None, *,
       warning: bool = False, **kw: object) -> Finding:
    """A finding whose message is the template ``text`` (marked for the translators) filled
    with ``params`` (:func:`scoring.findings.templated`)."""
    severity = Severity.WARNING if warning else Severity.ERROR
    return templated(code, text, params, rule=rule, deal=deal, source=SOURCE,
                     severity=severity, **kw)


def plays(h: Hand, seat: int) -> bool:
    """Whether the defender at ``seat`` takes part in the play (by choice, invited, or by the
    kontra that "automatically invites the other defender", seed 002 "Kontra")."""
    first, second = h.defenders()
    mine, other = (h.defence[0], h.defence[1]) if seat == first else (h.defence[1], h.defence[0])
    return mine is not Defence.DROP or other is Defence.INVITE or h.kontra > 0


def _record_problems(h: Hand, conv: BalkanConvention, i: int) -> list[Finding]:
    """The impossible records of a hand, before its tricks."""
    out: list[Finding] = []
    if h.declarer not in (0, 1, 2):
        out.append(_f("SEAT", gettext_noop("declarer seat {seat} is not at the table"),
                      "Players and Deal", i, {"seat": seat_number(h.declarer)}, column="declarer",
                      written=h.declarer))
        return out
    allowed = (2, 3, 4, 5, 6, 7, 8) if conv.preferans else (2, 3, 4, 5, 6, 7)
    if h.contract not in allowed:
        rule = "variations played in Serbia" if h.contract == PREFERANS else "The Bidding"
        text = (gettext_noop("contract {contract} is not one of 2–7 (preferans 8 only with the option "
                   "'preferans')") if h.contract == 8
                else gettext_noop("contract {contract} is not one of 2–7"))
        out.append(_f("CONTRACT", text, rule, i, {"contract": repr(h.contract)},
                      column="contract", written=h.contract))
    defence = tuple(h.defence)
    if len(defence) != 2 or any(d not in tuple(Defence) for d in defence):
        out.append(_f("DEFENCE", gettext_noop("defence {defence}: two decisions (play, drop, invite) are "
                                 "needed, one per defender"), "The Defenders' Decisions", i,
                      {"defence": repr(defence)}, column="defence"))
        return out
    for k, decision in enumerate(defence):
        if decision is Defence.INVITE and defence[1 - k] is not Defence.DROP:
            out.append(_f("INVITATION", gettext_noop("an invitation is made only by the single defender who "
                                        "plays, to the partner who dropped"), "The Defenders' Decisions", i,
                          player=h.defenders()[k], column="defence"))
    if h.contract in (BETTEL, PREFERANS) and any(d is not Defence.PLAY for d in defence):
        word = conv.contract_word(h.contract)
        out.append(_f("DROP_IN_BETTEL", gettext_noop("in {contract} the defenders may not drop out (nor invite)"),
                      "The Contract" if h.contract == BETTEL else "variations played in Serbia",
                      i, {"contract": word}, column="defence"))
    if isinstance(h.kontra, bool) or not isinstance(h.kontra, int) or h.kontra < 0:
        out.append(_f("KONTRA_LEVEL", gettext_noop("kontra level {level} is not a whole number ≥ 0"),
                      "Kontra", i, {"level": repr(h.kontra)}, column="kontra", written=h.kontra))
        return out
    if conv.kontra_limit and h.kontra > conv.kontra_limit:
        out.append(_f("KONTRA_LEVEL", gettext_noop("kontra level {level} beyond the limit {limit} agreed for "
                                      "this game"), "Kontra", i,
                      {"level": h.kontra, "limit": conv.kontra_limit}, column="kontra",
                      written=h.kontra, expected=conv.kontra_limit))
    if h.kontra and h.kontra_by not in h.defenders():
        out.append(_f("KONTRA_BY", gettext_noop("kontra said by seat {seat}, not a defender"),
                      "Kontra", i, {"seat": seat_number(h.kontra_by)}, column="kontra_by",
                      written=h.kontra_by))
    elif h.kontra and not _plays_voluntarily(h, h.kontra_by):
        out.append(_f("KONTRA_BY", gettext_noop("kontra said by a defender who dropped out"), "Kontra", i,
                      player=h.kontra_by, column="kontra_by"))
    if not h.kontra and h.kontra_by is not None:
        out.append(_f("KONTRA_BY", gettext_noop("kontra_by {seat} without a kontra"), "Kontra", i,
                      {"seat": seat_number(h.kontra_by)}, column="kontra_by", written=h.kontra_by))
    return out


def _plays_voluntarily(h: Hand, seat: int | None) -> bool:
    if seat not in h.defenders():
        return False
    return h.defence[h.defenders().index(seat)] is not Defence.DROP


def _trick_problems(h: Hand, i: int) -> list[Finding]:
    """Tricks of a played hand (seed 002 "Idea of the Game": ten tricks; "The Defenders'
    Decisions": play stops when the defence has five)."""
    t = h.tricks
    if t is None:
        return [_f("TRICKS_MISSING", gettext_noop("the hand was played but no tricks are recorded"),
                   "The Play", i, column="tricks")]
    if len(t) != 3 or any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in t):
        return [_f("TRICKS", gettext_noop("tricks {tricks}: one whole number ≥ 0 per seat"),
                   "Idea of the Game", i, {"tricks": repr(t)}, column="tricks", written=t)]
    out = []
    for seat in h.defenders():
        if t[seat] and not plays(h, seat):
            out.append(_f("TRICKS_DROPPED", gettext_noop("{tricks} tricks for a defender who dropped out "
                                            "and was not invited"),
                          "The Defenders' Decisions", i, {"tricks": t[seat]}, player=seat,
                          column="tricks"))
    total, declarer = sum(t), t[h.declarer]
    defence = total - declarer
    if h.contract in _TRICK_CONTRACTS and defence > 5:
        out.append(_f("DEFENCE_TRICKS", gettext_noop("{tricks} defence tricks: play stops when the "
                                        "defence has five"), "The Defenders' Decisions", i,
                      {"tricks": defence}, column="tricks", written=t))
    elif total > 10 or total < 10 and not _stopped_early(h.contract, declarer, defence):
        out.append(_f("TRICKS_SUM", gettext_noop("tricks sum to {total}, not 10 (or a defence of 5 when "
                                    "play stopped)"), "Idea of the Game", i, {"total": total},
                      column="tricks", written=t, expected=10))
    return out


def _stopped_early(contract: int, declarer: int, defence: int) -> bool:
    if contract == BETTEL:
        return declarer >= 1  # the declarer took a trick: bettel is lost
    if contract == PREFERANS:
        return defence >= 1
    return defence == 5


def hand_outcome(
    h: Hand,
    conv: BalkanConvention,
    i: int,
    *,
    has_refa: bool = False,
    refa_possible: bool = False,
    under_hat: bool = False,
) -> tuple[list[Finding], list[Finding], Plan | None]:
    """``(errors, warnings, plan)`` for hand ``i``; ``plan`` is ``None`` when it is not scored.

    ``has_refa``: the declarer holds an unplayed refa (a two is then not "plain", A-HR-5,
    unless the convention's ``plain_two_refa`` is ``"included"``);
    ``refa_possible``: a refa round could be written now; ``under_hat``: the declarer's column
    is above zero — both decide a plain two nobody kontra'd in Serbian rules.
    """
    errors = _record_problems(h, conv, i)
    warnings: list[Finding] = []
    if errors:
        return errors, warnings, None
    first, second = h.defenders()
    both_drop = h.defence[0] is Defence.DROP and h.defence[1] is Defence.DROP and not h.kontra
    # A two by a refa holder is not plain in the main text; option plain_two_refa says whether
    # the Serbian and Slovenian variations, which do not repeat it, carry that exception over.
    refa_exception = has_refa and conv.plain_two_refa == "excluded"
    plain_two = h.contract == 2 and not h.game and not refa_exception and not h.kontra
    if plain_two:
        if h.tricks is not None and not both_drop:
            text = (gettext_noop("a plain two (no igra) is played only after a kontra; without "
                                 "one there is no play, refa or not (option plain_two_refa)")
                    if has_refa else
                    gettext_noop("a plain two (no igra, no refa) is played only after a "
                                 "kontra; without one there is no play"))
            return [_f("KONTRA_MISSING", text, "Kontra", i, column="kontra")], warnings, None
        return errors, _unplayed_tricks(h, i), _plain_two(conv, refa_possible, under_hat)
    if both_drop:
        return errors, _unplayed_tricks(h, i), Plan("no-play", "made", True)
    if h.tricks is None and h.contract == 2 and not h.game and not h.kontra and refa_exception:
        return [_f("TRICKS_MISSING", gettext_noop(
            "a two by a declarer who holds a refa is played, kontra or not (option "
            "plain_two_refa={option}): record the tricks, or both defenders dropping"), "Kontra",
            i, {"option": repr(conv.plain_two_refa)}, column="tricks")], warnings, None
    errors = _trick_problems(h, i)
    if errors:
        return errors, warnings, None
    t = h.tricks
    assert t is not None
    team = t[first] + t[second]
    host = h.kontra_by if h.kontra else None
    if host is None and Defence.INVITE in h.defence:
        host = h.defenders()[h.defence.index(Defence.INVITE)]
    guest = None if host is None else (second if host == first else first)
    if h.contract == BETTEL:
        if h.kontra:
            warnings.append(_f(
                # reading aid A-HR-1: scored by the option bettel_kontra (host or each)
                "BETTEL_KONTRA", gettext_noop("bettel with kontra: the rules do not say who "
                                              "scores; scored as the event's options agree"),
                "Kontra", i, {}, warning=True,
                column="kontra"))
        if t[h.declarer] == 0:
            return errors, warnings, Plan("played", "made", True, host=host, guest=guest)
        writers = (host,) if h.kontra and conv.bettel_kontra == "host" else (first, second)
        return errors, warnings, Plan("played", "lost", False,
                                      soups=tuple((w, 5) for w in writers if w is not None),
                                      host=host, guest=guest)
    if h.contract == PREFERANS:
        if t[h.declarer] == 10:
            return errors, warnings, Plan("played", "made", True, host=host, guest=guest)
        return [_f("UNDEFINED", gettext_noop("a failed preferans: the rules do not define its scoring, so "
                                  "the deal is not scored"), "variations played in Serbia", i,
                   column="tricks")
                ], warnings, None
    made = t[h.declarer] >= 6
    soups: list[tuple[int, int]]
    failed: list[int] = []
    if h.kontra:
        assert host is not None and guest is not None
        if team < 5:  # "an undertaking that the defenders will win at least 5 tricks"
            failed.append(host)
        if conv.kontra_soups == "own":
            soups = [(first, t[first]), (second, t[second])]
        else:
            soups = [(host, team)]
    elif host is not None:  # an invitation: the host answers for four
        if team < 4:
            failed.append(host)
        soups = [(host, team)]
    else:
        playing = [s for s in (first, second) if plays(h, s)]
        for s in playing:
            if t[s] < 2 and (len(playing) == 1 or conv.defender_quota == "each" or team < 4):
                failed.append(s)
        soups = [(s, t[s]) for s in playing]
    return errors, warnings, Plan(
        "played", "made" if made else "lost", made, tuple(failed),
        tuple((w, u) for w, u in soups if u), host, guest)


def _plain_two(conv: BalkanConvention, refa_possible: bool, under_hat: bool) -> Plan:
    """A plain two nobody kontra'd (seed 002 "Kontra"; Slovenia; Serbia; option ``plain_two``)."""
    rule = conv.plain_two
    if rule == "declarer_wins":  # Croatian: no play, the declarer wins ten tricks
        return Plan("plain-two", "declarer-wins", True)
    if rule == "thrown_in":  # Slovenia: no score; a radlc for all when nobody is under the hat
        return Plan("plain-two", "thrown-in", None)
    if refa_possible:  # Serbia: a refa for all if nobody is under the hat and refas remain
        return Plan("plain-two", "refa", None)
    if under_hat or rule == "refa_or_score":
        return Plan("plain-two", "declarer-wins", True)
    return Plan("plain-two", "no-score", None)


def _unplayed_tricks(h: Hand, i: int) -> list[Finding]:
    if h.tricks is None:
        return []
    return [_f("TRICKS_UNPLAYED", gettext_noop("tricks recorded for a hand that was not played; ignored"),
               "The Play", i, warning=True, column="tricks", written=h.tricks)]

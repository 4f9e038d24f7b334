"""The penalties of the rule texts (seed 001, the Kodeks): the catalogue, as data.

A :class:`CataloguePenalty` is data: its code, the rule it comes from, its name in English and
Russian, and a description of what it writes. The English words are marked with
:func:`gettext_noop`: the Django side says them in the reader's language (``name_ru`` and
``writes_ru`` stay for the API and the command line). What a penalty writes into a given protocol is
computed by :mod:`scoring.russian.penalties` (``rules`` says what is legal and agreed;
``scoring`` what is written, and ``rules`` never imports ``scoring``).

>>> p = find_penalty("TALON_PEEK")
>>> p.rule, p.name_ru
('3.2.21', 'Подсмотрел прикуп')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from rules.worded import WordedError, gettext_noop

__all__ = [
    "CATALOGUE",
    "CataloguePenalty",
    "PenaltyError",
    "Params",
    "find_penalty",
]

Params = Mapping[str, object]


class PenaltyError(WordedError):
    """A penalty that cannot apply here (wrong deal kind, offender, parameter); quotes it, in
    English (the API, the command line, the logs), and for people as a template said in the
    reader's language by the Django side; ``entries``: the params that are 0-based seats, said
    as players' names. (The penalties' English names and what they write are marked with
    :func:`gettext_noop` too, and translated where people read them:
    :mod:`tournaments.variants.penalty_names`.)"""


@dataclass(frozen=True, slots=True)
class CataloguePenalty:
    """One penalty of the rules: ``offender`` is ``any``, ``declarer`` or ``player``
    (anyone but only outside play); ``needs_deal`` when it concerns a played deal."""

    code: str
    rule: str
    name_en: str
    name_ru: str
    writes_en: str
    writes_ru: str
    offender: str = "any"
    needs_deal: bool = False
    params: tuple[str, ...] = ()


CATALOGUE: Final[tuple[CataloguePenalty, ...]] = (
    CataloguePenalty(
        "MISDEAL_FIRST", "3.2.17", gettext_noop("Dealer's first misdeal"), "Первая ошибка сдатчика",
        gettext_noop("A warning; nothing is written."), "Замечание; ничего не пишется."),
    CataloguePenalty(
        "MISDEAL_SECOND", "3.2.17", gettext_noop("Dealer's second misdeal"),
        "Вторая ошибка сдатчика",
        gettext_noop("The agreed remiz (e.g. 5 in the gora) and the deal passes on."),
        "Условленный ремиз (например, 5 в гору) и переход сдачи.", params=("gora",)),
    CataloguePenalty(
        "TALON_PEEK", "3.2.21", gettext_noop("Looked at the talon"), "Подсмотрел прикуп",
        gettext_noop("5 points in the gora."), "5 очков в гору."),
    CataloguePenalty(
        "WRONG_CARDS_BID", "3.4.6", gettext_noop("Declared with more or fewer than ten cards"),
        "Заказал игру, имея не десять карт",
        gettext_noop("Remiz without two on the declared game; if the remiz was inevitable anyway, "
                     "the two penalty tricks are added to the undertricks."),
        "Ремиз без двух на объявленной игре; если ремиз был неизбежен, две штрафные взятки "
        "плюсуются к недобранным.", "declarer", True, ("inevitable",)),
    CataloguePenalty(
        "DISCARD_PEEK", "3.4.9", gettext_noop("Declarer looked at his discard"), "Заглянул в снос",
        gettext_noop("One penalty trick: made exactly becomes without one, one overtrick cancels "
                     "it, a remiz gets one undertrick more."),
        "Штраф на одну взятку: ровно — ремиз без одной, лишняя взятка взаимно уничтожается, "
        "при ремизе штрафная плюсуется к недобранным.", "declarer", True),
    CataloguePenalty(
        "CLOSED_TRICK_PEEK", "3.9.11.2", gettext_noop("Looked at a closed trick"),
        "Открыл чужую или не последнюю взятку",
        gettext_noop("The offender loses one of his tricks (it is nobody's, 3.9.12); on raspasy "
                     "he writes an eleventh trick; on a misère the declarer gets one trick more."),
        "Лишается одной своей взятки (она ничья, 3.9.12); на распасах пишет за одиннадцатую "
        "взятку; на мизере взятка добавляется.", "any", True),
    CataloguePenalty(
        "REVOKE_CORRECTED", "3.9.16.1", gettext_noop("Revoke corrected in time"),
        "Исправленный фальшренонс",
        gettext_noop("The card becomes an open card (3.9.14); nothing is written."),
        "Карта становится открытой (3.9.14); ничего не пишется.", "any", True),
    CataloguePenalty(
        "REVOKE", "3.9.16", gettext_noop("Revoke noticed later (3.9.16.2)"),
        "Фальшренонс, замеченный позже (3.9.16.2)",
        gettext_noop("One trick of the offender becomes the opponents' (declarer: one trick to "
                     "the defence; a defender: one trick to the declarer; misère: one trick "
                     "more)."),
        "Штрафная взятка становится собственностью противников.", "any", True),
    CataloguePenalty(
        "WRONG_CARDS_PLAY", "3.9.18", gettext_noop("Wrong number of cards during play"),
        "Неправильное количество карт в ходе игры",
        gettext_noop("Declarer: remiz at least without two, counted from his tricks less two "
                     "(example 1); a whister: remiz without two on the whist. The others write "
                     "for the real tricks (note 68)."),
        "Разыгрывающий: ремиз минимум без двух; вистующий: без двух на висте. Остальные пишут "
        "за фактические взятки (68*).", "any", True, ("extra",)),
    CataloguePenalty(
        "RECORDING_WARNING", "4.2.7", gettext_noop("Recording error, first time"),
        "Ошибка в записи, первая",
        gettext_noop("Corrected without penalty, as a warning."),
        "Исправляется безнаказанно, как предупреждение."),
    CataloguePenalty(
        "RECORDING_PENCIL", "4.2.8", gettext_noop("Recording error corrected with the pencil in hand"),
        "Ошибка исправлена, пока карандаш в руке", gettext_noop("No penalty (the pencil rule)."),
        "Без наказания (правило карандаша)."),
    CataloguePenalty(
        "RECORDING_ERROR", "4.2.7", gettext_noop("False entry (the pencil was put down, 4.2.8)"),
        "Приписка (карандаш положен, 4.2.8)",
        gettext_noop("A penalty equal to the excess: whists over-written on q, q writes as many "
                     "on the offender; points added to one's own pulya, as many in the gora."),
        "Штраф равен приписке: лишние висты — партнёр пишет столько же на нарушителя; лишние "
        "очки в пулю — столько же в гору.", params=("column", "amount", "on")),
)

_BY_CODE: Final = {p.code: p for p in CATALOGUE}


def find_penalty(code: str) -> CataloguePenalty:
    """The catalogue entry ``code`` (case-insensitive).

    :raises PenaltyError: for an unknown code.
    """
    try:
        return _BY_CODE[code.upper()]
    except KeyError:
        raise PenaltyError(f"penalty {code!r} is not in the catalogue") from None

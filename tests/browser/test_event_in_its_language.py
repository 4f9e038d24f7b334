"""Issue 36, "Done when": a club plays an event through in its own language and game, in a
real browser: hr for the Balkan game, de for the Viennese and German games, sv for Priffe, ru
for Russian Preference. The organiser creates the event through the new-event form, imports
the players with the column names of the language, checks them in, draws and starts round 1;
the table enters its deals on a phone through its key page, one of them corrected after its
finding; the referee records an incident and a penalty and approves; the standings are read and
every PDF of the documents page is made and its text extracted. Every page met on the way (the
organiser's, the referee's, the table's, the players' and the public ones, found by following
the links of the event's pages) and every PDF's text must hold no English word of the UI
catalogue, no internal code or Python repr, no rule cited by file number and no seat number
standing for a name (:mod:`tests.browser.language_scan`).

The pages go through the browser in the language's prefix (``/hr/…``); controls are found by
their names, never by English labels, since there are none."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest

from tests.browser.language_scan import page_problems, problems
from tests.browser.steps import login_organiser
from tournaments.models import AuditLogEntry, Event, GeneratedFile, Protocol

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@dataclass(frozen=True)
class Club:
    """A club's evening: its language, game, players and how its table enters the deals."""

    language: str
    variant: str
    family: str
    players: tuple[str, ...]
    header: str  # the CSV's column names, in the language
    club: str
    venue: str
    deals: Callable  # (tablet, table) -> None: enters the deals, a correction among them
    event_penalty: bool = True  # the rules list no penalties: the event defines one
    extra_words: frozenset[str] = field(default_factory=frozenset)


def submit(page, form) -> None:
    with page.expect_navigation():
        form.locator("button[type=submit], button:not([type])").first.click()


def deal_form_submit(tablet) -> None:
    tablet.locator("form.deal-form button[type=submit]").tap()


def save_ending(tablet, ending: str) -> None:
    form = tablet.locator("form.ending")
    form.locator("select[name=ending]").select_option(ending)
    form.locator("button[type=submit]").tap()
    tablet.wait_for_load_state()


def seats_of(table) -> tuple[int, int, int]:
    dealer = table.first_dealer
    return dealer, (dealer + 1) % 3, (dealer + 2) % 3


def wait_deal(tablet, n: int) -> None:
    tablet.wait_for_selector(f"#deal-{n}")


def finding_then_corrected(tablet, enter, wrong: dict, right: dict) -> None:
    """Enter a deal with a mistake, see its finding beside it, correct it through the deal's
    "correct" link (the form opens filled) and see the finding gone."""
    enter(**wrong)
    deal_form_submit(tablet)
    tablet.locator("tr.finding.error").first.wait_for()
    tablet.locator("#deal-1 a.edit").tap()
    tablet.wait_for_selector("form.deal-form input[name=action][value=replace]", state="attached")
    enter(**right)
    deal_form_submit(tablet)
    wait_deal(tablet, 1)
    assert tablet.locator("tr.finding.error").count() == 0


# the families' deals -----------------------------------------------------------------------


def russian_deals(tablet, table) -> None:
    dealer, first, second = seats_of(table)

    def enter(kind="game", declarer=None, contract=None, calls=None, tricks=None):
        tablet.locator(f"input[name=kind][value={kind}]").check()
        if kind == "game":
            tablet.select_option("#declarer", str(declarer))
            tablet.select_option("#contract", contract)
            for seat, call in (calls or {}).items():
                tablet.select_option(f"#call_{seat}", call)
        for seat, n in (tricks or {}).items():
            tablet.fill(f"#tricks_{seat}", str(n))

    # raspasy written 4-3-2 (nine tricks): a finding (3.7.6.1); corrected to 4-3-3
    finding_then_corrected(
        tablet, enter,
        {"kind": "raspasy", "tricks": {dealer: 4, first: 3, second: 2}},
        {"kind": "raspasy", "tricks": {dealer: 4, first: 3, second: 3}},
    )  # fmt: skip
    enter(declarer=first, contract="6♠", calls={second: "whist", dealer: "pass"},
          tricks={first: 6, second: 4, dealer: 0})  # fmt: skip
    deal_form_submit(tablet)
    wait_deal(tablet, 2)
    enter(declarer=second, contract="7♥", calls={dealer: "whist", first: "whist"},
          tricks={second: 6, dealer: 2, first: 2})  # fmt: skip
    deal_form_submit(tablet)
    wait_deal(tablet, 3)
    save_ending(tablet, "agreement")


def balkan_deals(tablet, table) -> None:
    dealer, left, right = seats_of(table)
    declarer = dealer

    def enter(declarer, contract, defence, tricks, kontra_by=None):
        tablet.select_option("#declarer", str(declarer))
        tablet.select_option("#contract", contract)
        for seat, d in defence.items():
            tablet.select_option(f"select[name=defence_{seat}]", d)
        if kontra_by is not None:
            tablet.select_option("#kontra", "1")
            tablet.select_option("#kontra_by", str(kontra_by))
        for seat, n in tricks.items():
            tablet.fill(f"input[name=tricks_{seat}]", str(n))

    # a plain two played without kontra: a finding (002 "Kontra"); the left defender said it
    plain = {"declarer": declarer, "contract": "2", "defence": {left: "play", right: "play"},
             "tricks": {left: 2, right: 2}}  # fmt: skip
    finding_then_corrected(tablet, enter, plain, {**plain, "kontra_by": left})
    enter(left, "3", {right: "play", declarer: "drop"}, {left: 7, right: 3, declarer: 0})
    deal_form_submit(tablet)
    wait_deal(tablet, 2)
    save_ending(tablet, "time-limit")


def pot_deals(tablet, table) -> None:
    dealer, vorhand, mittelhand = seats_of(table)

    def enter(declarer, contract, decisions, tricks):
        tablet.select_option("#declarer", str(declarer))
        tablet.select_option("#contract", contract)
        for seat, d in decisions.items():
            tablet.select_option(f"select[name=defence_{seat}]", d)
        for seat, n in tricks.items():
            tablet.fill(f"input[name=tricks_{seat}]", str(n))

    # tricks written 6-3-2 (eleven): a finding; the dealer took one, not two
    wrong = {"declarer": vorhand, "contract": "1", "decisions": {mittelhand: "go", dealer: "go"},
             "tricks": {vorhand: 6, mittelhand: 3, dealer: 2}}  # fmt: skip
    right = {**wrong, "tricks": {vorhand: 6, mittelhand: 3, dealer: 1}}
    finding_then_corrected(tablet, enter, wrong, right)
    enter(mittelhand, "2", {dealer: "home", vorhand: "go"}, {vorhand: 3})
    deal_form_submit(tablet)
    wait_deal(tablet, 2)
    save_ending(tablet, "closed")


def priffe_deals(tablet, table) -> None:
    from tournaments.services.protocols import table_header

    sittings = table_header(table).sittings
    first = sittings[0]
    forehand, second, third, dealer = first[1], first[2], first[3], first[0]

    def enter(declarer, tricks, bids=None):
        for seat, word in (bids or {}).items():
            tablet.select_option(f"#bid_{seat}", word)
        tablet.select_option("#contract", "hjärter")
        tablet.select_option("#declarer", str(declarer))
        tablet.fill("#tricks_own", str(tricks))

    # the third speaker's information bid: a finding (004 "Budgivning"); he passed
    illegal = {forehand: "hjärter", second: "pass", third: "spader", dealer: "pass"}
    finding_then_corrected(
        tablet, enter,
        {"declarer": forehand, "tricks": 9, "bids": illegal},
        {"declarer": forehand, "tricks": 9, "bids": {**illegal, third: "pass"}},
    )  # fmt: skip
    enter(first[1], 9)
    deal_form_submit(tablet)
    wait_deal(tablet, 2)
    save_ending(tablet, "time-limit")


CLUBS = {
    "ru-sochi": Club(
        "ru", "sochi", "russian",
        ("Анна Смирнова", "Борис Волков", "Вера Козлова", "Глеб Орлов", "Дарья Лебедева",
         "Егор Соколов"),
        "ФИО;Клуб;Город", "Клуб Сочи", "Сочи", russian_deals, event_penalty=False,
    ),
    "hr-croatian": Club(
        "hr", "croatian", "balkan",
        ("Ana Horvat", "Branko Kovač", "Cvijeta Babić", "Davor Marić", "Ema Jurić",
         "Filip Novak"),
        "Ime i prezime;Klub;Grad", "Klub Trešnjevka", "Zagreb", balkan_deals,
    ),
    "de-german": Club(
        "de", "german", "pot",
        ("Anna Bauer", "Bernd Roth", "Clara Vogel", "Dieter Hahn", "Eva Lang", "Fritz Koch"),
        "Name;Verein;Ort", "Verein Altona", "Hamburg", pot_deals,
    ),
    "de-viennese": Club(
        "de", "viennese", "pot",
        ("Franz Huber", "Gerti Wagner", "Hans Gruber", "Ilse Moser", "Josef Pichler",
         "Karin Steiner"),
        "Name;Verein;Ort", "Wiener Préférence-Klub", "Wien", pot_deals,
    ),
    "sv-modern": Club(
        "sv", "modern", "priffe",
        ("Astrid Berg", "Bengt Dahl", "Cecilia Ek", "Dagny Frisk"),
        "namn;klubb;ort", "Priffeklubben", "Uppsala", priffe_deals,
    ),
}  # fmt: skip


# the organiser's steps, in the language ----------------------------------------------------


def create_event(page, base: str, club: Club, slug: str) -> None:
    page.goto(f"{base}/{club.language}/manage/new-event/")
    form = page.locator("form[data-game-form]")
    page.fill("input[name=slug]", slug)
    page.fill("input[name=name]", f"{club.club} {club.venue}")
    page.fill("input[name=starts_on]", "2027-03-06")
    page.fill("input[name=ends_on]", "2027-03-06")
    page.fill("input[name=venue]", club.venue)
    page.fill("input[name=rounds_planned]", "1")
    page.select_option("select[name=variant]", club.variant)
    page.wait_for_selector(f"form[data-family={club.family}]:not([aria-busy])")
    page.check("input[name=published]")
    submit(page, form)
    assert page.url.endswith(f"/{club.language}/e/{slug}/manage/"), page.url


def start_round(page, base: str, club: Club, slug: str) -> None:
    lang = f"{base}/{club.language}/e/{slug}/manage"
    page.goto(f"{lang}/entries/import/")
    page.fill("textarea[name=text]", club.header + "\n" + "\n".join(
        f"{name};{club.club};{club.venue}" for name in club.players
    ))  # fmt: skip
    submit(page, page.locator("form[enctype]"))
    page.goto(f"{lang}/entries/")
    submit(page, page.locator("form[action$='/check-in-all/']"))
    page.goto(f"{lang}/")
    submit(page, page.locator("form[action$='/rounds/new/']"))
    page.goto(f"{lang}/rounds/1/")
    for action in ("commit-seed", "draw", "publish", "start"):
        submit(page, page.locator(f"form[action$='/rounds/1/{action}/']"))


def penalise(page, base: str, club: Club, slug: str, table) -> None:
    """The referee records an incident at the table and a penalty for it: the rules' own
    (the Kodeks) where the family has a catalogue, else one the event defines."""
    lang = f"{base}/{club.language}/e/{slug}/manage"
    if club.event_penalty:
        page.goto(f"{lang}/penalties/")
        form = page.locator("form", has=page.locator("input[name=code]"))
        form.locator("input[name=code]").fill("K1")
        form.locator("input[name=name]").fill({"hr": "Kašnjenje", "de": "Verspätung",
                                               "sv": "Försening"}[club.language])  # fmt: skip
        form.locator("input[name=whists]").fill("5")
        submit(page, form)
    page.goto(f"{lang}/rounds/1/tables/{table.number}/incidents")
    form = page.locator("form.incident")
    form.locator("input[name=deal]").fill("1")
    form.locator("input[name=seats]").first.check()
    form.locator("textarea[name=description]").fill(
        {"ru": "Подсмотрел прикуп", "hr": "Zakasnio za stol", "de": "Zu spät am Tisch",
         "sv": "Försenad till bordet"}[club.language]  # fmt: skip
    )
    submit(page, form)
    page.locator("details.ruling summary").first.click()
    form = page.locator("details.ruling form").first
    if club.event_penalty:
        form.locator("select[name=kind]").select_option("event")
        form.locator("select[name=penalty_code]").select_option("K1")
    else:
        codes = form.locator("select[name=penalty_code] option").evaluate_all(
            "os => os.map(o => o.value).filter(v => v)"
        )
        form.locator("select[name=penalty_code]").select_option(codes[0])
    form.locator("select[name=seat]").select_option(index=1)
    form.locator("input[name=reason]").fill(
        {"ru": "Правила", "hr": "Pravila", "de": "Regeln", "sv": "Reglerna"}[club.language]
    )
    submit(page, form)


def approve(page, base: str, club: Club, slug: str, table) -> None:
    page.goto(f"{base}/{club.language}/e/{slug}/manage/rounds/1/tables/{table.number}/protocol")
    form = page.locator("form[action$='/approve']")
    form.locator("input[name=confirm_missing]").check()
    submit(page, form)


# what the reader meets ---------------------------------------------------------------------

#: links not followed: files, the API, leaving, a deal's correction form, the server's pages
SKIP = re.compile(
    r"/logout|/api/|/admin/|/language|export|download|\.(?:pdf|csv|json)\b|/archive|\?edit="
    r"|/documents/\d+/|/import-event/"  # the server's page, not the event's: a command to type
)


def crawl(page, base: str, starts: list[str], prefix: str, limit: int = 90) -> dict[str, str]:
    """Every page reached from ``starts`` by the links of pages under ``prefix`` (the
    language's), each page's HTML by its path."""
    seen: dict[str, str] = {}
    todo = list(starts)
    while todo and len(seen) < limit:
        path = todo.pop(0)
        if path in seen:
            continue
        response = page.goto(base + path)
        assert response is not None and response.status == 200, (path, response and response.status)
        seen[path] = page.content()
        for href in page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)"):
            parts = urlsplit(href)
            if parts.netloc and parts.netloc != urlsplit(base).netloc:
                continue
            link = parts.path + (f"?{parts.query}" if parts.query else "")
            if link.startswith(prefix) and not SKIP.search(link) and link not in seen:
                todo.append(link)
    return seen


def documents(page, base: str, club: Club, slug: str, tmp_path) -> dict[str, str]:
    """Every document of the documents page, made in the page's language: its text."""
    url = f"{base}/{club.language}/e/{slug}/manage/documents/"
    page.goto(url)
    texts: dict[str, str] = {}
    count = page.locator("form.document-row").count()
    for k in range(count):
        page.goto(url)
        form = page.locator("form.document-row").nth(k)
        assert form.locator("select[name=language]").input_value() == club.language
        button = form.locator("button")
        label = button.inner_text()
        before = GeneratedFile.objects.count()
        submit(page, form)
        f = GeneratedFile.objects.order_by("pk").last()
        assert GeneratedFile.objects.count() > before or f is not None
        assert f.status == GeneratedFile.Status.OK, (label, f.status, f.error)
        pdf = tmp_path / f"doc-{k}.pdf"
        pdf.write_bytes(f.file.open("rb").read())
        texts[f"{f.kind} ({label})"] = subprocess.run(
            ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout
    return texts


@pytest.mark.parametrize("key", list(CLUBS))
def test_an_evening_played_through_in_the_clubs_language(
    browser, desk, phone, live_server, settings, tmp_path, key
):
    settings.MEDIA_ROOT = tmp_path / "media"
    club = CLUBS[key]
    base, page, slug = live_server.url, desk, f"abend-{club.variant}"
    organiser = login_organiser(page, live_server)

    create_event(page, base, club, slug)
    event = Event.objects.get(slug=slug)
    assert event.variant == club.variant
    start_round(page, base, club, slug)
    table = event.rounds.get(number=1).tables.order_by("number").first()
    assert table is not None

    # the table's key page on a phone, in the language
    tablet = phone
    tablet.goto(f"{base}/{club.language}/t/{table.url_key}/")
    club.deals(tablet, table)
    protocol = Protocol.objects.get(table=table, entry_kind="table", is_current=True)
    assert protocol.error_count == 0, protocol.findings
    assert protocol.version >= 3  # a finding, its correction, the next deal

    penalise(page, base, club, slug, table)
    approve(page, base, club, slug, table)
    protocol = Protocol.objects.filter(table=table, is_current=True).latest("pk")
    assert protocol.approved

    # every page of the event in the language, and every document
    lang = f"/{club.language}"
    players = [s.entry for s in table.seats.select_related("entry")]
    starts = [
        f"{lang}/e/{slug}/manage/", f"{lang}/e/{slug}/", f"{lang}/e/{slug}/standings/",
        f"{lang}/t/{table.url_key}/",
        *(f"{lang}/p/{e.url_key}/" for e in players[:1]),
        *(f"{lang}/p/{e.url_key}/protocols/" for e in players[:1]),
    ]  # fmt: skip
    pages = crawl(page, base, starts, lang + "/")
    assert len(pages) >= 15, sorted(pages)
    texts = documents(page, base, club, slug, tmp_path)
    assert len(texts) >= 6, sorted(texts)

    codes = {f["code"] for fs in Protocol.objects.values_list("findings", flat=True) for f in fs}
    assert codes, "the finding's code, to look for"
    actions = set(AuditLogEntry.objects.values_list("action", flat=True))
    allowed = {
        *club.players, club.club, club.venue, organiser.get_username(), *club.extra_words,
        "K1", "Kašnjenje", "Verspätung", "Försening",
    }  # fmt: skip
    found = []
    for path, html in pages.items():
        found += [f"{path}: {p}" for p in page_problems(
            html, club.language, codes=codes, actions=actions, allowed=allowed
        )]  # fmt: skip
    for name, text in texts.items():
        found += [f"PDF {name}: {p}" for p in problems(
            text, club.language, codes=codes, actions=actions, allowed=allowed
        )]  # fmt: skip
    assert not found, f"{len(found)} problems:\n" + "\n".join(found)

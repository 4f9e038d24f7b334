"""The hall's network cut while the tables enter their deals (issue 42), against a real stack on
loopback (``tests/load/stack.py``: PostgreSQL, Redis, gunicorn, a Celery worker and beat).

Each table is a phone driven from this script with the protocol of the table page's outbox
(``tournaments/static/tournaments/table-offline.js``): every deal the players enter goes into
the phone's outbox with an id made on the phone; the outbox is sent in order to
``/t/<key>/send`` with the version each send builds on (the version the one before it was saved
as). The tables play on while the network is cut for ``--cut`` seconds: nothing reaches the
server, and the sends in flight when it is cut lose their answers (the server may have stored
them: the phone sends the same id again). Afterwards the ending is sent, a referee approves
every table through the API, and the checks: every deal entered is stored once, in order (as
many versions as sends, each send's id on one version), no 5xx, and the standings equal a
recomputation from the approved protocols. Prints a JSON report; exit status 1 when a check
fails.

    python tests/load/offline_tables.py                 # 30 tables, the network cut for 2 min
    python tests/load/offline_tables.py --cut 3 --deals 6 --pace 0.3    # the short form (CI)
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import platform
import random
import re
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.load.event_day import Tally, fingerprint_hash, fresh_standings, http, setup_events  # noqa: E402
from tests.load.stack import Stack, latency_ms, scenario_main, wait_until  # noqa: E402

_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
#: contracts the tables play, each made exactly: declarer, one whister, one pass
CONTRACTS = ("6♠", "6♣", "6♦", "6♥", "7♠", "7♣")


class Network:
    """The hall's Wi-Fi: up, or cut (a send then never reaches the server; one in flight when
    the cut begins loses its answer)."""

    def __init__(self) -> None:
        self.cut_since: float | None = None
        self.cuts = 0

    def cut(self) -> None:
        self.cut_since = time.monotonic()
        self.cuts += 1

    def restore(self) -> None:
        self.cut_since = None

    def up(self) -> bool:
        return self.cut_since is None

    def cut_during(self, started: float) -> bool:
        return self.cut_since is not None and self.cut_since >= started


@dataclasses.dataclass
class Phone:
    """One table's phone: its outbox and what it knows of the server."""

    event: str
    number: int
    key: str
    base: str
    outbox: list = dataclasses.field(default_factory=list)  # [(id, fields)]
    entered: list = dataclasses.field(default_factory=list)  # every send's (id, fields), in order
    version: int | None = None
    lost_answers: int = 0
    refused: list = dataclasses.field(default_factory=list)
    lock: threading.Lock = dataclasses.field(default_factory=threading.Lock)
    opener: object = None
    token: str = ""

    def open_page(self, tally: Tally) -> None:
        """The table's page, once (its CSRF cookie and token, the version it shows)."""
        jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        with self.opener.open(f"{self.base}/t/{self.key}/", timeout=60) as r:
            page = r.read().decode()
            tally.note("GET", "/t/<key>/", r.status, 0)
        self.token = _CSRF.search(page).group(1)

    def enter(self, fields: dict) -> None:
        entry = (uuid.uuid4().hex, fields)
        with self.lock:
            self.outbox.append(entry)
            self.entered.append(entry)

    def send_one(self, tally: Tally, network: Network) -> str:
        """The head of the outbox: ``saved``, ``empty``, ``offline``, ``lost`` or ``refused``."""
        with self.lock:
            if not self.outbox:
                return "empty"
            client_id, fields = self.outbox[0]
        if not network.up():
            return "offline"
        body = {
            **fields,
            "based_on_version": "" if self.version is None else str(self.version),
            "client_id": client_id,
            "csrfmiddlewaretoken": self.token,
        }
        request = urllib.request.Request(
            f"{self.base}/t/{self.key}/send",
            data=urllib.parse.urlencode(body).encode(),
            method="POST",
            headers={"X-CSRFToken": self.token, "Referer": f"{self.base}/t/{self.key}/"},
        )
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=60) as r:
                code, payload = r.status, r.read()
        except urllib.error.HTTPError as e:
            code, payload = e.code, e.read()
        except OSError:
            return "lost"
        tally.note("POST", "/t/<key>/send", code, time.monotonic() - started)
        if network.cut_during(started):  # the answer never reached the phone
            self.lost_answers += 1
            return "lost"
        if code == 200:
            answer = json.loads(payload)
            with self.lock:
                self.outbox.pop(0)
                self.version = answer["version"]
            return "saved"
        self.refused.append((code, payload[:300].decode("utf-8", "replace")))
        return "refused"


def deal_fields(rng: random.Random, pulya: list[int]) -> dict:
    """A deal as the table page's form sends it: an all-pass deal (every player takes a
    trick) or a contract made with one whister. No player's pulya gets near the target
    (``pulya``: each seat's so far), so that every pulka stays free of findings and the
    referee can approve it."""
    cost = {"6": 2, "7": 4}  # a contract made writes its value in the declarer's pulya
    contract = rng.choice(CONTRACTS)
    able = [s for s in range(3) if pulya[s] + cost[contract[0]] <= 6]
    if rng.random() < 0.3 or not able:
        a = rng.randint(1, 6)
        b = rng.randint(1, 9 - a)
        return {"action": "add", "kind": "raspasy", "tricks_0": str(a), "tricks_1": str(b),
                "tricks_2": str(10 - a - b)}  # fmt: skip
    declarer = rng.choice(able)
    pulya[declarer] += cost[contract[0]]
    others = [s for s in range(3) if s != declarer]
    rng.shuffle(others)
    return {
        "action": "add",
        "kind": "game",
        "declarer": str(declarer),
        "contract": contract,
        f"call_{others[0]}": "whist",
        f"call_{others[1]}": "pass",
        f"tricks_{declarer}": contract[0],
    }


def run(args) -> dict:
    log_dir = Path(args.log_dir or ROOT / "var" / f"load-offline-{os.getpid()}")
    stack = Stack(db=args.db, log_dir=log_dir, threads=args.threads)
    report: dict = {
        "args": vars(args),
        "machine": f"{platform.node()} {os.cpu_count()} cpu",
        "date": dt.datetime.now().isoformat(timespec="seconds"),
        "checks": {},
    }
    t0 = time.monotonic()
    try:
        stack.start()
        os.environ.update(
            {
                k: stack.env[k]
                for k in (
                    "DATABASE_URL",
                    "CELERY_BROKER_URL",
                    "CELERY_RESULT_BACKEND",
                    "CACHE_URL",
                    "PULKA_VAR_DIR",
                    "CELERY_TASK_ALWAYS_EAGER",
                    "STATIC_ROOT",
                )
            }
        )
        os.environ["DJANGO_SETTINGS_MODULE"] = "tournaments.settings.base"
        import django

        django.setup()
        from scoring.russian.protocol import Raspasy
        from tournaments.models import Event, Job, Protocol, StandingsSnapshot
        from tournaments.services.protocols import stored_protocol

        token, tables = setup_events(1, 3 * args.tables, 1, args.seed)
        report["setup_seconds"] = round(time.monotonic() - t0, 1)
        deadline = time.monotonic() + args.max_seconds  # the play's bound, after the setup
        base = f"http://127.0.0.1:{stack.web_ports[0]}"
        tally = Tally()
        network = Network()
        phones = [Phone(t.event, t.number, t.key, base) for t in tables]
        for phone in phones:
            phone.open_page(tally)
        entering_done = threading.Event()

        def play(i: int, phone: Phone) -> None:
            """The players enter a deal every ``pace`` seconds, network or not; the ending."""
            rng = random.Random(args.seed * 1000 + i)
            time.sleep(rng.random() * args.pace)
            pulya = [0, 0, 0]
            for _deal in range(args.deals):
                phone.enter(deal_fields(rng, pulya))
                time.sleep(args.pace * (0.5 + rng.random()))
            phone.enter({"action": "ending", "ending": "agreement"})

        def sender(phone: Phone) -> None:
            """The phone's outbox, sent in order; tried again every ``retry`` seconds."""
            while time.monotonic() < deadline:
                outcome = phone.send_one(tally, network)
                if outcome == "saved":
                    continue
                if outcome == "refused":
                    return
                if outcome == "empty" and entering_done.is_set():
                    with phone.lock:
                        if not phone.outbox:
                            return
                time.sleep(args.retry if outcome in ("offline", "lost") else 0.05)

        def cutter() -> None:
            time.sleep(args.cut_at)  # the play has begun
            network.cut()
            report["cut_at_seconds"] = round(time.monotonic() - t0, 1)
            time.sleep(args.cut)
            network.restore()
            report["restored_at_seconds"] = round(time.monotonic() - t0, 1)

        w0 = time.monotonic()
        cut_thread = threading.Thread(target=cutter)
        cut_thread.start()
        with ThreadPoolExecutor(max_workers=2 * len(phones)) as pool:
            players = [pool.submit(play, i, p) for i, p in enumerate(phones)]
            senders = [pool.submit(sender, p) for p in phones]
            for f in players:
                f.result()
            entering_done.set()
            cut_thread.join()
            for f in senders:
                f.result()
        report["entering_seconds"] = round(time.monotonic() - w0, 1)
        # the referee approves every table's last version
        auth = {"Authorization": f"Token {token}"}
        approved = 0
        approval_refusals = []
        for phone in phones:
            url = (
                f"{base}/api/v1/events/{phone.event}/rounds/1/tables/{phone.number}"
                "/protocols/approve"
            )
            code, body = http(
                tally, "POST", url, {"version": phone.version, "confirm_missing": True}, auth
            )
            approved += code == 200
            if code != 200:
                approval_refusals.append((phone.number, code, body))
        event = Event.objects.get(slug=phones[0].event)

        def settled() -> bool:
            if Job.objects.filter(state__in=["queued", "sent", "running"]).exists():
                return False
            s = StandingsSnapshot.objects.filter(event=event).first()
            return bool(s and not s.pending and s.inputs_hash == fingerprint_hash(event))

        try:
            wait_until(settled, max(5.0, deadline - time.monotonic()), "catching up", every=1)
            caught_up = True
        except TimeoutError:
            caught_up = False
        # --- checks ---
        checks = report["checks"]
        once = in_order = True
        for phone in phones:
            versions = list(
                Protocol.objects.filter(
                    table__round__event=event, table__number=phone.number, entry_kind="table"
                ).order_by("version")
            )
            ids = [v.client_id for v in versions]
            if ids != [cid for cid, _f in phone.entered]:
                once = False
            deals = stored_protocol(versions[-1].data).deals if versions else ()
            entered = [f for _cid, f in phone.entered if f["action"] == "add"]
            if len(deals) != len(entered):
                in_order = False
                continue
            for deal, fields in zip(deals, entered, strict=True):
                if isinstance(deal, Raspasy) != (fields["kind"] == "raspasy"):
                    in_order = False
                elif isinstance(deal, Raspasy):
                    tricks = tuple(str(t) for t in deal.tricks)
                    if tricks != (fields["tricks_0"], fields["tricks_1"], fields["tricks_2"]):
                        in_order = False
                elif str(deal.declarer) != fields["declarer"]:
                    in_order = False
        snapshot = StandingsSnapshot.objects.filter(event=event).first()
        mine = {k: v for k, v in snapshot.data.items() if k != "meta"} if snapshot else None
        checks["every_send_stored_once"] = once
        checks["deals_stored_in_order"] = in_order
        checks["none_refused"] = not any(p.refused for p in phones)
        checks["no_5xx"] = not tally.server_errors
        checks["network_was_cut"] = network.cuts == 1 and "restored_at_seconds" in report
        checks["all_approved"] = approved == len(phones)
        checks["caught_up"] = caught_up
        checks["standings_equal_recomputation"] = json.loads(
            json.dumps(mine, default=str)
        ) == fresh_standings(event)
        report.update(
            {
                "tables": len(phones),
                "sends": sum(len(p.entered) for p in phones),
                "answers_lost_at_the_cut": sum(p.lost_answers for p in phones),
                "refused": [r for p in phones for r in p.refused][:10],
                "approval_refusals": approval_refusals[:10],
                "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
                "server_errors": tally.server_errors[:20],
                "latency_ms": latency_ms(tally.latencies),
                "seconds": round(time.monotonic() - t0, 1),
            }
        )
        report["ok"] = all(checks.values())
        return report
    finally:
        stack.finish(keep_db=args.keep_db)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=int, default=30, help="tables of three")
    p.add_argument("--deals", type=int, default=12, help="deals each table enters")
    p.add_argument("--pace", type=float, default=15, help="seconds between a table's deals")
    p.add_argument("--cut", type=float, default=120, help="seconds the network is cut")
    p.add_argument("--cut-at", type=float, default=10, help="seconds into the play")
    p.add_argument("--retry", type=float, default=3, help="seconds between a phone's tries")
    p.add_argument("--threads", type=int, default=8, help="gunicorn threads")
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--max-seconds", type=float, default=900)
    p.add_argument("--db", default=f"pulka_load_offline_{os.getpid()}")
    p.add_argument("--log-dir", default="")
    p.add_argument("--keep-db", action="store_true")
    return p


def main(argv=None) -> int:
    return scenario_main(run, parser(), argv)


if __name__ == "__main__":
    sys.exit(main())

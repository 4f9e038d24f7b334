"""``python -m scoring``: score, check and convert protocols from the command line.

Commands (``docs/protocol-format.md`` has the details)::

    python -m scoring score FILE [--json] [--ascii]
    python -m scoring check FILE [--sheet SHEET] [--json]
    python -m scoring convert FILE --to json|text [--ascii]

``FILE`` is a protocol in the text notation or in JSON, told apart by its first character
(``{`` means JSON); ``-`` reads standard input. Exit status: 0 when all went well (no errors,
warnings allowed), 1 when ``check`` or ``score`` found errors (``score`` still prints the result,
with a last line on standard error saying how many deals were left unscored and how many errors
there are), 2 when the input cannot be read (a missing file, a notation or JSON error, an
unknown convention or option, a table that cannot be scored at all) or the command line is
wrong.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from . import jsonio
from .findings import Finding
from .jsonio import dumps_document
from .russian.protocol import Protocol, Sheet
from .variant_base import Variant
from .variants import read_text_document

__all__ = ["main", "read_protocol"]


class _Unreadable(Exception):
    """Input that cannot be read: printed as ``pulka: <message>``, exit status 2."""


def _read_text(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except OSError as error:
        raise _Unreadable(f"{path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise _Unreadable(f"{path}: not UTF-8 text ({error.reason})") from None


def read_protocol(path: str) -> tuple[Protocol, Sheet | None]:
    """Read a protocol file, text notation or JSON (auto-detected), with its embedded sheet.

    :raises ValueError: (a :class:`~scoring.notation_lexer.NotationError` or
        :class:`~scoring.jsonio.JsonFormatError`) when it cannot be read.
    """
    _, protocol, sheet = read_any(path)
    return protocol, sheet


def read_any(path: str) -> tuple[Variant, Any, Any]:
    """Read a protocol file of any registered family: ``(variant, protocol, sheet)``.

    The convention and its options are checked here, for every command alike: an unknown one
    cannot be read (exit status 2 for ``score``, ``check`` and ``convert``), whichever family's
    reader let it through.
    """
    variant, protocol, sheet = read_text_document(_read_text(path))
    variant.convention(protocol)  # InvalidConventionError, a ValueError: exit status 2
    return variant, protocol, sheet


def _finding(f: Finding) -> str:
    return f"{f.severity}: {f}"


def _score(args: argparse.Namespace, out: TextIO) -> int:
    variant, protocol, _ = read_any(args.file)
    report = variant.check(protocol)
    data = variant.result_dict(protocol, report.findings) if args.json or not report.ok else {}
    if args.json:
        out.write(dumps_document(data, 2))
    else:
        out.write(variant.render(protocol, report.findings, ascii=args.ascii))
    if report.ok:
        return 0
    # The sheet or document above leaves out what the errors name: say so on the last line
    # (standard error, so that the JSON stays one document) and exit 1, as check does.
    deals = data.get("deals")
    unscored = sum(
        1 for d in deals or () if isinstance(d, dict) and d.get("kind") == "not-scored"
    )
    errors = len(report.errors)
    sys.stderr.write(
        f"pulka: {args.file}: {unscored} {'deal' if unscored == 1 else 'deals'} not scored, "
        f"{errors} {'error' if errors == 1 else 'errors'} (python -m scoring check lists them)\n"
    )
    return 1


def _read_sheet(variant: Variant, path: str, players: tuple[str, ...], deals: int) -> Any:
    text = _read_text(path)
    try:
        if text.lstrip().startswith("{"):
            return variant.loads_sheet(text)
        return variant.parse_sheet(text, players, deals=deals)
    except ValueError as error:
        raise _Unreadable(f"{path}: {error}") from None


def _check(args: argparse.Namespace, out: TextIO) -> int:
    variant, protocol, sheet = read_any(args.file)
    if args.sheet is not None:
        sheet = _read_sheet(variant, args.sheet, protocol.players, len(protocol.deals))
    report = variant.check(protocol, sheet)
    if args.json:
        data = {
            "format": "pulka-findings",
            "version": jsonio.VERSION,
            "ok": report.ok,
            "findings": [jsonio.finding_to_dict(f) for f in report.findings],
        }
        out.write(dumps_document(data, 2))
    else:
        for f in report.findings:
            out.write(_finding(f) + "\n")
        errors, warnings = len(report.errors), len(report.warnings)
        verdict = "clean" if not report.findings else "has errors" if errors else "no errors"
        out.write(f"{args.file}: {verdict} ({errors} errors, {warnings} warnings)\n")
    return 0 if report.ok else 1


def _convert(args: argparse.Namespace, out: TextIO) -> int:
    variant, protocol, sheet = read_any(args.file)
    if args.to == "json":
        out.write(dumps_document(variant.to_dict(protocol, sheet), 2))
    else:
        out.write(variant.format_text(protocol, sheet, ascii=args.ascii))
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring",
        description=(
            "Score, check and convert Preference protocols of every registered family: "
            "Russian pulkas (seed 001, the Kodeks), Croatian, Serbian and Slovenian games "
            "(seed 002), Viennese and German Préférence, the pot games (seeds 000 and 003), "
            "and Swedish Priffe (seed 004). Exit status: 0 all went well, 1 errors found (check, "
            "and score, which still prints the result and says on its last line of standard "
            "error how many deals were not scored), 2 unreadable input."
        ),
    )
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("score", help="print the pulka as a sheet, or the computed result as JSON")
    s.add_argument("file", help="protocol: text notation or JSON; - for standard input")
    s.add_argument("--json", action="store_true", help="print the full computed result as JSON")
    s.add_argument("--ascii", action="store_true", help="write deals as 6S, mis, =, -1")
    s.set_defaults(run=_score)
    c = sub.add_parser("check", help="print every finding; exit 1 when there are errors")
    c.add_argument("file", help="protocol: text notation or JSON; - for standard input")
    c.add_argument("--sheet", help="the sheet the players wrote: 'sheet' lines or pulka-sheet JSON")
    c.add_argument("--json", action="store_true", help="print the findings as JSON")
    c.set_defaults(run=_check)
    v = sub.add_parser("convert", help="convert between the text notation and JSON")
    v.add_argument("file", help="protocol: text notation or JSON; - for standard input")
    v.add_argument("--to", choices=("json", "text"), required=True)
    v.add_argument("--ascii", action="store_true", help="text with 6S, mis, =, -1")
    v.set_defaults(run=_convert)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    stream = out if out is not None else sys.stdout
    try:
        status: int = args.run(args, stream)
    except _Unreadable as error:
        sys.stderr.write(f"pulka: {error}\n")
        return 2
    except ValueError as error:  # notation, JSON, convention or an unscorable table
        sys.stderr.write(f"pulka: {args.file}: {error}\n")
        return 2
    return status

"""An event's full archive: one versioned JSON document, and reading it back into another Pulka.

``docs/archive-format.md`` describes the document. :mod:`.export` writes it
(:func:`event_archive`), :mod:`.load` reads it into a new event in one transaction
(:func:`event_archive_import`); :mod:`.refs` holds what both share: the format's name and
version, the migrations of older versions, and how the database's ids inside recorded data
become the archive's own references and back.
"""

from tournaments.archive.refs import ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveError

__all__ = ["ARCHIVE_FORMAT", "ARCHIVE_VERSION", "ArchiveError"]

"""An event's full archive: one versioned JSON document, and reading it back into another Pulka.

``docs/archive-format.md`` describes the document. :mod:`.export` writes it
(:func:`event_archive`), :mod:`.load` reads it into a new event in one transaction
(:func:`event_archive_import`), with :mod:`.reading`'s checked getters that name the place of
every wrong value; :mod:`.refs` holds what both share: the format's name and version, the
migrations of older versions, and how the database's ids inside recorded data become the
archive's own references and back. :mod:`.files` and :mod:`.imports` run the export and the
import as background jobs.

May import: services (the audit log, the jobs' outbox and queues, the stored protocols, the
standings' schedule), selectors, models, the rule families and the pure packages, at the top of
a module (a layer above services). Imported by views, the API, the jobs and the management
commands.
"""

from tournaments.archive.refs import ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveError

__all__ = ["ARCHIVE_FORMAT", "ARCHIVE_VERSION", "ArchiveError"]

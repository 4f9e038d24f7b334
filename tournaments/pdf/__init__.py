"""The PDF documents: blank and filled protocols, seating lists, player links and standings.

- :mod:`.documents` builds each document's context (plain data read through the selectors) and
  renders it with WeasyPrint or reportlab;
- :mod:`.blank` draws the blank protocols' per-table overlay over a static background;
- :mod:`.filled`, :mod:`.layouts` and :mod:`.pulka` draw every rule family's filled protocol,
  with the primitives of :mod:`.draw` (fonts, colours, cell markup, the plain table);
- :mod:`.files` is the generated-file service: request a document, render it in a job, keep it
  until its data changes.

May import: models, selectors, services (the files' service enqueues jobs), words, the rule
families' adapters and the pure packages. Imported by views, the API and the jobs.
"""

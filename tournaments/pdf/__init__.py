"""The PDF documents: blank and filled protocols, seating lists, player links and standings.

- :mod:`.documents` names the kinds, their file names and the hash a stored file is found by,
  and renders a kind (:func:`~tournaments.pdf.documents.render`);
- :mod:`.contexts` and :mod:`.protocol_contexts` (the filled protocols) build each document's
  context: plain data read through the selectors; :mod:`.paper` holds the paper sizes;
- :mod:`.render` lays a context out with WeasyPrint or draws it with reportlab (it loads both:
  only a process that renders imports it);
- :mod:`.blank` draws the blank protocols' per-table overlay over a static background;
- :mod:`.filled`, :mod:`.layouts` and :mod:`.pulka` draw every rule family's filled protocol,
  with the primitives of :mod:`.draw` (fonts, colours, cell markup, the plain table);
- :mod:`.files` is the generated-file service: request a document, render it in a job, keep it
  until its data changes.

May import: services (the files' service enqueues jobs through ``jobs.outbox``), words,
selectors, models, the rule families' adapters and the pure packages, at the top of a module
(a layer above services). Imported by views, the API and the jobs.
"""

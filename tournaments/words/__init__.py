"""Records turned into sentences for people, in the reader's language.

The stored rows keep codes and plain data for programs (the API, the exports, the archive);
people read these modules' sentences, with players' names for entry ids, plural forms for
counts and rule references as a referee knows them: the organiser's desk (:mod:`.desk`), a
round's tables without a result (:mod:`.gaps`), the event's log (:mod:`.audit`), the draw report
(:mod:`.draw_report`), what a ruling wrote into a pulka (:mod:`.penalties`) and the rulings and
protocols' log (:mod:`.rulings`).

May import: models, selectors, the rule families' adapters and the pure packages; never
services. Imported by views, the API, selectors that hand a page its sentences, and the PDFs.
"""

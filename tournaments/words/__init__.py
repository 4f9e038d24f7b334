"""Records turned into sentences for people, in the reader's language.

The stored rows keep codes and plain data for programs (the API, the exports, the archive);
people read these modules' sentences, with players' names for entry ids, plural forms for
counts and rule references as a referee knows them: the organiser's desk (:mod:`.desk`), a
round's tables without a result (:mod:`.gaps`), the event's log (:mod:`.audit`), the draw report
(:mod:`.draw_report`), what a ruling wrote into a pulka (:mod:`.penalties`), the rulings and
protocols' log and stored words said again (:mod:`.rulings`), and a table's pulka view with its
findings' headings and sentences (:mod:`.protocols`).

May import: models, selectors, the rule families' domain face (:mod:`tournaments.families`) and
page face (:mod:`tournaments.variants`) and the pure packages; never services. Imported by
services, views, the API and the PDFs; never by selectors.
"""

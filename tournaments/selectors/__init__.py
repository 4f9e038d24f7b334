"""Selectors: reads that span relations, each prefetching once (Tabbycat #661, #1704).

A selector returns model instances or plain data for a page, a document or a service to use;
it writes nothing. May import: models, the rule families' domain face and the pure packages.
Never services, words or anything above them.
"""

"""Selectors: reads that span relations, each prefetching once (Tabbycat #661, #1704)."""

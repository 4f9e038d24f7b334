"""The pages: thin views that read through selectors, write through services and render the
templates in ``templates/``, localised, phone first.

One module per audience or feature (``public``, ``organiser``, ``private``, ``standings``,
``protocols/``, ``hall``, ``archive``, ``jobs``); ``caching`` serves the anonymous pages from the
page cache. May import everything below them: services, selectors, words, the PDFs' and the
archive's services, forms, access, the rule families' page face, models. Only the URL confs and
the middleware import views.
"""

"""The REST API's views, one class per operation (HackSoft): parse the input with a serializer,
call a service or a selector, answer with an output serializer. May import what the page views
may; only the API's URL confs import them.
"""

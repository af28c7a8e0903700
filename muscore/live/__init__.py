"""Live screens by push: server-sent events for every screen that polls (issue 32).

A screen that polls today (the board, the view link, the club's TV, a championship's
hall and pages) opens one stream, ``/events/?u=<its poll URL>&lang=<its language>``,
served by an ASGI server (uvicorn, :mod:`muscore.live.asgi`). A write publishes its
topics after the commit (:mod:`muscore.bus`); each stream server draws the changed
screen once per kind and language (:mod:`muscore.live.render`, the same view the poll
asks) and sends every phone of that screen the fragment with its ETag as the event id
(:mod:`muscore.live.hub`). Polling stays: the page polls by itself whenever the stream is
not open (static/js/live.js), with the ETag and 304 of before.
"""

"""Games as event streams: the event store, projections, audit and the API.

``games`` persists and replays; it knows the rules only through
:mod:`engine.registry` and :class:`engine.base.Game`.
"""

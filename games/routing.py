"""WebSocket routes of the live pages (config/asgi.py mounts them)."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/seat/", consumers.SeatConsumer.as_asgi()),
    path("ws/games/<int:game_id>/watch/", consumers.WatchConsumer.as_asgi()),
]

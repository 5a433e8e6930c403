from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.game_list, name="list"),
    path("new/", views.game_new, name="new"),
    path("practice/", views.game_practice, name="practice"),
    path("<int:game_id>/", views.game_detail, name="detail"),
    path("<int:game_id>/join/", views.game_join, name="join"),
    path("<int:game_id>/seats/<int:index>/take/", views.seat_take, name="seat-take"),
    path("<int:game_id>/play/", views.play, name="play"),
    path("<int:game_id>/next/", views.game_next, name="next"),
    path("play/", views.play_enter, name="play-enter"),
]

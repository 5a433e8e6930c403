"""Public league pages, mounted at the site root by ``config.urls``."""

from django.urls import path

from . import organiser_views, views

app_name = "league"

urlpatterns = [
    path("", views.index, name="index"),
    path("tournaments/new/", organiser_views.tournament_new, name="tournament-new"),
    path("t/<slug:slug>/", views.tournament_standings, name="tournament"),
    path("t/<slug:slug>/standings.csv", views.tournament_standings_csv, name="standings-csv"),
    path("t/<slug:slug>/results.csv", views.tournament_results_csv, name="results-csv"),
    path("t/<slug:slug>/round/<int:number>/", views.round_detail, name="round"),
    path("t/<slug:slug>/round/<int:number>/print/", views.round_print, name="round-print"),
    path("t/<slug:slug>/round/<int:number>/print.pdf", views.round_pdf, name="round-pdf"),
    path("t/<slug:slug>/round/<int:number>/desk/", organiser_views.round_desk, name="round-desk"),
    path("t/<slug:slug>/projector/", views.projector, name="projector"),
    path("t/<slug:slug>/check-in/", organiser_views.check_in, name="check-in"),
    path("s/<str:code>/", views.table_entry, name="table-entry"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("players/import/", organiser_views.players_import, name="players-import"),
    path("players.csv", organiser_views.players_export, name="players-csv"),
    path("clubs/<slug:slug>/", views.club_detail, name="club"),
    path("leagues/<slug:slug>/", views.league_detail, name="league"),
    path("ratings/", views.ratings, name="ratings"),
]

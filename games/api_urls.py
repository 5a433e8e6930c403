from django.urls import path

from . import api, api_disputes

app_name = "games-api"

urlpatterns = [
    path("games/", api.GameListCreate.as_view(), name="game-list"),
    path("games/<int:game_id>/", api.GameDetail.as_view(), name="game-detail"),
    path("games/<int:game_id>/seats/<int:index>/", api.SeatTake.as_view(), name="seat-take"),
    path("games/<int:game_id>/seats/<int:index>/credential/", api.SeatCredential.as_view(),
         name="seat-credential"),
    path("games/<int:game_id>/view/", api.SeatView.as_view(), name="game-view"),
    path("games/<int:game_id>/compose/", api.TurnCompose.as_view(), name="game-compose"),
    path("games/<int:game_id>/timeout/", api.TurnTimeout.as_view(), name="game-timeout"),
    path("games/<int:game_id>/moves/", api.MoveSubmit.as_view(), name="game-moves"),
    path("games/<int:game_id>/events/", api.GameEvents.as_view(), name="game-events"),
    path("games/<int:game_id>/record/", api.GameRecord.as_view(), name="game-record"),
    path("games/<int:game_id>/audit/", api.GameAudit.as_view(), name="game-audit"),
    path("games/<int:game_id>/verify-receipt/", api.ReceiptVerify.as_view(), name="game-verify-receipt"),
    path("checkpoints/latest/", api.CheckpointLatest.as_view(), name="checkpoint-latest"),
    path("games/<int:game_id>/disputes/", api_disputes.GameDisputes.as_view(), name="game-disputes"),
    path("disputes/<int:dispute_id>/", api_disputes.DisputeDetail.as_view(), name="dispute-detail"),
    path("disputes/<int:dispute_id>/retry/", api_disputes.DisputeRetry.as_view(), name="dispute-retry"),
    path("tasks/<str:key>/", api_disputes.TaskStateView.as_view(), name="task-state"),
    path("standings/<str:subject>/", api_disputes.StandingsLatest.as_view(), name="standings-latest"),
]

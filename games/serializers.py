"""Input and output shapes of the games API (validation only; no logic)."""

from rest_framework import serializers


class TextField(serializers.CharField):
    """A ``CharField`` that takes a JSON string only. DRF's own turns a
    number into its text, so ``{"name": 0}`` took a seat named "0"; a
    boolean, a list or an object was refused, but a number was not."""

    default_error_messages = {"not_text": "must be text (a JSON string), not {kind}"}

    def to_internal_value(self, data):
        if not isinstance(data, str):
            kind = {bool: "true or false", int: "a number", float: "a number", list: "a list",
                    dict: "an object"}.get(type(data), type(data).__name__)
            self.fail("not_text", kind=kind)
        return super().to_internal_value(data)


class SeatInSerializer(serializers.Serializer):
    name = TextField(max_length=120, required=False, allow_blank=True)
    kind = serializers.ChoiceField(choices=["human", "ai"], default="human")
    ai_level = TextField(max_length=20, required=False, allow_blank=True)


class GameCreateSerializer(serializers.Serializer):
    variant = TextField(max_length=40, help_text="a variant name or alias, e.g. 'sabra'")
    players = serializers.IntegerField(min_value=1, max_value=8)
    rules = serializers.DictField(required=False, default=dict, help_text="named rule options")
    seats = SeatInSerializer(many=True, required=False)
    first = serializers.IntegerField(min_value=0, default=0)
    title = TextField(max_length=200, required=False, allow_blank=True, default="")
    training = serializers.BooleanField(default=False, help_text="a training game: players may ask "
                                                                   "whether a play was the best")
    deal = serializers.DictField(required=False, help_text="dealt tiles of a game played on a real "
                                                           "table (staff only); omit for a secret seed")


class SeatOutSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.CharField()
    taken = serializers.BooleanField()


class GameSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    family = serializers.CharField()
    variant = serializers.CharField()
    mode = serializers.CharField()
    training = serializers.BooleanField()
    rules = serializers.DictField()
    players = serializers.IntegerField()
    status = serializers.CharField()
    version = serializers.IntegerField()
    to_move = serializers.IntegerField(allow_null=True)
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    seats = SeatOutSerializer(many=True)


class SeatTakeSerializer(serializers.Serializer):
    name = TextField(max_length=120, required=False, allow_blank=True, default="")


class SeatTokenSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    seat = serializers.IntegerField()
    token = serializers.CharField(help_text="send as 'Authorization: Seat <token>'; shown only once")


class ReceiptSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    version = serializers.IntegerField(min_value=1)
    hash = serializers.CharField(help_text="the hash of the stream's event at this version")
    hmac = serializers.CharField(help_text="the server's signature of game, version and hash")


class ReceiptCheckSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    version = serializers.IntegerField()
    ok = serializers.BooleanField(help_text="the receipt's event is in the stream with its hash")
    stream_version = serializers.IntegerField(help_text="the stream's last event now")
    first_bad_version = serializers.IntegerField(allow_null=True)
    problem = serializers.CharField(allow_blank=True, help_text="the missing tail or the changed event")


class ViewSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    version = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    view = serializers.DictField(help_text="the engine's view for this seat")
    clock = serializers.DictField(allow_null=True, help_text="the running turn clock: seat on turn, seconds, "
                                  "started_at, seconds left; null without one")
    receipt = ReceiptSerializer(allow_null=True, help_text="the signed head receipt of this version: keep it")


class MoveInSerializer(serializers.Serializer):
    move = TextField(max_length=2000, trim_whitespace=True,
                                 help_text="the move in the engine's notation, e.g. 'draw'")
    expected_version = serializers.IntegerField(min_value=0, help_text="the version your view showed")
    seat = serializers.IntegerField(min_value=0, required=False,
                                    help_text="optional; must be your credential's seat")


class MoveOutSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    move = serializers.CharField()
    outcome = serializers.CharField()
    game_over = serializers.BooleanField()
    penalty_for = serializers.CharField(allow_null=True)
    rule = serializers.CharField(allow_null=True)
    message = serializers.CharField(allow_blank=True)
    receipt = ReceiptSerializer(help_text="the signed head receipt of the new version: keep it")


class EventOutSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    type = serializers.CharField()
    payload = serializers.DictField()
    actor = serializers.CharField()
    recorded_at = serializers.CharField()
    hash = serializers.CharField()


class VerdictSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game_id")
    ok = serializers.BooleanField()
    events_checked = serializers.IntegerField()
    first_bad_version = serializers.IntegerField(allow_null=True)
    problem = serializers.CharField(allow_blank=True)
    head_version = serializers.IntegerField(allow_null=True, help_text="the stream's last event judged")
    head_hash = serializers.CharField(allow_blank=True)
    checkpoint_seq = serializers.IntegerField(allow_null=True, help_text="the newest checkpoint then")


class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField(help_text="a short stable code")
    detail = serializers.CharField(help_text="what was wrong, for people")
    message = serializers.CharField(required=False, help_text="a refused move's sentence in the language of the "
                                    "request (Accept-Language), from its rule code (when the code is known)")


class TimeoutInSerializer(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0, help_text="the version your view showed")


class ComposeInSerializer(serializers.Serializer):
    melds = serializers.ListField(
        child=serializers.ListField(child=TextField(max_length=8), max_length=40),
        max_length=80, allow_empty=True,
        help_text="the whole table after the turn: per meld, its tile codes, jokers as plain 'J'")


class ComposeMeldSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    reason = serializers.CharField()
    meld = serializers.CharField(allow_null=True)
    value = serializers.IntegerField()


class ComposeOutSerializer(serializers.Serializer):
    melds = ComposeMeldSerializer(many=True)
    laid_value = serializers.IntegerField()
    move = serializers.CharField(allow_null=True)
    legal = serializers.BooleanField()
    refusal = serializers.CharField()

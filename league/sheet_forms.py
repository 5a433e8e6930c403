"""The score sheet's forms, one per kind of sheet, shared by the admin's
sheet (the organiser) and the table's own page on a phone (the players):
racks (a line per seat), hands (a line per hand and seat) or a match's game
lines, as the tournament's family describes its sheet
(:attr:`engine.family.Family.sheet`). Each gives the sheet as
:meth:`engine.family.Family.read_sheet` reads it (:func:`sheet_of`)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _


class ScoreSheetForm(forms.Form):
    """One field per seat: the tiles left on that rack (empty: went out)."""

    def __init__(self, *args, seats, current=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in seats:
            label = _("Seat %(n)s: %(who)s") % {"n": seat.position + 1, "who": seat}
            initial = ""
            if current is not None and current.event.payload.get("racks"):
                initial = current.event.payload["racks"][seat.position]
            self.fields[f"rack_{seat.position}"] = forms.CharField(
                label=label, required=False, initial=initial,
                help_text=_("tiles left, e.g. R7 K13 J; empty for the player who went out"))
        self.correction = current is not None

    def racks(self) -> list[str]:
        return [self.cleaned_data.get(f"rack_{s.position}", "") for s in self.seats]


class HandsSheetForm(forms.Form):
    """A sheet of hands (contract rummy): one field per hand and seat, the
    cards that seat had left when the hand ended (empty: went out)."""

    def __init__(self, *args, seats, current=None, lines=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.hand_count = len(lines)
        kept = current.event.payload.get("hands") if current is not None else None
        for h, line in enumerate(lines):
            for seat in seats:
                initial = kept[h][seat.position] if kept else ""
                self.fields[f"hand_{h + 1}_{seat.position}"] = forms.CharField(
                    label=_("Hand %(h)s (%(contract)s), seat %(n)s: %(who)s") % dict(
                        h=h + 1, contract=_(line["label"]), n=seat.position + 1, who=seat),
                    required=False, initial=initial,
                    help_text=_("cards left, e.g. KD 7H JK; empty for the player who went out"))
        self.correction = current is not None

    def hands(self) -> list[list[str]]:
        return [[self.cleaned_data.get(f"hand_{h + 1}_{s.position}", "") for s in self.seats]
                for h in range(self.hand_count)]


class MatchLinesSheetForm(forms.Form):
    """A match's game lines (Okey): one line per game of the match, in order: who won (or nobody:
    the middle ran out), how, whether an okey was thrown to finish, whether
    the indicator was red or black (With Color), who showed the Compare
    Stone. Lines left without a winner choice are games not played."""

    LINES = 20

    def __init__(self, *args, seats, current=None, lines: int = LINES, **kwargs):
        super().__init__(*args, **kwargs)
        self.LINES = lines
        self.seats = seats
        kept = current.event.payload.get("games", []) if current is not None else []
        seat_names = [(str(s.position), _("seat %(n)s: %(who)s") % {"n": s.position + 1, "who": s}) for s in seats]
        who = [("", "—"), ("none", _("nobody (the middle ran out)"))] + seat_names
        shown = [("", "—")] + seat_names
        self.rows = []
        for k in range(1, self.LINES + 1):
            old = kept[k - 1] if k - 1 < len(kept) else {}
            won = "" if not old else ("none" if old["winner"] is None else str(old["winner"]))
            self.fields[f"g{k}_winner"] = forms.ChoiceField(label=_("Game %(k)s: won by") % {"k": k}, choices=who,
                                                            required=False, initial=won)
            self.fields[f"g{k}_kind"] = forms.ChoiceField(
                label=_("how"), required=False, initial=old.get("kind") or "melds",
                choices=[("melds", _("sets and runs")), ("pairs", _("seven pairs"))])
            self.fields[f"g{k}_okey"] = forms.BooleanField(label=_("finished with an okey"), required=False,
                                                           initial=old.get("okey_finish", False))
            self.fields[f"g{k}_coloured"] = forms.BooleanField(label=_("red or black indicator"),
                                                               required=False,
                                                               initial=old.get("coloured", False))
            self.fields[f"g{k}_shown"] = forms.ChoiceField(
                label=_("Compare Stone shown by"), choices=shown, required=False,
                initial="" if old.get("shown") is None else str(old["shown"]))
            self.rows.append((k, [f"g{k}_winner", f"g{k}_kind", f"g{k}_okey", f"g{k}_coloured", f"g{k}_shown"]))
        self.correction = current is not None

    def line_fields(self):
        """Each line's bound fields, for the sheet's table."""
        return [(k, [self[name] for name in names]) for k, names in self.rows]

    def games(self) -> list[dict]:
        out = []
        for k in range(1, self.LINES + 1):
            won = self.cleaned_data.get(f"g{k}_winner", "")
            if not won:
                continue
            shown = self.cleaned_data.get(f"g{k}_shown", "")
            out.append({"winner": None if won == "none" else int(won),
                        **({"kind": self.cleaned_data.get(f"g{k}_kind") or "melds",
                            "okey_finish": bool(self.cleaned_data.get(f"g{k}_okey"))}
                           if won != "none" else {}),
                        "coloured": bool(self.cleaned_data.get(f"g{k}_coloured")),
                        "shown": int(shown) if shown else None})
        return out


class HowWonSheetForm(ScoreSheetForm):
    """Racks, and how the game was won where the family asks it
    (International Rummikub): open, foot, closed with the hand's type and
    its jokers; which seats had melded; whether the winning discard was a
    joker; and (with the rule) whether the winner held the trump's twin."""

    def __init__(self, *args, seats, current=None, family=None, **kwargs):
        super().__init__(*args, seats=seats, current=current, **kwargs)
        tournament = seats[0].table.round.tournament if seats else None
        self.international = bool(tournament and family.asks_how_won(tournament.variant, tournament.rules))
        if not self.international:
            return
        old = (current.event.payload if current is not None else None) or {}
        self.fields["how"] = forms.ChoiceField(
            label=_("Won how"), required=False, initial=old.get("how") or "",
            choices=[("", _("nobody won (the stacks ran out)")), ("open", _("Open")), ("foot", _("Foot")),
                     ("closed", _("Closed"))])
        self.fields["closed_type"] = forms.TypedChoiceField(
            label=_("Closed hand type"), required=False, coerce=int, empty_value=None,
            initial=old.get("closed_type") or "",
            choices=[("", "—")] + [(k, f"{k}. {name}") for k, name in family.closed_types()])
        self.fields["closed_jokers"] = forms.TypedChoiceField(
            label=_("Jokers in the closed hand"), required=False, coerce=int, initial=0,
            choices=[(0, "0"), (1, "1"), (2, "2")])
        melded = old.get("melded") or []
        for seat in seats:
            self.fields[f"melded_{seat.position}"] = forms.BooleanField(
                label=_("Seat %(n)s had melded") % {"n": seat.position + 1}, required=False,
                initial=bool(melded[seat.position]) if seat.position < len(melded) else False)
        self.fields["joker_discard"] = forms.BooleanField(
            label=_("The winning discard was a joker (doubles every score)"), required=False,
            initial=old.get("joker_discard", False))
        if tournament.rules.get("trump_twin_bonus"):
            self.fields["twin"] = forms.BooleanField(label=_("The winner held the trump's twin (50 more)"),
                                                     required=False)

    def won(self) -> dict | None:
        if not self.international:
            return None
        d = self.cleaned_data
        out = {"how": d.get("how") or None, "closed_type": d.get("closed_type"),
               "closed_jokers": d.get("closed_jokers") or 0,
               "melded": [bool(d.get(f"melded_{s.position}")) for s in self.seats],
               "joker_discard": bool(d.get("joker_discard"))}
        if "twin" in self.fields:
            out["twin"] = bool(d.get("twin"))
        return out


def form_for(tournament):
    """The sheet's form class for the tournament's family, as its sheet is
    described (:class:`engine.family.Sheet`), ready to take the form's
    data: ``form_for(t)(request.POST, seats=seats)``."""
    from functools import partial

    family = tournament.family_info
    sheet = family.sheet
    if sheet.kind == "hands":
        return partial(HandsSheetForm, lines=family.sheet_lines())
    if sheet.kind == "lines":
        return partial(MatchLinesSheetForm, lines=sheet.lines)
    if "won" in sheet.keys:
        return partial(HowWonSheetForm, family=family)
    return ScoreSheetForm


def sheet_of(form) -> dict:
    """The sheet a bound, valid form gives, as the family reads it
    (:meth:`engine.family.Family.read_sheet`)."""
    if isinstance(form, HandsSheetForm):
        return {"hands": form.hands()}
    if isinstance(form, MatchLinesSheetForm):
        return {"games": form.games()}
    if isinstance(form, HowWonSheetForm) and form.international:
        return {"racks": form.racks(), "won": form.won()}
    return {"racks": form.racks()}

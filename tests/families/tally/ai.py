"""Tally's computer player."""


class First:
    """Plays the first legal move: the lowest tile that goes, else draw or pass."""

    def __init__(self, seed: str = ""):
        self.seed = seed

    def choose(self, game):
        return game.legal_moves()[0]


LEVELS = {"first": First}

"""The error every championship write raises when it refuses a change."""

from muscore.messages import WordedError


class ChampionshipError(WordedError):
    """A change a championship refuses; str() says why, for a person."""

    family = "championship"

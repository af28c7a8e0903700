"""muscore.handentry: what every screen that enters a hand shares.

The table's hand entry (muscore.tables), the recuento calculator and the lector
(muscore.disputes) and the league and championship forms that set a table's options
(muscore.leagues, muscore.championships) speak about a hand with the same words and
read the same fields. They are here, once, below all of them (docs/layers.md):

- :mod:`~muscore.handentry.words`: the game's words (lance names, jugadas), the sides
  and their seats, a seat's default name;
- :mod:`~muscore.handentry.cards`: the card, pares, juego and declaration fields;
- :mod:`~muscore.handentry.taps`: the bet buttons' taps, applied through the engine's
  :class:`muscore.rules.HandDraft`, and the bets said as the table says them;
- :mod:`~muscore.handentry.messages`: an engine refusal as a referee says it;
- :mod:`~muscore.handentry.options`: the table options' fields (reyes, piedras, juegos,
  31 real, perete), one form mixin, and their lenient reading for the calculator;
- :mod:`~muscore.handentry.presets`: the ways regions play, named, one tap away on /nueva
  and the calculator.

No rule of the game is decided here: muscore.rules decides, this package only reads
fields and says things.
"""

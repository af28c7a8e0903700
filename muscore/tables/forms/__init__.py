"""The table's forms, by what each does: the set-up of a new table (:mod:`.setup`), the
hand entry that turns taps into a hand record (:mod:`.entry`), and the import of an
exported table (:mod:`.importing`). What the hand entry shares with the calculator (the
game's words, the card fields, the taps) is in muscore.handentry."""

from muscore.tables.forms.entry import HandEntry
from muscore.tables.forms.importing import IMPORT_MAX_BYTES, ImportForm
from muscore.tables.forms.setup import SetupForm

__all__ = ["IMPORT_MAX_BYTES", "HandEntry", "ImportForm", "SetupForm"]

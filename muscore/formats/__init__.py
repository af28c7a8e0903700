"""Date and number formats muscore changes from Django's (settings.FORMAT_MODULE_PATH).

Only English: Django's ``en`` writes dates the US way (12/01/2026 for the first of
December), which a club in Spain reading the pages in English misreads. Spanish and
Basque keep Django's own formats.
"""

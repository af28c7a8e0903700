"""The ASGI entry point: ``uvicorn muscore.asgi:application`` (muscore.live.asgi).

The pages it serves itself name its stream, unless MUSCORE_LIVE_STREAM says otherwise.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "muscore.settings")
os.environ.setdefault("MUSCORE_LIVE_STREAM", "/events/")

import django  # noqa: E402

django.setup()

from muscore.live.asgi import make_application  # noqa: E402

application = make_application()

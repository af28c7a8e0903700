from django.conf import settings
from django.http import HttpRequest


def stream(request: HttpRequest) -> dict[str, str]:
    """``live_stream``: where the pages open their stream ("" for none: they poll)."""
    return {"live_stream": settings.LIVE_STREAM_URL}

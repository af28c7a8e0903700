"""gunicorn settings for production: `gunicorn -c python:muscore.gunicorn_conf muscore.wsgi`.

Command-line flags (--bind, --workers) still apply on top of these. The access log
goes to standard output and the error log to standard error; both mask edit keys
(muscore.logs.GunicornLogger), and each access line ends with the request's id, the
same id as on the app's own log lines for that request.
"""

accesslog = "-"
errorlog = "-"
logger_class = "muscore.logs.GunicornLogger"
# gunicorn's default (Apache's combined format), then the time taken and the request id
# that muscore.middleware.RequestIdMiddleware puts in the response.
access_log_format = (
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms rid=%({x-request-id}o)s'
)

"""gunicorn's logger for `serve`: the access log without court tokens (issue 18, item 4).

The request line, the path, the query and the Referer of a court page carry its token
(``common.logmask``); this logger masks every text atom of the access log line before
gunicorn formats it. `serve` passes it as ``--logger-class``.
"""

from gunicorn.glogging import Logger

from common.logmask import mask_court_tokens


class MaskingLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        """gunicorn's atoms of one access log line, with court tokens masked in every text."""
        atoms = super().atoms(resp, req, environ, request_time)
        return {key: mask_court_tokens(value) if isinstance(value, str) else value for key, value in atoms.items()}

"""Play granujas in the browser: ``python -m granujas_env.web`` (extra ``[web]``).

:func:`create_app` builds the Starlette app (see :mod:`granujas_env.web.server` for the pages, the
JSON API and its security rules); :mod:`granujas_env.web.state` turns seat views into the JSON the
page draws.
"""

from .server import create_app

__all__ = ["create_app"]

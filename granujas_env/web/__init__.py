"""Play granujas and Bang! The Dice Game in the browser: ``python -m granujas_env.web`` (extra
``[web]``).

:func:`create_app` builds the Starlette app (see :mod:`granujas_env.web.server` for the pages, the
JSON API and its security rules); :mod:`granujas_env.web.kinds` is what the server needs of each
game; :mod:`granujas_env.web.state` (granujas) and :mod:`granujas_env.web.bang_state` (Bang!) turn
seat views into the JSON the page draws.
"""

from .server import create_app

__all__ = ["create_app"]

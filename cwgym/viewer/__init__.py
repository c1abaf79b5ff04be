"""``cwgym view``: an episode replay viewer and overview, written as a static site.

An eval run, a dataset or one episode file is replayed (:mod:`cwgym.viewer.replay`),
checking what was recorded on the way; each episode becomes a page stepping through its
positions with frames re-rendered from the replay (:mod:`cwgym.viewer.frames`), and an
overview lists them (:mod:`cwgym.viewer.overview`). :func:`build_site` does it all;
:func:`serve` shows a site on localhost.
"""

from cwgym.viewer.load import Source, ViewerError, load
from cwgym.viewer.serve import serve
from cwgym.viewer.site import SiteResult, build_site

__all__ = ["SiteResult", "Source", "ViewerError", "build_site", "load", "serve"]

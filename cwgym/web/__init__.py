"""The browser side of the web: the omnibox (:mod:`cwgym.web.omnibox`), the browser's
tabs, history and cookies as plain state (:mod:`cwgym.web.session`), the browser engine
(:mod:`cwgym.web.engine`) and the layout of a page into scene pieces
(:mod:`cwgym.web.layout`). Reading HTML into the page model is the protocol's
(:mod:`cwgym.protocol.html_reader`), beside the page model it reads into, so a ``static``
service can check the pages a world ships without reaching up into the browser."""

"""The browser side of the web: the omnibox (:mod:`cwgym.web.omnibox`), the browser's
tabs, history and cookies as plain state (:mod:`cwgym.web.session`), and reading the HTML a
site answers back into a page (:mod:`cwgym.web.html_page`)."""

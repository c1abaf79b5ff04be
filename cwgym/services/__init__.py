"""The web's services: one module per service kind, each registering itself in
:data:`cwgym.net.services.SERVICE_KINDS` (the registry imports every public module of this
package on first use, so adding a kind is adding a file). Kinds are built from
:mod:`cwgym.services.framework`: routes, accounts, pages in the page model of
:mod:`cwgym.protocol.page`, and state changed without mutation."""

"""The service kinds, one module each; each registers itself in
:data:`cwgym.net.services.SERVICE_KINDS`."""

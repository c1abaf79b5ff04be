"""The synthetic network: addresses and links, source-aware DNS, the gateway, listeners and
HTTP between the machines of one world, on the logical clock.

Nothing here opens a socket or reads the host: a request is a function of the world's
state. :mod:`cwgym.net.http` holds the messages, :mod:`cwgym.net.graph` the paths and their
latency, :mod:`cwgym.net.dns` name resolution and its cache, :mod:`cwgym.net.services` the
service kinds that answer on a port, and :mod:`cwgym.net.network` the ``network``
subsystem that carries a request from one node to another.
"""

"""Baseline agents for cwgym's leaderboard, each loadable by a ``module:factory`` string.

``baselines`` is a plain package at the repository root (not part of the ``cwgym`` wheel):
``cwgym eval`` puts the current directory on ``sys.path``, so run it from the repository
root (or put the root on ``PYTHONPATH``).

* ``baselines.random_agent:make_agent`` — uniform actions from a seeded numpy Generator;
* ``baselines.expert:make_agent`` — the procedure's own gestures (see ``baselines/expert.py``);
* ``baselines.sb3_agent:make_agent`` — trained stable-baselines3 policies (``CWGYM_MODEL``).

See ``docs/baselines.md`` for the agent protocol.
"""

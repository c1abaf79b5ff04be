"""The leaderboard's evaluator boundary: what crosses between ``cwgym eval`` and an agent.

``cwgym eval`` holds every env and its ``World``; the agent runs in a separate Python
process (:mod:`~cwgym.leaderboard.agent_host`) and the two exchange length-prefixed
MessagePack frames of plain values only (:mod:`~cwgym.leaderboard.wire`). The modules:

* :mod:`~cwgym.leaderboard.wire` — frames, the size cap, the MessagePack codec (numpy
  arrays as an extension type);
* :mod:`~cwgym.leaderboard.space_codec` — Gymnasium spaces as JSON-able descriptions and back;
* :mod:`~cwgym.leaderboard.actions` — actions as JSON data, and the strict conversion and
  check against the action space every reply goes through;
* :mod:`~cwgym.leaderboard.sealing` — what the agent is shown: the task, and the
  allow-list of ``info`` keys;
* :mod:`~cwgym.leaderboard.splits` — the public seeds of a suite and the hidden ones a
  secret derives;
* :mod:`~cwgym.leaderboard.agent_process` — the evaluator's side: starting, timing out and
  killing the agent process;
* :mod:`~cwgym.leaderboard.agent_host` — the agent's side: loading the agent and answering.

It sits beside the CLI, outside the simulator: the host clock and processes are used here
(and only here) to bound and isolate the agent. See ``docs/reference/security.md``.
"""

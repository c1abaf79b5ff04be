"""Version numbers: the package (PEP 440) and the engine whose behaviour snapshots pin."""

__version__ = "0.1.0"

# The engine version names the simulator's behaviour. Snapshots, state hashes and
# datasets record it; a snapshot written by another engine version is refused.
engine_version = "0.3.0"

"""Speed and scale measurements for cwgym; run with ``python -m benchmarks``."""

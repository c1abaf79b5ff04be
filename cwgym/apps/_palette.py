"""Colours the native applications share, so that one application's error reads like another's."""

#: The red of an application's error line: a refused save, a malformed file, a bad formula.
ERROR = (192, 28, 40, 255)

"""Agents that play cwgym envs: :class:`LLMAgent` turns any ``complete(prompt) -> str``
language model into one (see :mod:`cwgym.agents.llm`)."""

from cwgym.agents.llm import (
    ActionParseError,
    EpisodeResult,
    LLMAgent,
    PromptBuilder,
    parse_action,
    run_episode,
)

__all__ = ["ActionParseError", "EpisodeResult", "LLMAgent", "PromptBuilder", "parse_action", "run_episode"]

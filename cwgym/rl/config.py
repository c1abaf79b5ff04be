"""``TaskConfig``: everything an env is configured by, as JSON-ready keyword arguments.

An ``envs/*.json`` entry is these fields (plus its name, version, title and step limit);
``gymnasium.make(id, **overrides)`` replaces any of them. Every field is plain JSON, so
an env's ``EnvSpec`` round-trips through ``to_json()``.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

__all__ = [
    "DESKTOP_ACTIONS",
    "DESKTOP_OBSERVATIONS",
    "TaskConfig",
    "task_config",
]

DESKTOP_ACTIONS = ["application.v1", "keyboard.v1", "pointer.v1"]
DESKTOP_OBSERVATIONS = ["semantic.v1", "pixels.v1"]

class TaskConfig(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """One env's configuration (see ``docs/rl.md`` for every field).

    Attributes:
        procedure: the library id of the task.
        world, machine: where it runs (default: the procedure's).
        world_seed: the world's own seed; the episode seed draws the procedure instance.
        actions, observations: the grant of the agent's session (families, channels).
        obs: the observation keys (:mod:`cwgym.rl.observation_keys`; the observation
            codec checks them against the registry and the grant).
        preset: ``text`` keeps text entries; ``sb3`` makes the spaces stable-baselines3
            takes: ``instruction`` and ``terminal`` become token ids so every entry is a
            ``Box``, and a JSON-text interface becomes a discrete one (:func:`sb3_ready`);
            ``llm`` makes them what a language model reads and writes (:func:`llm_ready`).
        interface: the action interface (``cwgym.rl.actions``).
        viewport: ``[width, height]`` of the screen the agent sees and points at.
        reward: ``sparse``, ``partial`` or ``phases``; ``step_cost`` is taken every step.
        max_episode_steps: truncate after this many steps (``None``: never; ``make``
            applies the registered limit through Gymnasium's ``TimeLimit``).
        train_seeds, test_seeds: half-open seed ranges ``[lo, hi)``, disjoint; ``split``
            picks the one a reset without a seed draws from.
        elements, skip_roles: rows of the element table and roles left out of it.
        text_length, tokens, token_vocab: ``Text`` length; token ids per text and the
            id range of the SB3 preset.
        grid, pointer_ops, wheel_delta: the pointer presets.
        keys, vocabulary: the key set of ``keys`` (``None``: the default set) and the
            number of ``type-token`` slots.
        characters: single characters ``type-token`` offers after the vocabulary's slots
            (so text the instruction does not spell, a sum or a word read off the page, can
            be typed one character at a time).
        families: what the ``envelopes`` interface accepts (``None``: every granted family).
        combine: how ``a+b`` interfaces combine: ``flat`` (one ``Discrete``) or ``oneof``.
        command_tokens: the words of one ``shell-tokens`` command.
        reveal: put the verifier's expected and found values in ``info`` (for debugging;
            they can give the answer away).
    """

    procedure: str
    world: str | None = None
    machine: str | None = None
    world_seed: int = 0
    actions: list[str] = msgspec.field(default_factory=lambda: list(DESKTOP_ACTIONS))
    observations: list[str] = msgspec.field(default_factory=lambda: list(DESKTOP_OBSERVATIONS))
    obs: list[str] = msgspec.field(default_factory=lambda: ["pixels", "instruction"])
    preset: Literal["text", "sb3", "llm"] = "text"
    interface: str = "screen"
    viewport: list[int] = msgspec.field(default_factory=lambda: [1280, 800])
    reward: Literal["sparse", "partial", "phases"] = "sparse"
    step_cost: float = 0.0
    max_episode_steps: int | None = None
    train_seeds: list[int] = msgspec.field(default_factory=lambda: [0, 1_000_000])
    test_seeds: list[int] = msgspec.field(default_factory=lambda: [1_000_000, 1_010_000])
    split: Literal["train", "test"] = "train"
    elements: int = 64
    skip_roles: list[str] = msgspec.field(default_factory=lambda: ["grip"])
    text_length: int = 4096
    tokens: int = 64
    token_vocab: int = 4096
    grid: list[int] = msgspec.field(default_factory=lambda: [64, 40])
    pointer_ops: list[str] | None = None
    wheel_delta: int = 120
    keys: list[str] | None = None
    vocabulary: int = 48
    characters: str = ""
    families: list[str] | None = None
    combine: Literal["flat", "oneof"] = "flat"
    command_tokens: int = 8
    reveal: bool = False

    def to_plain(self) -> dict[str, Any]:
        return msgspec.to_builtins(self)

    @property
    def width(self) -> int:
        return self.viewport[0]

    @property
    def height(self) -> int:
        return self.viewport[1]

    def seed_range(self, split: str | None = None) -> tuple[int, int]:
        lo, hi = self.test_seeds if (split or self.split) == "test" else self.train_seeds
        return lo, hi


def task_config(kwargs: dict[str, Any]) -> TaskConfig:
    """A checked :class:`TaskConfig` from keyword arguments.

    Raises:
        TypeError: an unknown argument (named), or a value of the wrong type.
        ValueError: a value out of range.
    """
    known = set(TaskConfig.__struct_fields__)
    unknown = sorted(set(kwargs) - known)
    if unknown:
        raise TypeError(f"unknown env argument(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    try:
        config = msgspec.convert(kwargs, TaskConfig)
    except msgspec.ValidationError as exc:
        raise TypeError(f"invalid env argument: {exc}") from None
    _check(config)
    if config.preset == "sb3":
        return sb3_ready(config)
    return llm_ready(config) if config.preset == "llm" else config


#: What the ``sb3`` preset puts in place of a JSON-text interface: terminal tasks type
#: commands word by word; screen tasks click the element table's rows, type the
#: instruction's words and press keys, and see the table instead of the full-size screen
#: (a 1280x800 frame per step would not fit a rollout buffer).
SB3_TERMINAL_INTERFACE = "shell-tokens"
SB3_SCREEN_INTERFACE = "click-element+double-click-element+type-token+keys"


#: The element rows the ``llm`` preset lists at least: a model reads every control.
LLM_ELEMENTS = 256


def llm_ready(config: TaskConfig) -> TaskConfig:
    """``config`` for a language model: JSON-text actions (``screen`` for desktop tasks,
    where element ids may be used: ``{"click": k}``, ``{"fill": k, "text": ...}``; the
    registered JSON interface otherwise), and the accessibility tree as text (``a11y``) in
    place of the screen's pixels and the element table; text entries stay text."""
    interface = config.interface
    if interface not in ("envelopes", "screen"):
        interface = "screen"
    obs = list(config.obs)
    if "semantic.v1" in config.observations:
        obs = ["a11y", *[n for n in obs if n not in ("pixels", "elements", "a11y")]]
    else:
        obs = [n for n in obs if n != "elements"] or ["instruction"]
    return msgspec.structs.replace(config, interface=interface, obs=obs, elements=max(config.elements, LLM_ELEMENTS))


def sb3_ready(config: TaskConfig) -> TaskConfig:
    """``config`` with a discrete interface in place of a JSON-text one (``envelopes``,
    ``screen``); other interfaces are already discrete or boxes and stay."""
    if config.interface not in ("envelopes", "screen"):
        return config
    families = config.families if config.families is not None else config.actions
    if config.interface == "envelopes" and "terminal.v1" in families:
        return msgspec.structs.replace(config, interface=SB3_TERMINAL_INTERFACE)
    if "semantic.v1" not in config.observations:
        raise ValueError(f"the sb3 preset of interface {config.interface!r} clicks element rows, which needs semantic.v1 granted")
    obs = ["elements", *[name for name in config.obs if name not in ("pixels", "elements")]]
    return msgspec.structs.replace(config, interface=SB3_SCREEN_INTERFACE, obs=obs)


def _check(c: TaskConfig) -> None:
    def need(ok: bool, message: str) -> None:
        if not ok:
            raise ValueError(message)

    need(len(c.viewport) == 2 and all(v >= 1 for v in c.viewport) and c.width * c.height <= 16_777_216,
         f"viewport must be [width, height] with 1..16777216 pixels, got {c.viewport}")
    for name in ("train_seeds", "test_seeds"):
        lo_hi = getattr(c, name)
        need(len(lo_hi) == 2 and 0 <= lo_hi[0] < lo_hi[1] <= 1 << 64, f"{name} must be [lo, hi) with 0 <= lo < hi, got {lo_hi}")
    (a, b), (x, y) = c.train_seeds, c.test_seeds
    need(b <= x or y <= a, f"train_seeds {c.train_seeds} and test_seeds {c.test_seeds} overlap")
    need(c.max_episode_steps is None or c.max_episode_steps >= 1, "max_episode_steps must be at least 1")
    need(c.elements >= 1 and c.text_length >= 1 and c.tokens >= 1 and c.token_vocab >= 2 and c.vocabulary >= 1,
         "elements, text_length, tokens and vocabulary must be at least 1 (token_vocab at least 2)")
    need(len(c.grid) == 2 and all(g >= 1 for g in c.grid), f"grid must be [columns, rows], got {c.grid}")
    need(c.wheel_delta >= 1, "wheel_delta must be at least 1")
    need(len(set(c.characters)) == len(c.characters) and len(c.characters) <= 256,
         f"characters must be at most 256 distinct characters, got {c.characters!r}")
    need(1 <= c.command_tokens <= 64, f"command_tokens must be 1..64, got {c.command_tokens}")
    need(bool(c.obs), "obs must name at least one observation key")

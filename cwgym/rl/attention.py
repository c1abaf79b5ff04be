"""An instruction-conditioned attention features extractor over the element table, for SB3.

    from sb3_contrib import MaskablePPO
    from cwgym.rl.attention import ElementAttentionExtractor, attention_policy_kwargs

    model = MaskablePPO("MultiInputPolicy", env, policy_kwargs=attention_policy_kwargs(token_vocab=4096))

A flat MLP over the element table has to learn each row position separately and cannot
compare a row's label with the instruction's words. :class:`ElementAttentionExtractor`
encodes each row (its numeric columns, whether it has a value, and embeddings of its role
and hashed label), lets the rows cross-attend to the instruction's token embeddings (and
to the focused field's tokens, in the same embedding, when ``focus_tokens`` is observed),
then runs one self-attention layer over the rows and a learned summary token. Its output
is every row's encoding (a small per-row projection, ``row_features`` wide), flattened in
row order so the action head can map row ``k`` to the logit of clicking row ``k``, then
the summary token's. :func:`attention_policy_kwargs` gives the actor no hidden layer, so
the logits are a linear map of those rows.

Integer ids come back from the scaled columns as :mod:`cwgym.rl.elements` and
:mod:`cwgym.rl.text` define them: ``role = round(v * len(ROLES))``, ``label =
round(v * LABEL_BUCKETS)``, a token ``= round(v * (token_vocab - 1))`` (0 is padding). The
value column's hash is only read as "has a value": which value it is says nothing a policy
could carry to another instance (``element_values`` says whether its words are the
instruction's). Empty rows and padding tokens are masked out of attention; a learned null
token the rows can always attend to, and the summary token every row set has, keep an
empty table or instruction from giving NaN, and an empty row's output is zeros.

Optional observation keys, used when present: ``instruction_shown`` (a learned vector
added to each instruction token the screen shows), ``focus_tokens`` (more tokens to attend
to), ``element_values`` (two more numeric columns per row), ``pointer_held`` (a learned
vector added to every row while a pointer button is held) and ``caret`` (a learned linear
map of the focused field's caret, added to every row). For pointer-grid interfaces,
``grid`` adds maps of where on the grid each kind of control is (see the class).

Cost: rows after the last present one (in every sample) and tokens after the last
non-padding one are cut off before attention, and a training minibatch attends in groups
of :data:`GROUP` samples of similar table lengths, so a batch of short tables does not pay
for the longest. A minibatch update costs more than with SB3's MLP; in training
the env's steps cost more than the policy (``python -m benchmarks learn`` times MaskablePPO
with this extractor, with SB3's MLP and plain PPO; ``docs/baselines.md`` has the figures).

torch and stable-baselines3 are the optional ``train`` extra: nothing that ``import cwgym``
imports may import this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn
from torch.nn import functional as F

from cwgym.rl.elements import FEATURES, LABEL_BUCKETS, ROLES

__all__ = ["ElementAttentionExtractor", "attention_policy_kwargs"]

#: The element table's columns fed as numbers (role and label are embedded, value read as a flag).
NUMERIC = tuple(i for i, name in enumerate(FEATURES) if name not in ("role", "label", "value"))
_ROLE, _LABEL, _VALUE = FEATURES.index("role"), FEATURES.index("label"), FEATURES.index("value")
_CENTRE = [FEATURES.index("cx"), FEATURES.index("cy")]
REQUIRED = ("elements", "instruction_tokens")
OPTIONAL = ("instruction_shown", "focus_tokens", "element_values", "pointer_held", "caret")
#: Samples per group of similar table lengths in a large batch (see ``forward``).
GROUP = 16


def _box(space: spaces.Dict, key: str, ndim: int) -> tuple[int, ...]:
    entry = space.spaces[key]
    if not isinstance(entry, spaces.Box) or len(entry.shape) != ndim:
        raise ValueError(f"ElementAttentionExtractor: observation key {key!r} must be a {ndim}-d Box, got {entry}")
    return tuple(entry.shape)


def _used(mask: torch.Tensor) -> int:
    """One past the last position of ``mask`` (``(B, N)``, True = used) that any sample
    uses: the positions after it are padding in every sample and are skipped."""
    used = mask.any(dim=0).nonzero()
    return int(used[-1]) + 1 if len(used) else 0


class Attention(nn.Module):
    """Multi-head attention of ``x`` ``(B, N, d)`` to ``memory`` ``(B, M, d)``, ``masked``
    ``(B, M)`` (True = ignore). Every row of ``masked`` must leave a position free (the
    caller's null or summary token): an all-masked row gives NaN."""

    def __init__(self, d: int, heads: int) -> None:
        super().__init__()
        self.heads, self.width = heads, d // heads
        self.query = nn.Linear(d, d)
        self.key_value = nn.Linear(d, 2 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x: torch.Tensor, memory: torch.Tensor, masked: torch.Tensor) -> torch.Tensor:
        batch, n, d = x.shape
        q = self.query(x).view(batch, n, self.heads, self.width).transpose(1, 2)
        k, v = self.key_value(memory).view(batch, memory.shape[1], 2, self.heads, self.width).permute(2, 0, 3, 1, 4)
        mixed = F.scaled_dot_product_attention(q, k, v, attn_mask=~masked[:, None, None, :])
        return self.out(mixed.transpose(1, 2).reshape(batch, n, d))


class ElementAttentionExtractor(BaseFeaturesExtractor):
    """Rows cross-attend to the instruction, then self-attend; features ``K * row_features + d``.

    Args:
        observation_space: a ``Dict`` with ``elements`` ``(K, 15)`` and
            ``instruction_tokens`` ``(T,)``; ``instruction_shown`` ``(T,)``,
            ``focus_tokens`` ``(T',)`` and ``element_values`` ``(K, 2)`` are used when present.
        d: the width of every encoding.
        heads: attention heads (``d`` must be a multiple).
        row_features: each row's width in the output (a projection of its encoding): the
            heads on top take ``K * row_features`` inputs, so this sets their cost.
        token_vocab: the env's ``token_vocab``, to read token ids back from their scaled form.
        grid: ``(columns, rows)`` of a pointer-grid interface, or ``None``. With a grid the
            features also hold a map per axis: each row's scores (``grid_channels`` of
            them, learned) added into the column and the grid row its centre falls in, so a
            pointer head reads "the cell where a control of this kind is" as directly as
            the element head reads row ``k`` (a window's title bar sits at another table
            row in every episode; its place on the screen is what the pointer needs).
        grid_channels: scores per row for the grid maps.

    Raises:
        ValueError: a missing or misshapen key, or ``d`` not a multiple of ``heads``.
    """

    def __init__(self, observation_space: spaces.Dict, d: int = 32, heads: int = 2, row_features: int = 8,
                 token_vocab: int = 4096, grid: Sequence[int] | None = None, grid_channels: int = 4) -> None:
        if not isinstance(observation_space, spaces.Dict):
            raise ValueError(f"ElementAttentionExtractor needs a Dict observation space, got {observation_space}")
        missing = [key for key in REQUIRED if key not in observation_space.spaces]
        if missing:
            raise ValueError(f"ElementAttentionExtractor needs observation keys {', '.join(REQUIRED)}; missing {', '.join(missing)}")
        if d < 1 or heads < 1 or d % heads:
            raise ValueError(f"ElementAttentionExtractor: d ({d}) must be a positive multiple of heads ({heads})")
        if row_features < 1 or token_vocab < 2:
            raise ValueError(f"ElementAttentionExtractor: row_features must be at least 1 ({row_features}), "
                             f"token_vocab at least 2 ({token_vocab})")
        rows, columns = _box(observation_space, "elements", 2)
        if columns != len(FEATURES):
            raise ValueError(f"ElementAttentionExtractor: 'elements' must have {len(FEATURES)} columns, got {columns}")
        (length,) = _box(observation_space, "instruction_tokens", 1)
        self.keys = tuple(key for key in OPTIONAL if key in observation_space.spaces)
        if "instruction_shown" in self.keys and _box(observation_space, "instruction_shown", 1) != (length,):
            raise ValueError(f"ElementAttentionExtractor: 'instruction_shown' must have shape ({length},) like 'instruction_tokens'")
        if "element_values" in self.keys and _box(observation_space, "element_values", 2) != (rows, 2):
            raise ValueError(f"ElementAttentionExtractor: 'element_values' must have shape ({rows}, 2)")
        focus = _box(observation_space, "focus_tokens", 1)[0] if "focus_tokens" in self.keys else 0
        if grid is not None and (len(grid) != 2 or min(grid) < 1 or grid_channels < 1):
            raise ValueError(f"ElementAttentionExtractor: grid must be (columns, rows) of positive ints and grid_channels "
                             f"positive, got {grid!r}, {grid_channels!r}")
        maps = grid_channels * (int(grid[0]) + int(grid[1])) if grid is not None else 0
        super().__init__(observation_space, features_dim=rows * row_features + d + maps)
        self.rows, self.d, self.row_features, self.token_vocab = rows, d, row_features, token_vocab
        self.group = GROUP
        numeric = len(NUMERIC) + 1 + (2 if "element_values" in self.keys else 0)  # + "has a value"
        self.numeric = nn.Linear(numeric, d)
        self.role = nn.Embedding(len(ROLES), d)
        self.label = nn.Embedding(LABEL_BUCKETS, d, padding_idx=0)
        self.token = nn.Embedding(token_vocab, d, padding_idx=0)
        self.position = nn.Parameter(torch.randn(max(length, focus), d) * 0.02)
        self.shown = nn.Parameter(torch.randn(d) * 0.02)
        self.focus = nn.Parameter(torch.randn(d) * 0.02)  # marks the focused field's tokens
        self.null = nn.Parameter(torch.randn(1, 1, d) * 0.02)  # always attendable: no all-masked memory
        self.summary = nn.Parameter(torch.randn(1, 1, d) * 0.02)  # the pooled output, never masked
        self.cross = Attention(d, heads)
        self.self_attention = Attention(d, heads)
        self.norms = nn.ModuleList(nn.LayerNorm(d) for _ in range(2))
        self.out = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, row_features))  # per row
        self.grid = (int(grid[0]), int(grid[1])) if grid is not None else None
        if self.grid is not None:
            self.grid_score = nn.Linear(d, grid_channels)
        if "pointer_held" in self.keys:
            self.held = nn.Parameter(torch.randn(d) * 0.02)  # added to every row and the summary while a button is held
        if "caret" in self.keys:  # a map of where the focused field's caret is, added to every row
            self.caret = nn.Linear(observation_space.spaces["caret"].shape[0], d, bias=False)

    def _tokens(self, scaled: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Token ids read back from their scaled form (the used positions only), and the padding mask."""
        ids = torch.round(scaled * (self.token_vocab - 1)).long().clamp_(0, self.token_vocab - 1)
        used = _used(ids != 0)
        return ids[:, :used], ids[:, :used] == 0

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        rows, present = self._rows(observations)
        centres = observations["elements"][:, : rows.shape[1], _CENTRE] if self.grid is not None else rows[..., :0]
        memory, masked = self._memory(observations)
        batch = rows.shape[0]
        if batch <= 2 * self.group:
            return self._attend(rows, present, centres, memory, masked)
        # A large batch (a training minibatch) attends in groups of similar table lengths, each
        # cut to its own longest table, so short tables do not pay for the longest one's
        # attention; the results go back in batch order.
        last = torch.where(present, torch.arange(1, rows.shape[1] + 1, device=rows.device), 0).amax(dim=1)
        order = torch.argsort(last, stable=True)
        parts = []
        for group in order.split(self.group):
            n = max(1, int(last[group].max()))
            parts.append(self._attend(rows[group, :n], present[group, :n], centres[group, :n], memory[group], masked[group]))
        return torch.cat(parts)[torch.argsort(order)]

    def _rows(self, observations: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        """Each row's encoding before attention ``(B, n, d)`` and which rows are present, for
        the rows up to the last present one of any sample (the rest are empty in all)."""
        table = observations["elements"]
        n = max(1, _used(table[..., 0] > 0.5))
        table = table[:, :n]
        role = torch.round(table[..., _ROLE] * len(ROLES)).long().clamp_(0, len(ROLES) - 1)
        label = torch.round(table[..., _LABEL] * LABEL_BUCKETS).long().clamp_(0, LABEL_BUCKETS - 1)
        numeric = [table[..., list(NUMERIC)], (table[..., _VALUE:_VALUE + 1] > 0).to(table.dtype)]  # has a value
        if "element_values" in self.keys:
            numeric.append(observations["element_values"][:, :n])
        rows = self.numeric(torch.cat(numeric, dim=-1)) + self.role(role) + self.label(label)
        if "pointer_held" in self.keys:
            rows = rows + observations["pointer_held"][:, None, :1] * self.held
        if "caret" in self.keys:
            rows = rows + self.caret(observations["caret"])[:, None, :]
        return rows, table[..., 0] > 0.5

    def _memory(self, observations: dict[str, torch.Tensor]) -> tuple[torch.Tensor, torch.Tensor]:
        """What the rows attend to ``(B, M, d)``: the null token, the instruction's tokens and
        the focused field's; and which of them are padding."""
        ids, padding = self._tokens(observations["instruction_tokens"])
        batch = ids.shape[0]
        instruction = self.token(ids) + self.position[: ids.shape[1]]
        if "instruction_shown" in self.keys:
            instruction = instruction + observations["instruction_shown"][:, : ids.shape[1], None] * self.shown
        memory, masks = [self.null.expand(batch, 1, self.d), instruction], [padding.new_zeros(batch, 1), padding]
        if "focus_tokens" in self.keys:
            focus, focus_padding = self._tokens(observations["focus_tokens"])
            memory.append(self.token(focus) + self.position[: focus.shape[1]] + self.focus)
            masks.append(focus_padding)
        return torch.cat(memory, dim=1), torch.cat(masks, dim=1)

    def _attend(self, rows: torch.Tensor, present: torch.Tensor, centres: torch.Tensor, memory: torch.Tensor,
                masked: torch.Tensor) -> torch.Tensor:
        """Cross-attention to the memory, self-attention over the rows and the summary token;
        the features: every row's output (zeros for empty rows, up to ``K``), the summary,
        then with a grid the column and grid-row maps."""
        batch, n, _ = rows.shape
        rows = self.norms[0](rows + self.cross(rows, memory, masked))
        sequence = torch.cat([self.summary.expand(batch, 1, self.d), rows], dim=1)
        row_mask = torch.cat([present.new_zeros(batch, 1), ~present], dim=1)
        sequence = self.norms[1](sequence + self.self_attention(sequence, sequence, row_mask))
        encoded = self.out(sequence[:, 1:]) * present.unsqueeze(-1).to(sequence.dtype)  # empty rows: zeros
        flat = encoded.new_zeros(batch, self.rows, self.row_features)
        flat[:, :n] = encoded
        features = [flat.flatten(1), sequence[:, 0]]
        if self.grid is not None:
            scores = self.grid_score(sequence[:, 1:]) * present.unsqueeze(-1).to(sequence.dtype)  # (B, n, C)
            for axis, cells in enumerate(self.grid):
                cell = torch.clamp((centres[..., axis] * cells).long(), 0, cells - 1)
                onehot = F.one_hot(cell, cells).to(scores.dtype)  # (B, n, cells)
                features.append(torch.einsum("bnc,bnk->bck", scores, onehot).flatten(1))
        return torch.cat(features, dim=1)


def attention_policy_kwargs(d: int = 32, heads: int = 2, row_features: int = 8, token_vocab: int = 4096,
                            grid: Sequence[int] | None = None) -> dict[str, Any]:
    """SB3 ``policy_kwargs`` for :class:`ElementAttentionExtractor`: the actor maps the
    features straight to the action logits (no hidden layer between a row's encoding and
    its click), the critic has two hidden layers of 64. ``grid``: the env's pointer grid,
    for interfaces that point at cells (the extractor then adds its grid maps)."""
    extractor: dict[str, Any] = {"d": d, "heads": heads, "row_features": row_features, "token_vocab": token_vocab}
    if grid is not None:
        extractor["grid"] = [int(grid[0]), int(grid[1])]
    return {
        "features_extractor_class": ElementAttentionExtractor,
        "features_extractor_kwargs": extractor,
        "net_arch": {"pi": [], "vf": [64, 64]},
    }

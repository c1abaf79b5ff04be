"""``cwgym train --param KEY=VALUE`` reaches the SB3 algorithm, and a bad one is named."""

from __future__ import annotations

import pytest

from cwgym.cli.train import algo_params


def test_values_are_read_as_json_else_as_text():
    assert algo_params(["ent_coef=0.05", "n_epochs=4", "normalize_advantage=false", "policy_kwargs={\"net_arch\": [32]}",
                        "lr_note=slow"]) == {
        "ent_coef": 0.05, "n_epochs": 4, "normalize_advantage": False, "policy_kwargs": {"net_arch": [32]}, "lr_note": "slow",
    }


@pytest.mark.parametrize("item", ["ent_coef", "=0.1"])
def test_an_item_without_a_key_and_value_is_refused(item):
    with pytest.raises(SystemExit, match="KEY=VALUE"):
        algo_params([item])


def test_an_argument_the_algorithm_does_not_take_is_named(tmp_path):
    pytest.importorskip("stable_baselines3")
    from cwgym.cli import main

    with pytest.raises(SystemExit, match="does not take the --param"):
        main(["train", "--algo", "ppo", "--env", "cwgym/easy-open-app-v1", "--steps", "64", "--n-envs", "1",
              "--param", "no_such_argument=1", "--out", str(tmp_path / "run"), "--quiet"])

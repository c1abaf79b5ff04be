"""The language-model harness with a scripted stand-in for the model: prompts carry the task,
the screen as numbered elements and the history; replies are parsed with clear errors; an
episode played through the ``llm`` preset's element actions verifies. No network."""

from __future__ import annotations

import json
import re

import gymnasium as gym
import pytest

from cwgym.agents import ActionParseError, LLMAgent, parse_action, run_episode

ENV = "cwgym/easy-new-folder-v1"


def _element(prompt: str, role: str, label: str) -> int | None:
    match = re.search(rf'\[(\d+)\] {role} "{re.escape(label)}"', prompt)
    return int(match.group(1)) if match else None


def scripted_model(prompt: str) -> str:
    """What a capable model would answer for the new-folder task, read off the prompt alone."""
    name = re.search(r"named (\S+?) in", prompt).group(1)
    box = re.search(r"\[(\d+)\] textbox \"Folder Name\"", prompt)
    if box:
        action = [{"fill": int(box.group(1)), "text": name}, {"family": "keyboard.v1", "op": "key", "payload": {"key": "Enter"}}]
        return f"The dialog is open, so I name the folder.\n```json\n{json.dumps(action)}\n```"
    if 'Window "Home"' in prompt:
        return f'Files is open. {{"click": {_element(prompt, "button", "New Folder")}}} will open the dialog.'
    return f"```json\n{{\"click\": {_element(prompt, 'button', 'Files')}}}\n```"


def test_a_scripted_model_solves_the_task_through_the_llm_preset():
    env = gym.make(ENV, preset="llm")
    agent = LLMAgent(scripted_model)
    result = run_episode(env, agent, seed=3)
    assert result.passed and result.steps == 3
    first = result.transcript[0]["prompt"]
    assert "Task: Open Files from the dock and make a new folder named Receipts" in first
    assert '[6] button "Files"' in first and '{"fill": K, "text": "..."}' in first
    assert "- {\"click\":6} -> ok" in result.transcript[1]["prompt"]  # the history retells the last action


def test_a_reply_without_an_action_is_asked_again_with_the_reason():
    replies = iter(["I am not sure what to do.", '```json\n{"click": 6}\n```'])
    prompts = []

    def model(prompt: str) -> str:
        prompts.append(prompt)
        return next(replies)

    env = gym.make(ENV, preset="llm")
    obs, info = env.reset(seed=3)
    agent = LLMAgent(model)
    agent.reset({"instruction": info["instruction"]}, obs, info)
    assert agent.act(obs, 0.0, info) == '{"click":6}'
    assert "could not be used: no JSON object or list in the reply" in prompts[1]


def test_after_the_retries_the_reply_goes_to_the_env_which_refuses_it():
    env = gym.make(ENV, preset="llm")
    agent = LLMAgent(lambda prompt: "no idea", retries=1)
    obs, info = env.reset(seed=3)
    agent.reset({"instruction": info["instruction"]}, obs, info)
    obs, _, _, _, info = env.step(agent.act(obs, 0.0, info))
    assert info["outcome"] == {"status": "refused", "reason": "malformed_action"}
    agent.complete = lambda prompt: '{"done": true}'
    agent.act(obs, 0.0, info)
    assert "- no idea -> refused (malformed_action)" in agent.transcript[-1]["prompt"]


def test_terminal_tasks_get_terminal_help_and_output():
    env = gym.make("cwgym/terminal-ops-backup-script-v0", preset="llm")
    commands = iter(["cat ~/Admin/backup-request.txt"])

    def model(prompt: str) -> str:
        command = next(commands, None)
        if command is None:
            return '{"done": true}'
        return json.dumps({"family": "terminal.v1", "op": "execute", "payload": {"command": command}})

    result = run_episode(env, LLMAgent(model), seed=7)
    assert result.steps == 2 and not result.passed
    second = result.transcript[1]["prompt"]
    assert "Act in the terminal" in second and "From: Tariq Dubois" in second and "exit status 0" in second


@pytest.mark.parametrize(("reply", "expected"), [
    ('Sure!\n```json\n{"click": 3}\n```', '{"click":3}'),
    ('```\n[{"fill": 2, "text": "a"}, {"done": true}]\n```', '[{"fill":2,"text":"a"},{"done":true}]'),
    ('I will click {"click": 4} now', '{"click":4}'),
    ('```json\n{"click": }\n```\nor rather {"click": 5}', '{"click":5}'),
])
def test_parse_action_finds_the_json(reply, expected):
    assert parse_action(reply) == expected


@pytest.mark.parametrize(("reply", "message"), [
    ("", "the reply is empty"),
    ("click the files icon", "no JSON object or list"),
    ('```json\n"click"\n```', "is not a JSON action"),
    ("[1, 2]", "no JSON object or list"),
])
def test_parse_action_names_what_is_wrong(reply, message):
    with pytest.raises(ActionParseError, match=message):
        parse_action(reply)


def test_the_mode_is_checked():
    with pytest.raises(ValueError, match="mode must be"):
        LLMAgent(lambda p: "", mode="gui")

"""The closed reason vocabulary and its fixed messages."""

from __future__ import annotations

from cwgym.protocol import errors

EXPECTED = {
    "action_family_not_granted": ("denied", "the session was not granted this action family"),
    "machine_not_granted": ("denied", "the session was not granted this machine"),
    "browser_family_required": ("denied", "this action also requires the browser.v1 action family"),
    "application_family_required": ("denied", "this action also requires the application.v1 action family"),
    "pixels_not_granted": ("denied", "this action requires the pixels.v1 observation channel"),
    "visual_observation_not_granted": (
        "denied",
        "this requires the semantic.v1 or pixels.v1 observation channel",
    ),
    "unknown_session": ("denied", "unknown actor session"),
    "action_budget_exceeded": ("denied", "the batch is larger than this session's action budget"),
    "application_not_installed": ("not_found", "this machine does not have that application installed"),
    "unsupported_operation": ("invalid", "this action family does not support that operation"),
    "no_desktop_shell": ("invalid", "this machine has no desktop shell to drive"),
    "unknown_shell_target": ("invalid", "no control on this shell answers to that target"),
}


def test_vocabulary_is_exactly_the_table():
    assert errors.REASONS == EXPECTED


def test_codes_and_their_messages():
    assert errors.CODES == {
        "denied": "action is not permitted",
        "not_found": "requested resource not found",
        "invalid": "invalid action",
        "action_failed": "action failed",
    }


def test_unknown_internal_codes_fold_into_action_failed():
    assert errors.error("quota").code == "action_failed"


def test_refusal_carries_reason_and_plain_form_omits_missing_reason():
    assert errors.refusal("machine_not_granted").to_plain()["reason"] == "machine_not_granted"
    assert "reason" not in errors.error("invalid").to_plain()


def test_raised_refusals_read_code_colon_message():
    exc = errors.Refused(errors.UNKNOWN_SESSION)
    assert isinstance(exc, ValueError)
    assert str(exc) == "denied: unknown actor session"

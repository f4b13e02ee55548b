"""DIPSWITCH_COMMAND is split into words alike in every client (clients/shell_words.json)."""
import json
from pathlib import Path

import pytest

from dipswitch.settings import SettingError, Settings

CASES = json.loads((Path(__file__).resolve().parents[2] / "shell_words.json").read_text())


def test_a_command_is_split_as_every_client_splits_it():
    assert CASES["cases"]
    for case in CASES["cases"]:
        # an empty command is no command
        assert Settings.resolve(environ={"DIPSWITCH_COMMAND": case["line"]}).command == (case["words"] or None)


@pytest.mark.parametrize("line", CASES["refused"])
def test_a_command_that_cannot_be_split_is_refused(line):
    with pytest.raises(SettingError, match="DIPSWITCH_COMMAND cannot be split"):
        Settings.resolve(environ={"DIPSWITCH_COMMAND": line})

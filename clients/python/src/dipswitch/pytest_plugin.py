"""The pytest plugin of dipswitch (entry point ``pytest11: dipswitch``; or ``-p dipswitch.pytest_plugin``).

- ``dipswitch``: the session's server, a ``Dipswitch`` with the control API's authority: ``--dipswitch-url``
  (with ``--dipswitch-admin-token``), else one started for the session (``--dipswitch-image`` with docker or
  podman, ``--dipswitch-command``, or ``npx dipswitch``), shared by pytest-xdist's workers.
- ``dipswitch_sandbox``: a sandbox of the session's run for each test, removed after it; its coverage stays
  with the run.
- ``--dipswitch-fail-under N``: the session fails when the run's coverage of the contract is under N percent,
  said in pytest's terminal summary.
"""
from __future__ import annotations

import os
import shlex
import uuid
from typing import Iterator, Optional

import pytest

from . import Dipswitch, Sandbox

_URL = "DIPSWITCH_URL"
_RUN = "DIPSWITCH_RUN"
_TOKEN = "DIPSWITCH_ADMIN_TOKEN"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dipswitch")
    group.addoption("--dipswitch-url", default=os.environ.get(_URL), help="a running dipswitch (else one is started)")
    group.addoption("--dipswitch-admin-token", default=os.environ.get(_TOKEN), help="its admin token, if it has one")
    group.addoption("--dipswitch-image", default=None, help="start this image with docker or podman")
    group.addoption("--dipswitch-command", default=None, help="start dipswitch with this command (else npx dipswitch)")
    group.addoption("--dipswitch-fail-under", type=float, default=None, help="fail the session under this coverage")


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_configure(config: pytest.Config) -> None:
    """On the controller (or a run without xdist): the server and the run, handed to the workers by environment."""
    if _is_worker(config):
        return
    if not os.environ.get(_RUN):
        os.environ[_RUN] = f"pytest-{uuid.uuid4().hex[:12]}"
    url = config.getoption("--dipswitch-url")
    token = config.getoption("--dipswitch-admin-token")
    if url:
        config._dipswitch = Dipswitch.connect(url, admin_token=token)  # type: ignore[attr-defined]
        os.environ[_URL] = url
        return
    command = config.getoption("--dipswitch-command")
    image = config.getoption("--dipswitch-image")
    started = Dipswitch.start(image=image, command=shlex.split(command) if command else None, admin_token=token)
    config._dipswitch = started  # type: ignore[attr-defined]
    os.environ[_URL] = started.url
    if started.admin_token:
        os.environ[_TOKEN] = started.admin_token


@pytest.fixture(scope="session")
def dipswitch(pytestconfig: pytest.Config) -> Dipswitch:
    """The session's server, with the control API's authority."""
    own = getattr(pytestconfig, "_dipswitch", None)
    if own is not None:
        return own
    return Dipswitch.connect(os.environ[_URL], admin_token=os.environ.get(_TOKEN))


@pytest.fixture
def dipswitch_sandbox(dipswitch: Dipswitch, request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """A sandbox of the session's run for this test alone, removed after it."""
    box = dipswitch.sandbox(name=request.node.name[:255], run=os.environ.get(_RUN))
    yield box
    box.remove()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if _is_worker(config):
        return
    gate: Optional[float] = config.getoption("--dipswitch-fail-under")
    client: Optional[Dipswitch] = getattr(config, "_dipswitch", None)
    if client is None:
        return
    if gate is not None:
        summary = client.coverage(run=os.environ[_RUN])["summary"]
        passed = summary["percent"] >= gate
        config._dipswitch_gate = (summary, gate, passed)  # type: ignore[attr-defined]
        if not passed and session.exitstatus == 0:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
    client.stop()


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:  # type: ignore[no-untyped-def]
    said = getattr(config, "_dipswitch_gate", None)
    if said is None:
        return
    summary, gate, passed = said
    terminalreporter.section("dipswitch coverage")
    line = (
        f"run {os.environ.get(_RUN)}: {summary['answers_seen']} of {summary['answers']} documented answers of "
        f"{summary['operations_called']} operations called seen ({summary['percent']}%): "
        f"{'passes' if passed else 'FAILS'} the gate of {gate:g}%"
    )
    terminalreporter.write_line(line, red=not passed, green=passed)

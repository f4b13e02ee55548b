"""The pytest plugin of dipswitch (entry point ``pytest11: dipswitch.pytest_plugin``; or ``-p dipswitch.pytest_plugin``).

It costs nothing until a test asks for one of its fixtures: no server, no launcher, no output.

- ``dipswitch``: the session's server, with the control API's authority: ``--dipswitch-url`` (``DIPSWITCH_URL``),
  else one started on first use (``--dipswitch-image``, ``--dipswitch-command``, the project's dipswitch, or a
  fetch with ``DIPSWITCH_FETCH``), shared by pytest-xdist's workers and ended with the session.
- ``dipswitch_sandbox``: a sandbox of the session's run for each test, removed after it.
- ``--dipswitch-fail-under N`` (``DIPSWITCH_FAIL_UNDER``): the session fails when the run's coverage of the
  contract is under N percent, said in pytest's terminal summary.

Every option reaches every xdist worker (the workers read the same command line; the run and the session's owner
are handed to them by pytest-xdist).
"""
from __future__ import annotations

import fcntl
import json
import os
import shlex
import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any, Dict, Iterator, Optional

import pytest

from . import Dipswitch, Sandbox
from ._core import ControlError, DipswitchError
from .launch import Started, start
from .settings import SettingError, Settings

_OPTIONS = {
    "url": "--dipswitch-url",
    "admin_token": "--dipswitch-admin-token",
    "image": "--dipswitch-image",
    "command": "--dipswitch-command",
    "container_engine": "--dipswitch-container-engine",
    "fail_under": "--dipswitch-fail-under",
    "run": "--dipswitch-run",
}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dipswitch")
    group.addoption(_OPTIONS["url"], help="a running dipswitch (DIPSWITCH_URL); else one is started on first use")
    group.addoption(_OPTIONS["admin_token"], help="its admin token (DIPSWITCH_ADMIN_TOKEN)")
    group.addoption(_OPTIONS["image"], help="start this image (DIPSWITCH_IMAGE)")
    group.addoption(_OPTIONS["command"], help="start dipswitch with this command (DIPSWITCH_COMMAND)")
    group.addoption(_OPTIONS["container_engine"], help="docker or podman (DIPSWITCH_CONTAINER_ENGINE); else the first that answers")
    group.addoption(_OPTIONS["fail_under"], help="fail the session under this coverage, 0 to 100 (DIPSWITCH_FAIL_UNDER)")
    group.addoption(_OPTIONS["run"], help="the run the sandboxes are made for (DIPSWITCH_RUN); else one for the session")


def _settings(config: pytest.Config) -> Settings:
    given: Dict[str, Any] = {name: config.getoption(flag) for name, flag in _OPTIONS.items()}
    if given["command"]:
        given["command"] = shlex.split(given["command"])
    if given["fail_under"] is not None:
        try:
            given["fail_under"] = float(given["fail_under"])
        except ValueError:
            raise pytest.UsageError(f"--dipswitch-fail-under is a percentage from 0 to 100, not {given['fail_under']!r}") from None
    try:
        return Settings.resolve(**given)
    except SettingError as e:
        raise pytest.UsageError(str(e)) from None


def _worker_input(config: pytest.Config) -> Optional[Dict[str, Any]]:
    return getattr(config, "workerinput", None)


def pytest_configure(config: pytest.Config) -> None:
    """Settings checked (a wrong one is a usage error, before any test runs); the run and the owner named."""
    settings = _settings(config)
    given = _worker_input(config)
    if given is not None:
        config._dipswitch_session = (given["dipswitch_run"], given["dipswitch_owner"])  # type: ignore[attr-defined]
    else:
        run = settings.run or f"pytest-{uuid.uuid4().hex[:12]}"
        config._dipswitch_session = (run, os.getpid())  # type: ignore[attr-defined]
    config._dipswitch_settings = settings  # type: ignore[attr-defined]


@pytest.hookimpl(optionalhook=True)  # type: ignore[misc]
def pytest_configure_node(node: Any) -> None:
    """pytest-xdist: each worker gets the session's run and owner (the controller)."""
    run, owner = node.config._dipswitch_session
    node.workerinput["dipswitch_run"] = run
    node.workerinput["dipswitch_owner"] = owner


def _state(owner: int) -> Path:
    """The session's shared folder: the server one worker started, for the others and the controller."""
    return Path(tempfile.gettempdir()) / f"dipswitch-pytest-{owner}"


def _session_server(config: pytest.Config) -> Dipswitch:
    """The session's server: the URL given, else the one started for the session (the first to ask starts it)."""
    settings: Settings = config._dipswitch_settings  # type: ignore[attr-defined]
    run, owner = config._dipswitch_session  # type: ignore[attr-defined]
    if settings.url:
        return Dipswitch(settings.url, admin_token=settings.admin_token, run=run)
    state = _state(owner)
    state.mkdir(exist_ok=True)
    with open(state / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        told = state / "server.json"
        if told.exists():
            info = json.loads(told.read_text())
        else:
            started = start(settings, owner)
            info = {
                "url": started.url,
                "admin_token": started.admin_token,
                "how": started.how,
                "pid": started.pid,
                "until": started.until,
                "receiver_host": started.receiver_host,
                "folder": started.folder,
            }
            told.write_text(json.dumps(info))
    return Dipswitch(info["url"], admin_token=info["admin_token"], run=run, receiver_host=info["receiver_host"])


@pytest.fixture(scope="session")
def dipswitch(pytestconfig: pytest.Config) -> Dipswitch:
    """The session's server, with the control API's authority."""
    __tracebackhide__ = True
    try:
        return _session_server(pytestconfig)
    except DipswitchError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture
def dipswitch_sandbox(dipswitch: Dipswitch, request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    """A sandbox of the session's run for this test alone, removed after it."""
    box = dipswitch.sandbox(name=request.node.name[:255])
    yield box
    box.remove()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """On the controller (or a run without xdist): the gate, then the session's server ended."""
    config = session.config
    if _worker_input(config) is not None:
        return
    settings: Settings = config._dipswitch_settings  # type: ignore[attr-defined]
    run, owner = config._dipswitch_session  # type: ignore[attr-defined]
    state = _state(owner)
    told = state / "server.json"
    info = json.loads(told.read_text()) if told.exists() else None
    try:
        if settings.fail_under is not None:
            config._dipswitch_gate = _gate(settings, run, info)  # type: ignore[attr-defined]
            if not config._dipswitch_gate[0] and session.exitstatus == 0:  # type: ignore[attr-defined]
                session.exitstatus = pytest.ExitCode.TESTS_FAILED
    finally:
        if info is not None:
            Started(
                info["url"], info["admin_token"], info["how"], info["pid"], info["until"], info["receiver_host"], info["folder"]
            ).stop()
        shutil.rmtree(state, ignore_errors=True)


def _gate(settings: Settings, run: str, info: Optional[Dict[str, Any]]) -> "tuple[bool, str]":
    """Whether the run's coverage passes the gate, and the line that says so."""
    gate = settings.fail_under
    url = settings.url or (info or {}).get("url")
    if url is None:
        return False, f"run {run} made no sandbox (no test asked for dipswitch): FAILS the gate of {gate:g}%"
    client = Dipswitch(url, admin_token=settings.admin_token or (info or {}).get("admin_token"))
    try:
        summary = client.coverage(run=run)["summary"]
    except ControlError as e:
        if e.status == 422:
            return False, f"run {run} made no sandbox: FAILS the gate of {gate:g}%"
        return False, f"the coverage of run {run} could not be read ({e}): FAILS the gate of {gate:g}%"
    except DipswitchError as e:
        return False, f"the coverage of run {run} could not be read ({e}): FAILS the gate of {gate:g}%"
    passed = summary["percent"] >= (gate or 0)
    return passed, (
        f"run {run}: {summary['answers_seen']} of {summary['answers']} documented answers of "
        f"{summary['operations_called']} operations called seen ({summary['percent']}%): "
        f"{'passes' if passed else 'FAILS'} the gate of {gate:g}%"
    )


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    said = getattr(config, "_dipswitch_gate", None)
    if said is None:
        return
    passed, line = said
    terminalreporter.section("dipswitch coverage")
    terminalreporter.write_line(line, red=not passed, green=passed)

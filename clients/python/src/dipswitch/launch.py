"""Starting a server for a test run, from the first of: an image, a command, a dipswitch installed in the
project (``node_modules/.bin``), a registry fetch of this client's own version (only when asked for).

A command's server is started by the launch contract (docs/clients.md): it writes where it serves to its
``--ready-file`` and ends by itself once its owner (the test process; with pytest-xdist, the controller) is gone,
however that ends (``--parent-pid``). A container is kept by a keeper process (``_keeper``) that removes it once
its owner is gone; it carries the owner's pid in the label ``dipswitch.owner``.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

from ._core import DipswitchError
from ._version import __version__
from .settings import ENGINES, Settings



class LaunchError(DipswitchError):
    """A server that could not be started, with what its launcher said last."""


@dataclass
class Started:
    """A server a client started: its URL and admin token, the process a stop signals, and a file there until it stopped."""

    url: str
    admin_token: Optional[str]
    how: str
    #: The server itself (a command's), or its keeper (a container's): SIGTERM stops it.
    pid: int
    #: The server's ready file, or the keeper's marker: removed once every pending write finished.
    until: str
    #: The address the server reaches this machine's loopback at, for the test's receivers.
    receiver_host: str = "127.0.0.1"
    #: A command's folder (its ready file and its output), removed once it stopped.
    folder: Optional[str] = None

    def stop(self) -> None:
        """Ends the server now (its pending writes finish) and waits until it is done."""
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        deadline = time.monotonic() + 30
        while os.path.exists(self.until) and time.monotonic() < deadline:
            time.sleep(0.05)
        try:
            os.waitpid(self.pid, os.WNOHANG)  # reaped, when this process started it
        except ChildProcessError:
            pass
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)


def _keep(owner: int, marker: str, kept: List[str], env: Optional[Dict[str, str]] = None) -> "subprocess.Popen[bytes]":
    """Starts the keeper of a server (python -m dipswitch._keeper), in a session of its own."""
    return subprocess.Popen(
        [sys.executable, "-m", "dipswitch._keeper", str(owner), marker, *kept],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**(env or os.environ), "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
    )


def _marker() -> str:
    fd, path = tempfile.mkstemp(prefix="dipswitch-server-", suffix=".log")
    os.close(fd)
    return path


def _last_lines(text: str, n: int = 15) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return "\n".join(f"  {line}" for line in lines[-n:]) or "  (it said nothing)"


def container_engine(named: Optional[str] = None) -> Optional[str]:
    """The engine that runs images: the one named, else the first of docker and podman that answers
    (``ENGINE info``: a docker command with no daemon behind it does not count)."""
    for engine in [named] if named else list(ENGINES):
        assert engine is not None
        if not shutil.which(engine):
            if named:
                raise LaunchError(f"DIPSWITCH_CONTAINER_ENGINE is {engine}, but there is no {engine} command")
            continue
        answer = subprocess.run([engine, "info"], capture_output=True, text=True, timeout=60, check=False)
        if answer.returncode == 0:
            return engine
        if named:
            raise LaunchError(f"{engine} does not answer (`{engine} info`):\n{_last_lines(answer.stderr + answer.stdout)}")
    return None


def local_command(start: Optional[Path] = None) -> Optional[List[str]]:
    """dipswitch installed in the project: ``node_modules/.bin/dipswitch`` here or in a folder above."""
    folder = (start or Path.cwd()).resolve()
    for at in [folder, *folder.parents]:
        found = at / "node_modules" / ".bin" / "dipswitch"
        if found.exists():
            return [str(found), "--memory", "--port", "0"]
    return None


NO_SERVER = (
    "dipswitch: no server to reach or start: set DIPSWITCH_URL (a running server), DIPSWITCH_IMAGE (an image), "
    "DIPSWITCH_COMMAND (a command), install it in the project (npm install --save-dev dipswitch@{v}), "
    "or DIPSWITCH_FETCH=true (npx dipswitch@{v})"
)


def start(settings: Settings, owner: Optional[int] = None, timeout: float = 90.0) -> Started:
    """Starts a server as the settings say (image, command, the project's dipswitch, a fetch), kept for `owner`."""
    owner = owner or os.getpid()
    if settings.image:
        engine = container_engine(settings.container_engine)
        if engine is None:
            raise LaunchError(
                f"dipswitch: DIPSWITCH_IMAGE is {settings.image}, but neither docker nor podman answers "
                "(`docker info`, `podman info`); name one with DIPSWITCH_CONTAINER_ENGINE"
            )
        return _start_container(engine, settings.image, settings.admin_token or secrets.token_hex(16), owner, timeout)
    command = settings.command or local_command()
    how = "command"
    if command is None and settings.fetch:
        command, how = ["npx", "--yes", f"dipswitch@{__version__}", "--memory", "--port", "0"], "fetch"
    if command is None:
        raise LaunchError(NO_SERVER.format(v=__version__))
    return _start_command(command, settings.admin_token, owner, timeout, how)


def _start_command(argv: List[str], token: Optional[str], owner: int, timeout: float, how: str) -> Started:
    """Runs the server with the launch contract's flags, its output in a file, and waits for its ready file."""
    env: Dict[str, str] = dict(os.environ)
    if token:
        env["SIM_ADMIN_TOKEN"] = token
    folder = tempfile.mkdtemp(prefix="dipswitch-server-")
    ready, output = os.path.join(folder, "ready.json"), os.path.join(folder, "output.log")
    launched = [*argv, "--ready-file", ready, "--parent-pid", str(owner)]
    with open(output, "wb") as out:
        try:
            # a session of its own: a Ctrl-C of the test run reaches the server through its owner's end, not at once
            server = subprocess.Popen(
                launched, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        except OSError as e:
            raise LaunchError(f"dipswitch did not start ({' '.join(argv)}: it could not be run: {e})") from e
    deadline = time.monotonic() + timeout
    while True:
        try:
            with open(ready) as said:
                info = json.load(said)
            return Started(info["url"], token, how, info["pid"], ready, folder=folder)
        except FileNotFoundError:
            pass
        ended = server.poll()
        if ended is not None or time.monotonic() > deadline:
            if ended is None:
                server.terminate()
                server.wait()
            reason = f"exited with {ended}" if ended is not None else f"did not serve within {timeout:g} s"
            with open(output, errors="replace") as log:
                said_text = log.read()
            raise LaunchError(f"dipswitch did not start ({' '.join(argv)}: {reason}); it said:\n{_last_lines(said_text)}")
        time.sleep(0.05)


def _start_container(engine: str, image: str, token: str, owner: int, timeout: float) -> Started:
    # the container reaches receivers on this machine's loopback: podman's slirp4netns maps 10.0.2.2 to it;
    # docker reaches the host as host.docker.internal (a receiver there listens beyond 127.0.0.1)
    if engine == "podman":
        network, receiver_host = ["--network", "slirp4netns:allow_host_loopback=true"], "10.0.2.2"
    else:
        network, receiver_host = ["--add-host", "host.docker.internal:host-gateway"], "host.docker.internal"
    argv = [
        engine, "run", "-d", "--label", f"dipswitch.owner={owner}", *network,
        "-p", "127.0.0.1::4010", "-e", f"SIM_ADMIN_TOKEN={token}", image,
    ]
    ran = subprocess.run(argv, capture_output=True, text=True, check=False)
    if ran.returncode != 0:
        raise LaunchError(f"dipswitch's image did not start ({' '.join(argv[:2])} … {image}: exit {ran.returncode}); {engine} said:\n{_last_lines(ran.stderr + ran.stdout)}")
    cid = ran.stdout.strip().splitlines()[-1]
    marker = _marker()
    keeper = _keep(owner, marker, [engine, cid]).pid
    port = subprocess.run([engine, "port", cid, "4010/tcp"], capture_output=True, text=True, check=False).stdout.strip()
    url = f"http://127.0.0.1:{port.splitlines()[0].rsplit(':', 1)[-1]}" if port else ""
    deadline = time.monotonic() + timeout
    while True:
        if url:
            try:
                with urllib.request.urlopen(url + "/__sim/health", timeout=5) as res:
                    if res.status == 200:
                        return Started(url, token, "image", keeper, marker, receiver_host)
            except (OSError, urllib.error.URLError):
                pass
        if time.monotonic() > deadline or not url:
            logs = subprocess.run([engine, "logs", cid], capture_output=True, text=True, check=False)
            os.kill(keeper, signal.SIGTERM)
            raise LaunchError(f"dipswitch's image {image} did not answer within {timeout:g} s; it said:\n{_last_lines(logs.stdout + logs.stderr)}")
        time.sleep(0.2)

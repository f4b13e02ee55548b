"""Where the server is and how to start one: each setting from the option given, else the environment, else
its default. The same names and order in every client of dipswitch (docs/clients.md has the table)."""
from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from typing import List, Mapping, Optional

from .coverage import check_gate

#: Each setting and the environment variable it is read from.
ENVIRONMENT = {
    "url": "DIPSWITCH_URL",
    "admin_token": "DIPSWITCH_ADMIN_TOKEN",
    "image": "DIPSWITCH_IMAGE",
    "command": "DIPSWITCH_COMMAND",
    "container_engine": "DIPSWITCH_CONTAINER_ENGINE",
    "fail_under": "DIPSWITCH_FAIL_UNDER",
    "run": "DIPSWITCH_RUN",
    "fetch": "DIPSWITCH_FETCH",
}

ENGINES = ("docker", "podman")


class SettingError(ValueError):
    """A setting whose value cannot be meant: said with the setting's name."""


@dataclass(frozen=True)
class Settings:
    url: Optional[str] = None
    admin_token: Optional[str] = None
    image: Optional[str] = None
    command: Optional[List[str]] = None
    container_engine: Optional[str] = None
    fail_under: Optional[float] = None
    run: Optional[str] = None
    fetch: bool = False

    @classmethod
    def resolve(
        cls,
        url: Optional[str] = None,
        admin_token: Optional[str] = None,
        image: Optional[str] = None,
        command: Optional[List[str]] = None,
        container_engine: Optional[str] = None,
        fail_under: Optional[float] = None,
        run: Optional[str] = None,
        fetch: Optional[bool] = None,
        environ: Optional[Mapping[str, str]] = None,
    ) -> "Settings":
        """Each setting from its argument, else its environment variable (an empty one is unset), else its default."""
        env = os.environ if environ is None else environ

        def of(name: str) -> Optional[str]:
            return env.get(ENVIRONMENT[name]) or None

        gate: Optional[float] = fail_under
        if gate is None and of("fail_under") is not None:
            try:
                gate = float(str(of("fail_under")))
            except ValueError:
                raise SettingError(f"DIPSWITCH_FAIL_UNDER is a percentage from 0 to 100, not {of('fail_under')!r}") from None
        if gate is not None:
            try:
                gate = check_gate(gate)
            except ValueError as e:
                raise SettingError(f"the coverage gate (--dipswitch-fail-under, DIPSWITCH_FAIL_UNDER): {e}") from None
        engine = container_engine or of("container_engine")
        if engine is not None and engine not in ENGINES:
            raise SettingError(f"DIPSWITCH_CONTAINER_ENGINE is docker or podman, not {engine!r}")
        fetching = fetch
        if fetching is None:
            said = (of("fetch") or "false").lower()
            if said not in ("1", "true", "yes", "0", "false", "no"):
                raise SettingError(f"DIPSWITCH_FETCH is true or false, not {said!r}")
            fetching = said in ("1", "true", "yes")
        env_command = of("command")
        words: Optional[List[str]] = None
        if env_command:
            try:
                # as every client splits it (docs/clients.md, clients/shell_words.json)
                words = shlex.split(env_command)
            except ValueError as e:
                raise SettingError(f"DIPSWITCH_COMMAND cannot be split into words ({e}): {env_command!r}") from None
        return cls(
            url=url or of("url"),
            admin_token=admin_token or of("admin_token"),
            image=image or of("image"),
            command=command or words,
            container_engine=engine,
            fail_under=gate,
            run=run or of("run"),
            fetch=fetching,
        )

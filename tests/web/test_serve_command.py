"""``zoo-games serve``: its arguments checked in one line each, and the warning off loopback."""

from __future__ import annotations

import socket

import pytest

from zoo_games.cli import main
from zoo_games.web.server import exposure_warning, is_loopback, listening_problem


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "0"], "--port: a port is a whole number from 1 to 65535, got 0"),
        (["--port", "http"], "--port: expected a whole number, got 'http'"),
        (["--port", "70000"], "a port is a whole number from 1 to 65535, got 70000"),
        (["--host", "a host"], "--host: expected an IP address or a host name, got 'a host'"),
        (["--move-seconds", "0"], "--move-seconds: must be more than 0, got 0"),
        (["--most-games", "0"], "--most-games: must be 1 or more, got 0"),
        (["--idle-minutes", "never"], "--idle-minutes: expected a number, got 'never'"),
        (["--checkpoints", "/no/such/folder"], "--checkpoints: '/no/such/folder' is not a folder"),
    ],
)
def test_a_bad_argument_gets_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["serve", *args])
    assert stop.value.code == 2
    error = capsys.readouterr().err
    (line,) = error.strip().splitlines()  # no usage lines before it
    assert line.startswith("zoo-games serve: error: argument --") and message in line
    assert "Traceback" not in error


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_loopback_hosts_get_no_warning(host: str) -> None:
    assert is_loopback(host)
    assert exposure_warning(host, 8000) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::", "example.org"])
def test_other_hosts_get_a_warning(host: str) -> None:
    assert not is_loopback(host)
    warning = exposure_warning(host, 8000)
    assert warning is not None and f"{host}:8000" in warning
    assert "anyone who reaches this port can start games and spend this machine's CPU" in warning


def test_a_port_in_use_gets_one_line_before_the_server_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for module in ("starlette", "uvicorn"):  # without the web extra, serve stops before
        pytest.importorskip(module)
    with socket.create_server(("127.0.0.1", 0)) as taken:  # listening, as another server would
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 1
    error = capsys.readouterr().err
    assert error == (
        f"zoo-games serve: port {port} on 127.0.0.1 is in use by another program: stop it, "
        "or serve on another port with --port\n"
    )
    assert listening_problem("127.0.0.1", port) is None  # free again once it is closed


def test_a_host_this_machine_is_not_gets_one_line() -> None:
    # 192.0.2.1 is reserved for documentation: no machine has it.
    problem = listening_problem("192.0.2.1", 8000)
    assert problem == "cannot serve on 192.0.2.1:8000: Cannot assign requested address"

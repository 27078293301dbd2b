"""The client's side of crafter-protocol(5) against children that send
what crafter-step never would: another protocol version, lengths that do
not add up, a stream that stalls, a child killed by a signal.  Each ends
in a CrafterStepError that says what happened, never in a hang."""

import os
import signal
import struct
import subprocess
import sys
import time

import pytest

import crafter_toolkit
from crafter_toolkit import _stream
from conftest import TOP

TASKS = os.path.join(TOP, "data", "tasks", "crafter-tasks.yaml")
STALL = 0.5  # seconds without progress before the client gives up, in these tests


def real_stream(*options):
    """The header and first frame a real crafter-step writes (the pipe)."""
    run = subprocess.run([crafter_toolkit.find_crafter_step(), "--binary", *options], input=b"",
                         capture_output=True, check=True)
    return bytearray(run.stdout)


def fake_child(tmp_path, data, then="sleep"):
    """A program in crafter-step's place that writes data, then sleeps
    (a child that stalls) or exits with status 3 after a word on its
    standard error."""
    (tmp_path / "sent").write_bytes(bytes(data))
    ending = ("time.sleep(60)" if then == "sleep" else
              "sys.stderr.write('something went wrong\\n'); sys.exit(3)")
    script = tmp_path / "fake-crafter-step"
    script.write_text(f"#!{sys.executable}\nimport sys, time\n"
                      f"sys.stdout.buffer.write(open({str(tmp_path / 'sent')!r}, 'rb').read())\n"
                      f"sys.stdout.buffer.flush()\n{ending}\n")
    script.chmod(0o755)
    return str(script)


@pytest.fixture
def quick(monkeypatch):
    """Children that make no progress for STALL seconds are given up."""
    monkeypatch.setenv("CRAFTER_STEP_TIMEOUT", str(STALL))


def start(program, **options):
    """A Stream over program (on the pipe unless options say otherwise),
    the message it gave up with, and how long that took."""
    began = time.monotonic()
    with pytest.raises(crafter_toolkit.CrafterStepError) as raised:
        _stream.Stream(program=program, **{"transport": "pipe", **options})
    return str(raised.value), time.monotonic() - began


def test_another_protocol_version_is_refused(tmp_path, quick):
    """The right magic and a version this client does not read (neither
    Crafter's 2 nor the other games' 3): refused, naming it and those it
    reads."""
    data = real_stream()
    unknown = _stream.GAME_VERSION + 1
    struct.pack_into("<I", data, 8, unknown)
    message, _ = start(fake_child(tmp_path, data))
    assert f"version {unknown};" in message
    assert f"versions {_stream.VERSION} (Crafter) and {_stream.GAME_VERSION}" in message, message


@pytest.mark.parametrize("off", [-8, -3, 3, 8, 16, "3 frames"])
def test_a_task_table_of_another_length(tmp_path, quick, off):
    """With goals the header's size counts the task table: a size a few
    bytes off is found out by the table's own lengths; one more than the
    stream holds, because the stream then stalls."""
    data = real_stream("--tasks", TASKS, "--split", "test-new-objects")
    size = struct.unpack_from("<I", data, 12)[0]
    if off == "3 frames":
        off = 3 * struct.unpack_from("<I", data, 44)[0]
    struct.pack_into("<I", data, 12, size + off)
    message, seconds = start(fake_child(tmp_path, data), tasks=TASKS, split="test-new-objects")
    assert "task table" in message or "nothing" in message, message
    assert seconds < 30


def test_a_child_that_stalls_mid_frame(tmp_path, quick):
    data = real_stream("--obs", "semantic")
    frame = struct.unpack_from("<I", data, 44)[0]
    message, seconds = start(fake_child(tmp_path, data[:len(data) - frame // 2]), obs="semantic")
    assert f"sent nothing for {STALL:g} s" in message and "CRAFTER_STEP_TIMEOUT" in message
    assert f"{frame - frame // 2} of {frame} bytes" in message, message
    assert seconds < 30


def test_a_child_that_stops_answering(tmp_path, quick):
    """The first frame comes, then nothing: the step ends in an error."""
    stream = _stream.Stream(program=fake_child(tmp_path, real_stream()), transport="pipe")
    began = time.monotonic()
    with pytest.raises(crafter_toolkit.CrafterStepError, match="sent nothing for"):
        stream.step(b"\0")
    assert time.monotonic() - began < 30
    stream.close()


def test_the_timeout_is_checked(monkeypatch):
    for value in ("soon", "-1", "nan"):
        monkeypatch.setenv("CRAFTER_STEP_TIMEOUT", value)
        with pytest.raises(ValueError, match="CRAFTER_STEP_TIMEOUT"):
            _stream.Stream()
    with pytest.raises(ValueError, match="timeout"):
        _stream.Stream(timeout=-2)


def test_no_timeout_waits(tmp_path, monkeypatch):
    """CRAFTER_STEP_TIMEOUT=0 waits as long as the child takes: a child
    slower than the tests' limit still gets through."""
    data = real_stream()
    script = tmp_path / "slow-crafter-step"
    (tmp_path / "sent").write_bytes(bytes(data))
    script.write_text(f"#!{sys.executable}\nimport sys, time\ntime.sleep({2 * STALL})\n"
                      f"sys.stdout.buffer.write(open({str(tmp_path / 'sent')!r}, 'rb').read())\n"
                      "sys.stdout.buffer.flush()\nsys.stdin.read()\n")
    script.chmod(0o755)
    monkeypatch.setenv("CRAFTER_STEP_TIMEOUT", "0")
    stream = _stream.Stream(program=str(script), transport="pipe")
    assert stream.frame["reset"][0] == 1
    stream.close()


def test_exit_status_and_signal_are_said(tmp_path, quick):
    data = real_stream()
    message, _ = start(fake_child(tmp_path, data[:100], then="exit"))
    assert "exit status 3" in message and "something went wrong" in message
    stream = _stream.Stream(obs="none", transport="pipe")
    os.kill(stream.process.pid, signal.SIGKILL)
    with pytest.raises(crafter_toolkit.CrafterStepError) as raised:
        for _ in range(3):
            stream.step(b"\0")
    assert "killed by signal 9 (SIGKILL)" in str(raised.value)
    assert "status -9" not in str(raised.value)
    stream.close()


def dying_child(tmp_path, data, when):
    """A program in crafter-step's place that leaves a process behind
    holding its standard output open (not its standard error), writes data,
    and dies of SIGPIPE: at once ("start") or on reading the first action
    ("step").  Returns (its path, the file where the keeper's pid goes)."""
    (tmp_path / "sent").write_bytes(bytes(data))
    pid_file = tmp_path / "keeper.pid"
    script = tmp_path / "dying-crafter-step"
    script.write_text(
        f"#!{sys.executable}\nimport os, signal, subprocess, sys\n"
        "keeper = subprocess.Popen(['sleep', '120'], stdin=subprocess.DEVNULL,\n"
        "                          stderr=subprocess.DEVNULL)\n"
        f"open({str(pid_file)!r}, 'w').write(str(keeper.pid))\n"
        f"sys.stdout.buffer.write(open({str(tmp_path / 'sent')!r}, 'rb').read())\n"
        "sys.stdout.buffer.flush()\n"
        + ("sys.stdin.buffer.read(1)\n" if when == "step" else "")
        + "signal.signal(signal.SIGPIPE, signal.SIG_DFL)\nos.kill(os.getpid(), signal.SIGPIPE)\n")
    script.chmod(0o755)
    return str(script), pid_file


@pytest.mark.parametrize("watch", ["pidfd", "polling"])
@pytest.mark.parametrize("when", ["start", "step"])
def test_a_child_that_dies_with_its_pipe_held_open(tmp_path, monkeypatch, watch, when):
    """crafter-step killed by SIGPIPE while something it left behind holds
    its standard output open: the pipe never says it ended, the child's
    death does, at once and with the signal, long before the timeout."""
    monkeypatch.setenv("CRAFTER_STEP_TIMEOUT", "20")
    if watch == "polling":  # as where there is no pidfd_open
        monkeypatch.setattr(_stream, "_pidfd", lambda pid: None)
    data = real_stream("--obs", "none")
    program, pid_file = dying_child(tmp_path, data if when == "step" else b"", when)
    try:
        began = time.monotonic()
        with pytest.raises(crafter_toolkit.CrafterStepError) as raised:
            stream = _stream.Stream(program=program, transport="pipe", obs="none")
            try:
                stream.step(b"\0")
            finally:
                stream.close()
        seconds = time.monotonic() - began
    finally:
        if pid_file.exists():
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
    message = str(raised.value)
    assert "killed by signal 13 (SIGPIPE)" in message, message
    assert "sent nothing" not in message and seconds < 10, (message, seconds)
    total = len(data) - 128 if when == "step" else 128
    assert f"stopped after 0 of {total} bytes" in message, message


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="no memfd_create: no shared memory")
@pytest.mark.parametrize("closed", [(0,), (1,), (2,), (0, 1, 2)])
def test_a_client_whose_standard_streams_are_closed(tmp_path, closed):
    """A client started with its standard input, output or error closed
    (prog >&-): the shared memory's descriptor is never 0, 1 or 2, which
    crafter-step's pipes take in the child, so the ring still works."""
    said = tmp_path / "said"
    script = (f"import os\nfor fd in {closed!r}:\n    os.close(fd)\n"
              "from crafter_toolkit import _stream\n"
              "try:\n"
              "    stream = _stream.Stream(obs='none', transport='shm')\n"
              "    stream.step(b'\\0')\n"
              "    stream.close()\n"
              "    words = 'played'\n"
              "except Exception as error:\n"
              "    words = str(error)\n"
              f"open({str(said)!r}, 'w').write(words)\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120,
                   env={**os.environ, "PYTHONPATH": os.path.join(TOP, "python")})
    assert said.read_text() == "played"


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="no memfd_create: no shared memory")
def test_a_ring_larger_than_the_shared_memory(tmp_path, quick):
    """The header of a ring in shared memory that the child never sized:
    refused before anything is mapped."""
    memory = os.memfd_create("ring")
    run = subprocess.run([crafter_toolkit.find_crafter_step(), "--binary", "--shm-fd",
                          str(memory), "--shm-slots", "3"], input=b"", capture_output=True,
                         pass_fds=(memory,), check=True)
    os.close(memory)
    frame = struct.unpack_from("<I", run.stdout, 44)[0]
    message, _ = start(fake_child(tmp_path, run.stdout), obs="none", shm_slots=3,
                       transport="shm")
    assert f"a ring of 3 frames of {frame} bytes in shared memory of 0 bytes" in message


def test_players_and_envs_are_counted_in_words(tmp_path, quick):
    """A players extension that disagrees with the options, said in the
    right number."""
    data = real_stream("--players", "4")  # in 1 env
    message, _ = start(fake_child(tmp_path, data), players=2, envs=2)
    assert "sent 4 players in 1 env, not 2 in 2" in message, message

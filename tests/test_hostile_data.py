"""Hostile data (issue 39; tests/hostile/data/README.md): a simulation killed outright, a
full disk, special files in the output folder. Each is a clear error (exit 2) or a clean
resume: no worker outlives its run, no lock is left behind, nothing blocks."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.run import outputs

ROOT = Path(__file__).resolve().parents[1]
TCG = [sys.executable, "-m", "interpreter.cli"]


def tcg(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*TCG, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def _children(pid: int) -> list[int]:
    r = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(x) for x in r.stdout.split()]


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_simulate_killed_outright_leaves_no_worker_and_no_lock(tmp_path: Path):
    out = tmp_path / "out"
    p = subprocess.Popen([*TCG, "simulate", "ucb", "--games", "400", "--workers", "2", "--quiet",
                          "--out", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        end = time.monotonic() + 120
        while not ((out / "results.jsonl").exists() and (out / "results.jsonl").stat().st_size
                   and len(workers := _children(p.pid)) >= 2):
            assert time.monotonic() < end and p.poll() is None, "the run did not get going"
            time.sleep(0.05)
    finally:
        p.kill()
        p.wait()
    end = time.monotonic() + 10
    while any(map(_alive, workers)) and time.monotonic() < end:
        time.sleep(0.05)
    left = [w for w in workers if _alive(w)]
    for w in left:  # (a red test must not leave them running either)
        os.kill(w, signal.SIGKILL)
    assert not left, "pool workers outlived their run"
    r = tcg("simulate", "ucb", "--games", "400", "--workers", "2", "--quiet", "--out", str(out), "--resume")
    assert r.returncode == 0 and "400 games" in r.stdout, r.stderr


def test_a_lock_is_not_held_by_a_forked_worker(tmp_path: Path):
    """The worker's initializer closes its copy of the lock: the lock ends with the run."""
    from interpreter.run import backends

    lock = outputs.lock_folder(tmp_path)
    pid = os.fork()
    if pid == 0:  # the worker (never back into pytest, whatever happens)
        try:
            with contextlib.suppress(Exception):  # (a worker that failed to start still holds it)
                backends._quiet_worker(None, os.getppid())
            time.sleep(3)
        finally:
            os._exit(0)
    try:
        time.sleep(0.5)
        lock.close()
        again = outputs.lock_folder(tmp_path)  # free now, though the worker still runs
        again.close()
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


@pytest.fixture
def tiny_disk(tmp_path: Path):
    """A folder on a tmpfs of 48 KB (root only), else None."""
    where = tmp_path / "tiny"
    where.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", str(where)],
                       capture_output=True)
    if r.returncode != 0:
        yield None
        return
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_disk_that_fills_under_simulate_out_is_a_clear_error_and_resumable(tiny_disk, tmp_path: Path):
    if tiny_disk is None:
        pytest.skip("no tmpfs to fill here (the writes are failed by hand below)")
    out = tiny_disk / "out"
    r = tcg("simulate", "ucb", "--games", "300", "--workers", "1", "--quiet", "--out", str(out))
    assert r.returncode == 2, r.stderr
    assert f"cannot write {out / 'results.jsonl'}: No space left on device" in r.stderr
    assert "internal error" not in r.stderr
    moved = tmp_path / "moved"
    subprocess.run(["cp", "-r", str(out), str(moved)], check=True)
    r = tcg("simulate", "ucb", "--games", "300", "--workers", "1", "--quiet", "--out", str(moved), "--resume")
    assert r.returncode == 0 and "300 games" in r.stdout, r.stderr


def test_a_full_disk_under_play_log_is_a_clear_error(tiny_disk):
    if tiny_disk is None:
        pytest.skip("no tmpfs to fill here")
    (tiny_disk / "fill").write_bytes(b"\0" * 40_000)
    r = tcg("play", "ucb", "--quiet", "--log", str(tiny_disk / "log.jsonl"))
    assert r.returncode == 2 and "cannot write" in r.stderr and "No space left" in r.stderr, r.stderr
    assert "internal error" not in r.stderr


class _FullFile:
    """A file on a disk that fills after `room` characters: what is written past it stays in
    the buffer, and every flush, and the close, fail as a full disk's do."""

    def __init__(self, f, room: int) -> None:
        self.f, self.room, self.full = f, room, False

    def write(self, text: str) -> int:
        self.room -= len(text)
        self.full = self.full or self.room < 0
        return len(text) if self.full else self.f.write(text)

    def flush(self) -> None:
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.f.flush()

    def close(self) -> None:
        self.f.close()
        if self.full:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __getattr__(self, name: str):
        return getattr(self.f, name)


def test_a_write_failing_mid_run_is_a_clear_error(tmp_path: Path, monkeypatch, capsys):
    """Where no tmpfs can be mounted: results.jsonl's disk fills after 3,000 characters."""
    real = outputs.open_output

    def filling(path, mode="w"):
        f = real(path, mode)
        if not str(path).endswith("results.jsonl"):
            return f
        if hasattr(f, "f"):  # (the file inside the Output wrapper)
            f.f = _FullFile(f.f, 3000)
            return f
        return _FullFile(f, 3000)

    monkeypatch.setattr(outputs, "open_output", filling)
    out = tmp_path / "out"
    assert main(["simulate", "ucb", "--games", "40", "--workers", "1", "--quiet", "--out", str(out)]) == 2
    assert f"cannot write {out / 'results.jsonl'}: No space left on device" in capsys.readouterr()[1]
    monkeypatch.setattr(outputs, "open_output", real)
    assert main(["simulate", "ucb", "--games", "40", "--workers", "1", "--quiet", "--out", str(out),
                 "--resume"]) == 0


def _small_run(out: Path) -> subprocess.CompletedProcess:
    return tcg("simulate", "ucb", "--games", "2", "--workers", "1", "--quiet", "--out", str(out))


@pytest.mark.parametrize("name", ["results.jsonl", "run.json", ".lock"])
def test_a_fifo_in_the_output_folder_is_refused_not_waited_on(name: str, tmp_path: Path):
    out = tmp_path / "out"
    assert _small_run(out).returncode == 0
    (out / name).unlink()
    os.mkfifo(out / name)
    r = tcg("simulate", "ucb", "--games", "4", "--workers", "1", "--quiet", "--out", str(out), "--resume",
            timeout=60)
    assert r.returncode == 2 and "not a regular file" in r.stderr and name in r.stderr, r.stderr


def test_a_device_linked_as_results_is_refused(tmp_path: Path):
    out = tmp_path / "out"
    assert _small_run(out).returncode == 0
    (out / "results.jsonl").unlink()
    (out / "results.jsonl").symlink_to("/dev/zero")
    r = tcg("simulate", "ucb", "--games", "4", "--workers", "1", "--quiet", "--out", str(out), "--resume",
            timeout=60)
    assert r.returncode == 2 and "not a regular file" in r.stderr, r.stderr


def test_a_fifo_where_a_plot_goes_is_replaced_not_waited_on(tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "win_rates.png")
    r = tcg("simulate", "ucb", "--games", "2", "--workers", "1", "--quiet", "--out", str(out), timeout=120)
    assert r.returncode == 0, r.stderr
    assert (out / "win_rates.png").is_file()

"""Where `tcg simulate` runs its tasks: all backends are concurrent.futures.Executors.

- inline: in this process (one worker: no pool, no pickling);
- local: a process pool over this machine's cores;
- ray: Ray tasks, on a local Ray instance or on the cluster at `--address` (optional extra).

Tasks are plain module-level functions with plain-data arguments, so any executor runs them
and a task's result never depends on which one did.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass

from interpreter.diagnostics import TcgError
from interpreter.run import outputs

BACKENDS = ("local", "ray")
RAY_LEAST_CHUNK = 8  # a Ray task costs ~3 ms, a random UCB match ~10 ms
RAY_EXTRA = "pip install -e '.[ray]' (or pip install ray)"


class InlineExecutor(Executor):
    """Runs each task in this process when it is submitted."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        f: Future = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except Exception as e:  # noqa: BLE001 - delivered through the future, like a pool
            f.set_exception(e)
        return f


def _quiet_worker(warm: Callable[[], object] | None, parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    outputs.close_inherited_locks()
    die_with(parent)
    if warm is not None:
        warm()


def die_with(parent: int) -> None:
    """End this worker when the process `parent` ends, however it ends (SIGKILL too): on
    Linux the kernel sends SIGKILL (prctl PR_SET_PDEATHSIG), elsewhere a thread watches.
    A worker left behind would play on for nobody."""
    if sys.platform == "linux":
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    else:
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1)
            os._exit(1)

        threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # (it died before the request was made)
        os._exit(1)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def local_executor(workers: int, warm: Callable[[], object] | None = None) -> Executor:
    """A process pool; `warm` runs once in each worker (e.g. to load the game). The workers
    end with this process and hold none of its folder locks."""
    if workers == 1:
        return InlineExecutor()
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # fork shares the already-loaded game with the workers; elsewhere each worker loads it.
    ctx = multiprocessing.get_context("fork") if sys.platform == "linux" else None
    return ProcessPoolExecutor(workers, mp_context=ctx, initializer=_quiet_worker,
                               initargs=(warm, os.getpid()))


def _ray():
    try:
        import ray
    except ImportError:
        raise TcgError(f"the ray backend needs Ray, which is not installed: {RAY_EXTRA}") from None
    return ray


def _reachable(address: str, seconds: float = 5.0) -> None:
    """Ray retries a dead address for minutes: knock first ("auto" and the like are Ray's)."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as e:
        raise TcgError(f"cannot reach the Ray cluster at {address}: {e.strerror or e}; start one with "
                       "`ray start --head`, or drop --address for a local Ray instance") from None


def _call(fn, args, kwargs):
    return fn(*args, **kwargs)


class RayExecutor(Executor):
    """Each submit is one Ray task; its ObjectRef's future is what submit returns.

    Without an address a local Ray instance with `workers` CPUs is started (and stopped on
    shutdown); with one, the driver joins that cluster, whose nodes must have
    tcg-interpreter installed (and the rule files at the same paths).
    """

    def __init__(self, workers: int | None, address: str | None = None) -> None:
        ray = _ray()
        self.ray = ray
        self.started = not ray.is_initialized()
        if self.started:
            if address is not None:
                _reachable(address)
            opts = {"num_cpus": workers} if address is None else {"address": address}
            try:
                ray.init(**opts, include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING, configure_logging=True)
            except (ConnectionError, RuntimeError, ValueError) as e:
                where = f"the Ray cluster at {address}" if address else "a local Ray instance"
                raise TcgError(f"cannot start or join {where}: {e}") from None
        self.task = ray.remote(num_cpus=1)(_call)

    def cpus(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def submit(self, fn, /, *args, **kwargs) -> Future:
        return self.task.remote(fn, args, kwargs).future()

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self.started:
            self.ray.shutdown()
            self.started = False


@dataclass
class Pool:
    """An executor and how to feed it: how many tasks run at once, how small a task may be."""

    executor: Executor
    workers: int
    least_chunk: int = 1  # matches per task, where a task costs more than a match

    @property
    def window(self) -> int:
        """Tasks to keep in flight: enough to keep every worker busy."""
        return 1 if isinstance(self.executor, InlineExecutor) else 2 * self.workers

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)


def open_pool(backend: str, workers: int | None = None, address: str | None = None,
              warm: Callable[[], object] | None = None, tasks: int | None = None) -> Pool:
    """`workers` defaults to this machine's cores, or the Ray cluster's CPUs with `address`;
    a local pool starts no more processes than there are `tasks`."""
    check_backend(backend, address)
    if backend == "ray":
        ray = RayExecutor(workers, address)
        return Pool(ray, workers or ray.cpus(), RAY_LEAST_CHUNK)
    workers = workers or default_workers()
    if tasks is not None:
        workers = max(1, min(workers, tasks))
    return Pool(local_executor(workers, warm), workers)


def check_backend(backend: str, address: str | None) -> None:
    """Refuse a bad choice before any work (and before Ray's slow start)."""
    if backend not in BACKENDS:
        raise TcgError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise TcgError("--address joins a Ray cluster: use it with --backend ray")
    if backend == "ray":
        _ray()


def default_workers() -> int:
    return os.cpu_count() or 1

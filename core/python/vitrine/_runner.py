"""The loop of one plugin process: `python -m vitrine._runner IN_FD OUT_FD`.

The host starts a few of these, keeps them warm, and sends each one call at a time. The process
imports the plugins once (`load`), then answers each `call` with `result` or `error`, sending
`progress` frames while the function runs. Cancelling is a SIGINT from the host: it raises
KeyboardInterrupt in the running function (the next `report()` raises too); a function stuck in
C code that ignores it is killed by the host, which starts another process.
"""
from __future__ import annotations

import asyncio
import inspect
import math
import os
import platform
import signal
import sys
import threading
import time
import traceback
from typing import Any, Dict, List, Optional, Tuple

from . import _arrays
from ._coerce import ResultShapeError, to_wire
from ._inputs import read_inputs
from ._limits import adopt_orphans, limit_memory, limit_processes
from ._plugins import describe_import_error, import_plugin
from ._wire import FrameReader, FrameWriter


class Cancelled(BaseException):
    """Raised by `report()` after the host cancelled the run."""


class _State:
    running: Optional[int] = None
    cancelled = False


STATE = _State()


def _on_sigint(signum: int, frame: Any) -> None:
    # A SIGINT that arrives between calls (a cancel racing the result) is ignored.
    if STATE.running is not None and not STATE.cancelled:
        STATE.cancelled = True
        raise KeyboardInterrupt


#: Shortest time between two progress frames, seconds (as the host's threads batch theirs).
PROGRESS_BATCH_S = 0.02
#: Reports one progress frame carries at most (the newest): the host keeps only the newest anyway.
MAX_BATCH_REPORTS = 1000


class Reporter:
    """The `ProgressReporter` a function receives.

    A report after a quiet spell goes at once; reports that follow it closely wait (at most
    PROGRESS_BATCH_S) and go together in one frame, so a function reporting in a tight loop
    costs the host a few dozen frames a second, not one per report.
    """

    def __init__(self, writer: FrameWriter, call_id: int) -> None:
        self._writer = writer
        self._id = call_id
        self._lock = threading.Lock()
        self._pending: List[Dict[str, Any]] = []
        self._last = 0.0
        self._timer: Optional[threading.Timer] = None

    def report(self, text: str, fraction: Optional[float] = None) -> None:
        if STATE.cancelled:
            raise Cancelled()
        f = float(fraction) if isinstance(fraction, (int, float)) and not isinstance(fraction, bool) else None
        if f is not None and not math.isfinite(f):
            f = None  # NaN and infinity are no fraction (nor JSON)
        with self._lock:
            self._pending.append({"text": str(text), "fraction": f})
            if len(self._pending) > 2 * MAX_BATCH_REPORTS:
                del self._pending[:-MAX_BATCH_REPORTS]
            wait = self._last + PROGRESS_BATCH_S - time.monotonic()
            if wait > 0:
                if self._timer is None:
                    self._timer = threading.Timer(wait, self.flush)
                    self._timer.daemon = True
                    self._timer.start()
                return
        self.flush()

    def flush(self) -> None:
        """Sends the reports that wait (their time came, or the call is over)."""
        with self._lock:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            reports = self._pending[-MAX_BATCH_REPORTS:]
            self._pending = []
            if not reports:
                return
            self._last = time.monotonic()
            self._writer.write({"t": "progress", "id": self._id, "reports": reports})


def _ensure(plugin: Dict[str, Any], modules: Dict[str, Any]) -> Any:
    """The plugin's module at the version asked for, imported now if this process has another."""
    loaded = modules.get(plugin["name"])
    if loaded is not None and loaded[0] == plugin["version"]:
        return loaded[1]
    module = import_plugin(plugin["name"], plugin["dir"], plugin["entry"])
    modules[plugin["name"]] = (plugin["version"], module)
    return module


def _load(plugins: List[Dict[str, Any]], modules: Dict[str, Any]) -> List[Dict[str, Any]]:
    answers = []
    for plugin in plugins:
        try:
            _ensure(plugin, modules)
            answers.append({"name": plugin["name"], "version": plugin["version"], "ok": True})
        except BaseException as error:  # a plugin's import may raise anything, SystemExit included
            answers.append({"name": plugin["name"], "version": plugin["version"], **describe_import_error(error)})
    return answers


def _call(header: Dict[str, Any], blocks: List[bytearray], modules: Dict[str, Any], writer: FrameWriter) -> None:
    call_id = header["id"]
    plugin = header["plugin"]
    try:
        module = _ensure(plugin, modules)
    except BaseException as error:  # noqa: BLE001 - reported as the call's failure
        why = describe_import_error(error)["error"]
        writer.write({"t": "error", "id": call_id, "kind": "function", "etype": "ImportError", "message": f"plugin {plugin['name']} failed to import: {why}"})
        return
    fn = getattr(module, header["function"], None)
    if not callable(fn):
        writer.write({"t": "error", "id": call_id, "kind": "function", "message": f"plugin {plugin['name']} has no function {header['function']}"})
        return
    kwargs = dict(header.get("args", {}))
    kwargs.update(read_inputs(header.get("inputs", []), blocks))
    reporter = Reporter(writer, call_id)
    if header.get("reporter"):
        kwargs[header["reporter"]] = reporter
    STATE.cancelled = False
    STATE.running = call_id
    try:
        answer, sent = _run(fn, kwargs, header, call_id)
    finally:
        STATE.running = None
    # Every report goes before the answer, so none arrives after the call is over.
    reporter.flush()
    if answer["t"] == "result" and STATE.cancelled:
        answer, sent = {"t": "error", "id": call_id, "kind": "cancelled", "message": "cancelled"}, []
    try:
        writer.write(answer, sent)
    except (ValueError, TypeError) as error:  # a header JSON cannot carry (nothing was written)
        writer.write({"t": "error", "id": call_id, "kind": "result", "message": f"the result cannot be sent: {error}"})


Answer = Tuple[Dict[str, Any], List[memoryview]]


def _run(fn: Any, kwargs: Dict[str, Any], header: Dict[str, Any], call_id: int) -> Answer:
    """The call's answer frame: its result, or why it has none."""
    try:
        value = fn(**kwargs)
        if inspect.isawaitable(value):
            value = asyncio.run(_awaited(value))
        meta, arrays = to_wire(value, header["return_type"])
    except (KeyboardInterrupt, Cancelled):
        return {"t": "error", "id": call_id, "kind": "cancelled", "message": "cancelled"}, []
    except ResultShapeError as error:
        return {"t": "error", "id": call_id, "kind": "result", "message": str(error)}, []
    except MemoryError as error:
        message = f"MemoryError: {error}".rstrip(": ")
        failed = {"t": "error", "id": call_id, "kind": "function", "etype": "MemoryError", "message": message, "traceback": traceback.format_exc()}
        return {**failed, "recycle": True}, []
    except BaseException as error:  # noqa: BLE001 - the function's own failure, reported
        if STATE.cancelled:
            return {"t": "error", "id": call_id, "kind": "cancelled", "message": "cancelled"}, []
        etype = type(error).__name__
        return {"t": "error", "id": call_id, "kind": "function", "etype": etype, "message": f"{etype}: {error}", "traceback": traceback.format_exc()}, []
    fields = [{"field": f, "dtype": d} for f, d, _ in arrays]
    return {"t": "result", "id": call_id, "type": header["return_type"], "meta": meta, "arrays": fields}, [_arrays.byte_view(a) for _, _, a in arrays]


async def _awaited(value: Any) -> Any:
    return await value


def _widen_pipe(fd: int) -> None:
    # A larger buffer moves large results in fewer wake-ups of both processes: the host's end
    # is a socket (asked for 4 MiB; the kernel may give less), or a pipe elsewhere.
    try:
        import socket

        sock = socket.socket(fileno=os.dup(fd))
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
        finally:
            sock.close()
        return
    except OSError:
        pass
    try:
        import fcntl

        fcntl.fcntl(fd, 1031, 1 << 20)  # F_SETPIPE_SZ
    except Exception:
        pass


def main(argv: List[str]) -> int:
    in_fd, out_fd = int(argv[1]), int(argv[2])
    _widen_pipe(out_fd)
    signal.signal(signal.SIGINT, _on_sigint)
    limit_memory()
    limit_processes()
    adopt_orphans()
    reader = FrameReader(os.fdopen(in_fd, "rb", buffering=1 << 16))
    writer = FrameWriter(out_fd)
    numpy_version = _arrays.installed_numpy()
    writer.write({"t": "ready", "pid": os.getpid(), "python": platform.python_version(), "executable": sys.executable, "numpy": numpy_version})
    modules: Dict[str, Any] = {}
    while True:
        frame = reader.read()
        if frame is None:
            return 0
        header, blocks = frame
        kind = header.get("t")
        if kind == "load":
            writer.write({"t": "loaded", "plugins": _load(header["plugins"], modules)})
        elif kind == "call":
            _call(header, blocks, modules, writer)
            sys.stdout.flush()
        elif kind == "exit":
            return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

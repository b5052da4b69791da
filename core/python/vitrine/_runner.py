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
import os
import platform
import resource
import signal
import sys
import traceback
from typing import Any, Dict, List, Optional

from . import _arrays
from ._coerce import ResultShapeError, to_wire
from ._inputs import read_inputs
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


class Reporter:
    """The `ProgressReporter` a function receives."""

    def __init__(self, writer: FrameWriter, call_id: int) -> None:
        self._writer = writer
        self._id = call_id

    def report(self, text: str, fraction: Optional[float] = None) -> None:
        if STATE.cancelled:
            raise Cancelled()
        f = float(fraction) if isinstance(fraction, (int, float)) and not isinstance(fraction, bool) else None
        if f is not None and f != f:
            f = None
        self._writer.write({"t": "progress", "id": self._id, "text": str(text), "fraction": f})


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
        writer.write({"t": "error", "id": call_id, "kind": "function", "etype": "ImportError", "message": f"plugin {plugin['name']} failed to import: {describe_import_error(error)['error']}"})
        return
    fn = getattr(module, header["function"], None)
    if not callable(fn):
        writer.write({"t": "error", "id": call_id, "kind": "function", "message": f"plugin {plugin['name']} has no function {header['function']}"})
        return
    kwargs = dict(header.get("args", {}))
    kwargs.update(read_inputs(header.get("inputs", []), blocks))
    if header.get("reporter"):
        kwargs[header["reporter"]] = Reporter(writer, call_id)
    STATE.cancelled = False
    STATE.running = call_id
    try:
        value = fn(**kwargs)
        if inspect.isawaitable(value):
            value = asyncio.run(_awaited(value))
        meta, arrays = to_wire(value, header["return_type"])
    except (KeyboardInterrupt, Cancelled):
        STATE.running = None
        writer.write({"t": "error", "id": call_id, "kind": "cancelled", "message": "cancelled"})
        return
    except ResultShapeError as error:
        STATE.running = None
        writer.write({"t": "error", "id": call_id, "kind": "result", "message": str(error)})
        return
    except MemoryError as error:
        STATE.running = None
        writer.write({"t": "error", "id": call_id, "kind": "function", "etype": "MemoryError", "message": f"MemoryError: {error}".rstrip(": "), "traceback": traceback.format_exc(), "recycle": True})
        return
    except BaseException as error:  # noqa: BLE001 - the function's own failure, reported
        STATE.running = None
        if STATE.cancelled:
            writer.write({"t": "error", "id": call_id, "kind": "cancelled", "message": "cancelled"})
            return
        writer.write({"t": "error", "id": call_id, "kind": "function", "etype": type(error).__name__, "message": f"{type(error).__name__}: {error}", "traceback": traceback.format_exc()})
        return
    STATE.running = None
    if STATE.cancelled:
        writer.write({"t": "error", "id": call_id, "kind": "cancelled", "message": "cancelled"})
        return
    fields = [{"field": f, "dtype": d} for f, d, _ in arrays]
    try:
        writer.write({"t": "result", "id": call_id, "type": header["return_type"], "meta": meta, "arrays": fields}, [_arrays.byte_view(a) for _, _, a in arrays])
    except (ValueError, TypeError) as error:  # a header JSON cannot carry (nothing was written)
        writer.write({"t": "error", "id": call_id, "kind": "result", "message": f"the result cannot be sent: {error}"})


async def _awaited(value: Any) -> Any:
    return await value


def _limit_memory() -> None:
    limit = os.environ.get("VITRINE_PYTHON_MAX_BYTES")
    if limit and limit.isdigit() and int(limit) > 0:
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        new = int(limit) if hard == resource.RLIM_INFINITY else min(int(limit), hard)
        resource.setrlimit(resource.RLIMIT_AS, (new, hard))


#: Threads this process may start beside the processes it is allowed (RLIMIT_NPROC counts both).
THREAD_MARGIN = 64


def _user_tasks() -> int:
    """Processes and threads of this process's real user now (what RLIMIT_NPROC counts)."""
    uid = os.getuid()
    tasks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except OSError:
            continue
        if int(fields.get("Uid", "-1 ").split()[0]) == uid:
            tasks += int(fields.get("Threads", "1").strip() or 1)
    return tasks


def _limit_processes() -> None:
    """Bounds what a plugin may fork: RLIMIT_NPROC at what the user runs now plus the allowance.

    The limit counts every process and thread of the user, not of this process, so it is set
    from the user's count at start. The kernel does not apply it to root; the host also counts
    this process's group and ends it past the allowance.
    """
    allowance = os.environ.get("VITRINE_PYTHON_MAX_CHILDREN", "")
    if not allowance.isdigit() or not os.path.isdir("/proc"):
        return
    want = _user_tasks() + int(allowance) + THREAD_MARGIN
    soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    new = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft == resource.RLIM_INFINITY or new < soft:
        resource.setrlimit(resource.RLIMIT_NPROC, (new, hard))


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
    _limit_memory()
    _limit_processes()
    reader = FrameReader(os.fdopen(in_fd, "rb", buffering=1 << 16))
    writer = FrameWriter(out_fd)
    numpy_version = _arrays.numpy.__version__ if _arrays.numpy is not None else None
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

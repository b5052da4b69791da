"""What a plugin process may take of the machine, set once at its start.

Its address space (``VITRINE_PYTHON_MAX_BYTES``), the processes it may fork
(``VITRINE_PYTHON_MAX_CHILDREN``, through RLIMIT_NPROC), and that it stays the parent of
everything it starts (a subreaper), so the host can count and end all of it.
"""
from __future__ import annotations

import os
import resource
import sys


def limit_memory() -> None:
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


def limit_processes() -> None:
    """Bounds what a plugin may fork: RLIMIT_NPROC at what the user runs now plus the allowance.

    The limit counts every process and thread of the user, not of this process, so it is set
    from the user's count at start. The kernel does not apply it to root; the host also counts
    the processes under this one and ends it past the allowance.
    """
    allowance = os.environ.get("VITRINE_PYTHON_MAX_CHILDREN", "")
    if not allowance.isdigit() or not os.path.isdir("/proc"):
        return
    want = _user_tasks() + int(allowance) + THREAD_MARGIN
    soft, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    new = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft == resource.RLIM_INFINITY or new < soft:
        resource.setrlimit(resource.RLIMIT_NPROC, (new, hard))


PR_SET_CHILD_SUBREAPER = 36


def adopt_orphans() -> None:
    """Makes this process the subreaper of everything it starts (Linux).

    A child that leaves the process group with setsid and whose parent then exits would be
    handed to init, out of the host's sight; as a subreaper this process receives it instead,
    so the host still counts it against the allowance and ends it with this process.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass

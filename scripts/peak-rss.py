#!/usr/bin/env python3
"""Runs a command and reports the peak memory of each compiler process it starts.

    scripts/peak-rss.py [--top N] -- <command> [args...]

Every 50 ms it reads /proc for swift-frontend processes descended from the command (other builds on a
shared machine are not counted) and keeps each one's VmHWM, the kernel's own high-water mark of its
resident memory, so a peak between two samples is still seen. The command's output passes through;
after it ends, stderr gets the wall time and the N biggest processes (module and peak), and the
exit status is the command's.
"""

import os
import subprocess
import sys
import time


def parent_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            # The command name may hold spaces and parentheses: the fields after the last ')' are fixed.
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def descends_from(pid, root, parents):
    seen = 0
    while pid and pid > 1 and seen < 64:
        if pid == root:
            return True
        if pid not in parents:
            parents[pid] = parent_of(pid)
        pid = parents[pid]
        seen += 1
    return False


def frontend_peak(pid):
    """(module, VmHWM in KiB) of a swift-frontend process, or None."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            arguments = f.read().split(b"\0")
        if not arguments or not arguments[0].endswith(b"swift-frontend"):
            return None
        module = "?"
        if b"-module-name" in arguments:
            module = arguments[arguments.index(b"-module-name") + 1].decode()
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return module, int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def main():
    arguments = sys.argv[1:]
    top = 5
    if arguments[:1] == ["--top"]:
        top = int(arguments[1])
        arguments = arguments[2:]
    if arguments[:1] == ["--"]:
        arguments = arguments[1:]
    if not arguments:
        sys.exit(__doc__)
    start = time.monotonic()
    child = subprocess.Popen(arguments)
    peaks = {}  # pid -> (module, KiB)
    while child.poll() is None:
        parents = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            pid = int(entry)
            found = frontend_peak(pid)
            if found and descends_from(pid, child.pid, parents):
                if found[1] >= peaks.get(pid, ("", 0))[1]:
                    peaks[pid] = found
        time.sleep(0.05)
    wall = time.monotonic() - start
    ranked = sorted(peaks.values(), key=lambda p: -p[1])
    print(f"peak-rss: {wall:.1f} s wall, {len(peaks)} compiler processes; biggest:", file=sys.stderr)
    for module, kib in ranked[:top]:
        print(f"peak-rss:   {kib / 1024:8.0f} MiB  {module}", file=sys.stderr)
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Start-up time and idle memory of Sightline beside a bare Tauri 2 window built the same way.

Each run starts the binary with SIGHTLINE_STARTUP_PROBE=1 in fresh HOME/XDG/data folders, times
spawn -> "startup-probe: ready" (the page has loaded: Sightline's shell is mounted by then), waits
for the process tree to go idle, sums PSS over the tree (the app plus WebKit's web and network
processes) from /proc/<pid>/smaps_rollup, and stops it. Runs alternate between the two apps so
machine load hits both alike. Needs a display: run it under xvfb-run (and, for Sightline's
keychain, scripts/with-keyring.sh), e.g.

    scripts/with-keyring.sh xvfb-run -a python3 scripts/bench-startup.py --runs 10

Targets (the standing ones): start-up within 1.1x of the bare window's; idle PSS within
40 MB of it, with an empty data folder and with a large archive in it: `--archive FILE` links an
existing database file into each run's data folder as the demo archive (`demo.db`; it is opened
and checked in place, so use a bench copy), and `--idle` long enough for the background check of
the whole file to finish (about a minute for 7 GB) measures memory after it.
"""

import argparse
import os
import select
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.name))
    return found


def tree(pid: int) -> list[int]:
    pids, queue = [], [pid]
    while queue:
        current = queue.pop()
        pids.append(current)
        queue.extend(children_of(current))
    return pids


def pss_kib(pids: list[int]) -> dict[str, int]:
    """PSS in KiB by process name (the app, WebKit's web and network processes)."""
    by_name: dict[str, int] = {}
    for pid in pids:
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    by_name[name] = by_name.get(name, 0) + int(line.split()[1])
        except OSError:
            pass
    return by_name


def one_run(binary: Path, idle_seconds: float, timeout: float, archive: Path | None) -> tuple[float, dict[str, float]]:
    with tempfile.TemporaryDirectory(prefix="sightline-bench-") as root:
        env = dict(os.environ)
        for name in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "SIGHTLINE_DATA_DIR"):
            env[name] = str(Path(root) / name.lower())
            Path(env[name]).mkdir()
        env["SIGHTLINE_STARTUP_PROBE"] = "1"
        if archive is not None and binary.name == "sightline":
            (Path(env["SIGHTLINE_DATA_DIR"]) / "demo.db").symlink_to(archive.resolve())
        started = time.perf_counter()
        process = subprocess.Popen([str(binary)], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            ready = None
            buffer = b""
            while ready is None:
                left = timeout - (time.perf_counter() - started)
                if left <= 0 or process.poll() is not None:
                    raise RuntimeError(f"{binary.name} never reported ready")
                readable, _, _ = select.select([process.stdout], [], [], left)
                if readable:
                    chunk = os.read(process.stdout.fileno(), 4096)
                    buffer += chunk
                    if b"startup-probe: ready" in buffer:
                        ready = time.perf_counter() - started
            time.sleep(idle_seconds)
            by_name = pss_kib(tree(process.pid))
            # The app's own process under one name, whatever its binary is called.
            memory = {"app" if pid_name == binary.name[:15] else pid_name: kib / 1024 for pid_name, kib in by_name.items()}
            return ready * 1000, memory
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", default="debug", help="target folder profile the binaries were built in (debug or release)")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--idle", type=float, default=5.0, help="seconds to wait after ready before reading memory")
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--archive", type=Path, help="a database file linked into Sightline's data folder as its demo archive")
    args = parser.parse_args()

    target = ROOT / "target" / args.profile
    apps = {"bare window": target / "bare-window", "sightline": target / "sightline"}
    for name, binary in apps.items():
        if not binary.exists():
            raise SystemExit(f"missing {binary}: build it with --features custom-protocol first")

    results: dict[str, list[tuple[float, dict[str, float]]]] = {name: [] for name in apps}
    one_run(apps["bare window"], 0.5, args.timeout, args.archive)  # warm the page cache for both alike
    one_run(apps["sightline"], 0.5, args.timeout, args.archive)
    for _ in range(args.runs):
        for name, binary in apps.items():
            results[name].append(one_run(binary, args.idle, args.timeout, args.archive))

    print(f"{args.runs} runs each, {args.profile} builds, load average {os.getloadavg()[0]:.2f}")
    print(f"{'':<12} {'ready ms (median)':>18} {'min':>8} {'max':>8} {'PSS MB (median)':>16}")
    medians = {}
    for name, runs in results.items():
        ready = [r for r, _ in runs]
        memory = [sum(m.values()) for _, m in runs]
        medians[name] = (statistics.median(ready), statistics.median(memory))
        print(f"{name:<12} {medians[name][0]:>18.0f} {min(ready):>8.0f} {max(ready):>8.0f} {medians[name][1]:>16.1f}")
    for name, runs in results.items():
        processes = sorted({process for _, m in runs for process in m})
        parts = ", ".join(f"{process} {statistics.median(m.get(process, 0.0) for _, m in runs):.1f}" for process in processes)
        print(f"  {name} PSS MB by process (medians): {parts}")
    ratio = medians["sightline"][0] / medians["bare window"][0]
    extra = medians["sightline"][1] - medians["bare window"][1]
    print(f"start-up ratio {ratio:.2f}x (target <= 1.1x); extra idle PSS {extra:.1f} MB (target <= 40 MB)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Side-by-side benchmark: the W1/W2 dumbbells in ns-3 and in reorderlab.

Run from anywhere with the system Python 3 (standard library only):

    python3 benchmarks/ns3/compare.py [--reps 3] [--duration 100] [--measure-from 10]

It installs the PyPI package `ns3` into benchmarks/ns3/.venv when missing,
builds reorderlab in release mode (cargo decides whether anything needs
rebuilding), runs each simulator --reps times on each workload, and prints
the median wall time of each, their ratio, and the goodputs. See README.md.
"""

import argparse
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
VENV = os.path.join(HERE, ".venv")
VENV_PY = os.path.join(VENV, "bin", "python")
NS3_PIN = "ns3==3.44.post0"   # newest on PyPI when this was written; installs on Python 3.11

WORKLOADS = [
    # name, flows, reorderlab scenario
    ("W1", 1, os.path.join(HERE, "w1.toml")),
    ("W2", 16, os.path.join(HERE, "w2.toml")),
]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def ensure_ns3():
    ok = os.path.exists(VENV_PY) and subprocess.run(
        [VENV_PY, "-c", "import importlib.metadata as m; m.version('ns3')"],
        capture_output=True).returncode == 0
    if ok:
        return
    log(f"installing {NS3_PIN} into {VENV} (a few minutes: cppyy builds a wheel) ...")
    if not os.path.exists(VENV_PY):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    subprocess.run([VENV_PY, "-m", "pip", "install", "-q", NS3_PIN], check=True)


def ensure_reorderlab(explicit, build):
    if explicit:
        if not os.access(explicit, os.X_OK):
            sys.exit(f"--reorderlab {explicit}: not an executable")
        return explicit
    binary = os.path.join(REPO, "target", "release", "reorderlab")
    if build:
        log("cargo build --release (reorderlab) ...")
        r = subprocess.run(["cargo", "build", "--release", "-q"], cwd=REPO)
        if r.returncode != 0:
            if os.access(binary, os.X_OK):
                log(f"warning: cargo build failed; using the existing {binary}")
            else:
                sys.exit("cargo build --release failed and there is no reorderlab binary")
    if not os.access(binary, os.X_OK):
        sys.exit(f"{binary} not found (drop --no-build, or pass --reorderlab BIN)")
    return binary


def run_ns3(flows, duration, measure_from):
    cmd = [VENV_PY, os.path.join(HERE, "dumbbell_ns3.py"), "--flows", str(flows),
           "--duration", repr(duration), "--measure-from", repr(measure_from)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        log(r.stderr)
        sys.exit(f"ns-3 run failed: {' '.join(cmd)}")
    d = json.loads(r.stdout.strip().splitlines()[-1])
    return {"wall_s": d["wall_s"], "goodput_bps": d["goodput_bps"],
            "bytes_delivered": d["bytes_delivered"], "retransmissions": d["retransmissions"]}


def run_reorderlab(binary, scenario, duration, measure_from):
    # A one-run sweep rather than `run`: summary.json holds no wall time (its
    # files are byte-identical from run to run), a sweep's timing.csv does,
    # at full precision. The report is the run file's.
    out = tempfile.mkdtemp(prefix="rl-ns3-bench-")
    try:
        cmd = [binary, "sweep", scenario, "--quiet", "--jobs", "1", "--out", out,
               "--set", f"duration={_time(duration)}",
               "--set", f"measure.from={_time(measure_from)}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            log(r.stdout + r.stderr)
            sys.exit(f"reorderlab sweep failed: {' '.join(cmd)}")
        with open(os.path.join(out, "timing.csv"), newline="") as f:
            (row,) = list(csv.DictReader(f))
        with open(os.path.join(out, "runs", row["id"] + ".json")) as f:
            d = json.load(f)["report"]
    finally:
        shutil.rmtree(out, ignore_errors=True)
    fl = d["flows"]
    return {"wall_s": float(row["wall_s"]), "goodput_bps": [x["goodput_bps"] for x in fl],
            "bytes_delivered": [x["bytes_delivered"] for x in fl],
            "retransmissions": sum(x["retransmissions"] for x in fl)}


def _time(seconds):
    # exact decimal for the scenario parser ("100s", "12.5s")
    return f"{seconds:g}s"


def jain(xs):
    return sum(xs) ** 2 / (len(xs) * sum(x * x for x in xs)) if any(xs) else 0.0


def summarize(runs):
    first = runs[0]
    same = all(r["bytes_delivered"] == first["bytes_delivered"] for r in runs)
    g = first["goodput_bps"]
    return {
        "wall_s": statistics.median(r["wall_s"] for r in runs),
        "wall_s_all": [r["wall_s"] for r in runs],
        "goodput_total_bps": sum(g),
        "goodput_min_bps": min(g),
        "goodput_max_bps": max(g),
        "goodput_jain": jain(g),
        "goodput_bps": g,
        "retransmissions": first["retransmissions"],
        "deterministic": same,
    }


def main():
    p = argparse.ArgumentParser(description="ns-3 vs reorderlab on the W1/W2 dumbbells")
    p.add_argument("--reps", type=int, default=3, help="runs per simulator and workload (median wall time)")
    p.add_argument("--duration", type=float, default=100.0, help="simulated seconds")
    p.add_argument("--measure-from", type=float, default=10.0,
                   help="goodput window start, seconds (window ends at --duration)")
    p.add_argument("--workloads", default="W1,W2", help="comma-separated subset of W1,W2")
    p.add_argument("--reorderlab", metavar="BIN", help="use this reorderlab binary, do not build")
    p.add_argument("--no-build", action="store_true", help="do not run cargo build")
    p.add_argument("--json", metavar="FILE", help="also write all results as JSON")
    a = p.parse_args()
    if not 0 <= a.measure_from < a.duration:
        sys.exit("--measure-from must be in [0, duration)")
    wanted = {w.strip().upper() for w in a.workloads.split(",")}

    ensure_ns3()
    binary = ensure_reorderlab(a.reorderlab, not a.no_build)

    t_start = time.monotonic()
    results = {}
    for name, flows, scenario in WORKLOADS:
        if name not in wanted:
            continue
        ns3_runs, rl_runs = [], []
        for rep in range(a.reps):
            log(f"{name} rep {rep + 1}/{a.reps}: ns-3 ...")
            ns3_runs.append(run_ns3(flows, a.duration, a.measure_from))
            log(f"{name} rep {rep + 1}/{a.reps}: ns-3 Simulator::Run {ns3_runs[-1]['wall_s']:.2f} s; reorderlab ...")
            rl_runs.append(run_reorderlab(binary, scenario, a.duration, a.measure_from))
            log(f"{name} rep {rep + 1}/{a.reps}: reorderlab {rl_runs[-1]['wall_s']:.4f} s")
        results[name] = {"flows": flows, "ns3": summarize(ns3_runs), "reorderlab": summarize(rl_runs)}

    mb = lambda bps: bps / 1e6
    print()
    print(f"{a.duration:g} s simulated, goodput over [{a.measure_from:g} s, {a.duration:g} s), "
          f"wall time: median of {a.reps} run{'s' if a.reps > 1 else ''}")
    hdr = ("workload", "ns-3 wall s", "reorderlab wall s", "speed ratio",
           "ns-3 goodput Mb/s", "reorderlab goodput Mb/s", "ns-3 per-flow min/max Mb/s",
           "reorderlab per-flow min/max Mb/s")
    rows = []
    for name, r in results.items():
        n, rl = r["ns3"], r["reorderlab"]
        rows.append((
            f"{name} ({r['flows']} flow{'s' if r['flows'] > 1 else ''})",
            f"{n['wall_s']:.2f}",
            f"{rl['wall_s']:.4f}",
            f"{n['wall_s'] / rl['wall_s']:.0f}x",
            f"{mb(n['goodput_total_bps']):.3f}",
            f"{mb(rl['goodput_total_bps']):.3f}",
            f"{mb(n['goodput_min_bps']):.3f}/{mb(n['goodput_max_bps']):.3f}",
            f"{mb(rl['goodput_min_bps']):.3f}/{mb(rl['goodput_max_bps']):.3f}",
        ))
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(hdr)]
    line = lambda cells: "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    print(line(hdr))
    for row in rows:
        print(line(row))
    print()
    print("speed ratio = ns-3 wall / reorderlab wall (Simulator::Run() vs reorderlab's event loop)")
    for name, r in results.items():
        n, rl = r["ns3"], r["reorderlab"]
        print(f"{name}: retransmissions (whole run) ns-3 {n['retransmissions']}, "
              f"reorderlab {rl['retransmissions']}; Jain fairness ns-3 {n['goodput_jain']:.4f}, "
              f"reorderlab {rl['goodput_jain']:.4f}; all wall s ns-3 "
              f"{[round(x, 2) for x in n['wall_s_all']]}, reorderlab "
              f"{[round(x, 4) for x in rl['wall_s_all']]}")
        for side in ("ns3", "reorderlab"):
            if not r[side]["deterministic"]:
                print(f"  note: {side} delivered different byte counts across reps; goodput is from rep 1")
    log(f"total benchmark time {time.monotonic() - t_start:.0f} s")

    if a.json:
        with open(a.json, "w") as f:
            json.dump({"duration_s": a.duration, "measure_from_s": a.measure_from, "reps": a.reps,
                       "reorderlab_binary": binary, "results": results}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The report of benchmarks/profile/run.sh: profiling cost per app, before
and now, and issue 14's targets checked line by line.

    table.py BEFORE_DIR NOW_DIR > report.md

Each directory holds run.sh's JSON files (LABEL-NAME-MODE.json, and
LABEL-NAME-profile.stats.json, the runtime's DIVOPT_PROFILE_STATS, for the
build that writes them). Times are the programs' own: the median of the
CUDA-event times around each launch (apps), or the launch times of
many_blocks. Before, every launch was profiled and the events bracket all of
it (clone, copies). Now, only the first launch of a shape is profiled, and
its cost comes from the runtime's statistics: the GPU time of the feature
clone, the profile clone and the compaction on the launch's stream (gpu_ms)
plus the copy of the compacted record on the copier thread's stream (copy_ms);
the file write is apart (write_ms). Record bytes: the file over its launch
records.
"""
import glob
import json
import os
import statistics
import sys


def load(directory):
    runs = {}
    for path in glob.glob(os.path.join(directory, "*.json")):
        base = os.path.basename(path)
        with open(path) as f:
            data = json.load(f)
        if base.endswith(".stats.json"):
            label, rest = base[: -len(".stats.json")].split("-", 1)
            name, mode = rest.rsplit("-", 1)
            runs.setdefault((name, mode), {})["stats"] = data
        else:
            runs.setdefault((data["name"], data["mode"]), {}).update(data)
    return runs


def stat_rows(stats):
    """The runtime's rows, one per kernel and launch shape."""
    if stats is None:
        return []
    if isinstance(stats, dict):
        for key in ("launches", "kernels", "shapes", "rows"):
            if isinstance(stats.get(key), list):
                return stats[key]
        return [stats]
    return stats


def kernel_ms(run):
    r = run.get("run") or {}
    if "median_ms" in r:
        return r["median_ms"]
    if r.get("times_ms"):
        return statistics.median(r["times_ms"])
    return None


def main_row(run):
    """The stats row of the timed kernel (the one with the most threads)."""
    rows = [s for s in stat_rows(run.get("stats")) if s.get("recorded")]
    kernel = (run.get("run") or {}).get("kernel")
    named = [s for s in rows if s.get("kernel") == kernel]
    rows = named or rows
    return max(rows, key=lambda s: s.get("threads", 0)) if rows else None


def records(run):
    row = main_row(run)
    if row:  # this build's statistics say how many launches it recorded
        return sum(s.get("recorded", 0) for s in stat_rows(run.get("stats")))
    r = run.get("run") or {}
    if "repeat" in r:  # apps: 3 warm-ups and the timed launches, all recorded
        return 3 + r["repeat"]
    return r.get("launches", 1)


def fmt(x, digits=3):
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def mib(b):
    return None if b is None else b / 2**20


def main():
    before, now = load(sys.argv[1]), load(sys.argv[2])
    names = sorted({n for (n, m) in now} | {n for (n, m) in before})
    apps = [n for n in names if not n.startswith(("many_blocks", "repeated_launches"))]
    print("| app | threads | off ms | profiled ms before | profiled ms now (launch + copy) | now / off | "
          "counters before / now | counter MiB before / now | record MiB before / now | classes | write ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    checks = {"3x": [], "bytes": [], "mem": [], "small": []}
    for name in apps + [n for n in names if n.startswith("many_blocks")]:
        off = now.get((name, "off")) or before.get((name, "off")) or {}
        b = before.get((name, "profile"), {})
        n = now.get((name, "profile"), {})
        row = main_row(n)
        threads = (n.get("run") or off.get("run") or {}).get("threads")
        off_ms = kernel_ms(off) if off else None
        b_ms = kernel_ms(b) if b else None
        n_total = ((row["gpu_ms"] + row["copy_ms"]) / max(row["recorded"], 1)) if row else None
        ratio = n_total / off_ms if n_total and off_ms else None
        if ratio is not None and threads and threads >= 1 << 20:
            checks["3x"].append((name, ratio))
        b_rec = b.get("profile_bytes", 0) / records(b) if b.get("profile_bytes") else None
        n_rec = n.get("profile_bytes", 0) / records(n) if n.get("profile_bytes") else None
        legacy_rec = row.get("legacy_record_bytes") if row else None
        base_rec = b_rec or legacy_rec
        if n_rec and base_rec and name in apps:
            checks["bytes"].append((name, n_rec / base_rec))
        if row and n_rec and threads and row.get("classes", threads) <= threads / 100:
            checks["small"].append((name, n_rec / threads))
        if row and row.get("legacy_counter_bytes"):
            if name in apps:
                checks["mem"].append((name, row["counter_bytes"] / row["legacy_counter_bytes"]))
        counters = f'{row.get("blocks", "-")} / {row.get("counters", "-")}' if row else "-"
        cmem = (f'{fmt(mib(row.get("legacy_counter_bytes")), 1)} / {fmt(mib(row.get("counter_bytes")), 1)}'
                if row else "-")
        write = row.get("write_ms", 0.0) / max(row.get("recorded", 1), 1) if row else None
        print(f"| {name} | {fmt(threads)} | {fmt(off_ms)} | {fmt(b_ms)} | {fmt(n_total)} | "
              f"{fmt(ratio, 2)}x | {counters} | {cmem} | {fmt(mib(base_rec), 2)} / {fmt(mib(n_rec), 3)} | "
              f"{fmt(row.get('classes') if row else None)} | {fmt(write, 2)} |")

    print()
    print("## Targets")
    if checks["3x"]:
        over = [f"{a} {r:.2f}x" for a, r in checks["3x"] if r > 3]
        within = [f"{a} {r:.2f}x" for a, r in checks["3x"] if r <= 3]
        print(f"- Profiled launch <= 3x off for every launch of >= 1M threads: "
              f"{'PASS' if not over else 'FAIL'}; over 3x: {', '.join(over) or 'none'}; "
              f"within: {', '.join(within) or 'none'}")
    if checks["bytes"]:
        mean = statistics.mean(r for _, r in checks["bytes"])
        print(f"- Profile bytes <= 10% of version 2's, suite mean: {100 * mean:.2f}%: "
              f"{'PASS' if mean <= 0.10 else 'FAIL'} "
              f"({', '.join(f'{a} {100 * r:.2f}%' for a, r in checks['bytes'])})")
    if checks["small"]:
        worst = max(checks["small"], key=lambda x: x[1])
        print(f"- <= 4 bytes per thread where distinct BBVs <= 1% of threads: worst {worst[0]} "
              f"{worst[1]:.3f}: {'PASS' if worst[1] <= 4 else 'FAIL'}")
    if checks["mem"]:
        mean = statistics.mean(r for _, r in checks["mem"])
        print(f"- Counter memory <= 40% of version 2's, suite mean: {100 * mean:.1f}%: "
              f"{'PASS' if mean <= 0.40 else 'FAIL'} "
              f"({', '.join(f'{a} {100 * r:.0f}%' for a, r in checks['mem'])})")
    rl_off, rl_on = now.get(("repeated_launches", "off")), now.get(("repeated_launches", "profile"))
    if rl_off and rl_on:
        r = rl_on["process_ms"] / rl_off["process_ms"]
        loop = rl_on["run"]["loop_ms"] / rl_off["run"]["loop_ms"]
        print(f"- 1000 launches under default profiling within 1.05x of off: process "
              f"{rl_on['process_ms']:.1f} / {rl_off['process_ms']:.1f} ms = {r:.3f}x "
              f"(launch loop {loop:.3f}x): {'PASS' if r <= 1.05 else 'FAIL'}")
    for name in names:
        if name.startswith("many_blocks"):
            n = now.get((name, "profile"))
            if n:
                ok = n.get("rc") == 0 and (n.get("run") or {}).get("checksum") == (
                    (now.get((name, "off")) or {}).get("run") or {}).get("checksum")
                print(f"- {name}: 20M threads, 203 blocks profiled on one GPU: "
                      f"{'PASS' if ok else 'FAIL'} (rc {n.get('rc')}, checksum as off: {ok})")


if __name__ == "__main__":
    main()

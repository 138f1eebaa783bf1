#!/usr/bin/env python3
"""Per program, from benchmarks/profile/run.sh's JSON files: the off-mode
launch (median event ms), the profiled launch (features + clone + compaction
+ copy, from the runtime's DIVOPT_PROFILE_STATS) and its ratio to off, the
write (zstd and append, writer thread), the record's MB, and the whole
process's wall time off and profiled. One table per directory.

    summary.py DIR...  (e.g. before now)"""
import os
import statistics
import sys

# run.sh's files, read as the issue-14 report reads them.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "profile"))
from table import load  # noqa: E402

def off_ms(r):
    run = r.get("run") or {}
    if "median_ms" in run: return run["median_ms"]
    t = run.get("times_ms") or []
    return statistics.median(t) if t else float("nan")

for d in sys.argv[1:]:
    runs = load(d)
    print(f"## {d}")
    print("| program | off ms | profiled launch ms | ratio | clone | compaction | copy | write ms | record MB | process off ms | process profiled ms |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    for name in sorted({n for n, _ in runs}):
        off = runs.get((name, "off"), {}); prof = runs.get((name, "profile"), {})
        st = (prof.get("stats") or [{}])
        s = max(st, key=lambda x: x.get("threads", 0)) if st else {}
        launch = s.get("feature_ms", 0) + s.get("clone_ms", 0) + s.get("compaction_ms", 0) + s.get("copy_ms", 0)
        o = off_ms(off)
        rec = s.get("recorded", 1) or 1
        print(f"| {name} | {o:.3f} | {launch/rec:.3f} | {launch/rec/o:.2f}x | {s.get('clone_ms',0)/rec:.3f} | {s.get('compaction_ms',0)/rec:.3f} | {s.get('copy_ms',0)/rec:.3f} | {s.get('write_ms',0)/rec:.1f} | {s.get('record_bytes',0)/rec/1e6:.2f} | {off.get('process_ms',0):.0f} | {prof.get('process_ms',0):.0f} |")

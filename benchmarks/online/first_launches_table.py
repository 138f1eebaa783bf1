"""Summarizes benchmarks/online/first-launches.sh's output as Markdown tables:
the launch loops of many_kernels and varying_shapes (median over the
repetitions, and their range) and each suite app's 20 back-to-back launches
(end_to_end_ms), off and online in both builds.
  python3 first_launches_table.py RUNS.txt"""
import collections
import json
import statistics
import sys


def load(path):
    rows = collections.defaultdict(list)
    for line in open(path):
        at = line.find("{")
        if at < 0:
            continue  # a run that printed nothing (timed out or failed)
        rows[line[:at].strip()].append(json.loads(line[at:]))
    return rows


def cell(runs, key):
    values = sorted(r[key] for r in runs)
    return "%.2f (%.2f-%.2f)" % (statistics.median(values), values[0], values[-1])


def ratio(runs, base, key):
    return "%.2fx" % (statistics.median(r[key] for r in runs) /
                      statistics.median(r[key] for r in base))


def main():
    rows = load(sys.argv[1])
    print("| program | off | online before | online now |")
    print("|---|--:|--:|--:|")
    programs = sorted({label.split(" ", 2)[2] for label in rows
                       if label.split(" ")[0] in ("before", "now") and "loop_ms" in rows[label][0]})
    for program in programs:
        off = rows["now off " + program]
        before, now = rows["before optimize " + program], rows["now optimize " + program]
        print("| %s | %s | %s, %s | %s, %s |" % (
            program, cell(off, "loop_ms"), cell(before, "loop_ms"),
            ratio(before, rows["before off " + program], "loop_ms"),
            cell(now, "loop_ms"), ratio(now, off, "loop_ms")))
    print()
    print("| app | off | online before | online now | kernel as written / regrouped |")
    print("|---|--:|--:|--:|--:|")
    apps = [label.split(" ", 2)[2] for label in rows if label.startswith("off off ")]
    for app in apps:
        off = rows["off off " + app]
        before, now = rows["before optimize " + app], rows["now optimize " + app]
        print("| %s | %s | %s | %s | %.3f / %.3f ms |" % (
            app, cell(off, "end_to_end_ms"), cell(before, "end_to_end_ms"),
            cell(now, "end_to_end_ms"), statistics.median(r["median_ms"] for r in off),
            statistics.median(r["median_ms"] for r in now)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Memory traffic of each app's kernel as written and sorted by hand, from
`ncu --page raw --csv` files named APP-original.csv and APP-handwritten.csv
in the folder given (README.md says how they were made)."""
import csv, glob, io, os, sys

METRICS = [
    ("ms", "gpu__time_duration.sum", 1e-6),
    ("warp instr M", "smsp__inst_executed.sum", 1e-6),
    ("L1 sectors M", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1e-6),
    ("L1 hit %", "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", 1),
    ("L2 sectors M", "lts__t_sectors_srcunit_tex_op_read.sum", 1e-6),
    ("L2 hit %", "lts__t_sector_op_read_hit_rate.pct", 1),
    ("DRAM MB", "dram__bytes_read.sum", 1e-6),
]


def first_row(path):
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("".join(lines))))
    return dict(zip(rows[0], rows[2]))


def value(row, metric, scale):
    return float(row[metric].replace(",", "")) * scale


folder = sys.argv[1] if len(sys.argv) > 1 else "."
apps = sorted({os.path.basename(p).rsplit("-", 1)[0] for p in glob.glob(os.path.join(folder, "*-original.csv"))})
print("| app | " + " | ".join(f"{name} (written -> sorted)" for name, _, _ in METRICS) + " |")
print("|---|" + "--:|" * len(METRICS))
for app in apps:
    before = first_row(os.path.join(folder, f"{app}-original.csv"))
    after = first_row(os.path.join(folder, f"{app}-handwritten.csv"))
    cells = []
    for name, metric, scale in METRICS:
        b, a = value(before, metric, scale), value(after, metric, scale)
        cells.append(f"{b:.3g} -> {a:.3g}")
    print(f"| {app} | " + " | ".join(cells) + " |")

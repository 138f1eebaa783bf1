#!/usr/bin/env python3
"""Local memory, L1, L2 and DRAM traffic of each app's kernel as written and
sorted by hand, from `ncu --page raw --csv` files APP-original.csv and
APP-handwritten.csv in the folder given (README.md says how they were made)."""
import csv, glob, io, os, sys

METRICS = [
    ("ms", "gpu__time_duration.sum", 1e-6),
    ("local ld sectors M", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", 1e-6),
    ("local ld L1 hit %", "l1tex__t_sector_pipe_lsu_mem_local_op_ld_hit_rate.pct", 1),
    ("local st sectors M", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", 1e-6),
    ("global ld sectors M", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1e-6),
    ("global ld L1 hit %", "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", 1),
    ("L2 read sectors M", "lts__t_sectors_srcunit_tex_op_read.sum", 1e-6),
    ("DRAM read MB", "dram__bytes_read.sum", 1e-6),
    ("DRAM write MB", "dram__bytes_write.sum", 1e-6),
]


def first_row(path):
    lines = [l for l in open(path) if l.startswith('"')]
    rows = list(csv.reader(io.StringIO("".join(lines))))
    return dict(zip(rows[0], rows[2]))


folder = sys.argv[1] if len(sys.argv) > 1 else "."
apps = sorted(os.path.basename(p)[: -len("-original.csv")]
              for p in glob.glob(os.path.join(folder, "*-original.csv")))
print("| app | " + " | ".join(f"{n} (written -> sorted)" for n, _, _ in METRICS) + " |")
print("|---|" + "--:|" * len(METRICS))
for app in apps:
    before = first_row(os.path.join(folder, f"{app}-original.csv"))
    after = first_row(os.path.join(folder, f"{app}-handwritten.csv"))
    cells = []
    for _, metric, scale in METRICS:
        b, a = (float(r[metric].replace(",", "")) * scale for r in (before, after))
        cells.append(f"{b:.3g} -> {a:.3g}")
    print(f"| {app} | " + " | ".join(cells) + " |")

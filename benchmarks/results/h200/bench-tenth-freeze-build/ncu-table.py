"""Makes ncu-table.md's table from run-profiles.sh's Nsight Compute CSV files.

usage: python3 ncu-table.py FOLDER   (FOLDER holds ncu-<app>-<variant>.csv)
"""
import csv
import glob
import os
import sys

KEYS = [("gpu__time_duration.sum", "time (us)", 1e-3),
        ("smsp__inst_executed.sum", "warp instr (M)", 1e-6),
        ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global ld requests (M)", 1e-6),
        ("l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum", "ld wavefronts (M)", 1e-6),
        ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "L1 ld sectors (M)", 1e-6),
        ("l1tex__t_sector_hit_rate.pct", "L1 hit %", 1),
        ("lts__t_sectors_srcunit_tex_op_read.sum", "L2 read sectors (M)", 1e-6),
        ("dram__bytes_read.sum", "DRAM read (GB)", 1e-9),
        ("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "local ld sectors (M)", 1e-6)]

print("| app | variant | " + " | ".join(k[1] for k in KEYS) + " |")
print("|---|---|" + "--:|" * len(KEYS))
for path in sorted(glob.glob(os.path.join(sys.argv[1], "ncu-*.csv"))):
    rows = list(csv.reader(open(path)))
    head = next(i for i, r in enumerate(rows) if "ID" in r[:2])
    names, last = rows[head], rows[-1]
    app, variant = os.path.basename(path)[4:-4].split("-")
    cells = []
    for key, _, scale in KEYS:
        value = float(last[names.index(key)].replace(",", "")) * scale
        cells.append("%.2f" % value if scale == 1e-9 else "%.1f" % value)
    variant = "as written" if variant == "original" else "sorted (hand-written)"
    print(f"| {app} | {variant} | " + " | ".join(cells) + " |")

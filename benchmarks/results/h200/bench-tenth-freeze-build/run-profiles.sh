#!/usr/bin/env bash
# Device call: profiles of the eight ninth-freeze apps (as divopt bench takes them), and
# ncu of range's and ik's kernels as written and sorted.
set -u
mkdir -p /tmp/p8 && tar -xJf .devrun/p8/apps.tar.xz -C /tmp/p8
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $OUT/device.txt
mkdir -p /tmp/prof
for a in ssa ik voxel cdc sudoku viterbi pull range; do
  DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/tmp/prof/$a.divprof timeout 120 /tmp/p8/bench-app-$a --repeat 1 > /tmp/prof/$a.json 2>/tmp/prof/$a.err; echo "$a rc $?" >> $OUT/log.txt
done
M=l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum,smsp__inst_executed.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__lsu_writeback_active.sum,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum
for k in range:rangeAnswer ik:ikSolve pull:pullPageRank cdc:cdcFirstCut; do a=${k%%:*}; for v in original handwritten; do
  timeout 120 ncu --metrics $M --csv --page raw -k regex:${k#*:} --launch-skip 2 --launch-count 1 /tmp/p8/bench-app-$a --repeat 1 --variant $v > /tmp/prof/ncu-$a-$v.csv 2>/tmp/prof/ncu-$a-$v.err; echo "ncu $a $v rc $?" >> $OUT/log.txt
done; done
tar -cJf $OUT/prof8.tar.xz -C /tmp/prof .
cat $OUT/log.txt

#!/usr/bin/env bash
# Device call: tiled gather + copied_bytes (issue 14). bc0c38f, 81bfce0, this tree; copy bandwidth vs CPU placement.
set -u
R=$OUT/res; mkdir -p $R/mb $R/copy
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader > $R/device.txt
git rev-parse HEAD > $R/head.txt; git status --short >> $R/head.txt
{ nproc; lscpu | grep -i -E 'numa|socket|model name'; numactl -H 2>&1 | head -5; nvidia-smi topo -m 2>&1 | head -8; } > $R/topology.txt
tar -xJf build-gpu/build.tar.xz; xz -dk .devrun/81bfce0/bench-profile-many-blocks.xz .devrun/before/bench-profile-many-blocks.xz
for C in 200000 4000000; do
  DIVOPT_MODE=off timeout 120 build/bin/bench-profile-many-blocks 20000000 $C 3 > $R/mb/off-$C.out 2>&1
done
for r in 1 2 3; do for b in 81bfce0 now; do
  case $b in 81bfce0) BIN=.devrun/81bfce0/bench-profile-many-blocks;; now) BIN=build/bin/bench-profile-many-blocks;; esac
  for C in 200000 4000000; do
    DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null DIVOPT_PROFILE_STATS=$R/mb/$b-$C-$r.stats.json \
      timeout 120 $BIN 20000000 $C 3 > $R/mb/$b-$C-$r.out 2>&1
  done
done; done
# The copy: one launch in the program, the process on all CPUs and on each half of them.
H=$(( $(nproc) / 2 ))
for r in 1 2 3; do for P in all lo hi; do
  case $P in all) TS="";; lo) TS="taskset -c 0-$((H-1))";; hi) TS="taskset -c $H-$(( $(nproc) - 1 ))";; esac
  DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null DIVOPT_PROFILE_STATS=$R/copy/$P-$r.stats.json \
    timeout 120 $TS build/bin/bench-profile-many-blocks 20000000 4000000 1 > $R/copy/$P-$r.out 2>&1
done; done
if nvcc -O2 -o /tmp/bw .devrun/bw.cu 2> $R/copy/bw-build.txt; then
  for P in lo hi; do
    case $P in lo) TS="taskset -c 0-$((H-1))";; hi) TS="taskset -c $H-$(( $(nproc) - 1 ))";; esac
    echo "== $P" >> $R/copy/bw.txt; timeout 60 $TS /tmp/bw >> $R/copy/bw.txt 2>&1
  done
fi
for C in 200000 4000000; do
  for b in before now; do
    if [[ $b == before ]]; then BIN=.devrun/before/bench-profile-many-blocks; else BIN=build/bin/bench-profile-many-blocks; fi
    rm -f /tmp/$b.divprof
    DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/tmp/$b.divprof timeout 120 $BIN 20000000 $C 1 > /dev/null 2>&1
  done
  ls -l /tmp/before.divprof /tmp/now.divprof >> $R/compare.txt
  timeout 300 build/bin/bench-profile-compare /tmp/before.divprof /tmp/now.divprof >> $R/compare.txt 2>&1
  echo "compare $C rc $?" >> $R/compare.txt
done
for C in 200000 4000000; do
DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null timeout 300 ncu --metrics gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum -k regex:'gather' \
  build/bin/bench-profile-many-blocks 20000000 $C 1 > $R/ncu-gather-$C.txt 2>&1
DIVOPT_MODE=profile DIVOPT_PROFILE_FILE=/dev/null timeout 300 ncu --metrics gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum -k regex:'gather' \
  .devrun/81bfce0/bench-profile-many-blocks 20000000 $C 1 > $R/ncu-gather-81bfce0-$C.txt 2>&1
done
timeout 420 scripts/gpu-tests.sh build > $R/gpu-tests.txt 2>&1
echo "gpu-tests rc $?" >> $R/gpu-tests.txt
tail -3 $R/gpu-tests.txt
cd $OUT && tar -cJf res.tar.xz res && rm -rf res

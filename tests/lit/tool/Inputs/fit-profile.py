"""Writes a version-2 .divprof for the `divopt fit` tests, as profile mode
would record a skewed loop:

    __global__ void skewed(const int *trips, float *out, int n) {   // block 0
      int t = ...; if (t >= n) return;                              // block 1 -> 4
      for (int i = 0; i < trips[t]; ++i) ...                        // blocks 2 (header), 3 (body)
      if (trips[t] > 7) out[t] *= 2;                                // block 5 (step)
    }                                                               // block 4 exit

Features: 0 = trips[tid] (load), 1 = n (param), 2 = tid. Block 6 is marked
unpredictable, and its count varies unless --constant-unpredictable.

usage: fit-profile.py OUT [--blocks N] [--seed S] [--no-features]
       [--constant-unpredictable] [--version 1|2] [--line L]
"""
import argparse
import json
import struct


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def notes(unpredictable_reason, line):
    def block(i, succ, features, predictable=True, why=""):
        return {"id": i, "name": f"bb{i}", "file": "skewed.cu", "lines": [10 + i, 10 + i],
                "succ": succ, "mix": {"alu": 2}, "tid_accesses": 0, "features": features,
                "predictable": predictable, "unpredictable": why}
    blocks = [block(0, [1, 4], [1, 2]), block(1, [2], [1, 2]), block(2, [3, 5], [0, 1, 2]),
              block(3, [2], [0, 1, 2]), block(4, [], []), block(5, [4], [0, 1, 2]),
              block(6, [4], [], False, unpredictable_reason)]
    return {"name": "_Z6skewedPKiPfi", "file": "skewed.cu", "line": line, "params": 3,
            "blocks": blocks, "branches": [0, 2],
            "regroup": {"safe": True, "reason": "", "line": 0},
            "features": [{"kind": "load", "param": 0, "type": "i32", "expr": "trips[tid]"},
                         {"kind": "param", "param": 2, "type": "i32", "expr": "n"},
                         {"kind": "tid", "expr": "tid"}]}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--blocks", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--no-features", action="store_true")
    p.add_argument("--constant-unpredictable", action="store_true")
    p.add_argument("--version", type=int, default=2)
    p.add_argument("--line", type=int, default=3, help="another line: another build's notes")
    a = p.parse_args()
    block_size = 64
    threads = a.blocks * block_size
    n = threads - 20  # the last block's last 20 threads leave early
    trips = [(t * 7 + a.seed * 13) % 17 for t in range(threads)]
    counts = [[0] * threads for _ in range(7)]
    for t in range(threads):
        counts[0][t] = 1
        counts[4][t] = 1
        counts[6][t] = 3 if a.constant_unpredictable else t % 5
        if t >= n:
            continue
        counts[1][t] = 1
        counts[2][t] = trips[t] + 1
        counts[3][t] = trips[t]
        counts[5][t] = 1 if trips[t] > 7 else 0
    text = json.dumps(notes("its count depends on a value computed in a loop", a.line),
                      separators=(",", ":")).encode()
    out = bytearray()
    def string(s):
        out.extend(struct.pack("<I", len(s)) + s)
    out.extend(b"DIVPROF\0" + struct.pack("<I", a.version))
    string(b"_Z6skewedPKiPfi")
    string(b"skewed")
    string(b"Test GPU")
    out.extend(struct.pack("<IIQIQ", 90, 13000, 0, 1, 0))
    out.extend(struct.pack("<3I", a.blocks, 1, 1) + struct.pack("<3I", block_size, 1, 1))
    out.extend(struct.pack("<III", 1, 7, 2) + struct.pack("<Q", fnv1a64(text)))
    string(text)
    for row in counts:
        out.extend(struct.pack(f"<{threads}I", *row))
    out.extend(struct.pack("<4Q", 10, 2, 10, 3))
    if a.version >= 2:
        if a.no_features:
            out.extend(struct.pack("<I", 0))
        else:
            out.extend(struct.pack("<I", 3))
            out.extend(struct.pack(f"<{threads}d", *[float(x if t < n else 0)
                                                     for t, x in enumerate(trips)]))
            out.extend(struct.pack(f"<{threads}d", *[float(n)] * threads))
            out.extend(struct.pack(f"<{threads}d", *[float(t) for t in range(threads)]))
    with open(a.out, "wb") as f:
        f.write(out)


main()

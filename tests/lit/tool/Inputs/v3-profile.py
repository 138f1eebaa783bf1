"""Writes a version-3 .divprof, byte by byte as docs/profile-format.md
specifies it, with nothing but the standard library: a launch record of a
two-way branch (layout 3, classes of block counts) whose payload is a zstd
frame of raw blocks, and the tally record of the process that made it.

    __global__ void split(int *out) {        // block 0: branch 0
      if (threadIdx.x % 4 == 0) out[..] = 1; // block 1
      else out[..] = 2;                      // block 2
    }                                        // block 3

usage: v3-profile.py OUT [--no-tally]
"""
import json
import struct
import sys


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def string(s):
    b = s.encode()
    return struct.pack("<I", len(b)) + b


def zstd_raw_frame(content):
    """A zstd frame (RFC 8878) of raw blocks, with its content size."""
    out = struct.pack("<I", 0xFD2FB528)
    out += bytes([0xE0]) + struct.pack("<Q", len(content))  # FCS 8 bytes, single segment
    blocks = [content[i:i + 65536] for i in range(0, len(content), 65536)] or [b""]
    for i, block in enumerate(blocks):
        last = i == len(blocks) - 1
        header = int(last) | (0 << 1) | (len(block) << 3)  # block type 0: raw
        out += struct.pack("<I", header)[:3] + block
    return out


def notes():
    def block(i, succ):
        return {"id": i, "name": f"bb{i}", "file": "split.cu", "lines": [3 + i, 3 + i],
                "succ": succ, "mix": {"alu": 2}}
    return {"name": "_Z5splitPi", "file": "split.cu", "line": 2, "params": 1,
            "blocks": [block(0, [1, 2]), block(1, [3]), block(2, [3]), block(3, [])],
            "branches": [0]}


def main():
    out = sys.argv[1]
    grid, blk = (2, 1, 1), (64, 1, 1)
    threads = 128
    note = json.dumps(notes(), separators=(",", ":")).encode()
    head = b"DIVPROF\0" + struct.pack("<I", 3)
    head += string("_Z5splitPi") + string("./split") + string("NVIDIA H100 80GB HBM3")
    head += struct.pack("<IIQIQ", 90, 13000, 1767225600, 4242, 999)
    head += struct.pack("<3I3I", *grid, *blk)
    head += struct.pack("<IIIQ", 3, 4, 1, fnv1a64(note))  # layout 3, B, K, digest
    head += struct.pack("<I", len(note)) + note
    # Two classes of block counts: class 0 takes block 1, class 1 block 2.
    classes = [1, 1, 0, 1, 1, 0, 1, 1]
    ids = [0 if t % 4 == 0 else 1 for t in range(threads)]  # 1 bit each
    words = [0] * ((threads + 31) // 32)
    for t, i in enumerate(ids):
        words[t // 32] |= i << (t % 32)
    payload = struct.pack("<III", 4, 2, 1)
    payload += struct.pack(f"<{len(classes)}I", *classes)
    payload += struct.pack(f"<{len(words)}I", *words)
    payload += struct.pack("<QQ", 4, 4)  # 4 warp executions of branch 0, all divergent
    payload += struct.pack("<I", 0)      # no features
    frame = zstd_raw_frame(payload)
    record = head + struct.pack("<QQ", len(frame), len(payload)) + frame
    tally = b"DIVTALY\0" + struct.pack("<I", 3) + string("./split") + struct.pack("<II", 4242, 2)
    tally += string("_Z5splitPi") + struct.pack("<3I3IQQ", *grid, *blk, 1000, 1)
    tally += string("_Z5otherv") + struct.pack("<3I3IQQ", 7, 1, 1, 32, 1, 1, 3, 0)
    with open(out, "wb") as f:
        f.write(record)
        if "--no-tally" not in sys.argv:
            f.write(tally)


main()

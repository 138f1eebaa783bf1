"""Runs every benchmark app that the build has (benchmarks/apps/README.md) at a
small size and checks the contract of issue 6: one JSON line on stdout with
the contract's fields; --check passes in both variants; the hand-written
variant and divopt's regrouping (DIVOPT_ALGORITHM=shuffle:7, a random
permutation of the threads) give the original's checksum; and the kernel the
app names is the one divopt launches through its redirected clone.

usage: apps-check.py BIN_DIR
"""
import json
import os
import subprocess
import sys

APPS = ["mc", "sw", "nw", "ec", "mum", "sl", "sm", "mandelbrot", "spmv", "bfs",
        "matpow", "walk", "kepler", "primes", "raymarch", "md", "binomial", "dfa",
        "bvh", "quad", "join", "tri", "queens", "rabin", "parse", "knn", "ode", "pow", "huff", "ksort", "bloom", "bisect",
        "pip", "spgemm", "jacobi", "rho",
        "roots", "sat", "lz", "sph",
        "flatten", "tsp", "lpm", "isect",
        "ssa", "ik", "voxel", "cdc", "sudoku", "viterbi", "pull", "range",
        "poisson", "lm", "ufind", "chain"]
# Small sizes in each app's unit; apps not listed use DEFAULT_SIZE.
SIZES = {"mc": 32 ** 3, "sw": 3000, "nw": 3000}
DEFAULT_SIZE = 4096
REPEAT = 2
FIELDS = {"app", "variant", "kernel", "threads", "size", "seed", "repeat",
          "times_ms", "median_ms", "min_ms", "max_ms", "checksum", "check",
          "regroup_ms", "compute_bound"}


def fail(app, message):
    sys.exit(f"FAIL {app}: {message}")


def run(app, binary, variant, env_extra):
    size = SIZES.get(app, DEFAULT_SIZE)
    cmd = [binary, "--size", str(size), "--repeat", str(REPEAT), "--variant", variant,
           "--check", "--quiet"]
    env = dict(os.environ, **env_extra)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=600)
    what = f"{variant} {' '.join(f'{k}={v}' for k, v in env_extra.items())}"
    if proc.returncode != 0:
        fail(app, f"{what}: exit {proc.returncode}\n{proc.stderr}")
    lines = proc.stdout.splitlines()
    if len(lines) != 1:
        fail(app, f"{what}: {len(lines)} lines on stdout, expected one JSON line")
    result = json.loads(lines[0])
    missing = FIELDS - result.keys()
    if missing:
        fail(app, f"{what}: JSON lacks {sorted(missing)}")
    if result["app"] != app or result["variant"] != variant:
        fail(app, f"{what}: JSON names app {result['app']} variant {result['variant']}")
    if result["check"] != "pass" or len(result["times_ms"]) != REPEAT:
        fail(app, f"{what}: check {result['check']}, {len(result['times_ms'])} times")
    return result, proc.stderr


def check_app(app, binary):
    original, _ = run(app, binary, "original", {"DIVOPT_MODE": "off"})
    handwritten, _ = run(app, binary, "handwritten", {"DIVOPT_MODE": "off"})
    if handwritten["checksum"] != original["checksum"]:
        fail(app, f"handwritten checksum {handwritten['checksum']} != "
                  f"original {original['checksum']}")
    shuffled, log = run(app, binary, "original",
                        {"DIVOPT_MODE": "optimize", "DIVOPT_ALGORITHM": "shuffle:7",
                         "DIVOPT_VERBOSE": "2"})
    if shuffled["checksum"] != original["checksum"]:
        fail(app, f"shuffle:7 checksum {shuffled['checksum']} != "
                  f"original {original['checksum']}")
    launched = f"divopt: launch {original['kernel']} "
    if not any(line.startswith(launched) and line.endswith(": redirected clone")
               for line in log.splitlines()):
        fail(app, f"shuffle:7 never ran {original['kernel']} through its redirected "
                  f"clone:\n{log}")
    print(f"ok {app}: checksum {original['checksum']}, kernel {original['kernel']}")


def main():
    bin_dir = sys.argv[1]
    found = [app for app in APPS if os.path.exists(os.path.join(bin_dir, f"bench-app-{app}"))]
    if not found:
        sys.exit(f"FAIL: no bench-app-* in {bin_dir}")
    for app in found:
        check_app(app, os.path.join(bin_dir, f"bench-app-{app}"))


if __name__ == "__main__":
    main()

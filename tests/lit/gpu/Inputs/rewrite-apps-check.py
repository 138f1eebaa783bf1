"""Runs the suite built by nvcc from divopt rewrite's output (bin/rewritten,
benchmarks/rewritten) against the same apps built by nvcc from the original
sources (bin/nvcc), at a small size: each rewritten app computes the nvcc
baseline's checksum bit for bit with divopt off, in online mode
(DIVOPT_MODE=optimize, enough launches for the cost copy's reference launch,
the decision and the guard's trials) and under DIVOPT_ALGORITHM=shuffle:7 (a
random permutation of the threads, through the redirected copy, which the
runtime must say it launched). Stops at the first app that fails.

usage: rewrite-apps-check.py BIN_DIR
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("apps_check", os.path.join(HERE, "apps-check.py"))
apps_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(apps_check)

ONLINE_REPEAT = 8


def check_app(app, baseline_bin, rewritten_bin):
    baseline, _ = apps_check.run(app, baseline_bin, "original", {"DIVOPT_MODE": "off"})
    off, _ = apps_check.run(app, rewritten_bin, "original", {"DIVOPT_MODE": "off"})
    if off["checksum"] != baseline["checksum"]:
        apps_check.fail(app, f"rewritten, divopt off: checksum {off['checksum']} != nvcc "
                             f"baseline {baseline['checksum']}")
    apps_check.REPEAT = ONLINE_REPEAT
    online, log = apps_check.run(app, rewritten_bin, "original",
                                 {"DIVOPT_MODE": "optimize", "DIVOPT_VERBOSE": "1"})
    apps_check.REPEAT = 2
    if online["checksum"] != baseline["checksum"]:
        apps_check.fail(app, f"rewritten, online: checksum {online['checksum']} != nvcc "
                             f"baseline {baseline['checksum']}\n{log}")
    if "not optimizing" in log:
        apps_check.fail(app, f"rewritten, online: the runtime did not take the kernel:\n{log}")
    shuffled, log = apps_check.run(app, rewritten_bin, "original",
                                   {"DIVOPT_MODE": "optimize", "DIVOPT_ALGORITHM": "shuffle:7",
                                    "DIVOPT_VERBOSE": "2"})
    if shuffled["checksum"] != baseline["checksum"]:
        apps_check.fail(app, f"rewritten, shuffle:7: checksum {shuffled['checksum']} != nvcc "
                             f"baseline {baseline['checksum']}")
    launched = f"divopt: launch {baseline['kernel']} "
    if not any(line.startswith(launched) and line.endswith(": redirected clone")
               for line in log.splitlines()):
        apps_check.fail(app, f"shuffle:7 never ran {baseline['kernel']} through its "
                             f"redirected copy:\n{log}")
    print(f"ok {app}: checksum {baseline['checksum']}, kernel {baseline['kernel']}")


def main():
    bin_dir = sys.argv[1]
    found = [app for app in apps_check.APPS
             if os.path.exists(os.path.join(bin_dir, "rewritten", f"bench-app-{app}"))]
    if not found:
        sys.exit(f"FAIL: no bench-app-* in {bin_dir}/rewritten (built where nvcc is found)")
    for app in found:
        check_app(app, os.path.join(bin_dir, "nvcc", f"bench-app-{app}"),
                  os.path.join(bin_dir, "rewritten", f"bench-app-{app}"))


if __name__ == "__main__":
    main()

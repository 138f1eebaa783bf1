"""Checks that divopt rewrite accepts and refuses exactly the kernels the
plugin does, for the same reasons at the same places: the plugin's remarks
(-Rpass=divopt -Rpass-missed=divopt) against divopt rewrite's diagnostics
(--remarks), for the kernels SOURCE defines (divopt rewrite copies kernels of
the file it rewrites, not those of the headers it includes, CUB's among
them). A kernel whose parameters and weights pass a launch's 4 KiB is
regroupable without a cost clone to the plugin, which then runs it as written
in online mode; divopt rewrite leaves it as written, saying why: both read as
"accepted, no cost clone". Prints one line per kernel; exits 1 naming each
difference.

usage: compare-verdicts.py PLUGIN_REMARKS REWRITE_DIAGNOSTICS SOURCE
"""
import os
import re
import sys

PLUGIN = [
    (re.compile(r"remark: kernel '(.+?)' can be regrouped at launch"), "accepted"),
    (re.compile(r"(\d+:\d+): remark: kernel '(.+?)' will not be regrouped: (.*)"), "refused"),
]
REWRITE = [
    (re.compile(r"remark: divopt: rewrote kernel '(.+?)'"), "accepted"),
    (re.compile(r"(\d+:\d+): warning: divopt: not rewriting kernel '(.+?)': (.*)"), "refused"),
]

NO_COST = "no cost clone, so no online mode"
NO_COST_REWRITE = "region weights of its cost copy pass"


def verdicts(path, patterns, source):
    found = {}
    with open(path, encoding="utf-8") as text:
        for line in text:
            if not line.split(":", 1)[0].endswith(os.path.basename(source)):
                continue
            for pattern, verdict in patterns:
                m = pattern.search(line)
                if not m:
                    continue
                if verdict == "accepted":
                    found[m.group(1)] = ("accepted", "no cost clone") if NO_COST in line \
                        else ("accepted",)
                elif NO_COST_REWRITE in line:
                    found[m.group(2)] = ("accepted", "no cost clone")
                else:
                    # Without the option clang names after a remark.
                    reason = re.sub(r"\s*\[-R[^\]]*\]$", "", m.group(3).strip())
                    found[m.group(2)] = ("refused", m.group(1), reason)
    return found


def main():
    plugin = verdicts(sys.argv[1], PLUGIN, sys.argv[3])
    rewrite = verdicts(sys.argv[2], REWRITE, sys.argv[3])
    if not plugin:
        sys.exit(f"no plugin verdicts in {sys.argv[1]}")
    differences = 0
    for kernel in sorted(set(plugin) | set(rewrite)):
        ours, theirs = rewrite.get(kernel), plugin.get(kernel)
        if ours != theirs:
            differences += 1
            print(f"DIFFERENT {kernel}: plugin {theirs}, divopt rewrite {ours}")
        else:
            print(f"same {kernel}: {' '.join(theirs)}")
    if differences:
        sys.exit(f"{differences} kernel(s) judged differently")


if __name__ == "__main__":
    main()

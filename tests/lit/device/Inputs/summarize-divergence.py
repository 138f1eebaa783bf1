# Prints the divergence verdict of divopt-print-notes output (stdin), one line
# per kernel, so tests can check it line by line:
#   NAME: guards (2 comparisons)
#   NAME: diverges: why
import json
import sys

notes = json.load(sys.stdin)
for kernel in notes["kernels"]:
    d = kernel["divergence"]
    if d["guards_only"]:
        print("%s: guards (%d comparisons)" % (kernel["name"], d["guard_compares"]))
    else:
        print("%s: diverges: %s" % (kernel["name"], d["reason"]))

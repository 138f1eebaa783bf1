# Prints the feature analysis of divopt-print-notes output (stdin) one line
# per kernel feature and per block, so tests can check it line by line:
#   kernel NAME
#   feature 1: param n i32
#   block 2 loop: [0, 1, 2]           (predictable)
#   block 3 body: unpredictable: why  (not)
import json
import sys

notes = json.load(sys.stdin)
for kernel in notes["kernels"]:
    print("kernel", kernel["name"])
    for i, f in enumerate(kernel["features"]):
        where = "" if f["kind"] == "tid" else " param %d %s" % (f["param"], f["type"])
        print("feature %d: %s %s%s" % (i, f["kind"], f["expr"], where))
    for b in kernel["blocks"]:
        verdict = b["features"] if b["predictable"] else "unpredictable: " + b["unpredictable"]
        print("block %d %s: %s" % (b["id"], b["name"], verdict))

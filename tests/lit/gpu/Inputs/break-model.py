"""Writes a broken copy of a `divopt fit` model, for the bad-model cases of
model-regroup.test: each is a model optimize mode must refuse, with one
message, launching the original kernel.

usage: break-model.py IN OUT HOW
  kernel   the model names another kernel
  digest   the model was fitted on other code (another notes digest)
  nan      a coefficient is NaN (JSON null, as `divopt fit` writes one)
  feature  a term reads a feature the kernel's notes do not have
  unusable a block whose count varies was left unpredictable (a fit from
           profiles without feature values)
"""
import json
import sys

src, out, how = sys.argv[1:4]
model = json.load(open(src))
kernel = model["kernels"][0]
fitted = [m for m in kernel["models"] if m["predictable"] and len(m["terms"]) > 1]
if not fitted:
    sys.exit(f"{src}: no block with a fitted term to break")
block = fitted[0]
if how == "kernel":
    kernel["name"] = "_Z5otherv"
elif how == "digest":
    kernel["notes_digest"] = "%016x" % (int(kernel["notes_digest"], 16) ^ 1)
elif how == "nan":
    block["coefficients"][-1] = None
elif how == "feature":
    block["terms"][-1]["input"] = kernel["features"]
elif how == "unusable":
    number = block["block"]
    block.clear()
    block.update({"block": number, "predictable": False,
                  "why": "1 of 1 profiled launches hold no feature values", "matters": True,
                  "constant": 0})
else:
    sys.exit(f"unknown breakage {how}")
json.dump(model, open(out, "w"), indent=1)

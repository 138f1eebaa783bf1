#!/usr/bin/env python3
"""Checks the latency suite's timed SASS against its own manifest.

    check-sass.py CUOBJDUMP BINARY MANIFEST

MANIFEST has one expectation a line, as `bench-latency --sass-manifest`
prints it: KERNEL <tab> REGEX <tab> COUNT <tab> KEY. In the kernel whose
demangled name starts with KERNEL + "(", the instructions between its two
clock reads (CS2R ... SR_CLOCKLO) must hold exactly COUNT that REGEX fully
matches: their opcode with modifiers, or, when REGEX has a space, the
opcode and its operands ("LDC R0, c[0x3][R0]"). Prints one line per
expectation and exits 1 if any fails.
"""
import re
import shutil
import subprocess
import sys

INSTRUCTION = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(@!?U?P[0-7T]\s+)?([A-Z0-9_.]+)(.*?);")
FUNCTION = re.compile(r"^\s*Function\s*:\s*(\S+)")


def demangler():
    for name in ("llvm-cxxfilt", "c++filt"):
        if shutil.which(name):
            return name
    sys.exit("check-sass: no llvm-cxxfilt or c++filt on PATH")


def timed_regions(cuobjdump, binary):
    """Demangled kernel name -> opcodes between its clock reads (None if not two)."""
    sass = subprocess.run([cuobjdump, "-sass", binary], capture_output=True, text=True, check=True).stdout
    bodies, name = {}, None
    for line in sass.splitlines():
        if m := FUNCTION.match(line):
            name = m.group(1)
            bodies[name] = []
        elif name and (m := INSTRUCTION.match(line)):
            bodies[name].append((m.group(2), m.group(3).strip()))
    mangled = list(bodies)
    names = subprocess.run([demangler()], input="\n".join(mangled), capture_output=True, text=True,
                           check=True).stdout.splitlines()
    regions = {}
    for raw, pretty in zip(mangled, names):
        pretty = pretty.removeprefix("void ")  # a template's return type
        clocks = [i for i, (op, args) in enumerate(bodies[raw]) if op.startswith("CS2R") and "SR_CLOCKLO" in args]
        regions[pretty] = bodies[raw][clocks[0] + 1:clocks[1]] if len(clocks) == 2 else None
    return regions


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    cuobjdump, binary, manifest = sys.argv[1:]
    regions = timed_regions(cuobjdump, binary)
    failed = checked = 0
    for line in open(manifest):
        if not line.strip():
            continue
        kernel, opcode, count, key = line.rstrip("\n").split("\t")
        found = [r for name, r in regions.items() if name.startswith(kernel + "(")]
        checked += 1
        if len(found) != 1 or found[0] is None:
            failed += 1
            why = "not in the binary" if not found else "has no pair of clock reads"
            print(f"FAIL {key}: {kernel} {why}")
            continue
        got = sum(1 for op, args in found[0] if re.fullmatch(opcode, f"{op} {args}" if " " in opcode else op))
        status = "ok" if got == int(count) else "FAIL"
        failed += status == "FAIL"
        print(f"{status} {key}: {kernel}: {got} x {opcode} between the clock reads (expected {count})")
    print(f"{checked - failed} of {checked} timed regions as expected")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

# lit configuration for divopt: opt on .ll, clang CUDA compile-only on .cu,
# the CLI on profiles, and GPU tests (feature cuda-gpu) that run programs the
# build compiled with the plugin.
import glob
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "divopt"
config.test_format = lit.formats.ShTest(not lit.util.which("bash"))
config.suffixes = [".ll", ".cu", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.divopt_obj_root, "tests", "lit")

# The compile-time tools, present where the plugin is built (not on GPU hosts).
if os.path.exists(config.opt):
    config.available_features.add("llvm-tools")
config.substitutions.append(("%plugin", config.plugin))
config.substitutions.append(("%opt", config.opt))
config.substitutions.append(
    ("%clang_cuda",
     f"{config.clang} -x cuda --cuda-gpu-arch={config.cuda_arch} "
     f"--cuda-path={config.cuda_path} -Wno-unknown-cuda-version"))
config.substitutions.append(("%cuda_arch", config.cuda_arch))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%divopt", os.path.join(config.divopt_obj_root, "bin", "divopt")))
config.substitutions.append(("%gpubin", os.path.join(config.divopt_obj_root, "bin")))
config.substitutions.append(("%gpulib", os.path.join(config.divopt_obj_root, "lib")))
# Where libcudart.so.13 is, for the GPU programs linked against the shared CUDA
# runtime (an rpath names the configured toolkit; a GPU host may keep it
# elsewhere): the configured toolkit, else the usual places.
def cudart_dir():
    candidates = [os.path.join(config.cuda_path, "lib64"), "/usr/local/cuda/lib64"]
    candidates += sorted(glob.glob("/usr/local/cuda-13*/lib64"), reverse=True)
    candidates += ["/usr/lib/x86_64-linux-gnu"]
    for d in candidates:
        if os.path.exists(os.path.join(d, "libcudart.so.13")):
            return d
    return candidates[0]
config.substitutions.append(("%cudart_dir", cudart_dir()))
# The configured Python where it exists; on a GPU host that only received the
# build, the Python running lit.
config.substitutions.append(
    ("%python", config.python if os.path.exists(config.python) else sys.executable))
config.environment["PATH"] = os.pathsep.join([config.llvm_bin, config.environment["PATH"]])

# cuobjdump (with nvdisasm beside it) disassembles the latency suite for the
# SASS checks (tests/lit/latency): from the toolkit, or the copy
# scripts/setup.sh installs from PyPI where the toolkit lacks it.
for candidate in [shutil.which("cuobjdump"),
                  os.path.join(config.cuda_path, "bin", "cuobjdump"),
                  os.path.join(config.divopt_obj_root, "cuda-tools", "nvidia", "cu13", "bin", "cuobjdump")]:
    if candidate and os.path.exists(candidate):
        config.available_features.add("cuobjdump")
        config.substitutions.append(("%cuobjdump", candidate))
        config.environment["PATH"] = os.pathsep.join([os.path.dirname(candidate), config.environment["PATH"]])
        break

# nvcc compiles what divopt rewrite writes (tests/lit/rewrite).
for candidate in [os.path.join(config.cuda_path, "bin", "nvcc"), shutil.which("nvcc")]:
    if candidate and os.path.exists(candidate):
        config.available_features.add("nvcc")
        config.substitutions.append(("%nvcc", candidate))
        break

# GPU tests need a usable CUDA GPU. DIVOPT_TEST_GPU=0 or 1 overrides the probe.
def gpu_usable():
    forced = os.environ.get("DIVOPT_TEST_GPU")
    if forced is not None:
        return forced == "1"
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return out.returncode == 0 and "GPU" in out.stdout

if gpu_usable():
    config.available_features.add("cuda-gpu")
    sanitizer = shutil.which("compute-sanitizer") or os.path.join(config.cuda_path, "bin", "compute-sanitizer")
    if os.path.exists(sanitizer):
        config.available_features.add("compute-sanitizer")
        config.substitutions.append(("%compute_sanitizer", sanitizer))

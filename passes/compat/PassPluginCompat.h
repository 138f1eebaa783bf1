// LLVM 22 moved the pass-plugin header from llvm/Passes to llvm/Plugins.
// Include this instead of either, so the plugin builds against both layouts.
#pragma once
#if __has_include("llvm/Plugins/PassPlugin.h")
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

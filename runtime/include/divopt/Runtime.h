// Public API of libdivopt_rt for programs that want control over profiling.
// Programs compiled with the plugin need none of it: linking -ldivopt_rt is
// enough, and DIVOPT_MODE chooses what happens at each launch.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

// Waits for every profiled launch issued so far and writes its record, like
// __llvm_profile_write_file. Returns 0 on success, nonzero if a record could
// not be written. Also runs at exit.
int divopt_profile_flush(void);

#ifdef __cplusplus
}
#endif

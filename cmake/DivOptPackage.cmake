# cpack -G DEB (in the build directory): the install tree of
# cmake/DivOptInstall.cmake as a .deb for /usr. Its dependencies: the shared
# libraries its programs link (found by dpkg-shlibdeps), the Clang the plugin
# loads into and the wrapper runs, and what programs built with divopt link.
# The CUDA toolkit comes from NVIDIA's packages, not Debian's, so the
# package names it in its description and the wrapper checks for it.
set(CPACK_PACKAGE_NAME divopt)
set(CPACK_PACKAGE_VENDOR "divopt")
set(CPACK_PACKAGE_CONTACT "divopt maintainers <divopt@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "measure and remove control-flow divergence in CUDA kernels")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "A Clang 22 pass plugin that instruments CUDA kernels for per-thread basic block vectors, "
  "a runtime that profiles launches and regroups the threads of divergent kernels, the divopt "
  "CLI that reports where divergence costs, and divopt-clang++, a compiler wrapper. "
  "Needs the CUDA 13 toolkit at /usr/local/cuda (NVIDIA's packages).")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# clang-22: the plugin's host and the wrapper's compiler. zstd is inside the
# runtime where Debian has libzstd.a; without it, linking the static runtime
# needs libzstd-dev.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-22")
if(NOT TARGET divopt_zstd_objects)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libzstd-dev")
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake (>= 3.20), pkgconf")
include(CPack)

# cmake --install build --prefix P: the plugin, the runtime (static and
# shared), its public headers, the divopt CLI and the divopt-clang++ wrapper,
# the latency suite and tables, the example, the docs and man pages, a CMake
# package (find_package(divopt), cmake/divopt-config.cmake.in) and a
# pkg-config file.
# Every installed file finds the others relative to itself, so an install can
# be moved and the .deb (cmake/DivOptPackage.cmake) installs the same tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

foreach(dir BINDIR LIBDIR INCLUDEDIR DATADIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    message(FATAL_ERROR "CMAKE_INSTALL_${dir} must be relative to the prefix "
      "(${CMAKE_INSTALL_${dir}}): installed files find each other relative to it.")
  endif()
endforeach()
set(DIVOPT_INSTALL_PLUGINDIR ${CMAKE_INSTALL_LIBDIR}/divopt)
set(DIVOPT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/divopt)
set(DIVOPT_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/divopt)
set(DIVOPT_INSTALL_FILES ${CMAKE_BINARY_DIR}/install-files)

install(TARGETS divopt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS DivOpt LIBRARY DESTINATION ${DIVOPT_INSTALL_PLUGINDIR})
install(TARGETS divopt_rt divopt_rt_shared
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# libdivopt_rt.so needs libcudart.so.13 wherever the program runs.
set_target_properties(divopt_rt_shared PROPERTIES INSTALL_RPATH ${DIVOPT_CUDA_PATH}/lib64)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/divopt
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Latency tables: those built into the runtime, by architecture, and the
# measured ones with their provenance, by device.
file(GLOB DIVOPT_BUILTIN_TABLES ${PROJECT_SOURCE_DIR}/runtime/latency/tables/*.json)
install(FILES ${DIVOPT_BUILTIN_TABLES} DESTINATION ${DIVOPT_INSTALL_DATADIR}/latency-tables)
file(GLOB DIVOPT_MEASURED_TABLES ${PROJECT_SOURCE_DIR}/benchmarks/results/*/latency/latency-table.json)
foreach(table ${DIVOPT_MEASURED_TABLES})
  get_filename_component(dir ${table} DIRECTORY)
  get_filename_component(dir ${dir} DIRECTORY)
  get_filename_component(device ${dir} NAME)
  install(FILES ${table} DESTINATION ${DIVOPT_INSTALL_DATADIR}/latency-tables
    RENAME ${device}.json)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/examples/divergent.cu
  DESTINATION ${DIVOPT_INSTALL_DATADIR}/examples)
install(FILES ${PROJECT_SOURCE_DIR}/examples/profiles/divergent-h100.divprof
  DESTINATION ${DIVOPT_INSTALL_DATADIR}/examples/profiles)
file(GLOB DIVOPT_DOCS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${DIVOPT_DOCS} DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/divopt.1 ${PROJECT_SOURCE_DIR}/docs/man/divopt-clang++.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# Paths from one installed directory to another, for files that locate
# their neighbours relative to themselves.
file(RELATIVE_PATH DIVOPT_BIN_TO_PREFIX /p/${CMAKE_INSTALL_BINDIR} /p)
file(RELATIVE_PATH DIVOPT_PKGCONFIG_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)

# The latency suite that `divopt latency --out` runs on a GPU, and the
# program behind `divopt rewrite`.
install(PROGRAMS ${CMAKE_BINARY_DIR}/bin/bench-latency
  DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/divopt)
install(TARGETS divopt-rewrite RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/divopt)

# An installed divopt finds the plugin, the runtime, the example, the
# latency suite and divopt-rewrite relative to itself (tool/common/InstalledPaths.h).
target_compile_definitions(divopt PRIVATE
  DIVOPT_INSTALL_BIN_TO_PREFIX="${DIVOPT_BIN_TO_PREFIX}"
  DIVOPT_INSTALL_PLUGIN="${DIVOPT_INSTALL_PLUGINDIR}/libDivOpt.so"
  DIVOPT_INSTALL_RUNTIME="${CMAKE_INSTALL_LIBDIR}/libdivopt_rt.a"
  DIVOPT_INSTALL_EXAMPLES="${DIVOPT_INSTALL_DATADIR}/examples"
  DIVOPT_INSTALL_LATENCY_SUITE="${CMAKE_INSTALL_LIBEXECDIR}/divopt/bench-latency")

# The compiler wrapper (tool/wrapper/divopt-clang++.in).
configure_file(${PROJECT_SOURCE_DIR}/tool/wrapper/divopt-clang++.in
  ${DIVOPT_INSTALL_FILES}/divopt-clang++ @ONLY)
install(PROGRAMS ${DIVOPT_INSTALL_FILES}/divopt-clang++ DESTINATION ${CMAKE_INSTALL_BINDIR})

# The CMake package.
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/divopt-config.cmake.in
  ${DIVOPT_INSTALL_FILES}/divopt-config.cmake
  INSTALL_DESTINATION ${DIVOPT_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR
            DIVOPT_INSTALL_PLUGINDIR DIVOPT_INSTALL_DATADIR)
write_basic_package_version_file(${DIVOPT_INSTALL_FILES}/divopt-config-version.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${DIVOPT_INSTALL_FILES}/divopt-config.cmake
  ${DIVOPT_INSTALL_FILES}/divopt-config-version.cmake
  ${PROJECT_SOURCE_DIR}/cmake/DivOptInstrument.cmake
  DESTINATION ${DIVOPT_INSTALL_CMAKEDIR})

# pkg-config: the static runtime with the static CUDA runtime, as the README's
# plain command links them.
configure_file(${PROJECT_SOURCE_DIR}/cmake/divopt.pc.in ${DIVOPT_INSTALL_FILES}/divopt.pc @ONLY)
install(FILES ${DIVOPT_INSTALL_FILES}/divopt.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

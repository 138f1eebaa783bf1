# divopt_instrument(<target> [REMARKS] [ARCHITECTURES sm_90 ...])
#
# Makes <target>'s CUDA sources (.cu, or LANGUAGE CUDA) divopt-instrumented:
# they are compiled as CUDA by the project's C++ compiler, which must be the
# Clang divopt's plugin was built for (-DCMAKE_CXX_COMPILER=${divopt_CLANG}),
# with the plugin loaded; <target> links divopt's runtime and the CUDA runtime
# it pairs with (libdivopt_rt.a and the static CUDA runtime, or libdivopt_rt.so
# and libcudart.so where the target's CUDA_RUNTIME_LIBRARY is Shared: the
# runtime must call the CUDA runtime the kernels registered with).
#
# REMARKS adds -Rpass=divopt (one line per instrumented kernel) and
# -Rpass-missed=divopt (why a kernel cannot be regrouped). The GPU
# architectures: ARCHITECTURES, else the target's CUDA_ARCHITECTURES (90 ->
# sm_90), else divopt_CUDA_ARCHITECTURES (default: the local GPU's, sm_90
# without one).
#
# Why through the C++ compiler and not CMake's CUDA language: CMake 3.25
# (Debian 12) identifies a Clang CUDA compiler by building for sm_52, which
# CUDA 13 no longer has, so project(... CUDA) with Clang fails there; and a
# project whose CUDA compiler is nvcc keeps it for its other targets.
# Installed with the CMake package (cmake/divopt-config.cmake.in).
function(divopt_instrument TARGET)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "REMARKS" "" "ARCHITECTURES")
  set(where "divopt_instrument(${TARGET})")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${TARGET})
    message(FATAL_ERROR "${where}: no target named ${TARGET}")
  endif()
  string(REGEX MATCH "^[0-9]+" major "${CMAKE_CXX_COMPILER_VERSION}")
  string(REGEX MATCH "^[0-9]+" wanted_major "${divopt_CLANG_VERSION}")
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR NOT major STREQUAL wanted_major)
    message(FATAL_ERROR "${where}: the C++ compiler is ${CMAKE_CXX_COMPILER_ID} "
      "${CMAKE_CXX_COMPILER_VERSION} (${CMAKE_CXX_COMPILER}); divopt's plugin loads only into "
      "Clang ${wanted_major}. Configure a fresh build directory with "
      "-DCMAKE_CXX_COMPILER=${divopt_CLANG}")
  endif()

  get_target_property(sources ${TARGET} SOURCES)
  set(cuda_sources)
  foreach(source ${sources})
    get_source_file_property(language ${source} LANGUAGE)
    if(source MATCHES "\\.cu$" OR language STREQUAL "CUDA")
      list(APPEND cuda_sources ${source})
    endif()
  endforeach()
  if(NOT cuda_sources)
    message(FATAL_ERROR "${where}: ${TARGET} has no CUDA sources (.cu, or LANGUAGE CUDA)")
  endif()

  set(archs ${ARG_ARCHITECTURES})
  if(NOT archs)
    get_target_property(numbers ${TARGET} CUDA_ARCHITECTURES)
    foreach(number ${numbers})
      if(number MATCHES "^([0-9]+a?)")
        list(APPEND archs sm_${CMAKE_MATCH_1})
      endif()
    endforeach()
  endif()
  if(NOT archs)
    set(archs ${divopt_CUDA_ARCHITECTURES})
  endif()

  set(options -xcuda --cuda-path=${divopt_CUDA_PATH} -fpass-plugin=${divopt_PLUGIN}
    # Clang warns about every CUDA newer than it knows (12.9 for Clang 22).
    -Wno-unknown-cuda-version)
  foreach(arch ${archs})
    list(APPEND options --cuda-gpu-arch=${arch})
  endforeach()
  # CUDA 13 keeps CUB and Thrust here; nvcc adds it by itself, Clang does not.
  if(EXISTS "${divopt_CUDA_PATH}/include/cccl")
    list(APPEND options -isystem${divopt_CUDA_PATH}/include/cccl)
  endif()
  if(ARG_REMARKS)
    list(APPEND options -Rpass=divopt -Rpass-missed=divopt)
  endif()
  set_source_files_properties(${cuda_sources} PROPERTIES
    LANGUAGE CXX
    COMPILE_OPTIONS "${options}"
    # Recompiled when the plugin changes.
    OBJECT_DEPENDS "${divopt_PLUGIN}")

  get_target_property(cudart ${TARGET} CUDA_RUNTIME_LIBRARY)
  if(NOT cudart)
    set(cudart "${CMAKE_CUDA_RUNTIME_LIBRARY}")
  endif()
  string(TOLOWER "${cudart}" cudart)
  if(cudart STREQUAL "shared")
    target_link_libraries(${TARGET} PRIVATE divopt::runtime_shared)
  else()
    target_link_libraries(${TARGET} PRIVATE divopt::runtime)
  endif()
endfunction()

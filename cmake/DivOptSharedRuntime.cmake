# libdivopt_rt.so: the objects of libdivopt_rt.a as one shared library, for
# programs that link the shared CUDA runtime (-lcudart). It links libcudart.so
# itself: the runtime must call the very CUDA runtime the program's kernels are
# registered with, so a program takes the static pair (libdivopt_rt.a,
# libcudart_static.a) or the shared pair. Debian's libzstd.a is not built for
# shared objects, so its members leave the archive's copy and the library
# links libzstd.so instead.
set(DIVOPT_RT_PIC_ARCHIVE ${CMAKE_BINARY_DIR}/runtime/libdivopt_rt_pic.a)
set(DIVOPT_ZSTD_MEMBERS)
foreach(object ${DIVOPT_ZSTD_OBJECTS})
  get_filename_component(member ${object} NAME)
  list(APPEND DIVOPT_ZSTD_MEMBERS ${member})
endforeach()
set(DIVOPT_DROP_ZSTD)
if(DIVOPT_ZSTD_MEMBERS)
  set(DIVOPT_DROP_ZSTD COMMAND ${CMAKE_AR} d ${DIVOPT_RT_PIC_ARCHIVE} ${DIVOPT_ZSTD_MEMBERS})
endif()
add_custom_command(OUTPUT ${DIVOPT_RT_PIC_ARCHIVE}
  COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:divopt_rt> ${DIVOPT_RT_PIC_ARCHIVE}
  ${DIVOPT_DROP_ZSTD}
  DEPENDS divopt_rt
  COMMENT "libdivopt_rt.a without zstd's objects, for libdivopt_rt.so"
  VERBATIM)
add_custom_target(divopt_rt_pic DEPENDS ${DIVOPT_RT_PIC_ARCHIVE})

find_library(DIVOPT_ZSTD_SHARED NAMES libzstd.so zstd HINTS ${DIVOPT_ZSTD_PC_LIBRARY_DIRS})
if(NOT DIVOPT_ZSTD_SHARED)
  message(FATAL_ERROR "divopt needs libzstd.so (libzstd-dev) for libdivopt_rt.so")
endif()

file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/runtime/SharedRuntime.cpp
  CONTENT "// libdivopt_rt.so is libdivopt_rt.a's objects (cmake/DivOptSharedRuntime.cmake).\n")
add_library(divopt_rt_shared SHARED ${CMAKE_BINARY_DIR}/runtime/SharedRuntime.cpp)
# The archive by path, not the target: its static CUDA runtime stays out.
# --no-undefined: an object missing from the archive fails here, not in a
# program that loads the library.
target_link_libraries(divopt_rt_shared PRIVATE
  -Wl,--whole-archive ${DIVOPT_RT_PIC_ARCHIVE} -Wl,--no-whole-archive
  ${DIVOPT_ZSTD_SHARED} CUDA::cudart Threads::Threads ${CMAKE_DL_LIBS} rt -Wl,--no-undefined)
add_dependencies(divopt_rt_shared divopt_rt_pic)
set_target_properties(divopt_rt_shared PROPERTIES
  OUTPUT_NAME divopt_rt
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/runtime
  LINK_DEPENDS ${DIVOPT_RT_PIC_ARCHIVE})

# divopt_add_cuda_program(NAME SOURCES a.cu [b.cu ...] [FLAGS ...] [SHARED_CUDART])
#
# Builds a CUDA program the way a user would with divopt: clang++ -x cuda with
# the pass plugin, linked against libdivopt_rt and the static CUDA runtime
# (so the binary runs on a GPU machine that has the driver but not this
# build's paths). SHARED_CUDART links libcudart.so instead, with an rpath to
# the toolkit's lib64, for programs whose CUDA runtime calls an LD_PRELOAD
# library must interpose (tests/lit/gpu/steady-state-calls.test); the GPU
# machine then needs libcudart.so.13 there or on LD_LIBRARY_PATH.
# The program lands in ${CMAKE_BINARY_DIR}/bin. It is rebuilt
# when a header beside one of its sources changes (a custom command has no
# compiler dependency scanning).
set(DIVOPT_CUDA_FLAGS
  -x cuda --cuda-gpu-arch=${DIVOPT_CUDA_ARCH} --cuda-path=${DIVOPT_CUDA_PATH}
  -Wno-unknown-cuda-version -I${DIVOPT_CUDA_PATH}/include/cccl)
set(DIVOPT_CUDA_LIBS -L${DIVOPT_CUDA_PATH}/lib64 -lcudart_static -ldl -lrt -lpthread)
set(DIVOPT_CUDA_SHARED_LIBS -L${DIVOPT_CUDA_PATH}/lib64 -lcudart
  -Wl,-rpath,${DIVOPT_CUDA_PATH}/lib64 -ldl -lrt -lpthread)

function(divopt_add_cuda_program NAME)
  cmake_parse_arguments(ARG "SHARED_CUDART" "" "SOURCES;FLAGS" ${ARGN})
  set(LIBS ${DIVOPT_CUDA_LIBS})
  if(ARG_SHARED_CUDART)
    set(LIBS ${DIVOPT_CUDA_SHARED_LIBS})
  endif()
  set(OUT ${CMAKE_BINARY_DIR}/bin/${NAME})
  set(SRCS)
  set(HEADERS)
  foreach(S ${ARG_SOURCES})
    list(APPEND SRCS ${CMAKE_CURRENT_SOURCE_DIR}/${S})
    get_filename_component(DIR ${CMAKE_CURRENT_SOURCE_DIR}/${S} DIRECTORY)
    file(GLOB BESIDE CONFIGURE_DEPENDS ${DIR}/*.h ${DIR}/*.cuh)
    list(APPEND HEADERS ${BESIDE})
  endforeach()
  list(REMOVE_DUPLICATES HEADERS)
  add_custom_command(OUTPUT ${OUT}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/bin
    COMMAND ${DIVOPT_CLANG} ${DIVOPT_CUDA_FLAGS} -O2 -gline-tables-only ${ARG_FLAGS}
            -fpass-plugin=$<TARGET_FILE:DivOpt>
            -I${PROJECT_SOURCE_DIR}/runtime/include -I${PROJECT_SOURCE_DIR}/common/include
            ${SRCS} -o ${OUT}
            -x none $<TARGET_FILE:divopt_rt> ${LIBS}
    DEPENDS ${SRCS} ${HEADERS} DivOpt divopt_rt
    COMMENT "Building CUDA program ${NAME} with the divopt plugin"
    VERBATIM)
  add_custom_target(${NAME} ALL DEPENDS ${OUT})
endfunction()

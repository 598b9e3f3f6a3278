# Cuts the from-source build of llama-cpp-python for the local/ adapter (README, quick start):
#
#   CMAKE_ARGS="-DLLAVA_BUILD=OFF -DCMAKE_PROJECT_llama.cpp_INCLUDE=$PWD/harness/adapters/local_llama_build.cmake" \
#     python -m pip install ...llama-cpp-python...
#
# LLAVA_BUILD=OFF drops the multimodal library (mtmd: 51 compile steps), which the adapter never loads.
# CMake runs this file inside llama.cpp's own project() call. llama-cpp-python forces llama.cpp's
# `common` library on (a cache variable set with FORCE) although its Python package loads only
# libllama and libggml*; a normal variable shadows that cache entry in llama.cpp's directory, so
# `common` (52 more compile steps, with cpp-httplib) is neither built nor installed. What is left
# is ggml and libllama: 74 compile steps of the 178 a default build runs.
set(LLAMA_BUILD_COMMON OFF)

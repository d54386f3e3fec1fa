# CMakeTestCPCCompiler.cmake -- CMake's CPC language, step 3: cpcc compiles
# and links a CPC program.
if(NOT CMAKE_CPC_COMPILER_WORKS)
  set(_cpc_dir "${CMAKE_PLATFORM_INFO_DIR}/CMakeTmp/cpc")
  file(MAKE_DIRECTORY "${_cpc_dir}")
  file(WRITE "${_cpc_dir}/test.cpc" "#include <cpc/cpc_runtime.h>\n"
    "cps void f(void) { cpc_yield(); }\n"
    "int main(void) { cpc_spawn f(); cpc_main_loop(); return 0; }\n")
  execute_process(COMMAND "${CMAKE_CPC_COMPILER}" test.cpc -o test
    WORKING_DIRECTORY "${_cpc_dir}" RESULT_VARIABLE _cpc_rc
    OUTPUT_VARIABLE _cpc_out ERROR_VARIABLE _cpc_out)
  if(NOT _cpc_rc EQUAL 0)
    message(FATAL_ERROR "CPC: ${CMAKE_CPC_COMPILER} cannot build a CPC program:\n${_cpc_out}")
  endif()
  message(STATUS "Check for working CPC compiler: ${CMAKE_CPC_COMPILER} - works")
  set(CMAKE_CPC_COMPILER_WORKS 1)
  configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeCPCCompiler.cmake.in"
    "${CMAKE_PLATFORM_INFO_DIR}/CMakeCPCCompiler.cmake" @ONLY)
  unset(_cpc_dir)
  unset(_cpc_rc)
  unset(_cpc_out)
endif()

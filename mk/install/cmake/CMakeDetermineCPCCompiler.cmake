# CMakeDetermineCPCCompiler.cmake -- CMake's CPC language, step 1: find the
# compiler.  CMAKE_CPC_COMPILER (cache), else $CPCC, else the cpcc of this
# installation (CPC_CPCC, set by CPCConfig.cmake, or ../../../bin/cpcc from
# here), else cpcc on PATH.

if(NOT CMAKE_CPC_COMPILER)
  if(NOT "$ENV{CPCC}" STREQUAL "")
    set(_cpc_compiler "$ENV{CPCC}")
  elseif(CPC_CPCC)
    set(_cpc_compiler "${CPC_CPCC}")
  else()
    find_program(_cpc_compiler NAMES cpcc
      HINTS "${CMAKE_CURRENT_LIST_DIR}/../../../bin" NO_CACHE)
  endif()
  if(NOT _cpc_compiler)
    message(FATAL_ERROR "CPC: no cpcc found: set CMAKE_CPC_COMPILER or CPCC, or put "
                        "cpcc on PATH")
  endif()
  set(CMAKE_CPC_COMPILER "${_cpc_compiler}" CACHE FILEPATH "The CPC compiler driver (cpcc)")
  unset(_cpc_compiler)
endif()
mark_as_advanced(CMAKE_CPC_COMPILER)

execute_process(COMMAND "${CMAKE_CPC_COMPILER}" -dumpversion
  OUTPUT_VARIABLE CMAKE_CPC_COMPILER_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE
  RESULT_VARIABLE _cpc_rc ERROR_QUIET)
if(NOT _cpc_rc EQUAL 0)
  message(FATAL_ERROR "CPC: ${CMAKE_CPC_COMPILER} -dumpversion failed: is it cpcc?")
endif()
unset(_cpc_rc)
set(CMAKE_CPC_COMPILER_ID "CPC")
set(CMAKE_CPC_COMPILER_ENV_VAR "CPCC")

configure_file("${CMAKE_CURRENT_LIST_DIR}/CMakeCPCCompiler.cmake.in"
  "${CMAKE_PLATFORM_INFO_DIR}/CMakeCPCCompiler.cmake" @ONLY)

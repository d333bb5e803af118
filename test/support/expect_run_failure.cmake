# cmake "-DCOMMAND=<cmd;args>" -DEXPECT=<regex> -P expect_run_failure.cmake
# Passes when COMMAND exits non-zero and its output matches EXPECT.
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "the run succeeded but must fail. Output:\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "the run failed, but its output lacks '${EXPECT}'. Output:\n${out}${err}")
endif()
message(STATUS "failed as expected (exit ${rc}): ${EXPECT}")

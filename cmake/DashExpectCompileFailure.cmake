# cmake -DBUILD_DIR=... -DTARGET=... -DEXPECT=<regex> [-DCONFIG=...] -P DashExpectCompileFailure.cmake
# Builds TARGET and succeeds only if the build fails with a diagnostic matching EXPECT.
set(config_args "")
if(CONFIG)
  set(config_args --config ${CONFIG})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --target ${TARGET} ${config_args}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${TARGET} compiled, but it must be rejected with: ${EXPECT}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "${TARGET} failed to compile, but without the expected diagnostic "
                      "'${EXPECT}'. Compiler output:\n${out}${err}")
endif()
message(STATUS "${TARGET} was rejected as expected: ${EXPECT}")

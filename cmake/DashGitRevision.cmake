# Script mode (cmake -P), run at every build of dash-bench: writes OUTPUT, a header that defines
# DASH_BENCH_GIT_REVISION as the source tree's revision (`git describe --always --dirty`: "-dirty"
# when the tree has uncommitted changes), and touches it only when the revision changed, so the
# results header names the commit a binary was built from without a rebuild per build.
# Inputs: GIT_EXECUTABLE (may be empty), SOURCE_DIR, OUTPUT.
set(revision unknown)
if(GIT_EXECUTABLE)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=7
    WORKING_DIRECTORY ${SOURCE_DIR}
    OUTPUT_VARIABLE git_output OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE git_result ERROR_QUIET)
  if(git_result EQUAL 0 AND git_output)
    set(revision ${git_output})
  endif()
endif()
set(content "#pragma once\n#define DASH_BENCH_GIT_REVISION \"${revision}\"\n")
set(previous "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} previous)
endif()
if(NOT previous STREQUAL content)
  file(WRITE ${OUTPUT} "${content}")
endif()

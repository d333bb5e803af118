# Test registration helpers (docs/design.md §5).
#
#   dash_add_unit_test(<name> SOURCES ... [LIBS ...])
#       A GoogleTest executable without MPI; each test case becomes one CTest entry.
#   dash_add_mpi_test(<name> SOURCES ... [RANKS 1 2 3 4 5 8] [TIMEOUT s] [LIBS ...] [LABELS ...]
#                     [ENVIRONMENT VAR=value ...] [KEEP_BUILD_OPTIMIZATION])
#       A GoogleTest executable with the MPI-aware main (test/support); registered once per rank
#       count as <name>.np<k> (PLAIN runs, below). KEEP_BUILD_OPTIMIZATION: compiled at the build
#       type's optimisation even where DASH_TEST_COMPILE_OPTIONS lowers the tests' (scripts/test:
#       -O1 in the first pass, -O0 in the sanitizer pass), for a test whose run at the lower level
#       would cost more time than its compile saves.
#   dash_add_mpi_run(<test> [PLAIN] NP <k> [TIMEOUT s] [LABELS ...] [ENVIRONMENT VAR=value ...]
#                    COMMAND <exe> [args...])
#       Runs any program under the MPI launcher (examples, lifecycle tests with their own main,
#       variants for a shape of their own). LABELS sanitize: in the sanitizer pass at fewer than 8
#       ranks, or, for a PLAIN run (the test itself, no variant), at 1-3 ranks and at counts
#       beyond DASH_TEST_DEFAULT_RANKS.
#   dash_add_compile_fail_test(<name> SOURCE <cpp> EXPECT <regex> [LIBS ...])
#       A translation unit that must not compile; passes only if the compiler rejects it with a
#       diagnostic matching <regex>.

include(GoogleTest)
find_package(GTest REQUIRED)

set(DASH_TEST_DEFAULT_RANKS 1 2 3 4 5 8 CACHE STRING "Rank counts of every MPI test")
set(DASH_TEST_DEFAULT_TIMEOUT 120 CACHE STRING "Default timeout (s) of an MPI test")

# Launcher flags and environment per MPI implementation (DASH_MPI, cmake/DashMpi.cmake): each
# takes only its own options.
set(DASH_MPIEXEC_FLAGS "")
set(DASH_MPI_TEST_ENVIRONMENT "")
if(DASH_MPI_IMPLEMENTATION STREQUAL "openmpi")
  # More ranks than cores need --oversubscribe; idle ranks yield the core instead of spinning.
  # The PSM and PSM2 transports (Intel InfiniPath, Omni-Path) are not loaded: probing for their
  # hardware took 0.2 of the 0.5 s an MPI launch costs on the 2-core VM, about 380 launches per
  # pass; where that hardware is absent, Open MPI falls back to ob1 with shared memory, as it does
  # here without this setting. ofi is the exclusion Debian's openmpi-mca-params.conf already makes,
  # which this setting replaces.
  list(APPEND DASH_MPIEXEC_FLAGS --oversubscribe)
  list(APPEND DASH_MPI_TEST_ENVIRONMENT
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
    OMPI_MCA_rmaps_base_oversubscribe=1 "OMPI_MCA_mtl=^ofi,psm,psm2")
elseif(DASH_MPI_IMPLEMENTATION STREQUAL "mpich" AND NOT DASH_SANITIZE)
  # Hydra places any number of ranks on a host, but MPICH's ch4 device never yields while it
  # waits (MPIR_CVAR_POLLS_BEFORE_YIELD serves ch3 only): oversubscribed runs preload a wrapper of
  # UCX's progress call that yields when idle (test/support/ucx_yield_when_idle.cpp). Not under
  # the sanitizers, whose runtime must come first in the preload list.
  add_library(dash_test_yield_when_idle SHARED ${PROJECT_SOURCE_DIR}/test/support/ucx_yield_when_idle.cpp)
  target_link_libraries(dash_test_yield_when_idle PRIVATE ${CMAKE_DL_LIBS} dash_warnings)
  list(APPEND DASH_MPI_TEST_ENVIRONMENT "LD_PRELOAD=$<TARGET_FILE:dash_test_yield_when_idle>")
endif()

if(DASH_SANITIZE)
  # Open MPI leaks in components it has dlclose'd by exit, so LeakSanitizer cannot even name the
  # allocating library. Under MPI, leak detection is off; address and UB checks stay on, and the
  # unit tests (no MPI) keep leak detection.
  list(APPEND DASH_MPI_TEST_ENVIRONMENT "ASAN_OPTIONS=detect_leaks=0")
endif()

# The executables of the tests scripts/test's sanitizer pass runs (unit, and MPI tests labelled
# sanitize): test/CMakeLists.txt gathers them into the target `sanitizer_tests`, so that pass builds
# nothing else.
function(dash_register_sanitizer_target target)
  set_property(GLOBAL APPEND PROPERTY DASH_SANITIZER_TEST_TARGETS ${target})
endfunction()

# Compiles <target> with the precompiled GoogleTest and dash.hpp of dash_mpi_gtest_main
# (test/CMakeLists.txt). Every source then sees all of dash.hpp; GCC's -Winvalid-pch, which CMake
# adds, reports a header that could not be used (an error under DASH_WARNINGS_AS_ERRORS). For the
# MPI tests only: a unit test sees its own layer's headers, nothing above.
function(dash_use_test_precompiled_header target)
  if(DASH_TEST_PRECOMPILED_HEADER)
    target_precompile_headers(${target} REUSE_FROM dash_mpi_gtest_main)
  endif()
endfunction()

function(dash_add_mpi_run test_name)
  cmake_parse_arguments(ARG "PLAIN" "NP;TIMEOUT" "COMMAND;LABELS;ENVIRONMENT" ${ARGN})
  # Which runs of a test labelled sanitize scripts/test's sanitizer pass takes: the plain runs at
  # 1, 2 and 3 ranks (a group of one, a power of two, and neither) and at counts beyond the
  # defaults, the variants for a shape of their own at fewer than 8. The other passes run all.
  if(ARG_NP GREATER_EQUAL 8 OR (ARG_PLAIN AND ARG_NP IN_LIST DASH_TEST_DEFAULT_RANKS AND ARG_NP GREATER 3))
    list(REMOVE_ITEM ARG_LABELS sanitize)
  endif()
  if("sanitize" IN_LIST ARG_LABELS)
    foreach(word IN LISTS ARG_COMMAND)
      if(word MATCHES "^\\$<TARGET_FILE:([^>]+)>$")
        dash_register_sanitizer_target(${CMAKE_MATCH_1})
      endif()
    endforeach()
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT ${DASH_TEST_DEFAULT_TIMEOUT})
  endif()
  # The harness gives up waiting for lagging ranks well before CTest kills the job, so a failure
  # on one rank is reported as such rather than as a timeout.
  math(EXPR agree_timeout "${ARG_TIMEOUT} * 2 / 3")
  add_test(NAME ${test_name}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ARG_NP} ${DASH_MPIEXEC_FLAGS}
            ${MPIEXEC_PREFLAGS} ${ARG_COMMAND} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${test_name} PROPERTIES
    TIMEOUT ${ARG_TIMEOUT}
    PROCESSORS ${ARG_NP}
    LABELS "mpi;np${ARG_NP};${ARG_LABELS}"
    ENVIRONMENT "${DASH_MPI_TEST_ENVIRONMENT};DASH_TEST_AGREE_TIMEOUT=${agree_timeout};${ARG_ENVIRONMENT}")
endfunction()

function(dash_add_mpi_test name)
  cmake_parse_arguments(ARG "KEEP_BUILD_OPTIMIZATION" "TIMEOUT" "SOURCES;RANKS;LIBS;LABELS;ENVIRONMENT" ${ARGN})
  if(NOT ARG_RANKS)
    set(ARG_RANKS ${DASH_TEST_DEFAULT_RANKS})
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE dash_mpi_gtest_main dash_warnings ${ARG_LIBS})
  if(ARG_KEEP_BUILD_OPTIMIZATION AND DASH_TEST_COMPILE_OPTIONS)
    # Without the tests' options, and so without their precompiled header, which GCC refuses
    # under other optimisation flags: this test parses GoogleTest and dash.hpp itself.
    get_target_property(options ${name} COMPILE_OPTIONS)
    list(REMOVE_ITEM options ${DASH_TEST_COMPILE_OPTIONS})
    set_property(TARGET ${name} PROPERTY COMPILE_OPTIONS ${options})
  else()
    dash_use_test_precompiled_header(${name})
  endif()
  foreach(np IN LISTS ARG_RANKS)
    dash_add_mpi_run(${name}.np${np} PLAIN NP ${np} TIMEOUT ${ARG_TIMEOUT} LABELS ${ARG_LABELS}
                     ENVIRONMENT ${ARG_ENVIRONMENT} COMMAND $<TARGET_FILE:${name}>)
  endforeach()
endfunction()

function(dash_add_unit_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE GTest::gtest_main dash_warnings ${ARG_LIBS})
  dash_register_sanitizer_target(${name})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/test/support)
  gtest_discover_tests(${name} TEST_PREFIX "unit." PROPERTIES LABELS "unit" TIMEOUT 180
                       DISCOVERY_TIMEOUT 60)
endfunction()

function(dash_add_compile_fail_test name)
  cmake_parse_arguments(ARG "" "SOURCE;EXPECT" "LIBS" ${ARGN})
  set(target compile_fail_${name})
  add_library(${target} OBJECT EXCLUDE_FROM_ALL ${ARG_SOURCE})
  target_link_libraries(${target} PRIVATE ${ARG_LIBS})
  set_target_properties(${target} PROPERTIES EXCLUDE_FROM_DEFAULT_BUILD ON)
  add_test(NAME compile_fail.${name}
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${PROJECT_BINARY_DIR} -DTARGET=${target}
            -DCONFIG=$<CONFIG> "-DEXPECT=${ARG_EXPECT}"
            -P ${PROJECT_SOURCE_DIR}/cmake/DashExpectCompileFailure.cmake)
  # Tests that run the build system share the build tree; serialise them.
  set_tests_properties(compile_fail.${name} PROPERTIES
    LABELS "compile_fail" RESOURCE_LOCK build_tree TIMEOUT 300)
endfunction()

# Test runs on the virtual cluster (scripts/cluster; docs/testing.md "The virtual cluster").
#
#   dash_add_cluster_run(<name> HOSTS <KxN | N1,N2,...> [TIMEOUT s] [LABELS ...] [ENVIRONMENT VAR=value ...]
#                        COMMAND <exe> [args...])
#       Runs a program on emulated hosts of this machine (own host name, shared memory and PIDs per
#       host; TCP between hosts), launched by the MPI of the build: K hosts of N ranks, or one host
#       per listed rank count. Registered as <name>.hosts<KxN> or <name>.hosts<N1_N2_...>, labels
#       mpi and cluster. The environment is dash_add_mpi_run's (agreement timeout included), plus
#       DASH_TEST_EXPECT_NODES, with which the MPI test main checks that dash detected the hosts as
#       nodes; DASH_NODE_SIZE is unset unless ENVIRONMENT sets it.
#
# The hosts are namespaces (unshare): root, or unprivileged user namespaces, are needed. Without
# them, -DDASH_CLUSTER_TESTS=OFF leaves the runs out.
#
# MPICH 4.0 over UCX's TCP transport hangs in MPI_Finalize now and then in a job that used an RMA
# window (one rank in UCX's disconnect from a peer that already waits in the PMI barrier; fixed in
# MPICH 4.2, pmodels/mpich#6596; docs/testing.md). Its runs hand the MPI test main
# DASH_TEST_FINALIZE_WATCHDOG, so that a rank still in MPI_Finalize 1 s after the ranks agreed on
# the verdict ends itself with it, and pass on the main's "every test passed on all n ranks" line
# instead of the launcher's exit code (a rank that left MPI without finalising is an error to it).
# Programs without that main (dash-topology, the latency tool) run under Open MPI only.
#
# MPICH 4.0's node-aware MPI_Reduce (the ch4 device's composition) returns wrong sums on hosts of
# 1, 2 and 3 ranks from 4 KiB on, at every root (its generic one, and Open MPI's, are right; found
# as the oracle of core/test/team_fast_paths_test.cpp): MPICH's runs use the generic one.

option(DASH_CLUSTER_TESTS "Register the test runs on the virtual cluster (scripts/cluster; needs namespaces)" ON)
if(NOT DASH_CLUSTER_TESTS)
  message(STATUS "dash: the virtual cluster's test runs are left out (DASH_CLUSTER_TESTS=OFF)")
endif()
set(dash_cluster_finalize_hangs OFF)
if(DASH_MPI_IMPLEMENTATION STREQUAL "mpich" AND NOT MPI_CXX_LIBRARY_VERSION_STRING MATCHES "MPICH Version:[ \t]*4\.([2-9]|[1-9][0-9])")
  set(dash_cluster_finalize_hangs ON)
endif()

function(dash_add_cluster_run name)
  cmake_parse_arguments(ARG "" "HOSTS;TIMEOUT" "COMMAND;LABELS;ENVIRONMENT" ${ARGN})
  if(NOT DASH_CLUSTER_TESTS)
    return()
  endif()
  if(NOT DASH_MPI_IMPLEMENTATION MATCHES "^(openmpi|mpich)$")
    message(FATAL_ERROR "dash_add_cluster_run(${name}): scripts/cluster launches Open MPI or MPICH jobs, but the "
                        "build's MPI is '${DASH_MPI_IMPLEMENTATION}'")
  endif()
  if(ARG_HOSTS MATCHES "^([1-9][0-9]*)x([1-9][0-9]*)$")
    string(REPEAT "${CMAKE_MATCH_2}," ${CMAKE_MATCH_1} per_host)
    string(REGEX REPLACE ",$" "" per_host "${per_host}")
    set(tag "${ARG_HOSTS}")
  elseif(ARG_HOSTS MATCHES "^[1-9][0-9]*(,[1-9][0-9]*)*$")
    set(per_host "${ARG_HOSTS}")
    string(REPLACE "," "_" tag "${ARG_HOSTS}")
  else()
    message(FATAL_ERROR "dash_add_cluster_run(${name}): HOSTS '${ARG_HOSTS}' is neither KxN nor a list of rank "
                        "counts such as 1,2,3")
  endif()
  string(REPLACE "," ";" rank_counts "${per_host}")
  set(ranks 0)
  foreach(count IN LISTS rank_counts)
    math(EXPR ranks "${ranks} + ${count}")
  endforeach()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT ${DASH_TEST_DEFAULT_TIMEOUT})
  endif()
  math(EXPR agree_timeout "${ARG_TIMEOUT} * 2 / 3")
  set(test_name ${name}.hosts${tag})
  set(launch ${PROJECT_SOURCE_DIR}/scripts/cluster --mpi ${DASH_MPI_IMPLEMENTATION} --launcher ${MPIEXEC_EXECUTABLE}
             --hosts ${ARG_HOSTS} -- ${ARG_COMMAND})
  if(dash_cluster_finalize_hangs)
    # Hydra writes to the proxy of a rank the watchdog ended and, with SIGPIPE at its default,
    # dies of it (CTest: "SIGPIPE", whatever the output). Ignored, the write fails with EPIPE,
    # which Hydra takes as a closed connection.
    list(PREPEND launch /bin/sh -c "trap '' PIPE && exec \"$@\"" cluster-run)
  endif()
  add_test(NAME ${test_name} COMMAND ${launch})
  set_tests_properties(${test_name} PROPERTIES
    TIMEOUT ${ARG_TIMEOUT}
    PROCESSORS ${ranks}
    LABELS "mpi;cluster;${ARG_LABELS}"
    ENVIRONMENT "${DASH_MPI_TEST_ENVIRONMENT};DASH_TEST_AGREE_TIMEOUT=${agree_timeout};DASH_TEST_EXPECT_NODES=${per_host};${ARG_ENVIRONMENT}")
  if(DASH_MPI_IMPLEMENTATION STREQUAL "mpich")
    set_property(TEST ${test_name} APPEND PROPERTY ENVIRONMENT MPIR_CVAR_REDUCE_DEVICE_COLLECTIVE=0)
  endif()
  if(dash_cluster_finalize_hangs)
    set_property(TEST ${test_name} APPEND PROPERTY ENVIRONMENT DASH_TEST_FINALIZE_WATCHDOG=1)
    set_tests_properties(${test_name} PROPERTIES PASS_REGULAR_EXPRESSION "every test passed on all ${ranks} ranks")
  endif()
  # The runs exist to see real nodes: an emulation from the caller's environment would hide them.
  if(NOT ARG_ENVIRONMENT MATCHES "(^|;)DASH_NODE_SIZE=")
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT_MODIFICATION "DASH_NODE_SIZE=unset:")
  endif()
endfunction()

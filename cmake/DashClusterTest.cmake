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
# them, -DDASH_CLUSTER_TESTS=OFF leaves the runs out. With MPICH the runs are off unless asked for:
# MPICH 4.0 over UCX's TCP transport hangs in MPI_Finalize, now and then, in any job that created an
# RMA window (every dash program has one), also on one node with UCX_TLS=self,tcp (docs/testing.md).

if(DASH_MPI_IMPLEMENTATION STREQUAL "mpich")
  set(dash_cluster_tests_default OFF)
else()
  set(dash_cluster_tests_default ON)
endif()
option(DASH_CLUSTER_TESTS "Register the test runs on the virtual cluster (scripts/cluster; needs namespaces)"
       ${dash_cluster_tests_default})
if(NOT DASH_CLUSTER_TESTS)
  message(STATUS "dash: the virtual cluster's test runs are left out (DASH_CLUSTER_TESTS=OFF; the default with "
                 "MPICH, whose MPI_Finalize hangs over TCP after RMA: docs/testing.md, \"The virtual cluster\")")
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
  add_test(NAME ${test_name}
    COMMAND ${PROJECT_SOURCE_DIR}/scripts/cluster --mpi ${DASH_MPI_IMPLEMENTATION} --launcher ${MPIEXEC_EXECUTABLE}
            --hosts ${ARG_HOSTS} -- ${ARG_COMMAND})
  set_tests_properties(${test_name} PROPERTIES
    TIMEOUT ${ARG_TIMEOUT}
    PROCESSORS ${ranks}
    LABELS "mpi;cluster;${ARG_LABELS}"
    ENVIRONMENT "${DASH_MPI_TEST_ENVIRONMENT};DASH_TEST_AGREE_TIMEOUT=${agree_timeout};DASH_TEST_EXPECT_NODES=${per_host};${ARG_ENVIRONMENT}")
  # The runs exist to see real nodes: an emulation from the caller's environment would hide them.
  if(NOT ARG_ENVIRONMENT MATCHES "(^|;)DASH_NODE_SIZE=")
    set_tests_properties(${test_name} PROPERTIES ENVIRONMENT_MODIFICATION "DASH_NODE_SIZE=unset:")
  endif()
endfunction()

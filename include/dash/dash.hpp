#pragma once
// Umbrella header: everything public in dash.

#include <dash/comm/algorithms.hpp>
#include <dash/comm/allgather.hpp>
#include <dash/comm/allreduce.hpp>
#include <dash/comm/alltoall.hpp>
#include <dash/comm/arrival.hpp>
#include <dash/comm/barrier.hpp>
#include <dash/comm/bcast.hpp>
#include <dash/comm/check.hpp>
#include <dash/comm/config.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/gather.hpp>
#include <dash/comm/group.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/log.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/ops.hpp>
#include <dash/comm/options.hpp>
#include <dash/comm/reduce.hpp>
#include <dash/comm/reduce_scatter.hpp>
#include <dash/comm/request.hpp>
#include <dash/comm/scan.hpp>
#include <dash/comm/scatter.hpp>
#include <dash/comm/uniform_check.hpp>

#pragma once
// Umbrella header: everything public in dash.

#include <dash/comm/check.hpp>
#include <dash/comm/config.hpp>
#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/int_count.hpp>
#include <dash/comm/log.hpp>
#include <dash/comm/message_count.hpp>
#include <dash/comm/mpi_call.hpp>
#include <dash/comm/uniform_check.hpp>

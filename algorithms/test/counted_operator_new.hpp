// A count of the calls of the global operator new in this process. Linking
// counted_operator_new.cpp into an executable replaces every form of operator new and delete
// (plain, array, aligned; the nothrow forms call the plain one) with ones that count the
// allocations and take memory from malloc.
#pragma once

#include <cstdint>

namespace dash::testing {

// Allocations so far, from every thread.
std::uint64_t heap_allocations();

}  // namespace dash::testing

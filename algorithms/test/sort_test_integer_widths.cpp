// dash::sort of the 8-, 16- and 64-bit integers in natural and reversed order: the SortArithmetic suite
// of sort_test_arithmetic.hpp (int32_t and float are in sort_test.cpp).

#include <cstdint>

#include <gtest/gtest.h>

#include "sort_test_arithmetic.hpp"

namespace dash::testing::sorting {

using IntegersOfOtherWidths = ::testing::Types<std::int8_t, std::uint16_t, std::int64_t, std::uint64_t>;
INSTANTIATE_TYPED_TEST_SUITE_P(IntegerWidths, SortArithmetic, IntegersOfOtherWidths);

}  // namespace dash::testing::sorting

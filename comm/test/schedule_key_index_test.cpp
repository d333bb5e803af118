// The verifier's lookup tables (comm/schedule/key_index.hpp, comm/schedule/rank_sets.hpp).

#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <gtest/gtest.h>

#include "schedule/key_index.hpp"
#include "schedule/rank_sets.hpp"

namespace {

using dash::comm::OpTraits;
using dash::comm::schedule::verification::KeyIndex;
using dash::comm::schedule::verification::RankSets;

TEST(KeyIndex, FindsEveryKeyThroughGrowthAndNoOther) {
  KeyIndex index;
  std::unordered_map<std::uint64_t, std::uint32_t> model;
  std::mt19937_64 random(7);
  for (std::uint32_t i = 0; i < 20000; ++i) {
    // Pairs of ranks as the verifier forms them, and arbitrary keys.
    const std::uint64_t key = i % 2 == 0 ? (std::uint64_t{i % 97} << 32 | i / 97) : random() >> 1;
    if (model.count(key) == 0) {
      index.insert(key, i);
      model.emplace(key, i);
    }
  }
  EXPECT_EQ(index.size(), model.size());
  for (const auto& [key, value] : model) {
    const std::uint32_t* found = index.find(key);
    ASSERT_NE(found, nullptr) << key;
    EXPECT_EQ(*found, value);
  }
  for (std::uint64_t key = 1u << 20; key < (1u << 20) + 1000; ++key) {
    EXPECT_EQ(index.find(key) == nullptr, model.count(key) == 0);
  }
}

TEST(KeyIndex, RejectsTheReservedKey) {
  KeyIndex index;
  EXPECT_EQ(index.find(KeyIndex::reserved_key), nullptr);
  EXPECT_THROW(index.insert(KeyIndex::reserved_key, 1), std::logic_error);
}

TEST(RankSets, InternsEqualSetsOnceWhateverTheOrderOfCombination) {
  RankSets sets;
  const OpTraits sum{true, false};
  std::string error;
  // {0..3} built left to right and as two halves is one set, the prefix of 4.
  std::uint32_t left = sets.single(0);
  for (std::uint32_t r = 1; r < 4; ++r) {
    left = *sets.combine(left, sets.single(r), sum, error);
  }
  const std::uint32_t halves =
      *sets.combine(*sets.combine(sets.single(2), sets.single(3), sum, error),
                    *sets.combine(sets.single(0), sets.single(1), sum, error), sum, error);
  EXPECT_EQ(left, halves);
  EXPECT_EQ(left, sets.prefix(4));
  EXPECT_EQ(sets.describe(left), "{0..3}");
  const std::uint32_t gap = *sets.combine(sets.single(5), sets.single(1), sum, error);
  EXPECT_EQ(sets.describe(gap), "{1,5}");
  EXPECT_TRUE(error.empty()) << error;
}

TEST(RankSets, RejectsDoubleCountingAndBrokenRankOrder) {
  RankSets sets;
  std::string error;
  const std::uint32_t both = *sets.combine(sets.single(0), sets.single(1), OpTraits{true, false}, error);
  EXPECT_EQ(sets.combine(both, sets.single(1), OpTraits{true, false}, error), std::nullopt);
  EXPECT_EQ(error, "combines ranks {0..1} with {1}, counting some contributions twice");
  const std::uint32_t max = *sets.combine(both, sets.single(1), OpTraits{true, true}, error);
  EXPECT_EQ(max, both);  // idempotent: counting twice is harmless
  error.clear();
  EXPECT_EQ(sets.combine(sets.single(1), sets.single(0), OpTraits{false, false}, error), std::nullopt);
  EXPECT_EQ(error,
            "combines ranks {1} (left) with {0} (right), which breaks rank order of a non-commutative operation");
}

}  // namespace

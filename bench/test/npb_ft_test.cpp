// NPB FT on dash (bench/npb/ft.hpp) must verify like the reference code: every iteration's checksum
// within 1e-12 of NPB's for classes S and W (A and B run in dash-bench's full sweep), with and
// without partial aggregation in dash::fft, at every unit count that divides the class's nz and ny;
// other counts (np 3 here), classes and a normalised inverse are refused on every unit alike.

#include <complex>
#include <cstddef>

#include <gtest/gtest.h>

#include <dash/dash.hpp>

#include "dash_testing.hpp"
#include "npb/ft.hpp"

namespace {

namespace npb = dash::bench::npb;

bool divides_slabs(char klass, std::size_t units) {
  const npb::FtClass& ft = npb::ft_class(klass);
  return ft.nz % units == 0 && ft.ny % units == 0;
}

void expect_verified(char klass, const dash::FftOptions& options) {
  if (!divides_slabs(klass, dash::size())) {
    EXPECT_THROW(npb::run_ft(klass, dash::Team::All(), options), dash::InvalidArgument);
    return;
  }
  const npb::FtClass& reference = npb::ft_class(klass);
  const npb::FtResult result = npb::run_ft(klass, dash::Team::All(), options);
  EXPECT_EQ(result.klass, klass);
  EXPECT_EQ(result.nx, reference.nx);
  EXPECT_EQ(result.ny, reference.ny);
  EXPECT_EQ(result.nz, reference.nz);
  EXPECT_EQ(result.units, dash::size());
  ASSERT_EQ(result.checksums.size(), reference.checksums.size());
  EXPECT_TRUE(result.verified) << "class " << klass << ": largest relative checksum error " << result.max_error;
  EXPECT_LE(result.max_error, 1e-12);
  for (std::size_t it = 0; it < result.checksums.size(); ++it) {
    const double bound = 1e-12 * std::abs(reference.checksums[it]);
    EXPECT_NEAR(result.checksums[it].real(), reference.checksums[it].real(), bound)
        << "class " << klass << ", iteration " << it + 1;
    EXPECT_NEAR(result.checksums[it].imag(), reference.checksums[it].imag(), bound)
        << "class " << klass << ", iteration " << it + 1;
  }
  EXPECT_GT(result.seconds, 0);
  EXPECT_GT(result.mops, 0);
}

TEST(NpbFt, ClassSVerifies) { expect_verified('S', {}); }

TEST(NpbFt, ClassSVerifiesWithoutPartialAggregation) { expect_verified('S', {.partial = false}); }

TEST(NpbFt, ClassWVerifies) { expect_verified('W', {}); }

TEST(NpbFt, RefusesUnknownClassesAndNormalisedInverse) {
  EXPECT_THROW(npb::ft_class('X'), dash::InvalidArgument);
  EXPECT_THROW(npb::run_ft('Q', dash::Team::All()), dash::InvalidArgument);
  dash::FftOptions normalised;
  normalised.normalize_inverse = true;
  EXPECT_THROW(npb::run_ft('S', dash::Team::All(), normalised), dash::InvalidArgument);
}

}  // namespace

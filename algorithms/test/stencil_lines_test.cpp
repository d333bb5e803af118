// The row kernel of dash::apply_stencil (detail/stencil_lines.hpp): every kernel it can choose, the
// build's own and the AVX2 one where the CPU has it, computes runs of lines exactly as the order
// dash::Stencil documents (c (v_0 + ... + v_K-1) when all weights are equal, else
// c_0 v_0 + ... + c_K-1 v_K-1, left to right), bit for bit, at widths that reach the vector body,
// its remainder and single cells, for several line counts and steps.

#include <cstddef>
#include <initializer_list>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <dash/algorithms/detail/stencil_lines.hpp>

namespace {

using dash::detail::Lines;

struct KeepSum {
  double operator()(double sum, std::size_t) const { return sum; }
};

// finish(sum, index) that depends on the index, as a residual r = v - A u does.
struct MinusIndex {
  double operator()(double sum, std::size_t index) const { return static_cast<double>(index % 7) - sum; }
};

template <class Finish>
void expect_kernels_match_the_documented_order(bool allow_avx2) {
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> draw(-1.0, 1.0);
  for (const std::size_t points : std::initializer_list<std::size_t>{1, 2, 4, 5, 9, 19, 27}) {
    for (const bool uniform : {true, false}) {
      const auto kernel = dash::detail::stencil_lines_for<double, Finish>(points, uniform, allow_avx2);
      std::vector<double> weights(points, 0.25);
      if (!uniform) {
        for (double& weight : weights) {
          weight = draw(random);
        }
      }
      for (const std::size_t width : std::initializer_list<std::size_t>{0, 1, 2, 3, 7, 8, 33}) {
        for (const std::size_t count : std::initializer_list<std::size_t>{1, 3}) {
          // Point p's line l starts at p * 5 + l * (width + p + 3) in one input buffer: overlapping
          // rows and a step of its own per point, as shifted copies of a block have.
          std::vector<double> input(points * 5 + count * (width + points + 3) + width);
          for (double& value : input) {
            value = draw(random);
          }
          std::vector<const double*> rows(points);
          std::vector<std::ptrdiff_t> steps(points);
          for (std::size_t p = 0; p < points; ++p) {
            rows[p] = input.data() + p * 5;
            steps[p] = static_cast<std::ptrdiff_t>(width + p + 3);
          }
          const std::size_t out_step = width + 2;
          const std::size_t first_index = 40;
          std::vector<double> out(count * out_step, -9.0);
          kernel(out.data(), Lines<double>{width, count, out_step, steps.data()}, rows.data(), weights.data(),
                 Finish{}, first_index);
          for (std::size_t l = 0; l < count; ++l) {
            for (std::size_t c = 0; c < out_step; ++c) {
              const double got = out[l * out_step + c];
              if (c >= width) {
                ASSERT_EQ(got, -9.0) << "a cell past the line's width was written";
                continue;
              }
              const auto value = [&](std::size_t p) {
                return rows[p][static_cast<std::ptrdiff_t>(l) * steps[p] + static_cast<std::ptrdiff_t>(c)];
              };
              double sum = uniform ? value(0) : weights[0] * value(0);
              for (std::size_t p = 1; p < points; ++p) {
                sum += uniform ? value(p) : weights[p] * value(p);
              }
              const double expected = Finish{}(uniform ? weights[0] * sum : sum, first_index + l * out_step + c);
              ASSERT_EQ(got, expected) << points << " points, uniform " << uniform << ", width " << width
                                       << ", line " << l << ", cell " << c << ", AVX2 allowed " << allow_avx2;
            }
          }
        }
      }
    }
  }
}

TEST(StencilLines, BuildTargetKernelsFollowTheDocumentedOrder) {
  expect_kernels_match_the_documented_order<KeepSum>(false);
  expect_kernels_match_the_documented_order<MinusIndex>(false);
}

// On a CPU without AVX2 this checks the build's kernels again (the choice falls back to them).
TEST(StencilLines, ChosenKernelsFollowTheDocumentedOrder) {
  expect_kernels_match_the_documented_order<KeepSum>(true);
  expect_kernels_match_the_documented_order<MinusIndex>(true);
}

TEST(StencilLines, AllowingAvx2PicksAnotherKernelExactlyWhereTheCpuHasIt) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  const bool avx2 = __builtin_cpu_supports("avx2") != 0;
#else
  const bool avx2 = false;
#endif
  const auto portable = dash::detail::stencil_lines_for<double, KeepSum>(4, true, false);
  const auto chosen = dash::detail::stencil_lines_for<double, KeepSum>(4, true, true);
  EXPECT_EQ(portable != chosen, avx2);
}

}  // namespace

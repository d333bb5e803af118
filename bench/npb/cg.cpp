#include "npb/cg.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <dash/comm/allreduce.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/ops.hpp>
#include <dash/containers/array.hpp>
#include <dash/containers/csr_matrix.hpp>
#include <dash/core/pattern.hpp>

#include "npb/randlc.hpp"

namespace dash::bench::npb {

namespace {

// NPB 3.4's cg.f: sizes, shifts and verification values per class.
constexpr std::array<CgClass, 4> classes{{
    {'S', 1400, 7, 15, 10.0, 8.5971775078648},
    {'W', 7000, 8, 15, 12.0, 10.362595087124},
    {'A', 14000, 11, 15, 20.0, 17.130235054029},
    {'B', 75000, 13, 75, 60.0, 22.712745482631},
}};

// A sparse vector: values and their distinct positions.
struct SparseVector {
  std::vector<double> values;
  std::vector<std::size_t> positions;
};

// NPB's sprnvc: `count` nonzeros at distinct positions below n. Each draw is a value and then a
// position, floor(n_power * r) for n_power the smallest power of two >= n; positions >= n and
// repeated ones are drawn again.
void draw_sparse_vector(std::size_t n, int count, std::size_t n_power, std::uint64_t& state, SparseVector& v) {
  v.values.clear();
  v.positions.clear();
  while (v.values.size() < static_cast<std::size_t>(count)) {
    const double value = randlc(state);
    const auto position = static_cast<std::size_t>(static_cast<double>(n_power) * randlc(state));
    if (position >= n || std::find(v.positions.begin(), v.positions.end(), position) != v.positions.end()) {
      continue;
    }
    v.values.push_back(value);
    v.positions.push_back(position);
  }
}

// NPB's vecset: element `position` becomes `value`, appended if the vector does not have it.
void set_element(SparseVector& v, std::size_t position, double value) {
  const auto found = std::find(v.positions.begin(), v.positions.end(), position);
  if (found != v.positions.end()) {
    v.values[static_cast<std::size_t>(found - v.positions.begin())] = value;
  } else {
    v.values.push_back(value);
    v.positions.push_back(position);
  }
}

// One summand of an entry: (column, value), in a local row.
struct Term {
  std::size_t column;
  double value;
};

// NPB's makea and sparse, restricted to the caller's rows: A = sum over i of size_i v_i v_i^T +
// (rcond - shift) I with size_i = rcond^(i / na), an entry's summands added in the order of i as
// the reference code adds them.
CsrMatrix<double> make_matrix(const CgClass& klass, Team& team) {
  const std::size_t n = klass.na;
  const Pattern<1> rows(n, BLOCKED, team.size());
  const auto me = static_cast<std::size_t>(team.myid());
  const std::size_t local_rows = rows.local_size(me);
  const std::size_t first_row = local_rows == 0 ? 0 : rows.global_index(me, 0);
  std::size_t n_power = 1;
  while (n_power < n) {
    n_power *= 2;
  }

  std::uint64_t state = randlc_seed;
  randlc(state);  // NPB's main program draws one value before makea
  const double ratio = std::pow(cg_rcond, 1.0 / static_cast<double>(n));
  double size = 1.0;
  std::vector<std::pair<std::size_t, Term>> terms;  // (local row, term), in the order of i
  SparseVector v;
  for (std::size_t i = 0; i < n; ++i) {
    draw_sparse_vector(n, klass.nonzer, n_power, state, v);
    set_element(v, i, 0.5);
    for (std::size_t a = 0; a < v.positions.size(); ++a) {
      const std::size_t row = v.positions[a];
      if (row < first_row || row >= first_row + local_rows) {
        continue;
      }
      const double scale = size * v.values[a];
      for (std::size_t b = 0; b < v.positions.size(); ++b) {
        const std::size_t column = v.positions[b];
        double value = v.values[b] * scale;
        if (column == row && row == i) {
          value = value + cg_rcond - klass.shift;
        }
        terms.push_back({row - first_row, Term{column, value}});
      }
    }
    size *= ratio;
  }

  // Group the terms by row (keeping their order), then sum those of each column in that order.
  std::vector<std::size_t> offsets(local_rows + 1, 0);
  for (const auto& [row, term] : terms) {
    ++offsets[row + 1];
  }
  for (std::size_t r = 0; r < local_rows; ++r) {
    offsets[r + 1] += offsets[r];
  }
  std::vector<Term> by_row(terms.size());
  std::vector<std::size_t> next(offsets.begin(), offsets.end() - 1);
  for (const auto& [row, term] : terms) {
    by_row[next[row]++] = term;
  }
  terms = {};
  std::vector<std::size_t> row_offsets{0};
  std::vector<std::size_t> columns;
  std::vector<double> values;
  for (std::size_t r = 0; r < local_rows; ++r) {
    const auto begin = by_row.begin() + static_cast<std::ptrdiff_t>(offsets[r]);
    const auto end = by_row.begin() + static_cast<std::ptrdiff_t>(offsets[r + 1]);
    std::stable_sort(begin, end, [](const Term& x, const Term& y) { return x.column < y.column; });
    for (auto term = begin; term != end; ++term) {
      if (term != begin && term->column == columns.back()) {
        values.back() += term->value;
      } else {
        columns.push_back(term->column);
        values.push_back(term->value);
      }
    }
    row_offsets.push_back(columns.size());
  }
  return CsrMatrix<double>(n, n, row_offsets, columns, values, team);
}

// Collective: the sums over the team of the local dot products a . b and c . d.
std::array<double, 2> dots(const Array<double>& a, const Array<double>& b, const Array<double>& c,
                           const Array<double>& d) {
  std::array<double, 2> sums{0.0, 0.0};
  for (std::size_t j = 0; j < a.lsize(); ++j) {
    sums[0] += a.local[j] * b.local[j];
    sums[1] += c.local[j] * d.local[j];
  }
  comm::allreduce(sums, sums, plus{}, a.team().group());
  return sums;
}

// Collective: a . b over the team.
double dot(const Array<double>& a, const Array<double>& b) {
  double sum = 0.0;
  for (std::size_t j = 0; j < a.lsize(); ++j) {
    sum += a.local[j] * b.local[j];
  }
  comm::allreduce(std::span<const double>(&sum, 1), std::span<double>(&sum, 1), plus{}, a.team().group());
  return sum;
}

// The vectors of the solver, all on the matrix's rows.
struct Vectors {
  Array<double> x, z, p, q, r;
};

// NPB's conj_grad: 25 unpreconditioned CG iterations on A z = x from z = 0; returns |x - A z|.
double conj_grad(const CsrMatrix<double>& a, Vectors& v, const SparseMatvecOptions& options) {
  const std::size_t local = v.x.lsize();
  double* const x = v.x.lbegin();
  double* const z = v.z.lbegin();
  double* const p = v.p.lbegin();
  double* const q = v.q.lbegin();
  double* const r = v.r.lbegin();
  for (std::size_t j = 0; j < local; ++j) {
    z[j] = 0.0;
    r[j] = x[j];
    p[j] = r[j];
  }
  double rho = dot(v.r, v.r);
  for (int iteration = 0; iteration < cg_iterations_per_solve; ++iteration) {
    sparse_matvec(a, v.p, v.q, options);
    const double alpha = rho / dot(v.p, v.q);
    for (std::size_t j = 0; j < local; ++j) {
      z[j] += alpha * p[j];
      r[j] -= alpha * q[j];
    }
    const double rho_before = rho;
    rho = dot(v.r, v.r);
    const double beta = rho / rho_before;
    for (std::size_t j = 0; j < local; ++j) {
      p[j] = r[j] + beta * p[j];
    }
  }
  // r = A z, then the residual norm |x - r|.
  sparse_matvec(a, v.z, v.r, options);
  double sum = 0.0;
  for (std::size_t j = 0; j < local; ++j) {
    const double d = x[j] - r[j];
    sum += d * d;
  }
  comm::allreduce(std::span<const double>(&sum, 1), std::span<double>(&sum, 1), plus{}, v.x.team().group());
  return std::sqrt(sum);
}

// One outer iteration after conj_grad: x = z / |z|; returns x . z (before x changes).
double normalize(Vectors& v) {
  const std::array<double, 2> sums = dots(v.x, v.z, v.z, v.z);
  const double scale = 1.0 / std::sqrt(sums[1]);
  for (std::size_t j = 0; j < v.x.lsize(); ++j) {
    v.x.local[j] = scale * v.z.local[j];
  }
  return sums[0];
}

}  // namespace

const CgClass& cg_class(char name) {
  for (const CgClass& klass : classes) {
    if (klass.name == name) {
      return klass;
    }
  }
  throw invalid_argument("dash::bench::npb::cg_class", "name", std::string(1, name), "'S', 'W', 'A' or 'B'");
}

CgResult run_cg(char klass_name, Team& team, const SparseMatvecOptions& options) {
  const CgClass& klass = cg_class(klass_name);
  const CsrMatrix<double> a = make_matrix(klass, team);
  Vectors v{Array<double>(klass.na, BLOCKED, team), Array<double>(klass.na, BLOCKED, team),
            Array<double>(klass.na, BLOCKED, team), Array<double>(klass.na, BLOCKED, team),
            Array<double>(klass.na, BLOCKED, team)};

  // NPB's untimed warm-up: one outer iteration, then x back to all ones.
  std::fill(v.x.lbegin(), v.x.lend(), 1.0);
  conj_grad(a, v, options);
  normalize(v);
  std::fill(v.x.lbegin(), v.x.lend(), 1.0);

  CgResult result;
  result.klass = klass.name;
  result.na = klass.na;
  result.units = team.size();
  team.barrier();
  const auto start = std::chrono::steady_clock::now();
  for (int iteration = 0; iteration < klass.niter; ++iteration) {
    result.rnorm = conj_grad(a, v, options);
    result.zeta = klass.shift + 1.0 / normalize(v);
  }
  const double mine = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  comm::allreduce(std::span<const double>(&mine, 1), std::span<double>(&result.seconds, 1), max{}, team.group());

  const std::size_t local_nonzeros = a.local_nonzeros();
  comm::allreduce(std::span<const std::size_t>(&local_nonzeros, 1), std::span<std::size_t>(&result.nonzeros, 1),
                  plus{}, team.group());
  result.error = std::abs(result.zeta - klass.zeta_reference) / klass.zeta_reference;
  result.verified = result.error <= cg_tolerance;  // false for NaN
  const double nonzer = klass.nonzer;
  const double work_per_row = 3.0 + nonzer * (nonzer + 1.0) +
                              cg_iterations_per_solve * (5.0 + nonzer * (nonzer + 1.0)) + 3.0;
  result.mops = 1e-6 * 2.0 * klass.niter * static_cast<double>(klass.na) * work_per_row / result.seconds;
  return result;
}

}  // namespace dash::bench::npb

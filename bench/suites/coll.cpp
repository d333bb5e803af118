// The collectives suite: every algorithm of dash::comm for allreduce, allgather,
// reduce_scatter_block, alltoall and bcast, and every one of the MPI library's own algorithms
// (Open MPI's or MPICH's, suites/native_algorithm.hpp), each against that library's default
// decision in the same run. Sizes are bytes per contribution (per rank for allreduce and bcast, per
// block for the others), 8 B to 64 MiB.
//
// Map: operations (the five collectives), Contender and Buffer (who runs, on which memory),
// CollectiveWorkload (one case at one point), FloorWorkload (the memory-traffic floor), sizes and
// calls per run, make_case, and the registration of every case at the end.

#include <algorithm>
#include <cmath>
#include <functional>
#include <cstddef>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <dash/dash.hpp>

#include "runner/registry.hpp"
#include "suites/native_algorithm.hpp"

namespace dash::bench::coll {

namespace {

enum class Operation { allreduce, allgather, reduce_scatter_block, alltoall, bcast };

// The doubles of a contribution of `bytes`: sizes are bytes, and a size that is no whole number of
// doubles would be measured at another size than the one recorded.
std::size_t doubles_in(std::size_t bytes) {
  if (bytes == 0 || bytes % sizeof(double) != 0) {
    throw std::invalid_argument("coll: size " + std::to_string(bytes) +
                                " is no whole number of doubles (bytes per contribution: a positive multiple of 8)");
  }
  return bytes / sizeof(double);
}

struct OperationInfo {
  Operation operation;
  std::string_view name;  // also how the native algorithms name the collective
  comm::Coll collective;
  std::string_view mpi_call;
};

const std::vector<OperationInfo>& operations() {
  static const std::vector<OperationInfo> table{
      {Operation::allreduce, "allreduce", comm::Coll::allreduce, "MPI_Allreduce"},
      {Operation::allgather, "allgather", comm::Coll::allgather, "MPI_Allgather"},
      {Operation::reduce_scatter_block, "reduce_scatter_block", comm::Coll::reduce_scatter, "MPI_Reduce_scatter_block"},
      {Operation::alltoall, "alltoall", comm::Coll::alltoall, "MPI_Alltoall"},
      {Operation::bcast, "bcast", comm::Coll::bcast, "MPI_Bcast"},
  };
  return table;
}

constexpr double garbage = std::numeric_limits<double>::quiet_NaN();

// Values are small multiples of 1/2, so every sum is exact and verification can use ==.
double input_value(int rank, std::size_t index) { return rank + 1 + static_cast<double>(index % 7) * 0.5; }

// Who runs the measured calls: our collective (an algorithm name, empty for the library's
// choice; on the world group or on a team) or the MPI library with one of its algorithms forced.
struct Contender {
  std::string algorithm;
  std::unique_ptr<ForcedAlgorithm> native;
  bool on_team = false;
};

// Where a workload's buffers live: the process's heap, or node-shared memory as dash's containers
// hold their elements (a NodeWindow), which the node's processes reach by load and store.
enum class Memory { heap, node_shared };

// `count` doubles in `memory`; constructing one in node-shared memory is collective over `team`.
class Buffer {
public:
  Buffer(std::size_t count, Memory memory, MPI_Comm team) {
    if (memory == Memory::heap) {
      heap_.resize(count);
      view_ = heap_;
    } else {
      window_ = std::make_unique<comm::NodeWindow>(team, count * sizeof(double));
      view_ = {reinterpret_cast<double*>(window_->local().data()), count};
    }
  }
  std::span<double> view() const noexcept { return view_; }

private:
  std::vector<double> heap_;
  std::unique_ptr<comm::NodeWindow> window_;
  std::span<double> view_;
};

class CollectiveWorkload final : public Workload {
public:
  CollectiveWorkload(const OperationInfo& info, Contender contender, std::size_t bytes, MPI_Comm team,
                     std::size_t calls, Memory memory)
      : info_(info), contender_(std::move(contender)), team_(team), calls_(calls) {
    MPI_Comm_rank(team, &rank_);
    MPI_Comm_size(team, &size_);
    n_ = doubles_in(bytes);
    const auto p = static_cast<std::size_t>(size_);
    const bool per_block = info.operation == Operation::alltoall || info.operation == Operation::reduce_scatter_block;
    const std::size_t out_size = info.operation == Operation::allgather || info.operation == Operation::alltoall
                                     ? n_ * p
                                     : n_;
    in_memory_ = std::make_unique<Buffer>(per_block ? n_ * p : n_, memory, team);
    out_memory_ = std::make_unique<Buffer>(info.operation == Operation::bcast ? n_ : out_size, memory, team);
    in_ = in_memory_->view();
    out_ = out_memory_->view();
    options_.algorithm = contender_.algorithm;
    if (contender_.on_team) {  // the whole job: the workload runs on every rank
      team_of_all_ = &Team::All().split(1);
    }
    if (contender_.native) {
      // A forced algorithm the library cannot apply to these arguments is no result: the point is skipped.
      reset();
      if (auto refusal = contender_.native->refusal([this](MPI_Comm comm) { return run_mpi(comm); })) {
        throw PointNotApplicable(*refusal);
      }
    }
    reset();
  }

  ~CollectiveWorkload() override {
    if (team_of_all_ != nullptr) {
      team_of_all_->free();
    }
  }
  CollectiveWorkload(const CollectiveWorkload&) = delete;
  CollectiveWorkload& operator=(const CollectiveWorkload&) = delete;

  void run_impl() override {
    if (contender_.native) {
      // MPICH's forced choice holds process-wide: only for these calls, not for the runner's own.
      contender_.native->engage();
      for (std::size_t call = 0; call < calls_; ++call) {
        run_mpi(contender_.native->comm());
      }
      contender_.native->release();
      return;
    }
    for (std::size_t call = 0; call < calls_; ++call) {
      run_ours();
    }
  }

  void run_baseline() override {
    for (std::size_t call = 0; call < calls_; ++call) {
      run_mpi(team_);
    }
  }

  void reset() override {
    for (std::size_t i = 0; i < in_.size(); ++i) {
      in_[i] = info_.operation == Operation::alltoall
                   ? rank_ * 1000.0 + static_cast<double>(i / n_) + static_cast<double>(i % n_ % 7) * 0.5
                   : input_value(rank_, i);
    }
    std::fill(out_.begin(), out_.end(), garbage);
    if (info_.operation == Operation::bcast && rank_ == 0) {
      for (std::size_t i = 0; i < n_; ++i) {
        out_[i] = input_value(0, i);
      }
    }
  }

  bool verify() const override {
    const auto p = static_cast<double>(size_);
    const double rank_sum = p * (p + 1) / 2;
    for (std::size_t i = 0; i < out_.size(); ++i) {
      double expected = 0;
      switch (info_.operation) {
        case Operation::allreduce:
          expected = rank_sum + p * static_cast<double>(i % 7) * 0.5;
          break;
        case Operation::allgather:
          expected = input_value(static_cast<int>(i / n_), i % n_);
          break;
        case Operation::reduce_scatter_block:
          expected = rank_sum + p * static_cast<double>((static_cast<std::size_t>(rank_) * n_ + i) % 7) * 0.5;
          break;
        case Operation::alltoall:
          expected = static_cast<double>(i / n_) * 1000.0 + rank_ + static_cast<double>(i % n_ % 7) * 0.5;
          break;
        case Operation::bcast:
          expected = input_value(0, i);
          break;
      }
      if (!(out_[i] == expected)) {
        return false;
      }
    }
    return true;
  }

private:
  void run_ours() {
    const comm::Group& group = team_of_all_ != nullptr ? team_of_all_->group() : comm::Group::world();
    switch (info_.operation) {
      case Operation::allreduce:
        comm::allreduce(in_, out_, dash::plus{}, group, options_);
        break;
      case Operation::allgather:
        comm::allgather(in_, out_, group, options_);
        break;
      case Operation::reduce_scatter_block:
        comm::reduce_scatter_block(in_, out_, dash::plus{}, group, options_);
        break;
      case Operation::alltoall:
        comm::alltoall(in_, out_, group, options_);
        break;
      case Operation::bcast:
        comm::bcast(out_, 0, group, options_);
        break;
    }
  }

  // The MPI error code: the refusal probe's communicator returns errors, the others abort on one.
  int run_mpi(MPI_Comm comm) {
    const int n = static_cast<int>(n_);
    switch (info_.operation) {
      case Operation::allreduce:
        return MPI_Allreduce(in_.data(), out_.data(), n, MPI_DOUBLE, MPI_SUM, comm);
      case Operation::allgather:
        return MPI_Allgather(in_.data(), n, MPI_DOUBLE, out_.data(), n, MPI_DOUBLE, comm);
      case Operation::reduce_scatter_block:
        return MPI_Reduce_scatter_block(in_.data(), out_.data(), n, MPI_DOUBLE, MPI_SUM, comm);
      case Operation::alltoall:
        return MPI_Alltoall(in_.data(), n, MPI_DOUBLE, out_.data(), n, MPI_DOUBLE, comm);
      case Operation::bcast:
        return MPI_Bcast(out_.data(), n, MPI_DOUBLE, 0, comm);
    }
    return MPI_ERR_OTHER;
  }

  const OperationInfo& info_;
  Contender contender_;
  MPI_Comm team_;
  std::size_t calls_;
  int rank_ = 0;
  int size_ = 1;
  std::size_t n_ = 1;
  std::unique_ptr<Buffer> in_memory_;
  std::unique_ptr<Buffer> out_memory_;
  std::span<double> in_;
  std::span<double> out_;
  comm::Options options_;
  Team* team_of_all_ = nullptr;  // coll/<op>.team: a team split from Team::All() with every rank
};

// The memory-traffic floor of an operation (issue "Collective layer II", acceptance): the local
// work no algorithm on one node can avoid, done by every rank at once so that they share the
// memory bandwidth as in the collective. allreduce and reduce_scatter_block: c = a + b over the
// rank's block; allgather and alltoall (at p = 2 each output block is read from somewhere and
// written once): two copies of the block; bcast: one copy, the root idle.
class FloorWorkload final : public Workload {
public:
  FloorWorkload(const OperationInfo& info, std::size_t bytes, MPI_Comm team, std::size_t calls)
      : info_(info), team_(team), calls_(calls) {
    MPI_Comm_rank(team, &rank_);
    MPI_Comm_size(team, &size_);
    n_ = doubles_in(bytes);
    const auto p = static_cast<std::size_t>(size_);
    const bool per_block_input =
        info.operation == Operation::reduce_scatter_block || info.operation == Operation::alltoall;
    native_in_.resize(per_block_input ? n_ * p : 0);
    native_out_.resize(info.operation == Operation::allgather || info.operation == Operation::alltoall ? n_ * p : n_);
    a_.resize(n_);
    b_.resize(n_);
    c_.resize(n_);
    d_.resize(n_);
    reset();
  }

  void run_impl() override {
    for (std::size_t call = 0; call < calls_; ++call) {
      switch (info_.operation) {
        case Operation::allreduce:
        case Operation::reduce_scatter_block:
          for (std::size_t i = 0; i < n_; ++i) {
            c_[i] = a_[i] + b_[i];
          }
          break;
        case Operation::allgather:
        case Operation::alltoall:
          std::copy(a_.begin(), a_.end(), c_.begin());
          std::copy(b_.begin(), b_.end(), d_.begin());
          break;
        default:  // bcast: every rank but the root copies the block once
          if (rank_ != 0) {
            std::copy(a_.begin(), a_.end(), c_.begin());
          }
          break;
      }
    }
    MPI_Barrier(team_);  // the time is the slowest rank's
  }

  void run_baseline() override {
    const int n = static_cast<int>(n_);
    for (std::size_t call = 0; call < calls_; ++call) {
      switch (info_.operation) {
        case Operation::allreduce:
          MPI_Allreduce(a_.data(), native_out_.data(), n, MPI_DOUBLE, MPI_SUM, team_);
          break;
        case Operation::reduce_scatter_block:
          MPI_Reduce_scatter_block(native_in_.data(), native_out_.data(), n, MPI_DOUBLE, MPI_SUM, team_);
          break;
        case Operation::allgather:
          MPI_Allgather(a_.data(), n, MPI_DOUBLE, native_out_.data(), n, MPI_DOUBLE, team_);
          break;
        case Operation::alltoall:
          MPI_Alltoall(native_in_.data(), n, MPI_DOUBLE, native_out_.data(), n, MPI_DOUBLE, team_);
          break;
        default:
          MPI_Bcast(native_out_.data(), n, MPI_DOUBLE, 0, team_);
          break;
      }
    }
  }

  void reset() override {
    for (std::size_t i = 0; i < n_; ++i) {
      a_[i] = input_value(rank_, i);
      b_[i] = input_value(rank_ + 1, i);
    }
    std::fill(c_.begin(), c_.end(), garbage);
    std::fill(d_.begin(), d_.end(), garbage);
    std::fill(native_out_.begin(), native_out_.end(), garbage);
    // reduce_scatter_block sums ones; alltoall sends block d to rank d, which receives its own rank.
    for (std::size_t i = 0; i < native_in_.size(); ++i) {
      native_in_[i] = info_.operation == Operation::alltoall ? static_cast<double>(i / n_) : 1.0;
    }
    if (info_.operation == Operation::bcast && rank_ == 0) {
      for (std::size_t i = 0; i < n_; ++i) {
        native_out_[i] = input_value(0, i);
      }
    }
  }

  void prepare(Side side) override { side_ = side; }

  bool verify() const override { return side_ == Side::impl ? floor_done() : native_done(); }

private:
  bool floor_done() const {
    for (std::size_t i = 0; i < n_; ++i) {
      bool ok = true;
      switch (info_.operation) {
        case Operation::allreduce:
        case Operation::reduce_scatter_block:
          ok = c_[i] == a_[i] + b_[i];
          break;
        case Operation::allgather:
        case Operation::alltoall:
          ok = c_[i] == a_[i] && d_[i] == b_[i];
          break;
        default:
          ok = rank_ == 0 || c_[i] == a_[i];
          break;
      }
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  bool native_done() const {
    const auto p = static_cast<double>(size_);
    for (std::size_t i = 0; i < native_out_.size(); ++i) {
      double expected = 0;
      switch (info_.operation) {
        case Operation::allreduce:
          expected = p * (p + 1) / 2 + p * static_cast<double>(i % 7) * 0.5;
          break;
        case Operation::reduce_scatter_block:
          expected = p;
          break;
        case Operation::allgather:
          expected = input_value(static_cast<int>(i / n_), i % n_);
          break;
        case Operation::alltoall:
          expected = rank_;
          break;
        default:
          expected = input_value(0, i);
          break;
      }
      if (!(native_out_[i] == expected)) {
        return false;
      }
    }
    return true;
  }

  const OperationInfo& info_;
  MPI_Comm team_;
  std::size_t calls_;
  int rank_ = 0;
  int size_ = 1;
  std::size_t n_ = 1;
  Side side_ = Side::impl;
  std::vector<double> a_, b_, c_, d_;
  std::vector<double> native_in_, native_out_;  // the baseline's buffers
};

std::vector<std::size_t> message_sizes(Sweep sweep) {
  if (sweep == Sweep::quick) {
    return {8, 4096, 262144, 4194304};
  }
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 8; bytes <= (std::size_t{64} << 20); bytes *= 8) {
    sizes.push_back(bytes);
  }
  sizes.push_back(std::size_t{64} << 20);
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// Enough calls per timed run that short collectives last about a millisecond or more.
std::size_t calls_for(std::size_t bytes) {
  return std::clamp<std::size_t>((std::size_t{1} << 20) / std::max<std::size_t>(bytes, 1), 1, 200);
}

std::vector<int> whole_job(int job_size) { return {job_size}; }

// The whole job when forcing `algorithm` can serve it (the grid algorithms need DASH_TOPOLOGY to
// name a grid of the job's ranks, the arena a single-node job), else no run at all.
std::function<std::vector<int>(int)> whole_job_if_forcible(comm::Coll collective, std::string algorithm) {
  return [collective, algorithm](int job_size) {
    for (const comm::Candidate& candidate : comm::explain(collective, 4096, comm::Group::world()).candidates) {
      if (candidate.algorithm == algorithm && !candidate.forcible) {
        return std::vector<int>{};
      }
    }
    return std::vector<int>{job_size};
  };
}

Case make_case(const OperationInfo& info, std::string name, std::string impl,
               std::function<Contender(MPI_Comm)> contender, Memory memory = Memory::heap) {
  const std::string on_shared = memory == Memory::node_shared ? ", buffers in node-shared memory" : "";
  return Case{
      .suite = "coll",
      .name = std::move(name),
      .impl = std::move(impl) + on_shared,
      .baseline = std::string(info.mpi_call) + " (" + std::string(native_library_name()) + "'s default decision" +
                  on_shared + ")",
      .size_unit = "bytes per contribution",
      .sizes = message_sizes,
      .active_rank_counts = whole_job,
      .rate = std::nullopt,
      .make_workload = [&info, contender = std::move(contender),
                        memory](const Problem& problem) -> std::unique_ptr<Workload> {
        return std::make_unique<CollectiveWorkload>(info, contender(problem.team), problem.size, problem.team,
                                                    calls_for(problem.size), memory);
      },
      .calls_per_run = calls_for,
  };
}

// Registers, per operation: our default choice, the same on node-shared buffers (as dash's containers
// pass them) and on a team (teams run collectives on groups other than the world group), its
// memory-traffic floor, each of our algorithms, each native algorithm.
const bool registered = [] {
  for (const OperationInfo& info : operations()) {
    const std::string op(info.name);
    CaseRegistration(make_case(info, op, "dash::comm::" + op + " (library's choice)",
                               [](MPI_Comm) { return Contender{}; }));
    CaseRegistration(make_case(info, op + ".shared", "dash::comm::" + op + " (library's choice)",
                               [](MPI_Comm) { return Contender{}; }, Memory::node_shared));
    CaseRegistration(make_case(info, op + ".team", "dash::comm::" + op + " (library's choice) on a team of every rank",
                               [](MPI_Comm) { return Contender{{}, nullptr, true}; }));
    Case floor = make_case(info, op + ".floor", "memory-traffic floor of " + op + " (all ranks busy)",
                           [](MPI_Comm) { return Contender{}; });
    floor.make_workload = [&info](const Problem& problem) -> std::unique_ptr<Workload> {
      return std::make_unique<FloorWorkload>(info, problem.size, problem.team, calls_for(problem.size));
    };
    CaseRegistration(std::move(floor));
    for (const std::string_view algorithm : comm::algorithms(info.collective)) {
      if (algorithm.ends_with("_noncanonical")) {
        continue;  // fills the output in arrival order; the workloads verify canonical results
      }
      const std::string name(algorithm);
      Case forced = make_case(info, op + "." + name, "dash::comm::" + op + " algorithm " + name,
                              [name](MPI_Comm) { return Contender{name, nullptr}; });
      forced.active_rank_counts = whole_job_if_forcible(info.collective, name);
      CaseRegistration(std::move(forced));
    }
    for (const NativeAlgorithm& native : native_algorithms(info.name)) {
      CaseRegistration(make_case(info, op + ".native." + std::string(native.name),
                                 describe_native_algorithm(info.name, native), [&info, native](MPI_Comm team) {
                                   return Contender{{}, std::make_unique<ForcedAlgorithm>(team, info.name, native)};
                                 }));
    }
  }
  return true;
}();

}  // namespace

}  // namespace dash::bench::coll

// Forcing the MPI library's own collective algorithms (suites/native_algorithm.hpp). Map: MPI_T and
// ControlVariable, refusal_reason (the library's error text), then per build either Open MPI's tables
// and ForcedAlgorithm (coll_tuned_<op>_algorithm, read when a communicator is created) or MPICH's
// (MPIR_CVAR_<OP>_INTRA_ALGORITHM, checked against its description, engaged around the forced calls
// only), and the parts both share at the end.

#include "suites/native_algorithm.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include <dash/comm/exception.hpp>
#include <dash/comm/mpi_call.hpp>

#include "runner/registry.hpp"

// DASH_BENCH_MPI_OPENMPI / DASH_BENCH_MPI_MPICH: defined by bench/CMakeLists.txt for the MPI in use.

namespace dash::bench {

namespace {

// MPI_T must be initialised before control variables are used; it may be after MPI_Init.
void ensure_mpi_tool_interface() {
  static const bool initialised = [] {
    int provided = 0;
    return MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS;
  }();
  if (!initialised) {
    throw Exception("dash-bench: MPI_T_init_thread failed; native algorithms cannot be forced");
  }
}

// An integer control variable of the MPI library, by name, with its handle kept for quick writes.
class ControlVariable {
public:
  explicit ControlVariable(std::string name) : name_(std::move(name)) {
    ensure_mpi_tool_interface();
    int count = 0;
    if (MPI_T_cvar_get_index(name_.c_str(), &index_) != MPI_SUCCESS ||
        MPI_T_cvar_handle_alloc(index_, nullptr, &handle_, &count) != MPI_SUCCESS) {
      throw Exception("dash-bench: the MPI library has no control variable " + name_);
    }
  }
  ~ControlVariable() { MPI_T_cvar_handle_free(&handle_); }
  ControlVariable(const ControlVariable&) = delete;
  ControlVariable& operator=(const ControlVariable&) = delete;

  int read() const {
    int value = 0;
    if (MPI_T_cvar_read(handle_, &value) != MPI_SUCCESS) {
      throw Exception("dash-bench: cannot read MPI control variable " + name_);
    }
    return value;
  }

  void write(int value) {
    if (MPI_T_cvar_write(handle_, &value) != MPI_SUCCESS) {
      throw Exception("dash-bench: cannot set MPI control variable " + name_ + " = " + std::to_string(value));
    }
  }

  // The variable's description, as the library documents it.
  std::string description() const {
    char name[256] = {};
    int name_length = sizeof name;
    int verbosity = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_T_enum enumeration = MPI_T_ENUM_NULL;
    int description_length = 0;
    int binding = 0;
    int scope = 0;
    MPI_T_cvar_get_info(index_, name, &name_length, &verbosity, &type, &enumeration, nullptr,
                        &description_length, &binding, &scope);
    std::string text(static_cast<std::size_t>(description_length), '\0');
    name_length = sizeof name;
    MPI_T_cvar_get_info(index_, name, &name_length, &verbosity, &type, &enumeration, text.data(),
                        &description_length, &binding, &scope);
    return text.substr(0, text.find('\0'));
  }

  const std::string& name() const noexcept { return name_; }

private:
  std::string name_;
  int index_ = -1;
  MPI_T_cvar_handle handle_ = MPI_T_CVAR_HANDLE_NULL;
};

// Why the library refused a call, from its error text. MPICH's is a call stack, one frame per line
// ("function(line)....: message"), the first naming the call, the reason in the innermost frame with
// a message. The text ends at MPI_MAX_ERROR_STRING, which can cut that frame off: then the frames
// that are left say where the error arose.
std::string refusal_reason(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  const std::string stack(text, static_cast<std::size_t>(std::clamp(length, 0, MPI_MAX_ERROR_STRING)));
  std::string reason;
  std::string frames;
  std::size_t line = 0;
  for (std::size_t start = 0; start < stack.size(); ++line) {
    const std::size_t end = std::min(stack.find('\n', start), stack.size());
    const std::size_t colon = stack.find(": ", start);
    if (line >= 2 && colon < end) {  // line 0: "Other MPI error, error stack:", line 1: the call
      std::string message = stack.substr(colon + 2, end - colon - 2);
      message.erase(message.find_last_not_of(" \t") + 1);
      reason = message.empty() ? reason : message;
      const std::string frame = stack.substr(start, stack.find('(', start) - start);
      frames += (frames.empty() ? "" : " > ") + frame;
    }
    start = end + 1;
  }
  if (!reason.empty()) {
    return reason;
  }
  return frames.empty() ? stack.substr(0, stack.find('\n')) : "an error inside " + frames;
}

}  // namespace

#if DASH_BENCH_MPI_OPENMPI

// Open MPI 4.1's coll_tuned algorithm IDs.
const std::vector<NativeAlgorithm>& native_algorithms(std::string_view collective) {
  static const std::vector<std::pair<std::string_view, std::vector<NativeAlgorithm>>> table{
      {"allreduce",
       {{"basic_linear", 1}, {"nonoverlapping", 2}, {"recursive_doubling", 3}, {"ring", 4}, {"segmented_ring", 5},
        {"rabenseifner", 6}}},
      {"allgather",
       {{"linear", 1}, {"bruck", 2}, {"recursive_doubling", 3}, {"ring", 4}, {"neighbor", 5}, {"two_proc", 6}}},
      {"reduce_scatter_block",
       {{"basic_linear", 1}, {"recursive_doubling", 2}, {"recursive_halving", 3}, {"butterfly", 4}}},
      {"alltoall", {{"linear", 1}, {"pairwise", 2}, {"modified_bruck", 3}, {"linear_sync", 4}, {"two_proc", 5}}},
      {"bcast",
       {{"basic_linear", 1}, {"chain", 2}, {"pipeline", 3}, {"split_binary_tree", 4}, {"binary_tree", 5},
        {"binomial", 6}, {"knomial", 7}, {"scatter_allgather", 8}, {"scatter_allgather_ring", 9}}},
  };
  for (const auto& [name, algorithms] : table) {
    if (name == collective) {
      return algorithms;
    }
  }
  throw InvalidArgument("dash-bench: no native algorithms known for " + std::string(collective));
}

std::string_view native_library_name() { return "Open MPI"; }

std::string describe_native_algorithm(std::string_view collective, const NativeAlgorithm& algorithm) {
  return "Open MPI " + std::string(collective) + " algorithm " + std::to_string(algorithm.id) + " (" +
         std::string(algorithm.name) + ")";
}

// The tuned component reads the forced algorithm when a communicator is created, so a forced
// communicator needs nothing while it is used.
struct ForcedAlgorithm::Control {
  ControlVariable variable;
  int id;
};

ForcedAlgorithm::ForcedAlgorithm(MPI_Comm base, std::string_view collective, const NativeAlgorithm& algorithm)
    : base_(base) {
  ControlVariable dynamic_rules("coll_tuned_use_dynamic_rules");
  if (dynamic_rules.read() == 0) {
    throw Exception(
        "dash-bench: Open MPI's native algorithms can only be forced with "
        "OMPI_MCA_coll_tuned_use_dynamic_rules=1 (dash-bench sets it when it launches itself)");
  }
  control_.reset(new Control{ControlVariable("coll_tuned_" + std::string(collective) + "_algorithm"), algorithm.id});
  comm_ = probe_comm();
}

MPI_Comm ForcedAlgorithm::probe_comm() {
  const int previous = control_->variable.read();
  control_->variable.write(control_->id);
  MPI_Comm comm = MPI_COMM_NULL;
  const int result = MPI_Comm_dup(base_, &comm);
  control_->variable.write(previous);
  comm::check_mpi(result, "dash-bench: MPI_Comm_dup");
  return comm;
}

void ForcedAlgorithm::engage() {}
void ForcedAlgorithm::release() {}

#elif DASH_BENCH_MPI_MPICH

namespace {

// MPICH 4.0's algorithms per collective in the order of its enumeration, whose position is the value
// of MPIR_CVAR_<OP>_INTRA_ALGORITHM (auto, its default decision, = 0); `mpivars` and the variable's
// description list them in this order, which the description is checked against before forcing.
struct MpichCollective {
  std::string_view name;
  std::vector<std::string_view> enumeration;
};

const std::vector<MpichCollective>& mpich_collectives() {
  static const std::vector<MpichCollective> table{
      {"allreduce", {"auto", "nb", "smp", "recursive_doubling", "reduce_scatter_allgather"}},
      {"allgather", {"auto", "brucks", "nb", "recursive_doubling", "ring"}},
      {"reduce_scatter_block", {"auto", "noncommutative", "recursive_doubling", "pairwise", "recursive_halving", "nb"}},
      {"alltoall", {"auto", "brucks", "nb", "pairwise", "pairwise_sendrecv_replace", "scattered"}},
      {"bcast", {"auto", "binomial", "nb", "smp", "scatter_recursive_doubling_allgather", "scatter_ring_allgather"}},
  };
  return table;
}

const MpichCollective& mpich_collective(std::string_view collective) {
  for (const MpichCollective& entry : mpich_collectives()) {
    if (entry.name == collective) {
      return entry;
    }
  }
  throw InvalidArgument("dash-bench: no native algorithms known for " + std::string(collective));
}

std::string algorithm_variable(std::string_view collective) {
  std::string name = "MPIR_CVAR_";
  for (const char c : collective) {
    name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return name + "_INTRA_ALGORITHM";
}

// Throws unless the variable's description lists exactly `enumeration`, in that order: another MPICH
// may number its algorithms otherwise, and a wrong number would force another algorithm than named.
// The description runs its items together ("...algorithmauto - Internal ...nb   - Force ..."), so an
// item is its name followed by spaces and "- ".
void check_enumeration(const ControlVariable& variable, const std::vector<std::string_view>& enumeration) {
  const std::string description = variable.description();
  const auto find_item = [&](std::string_view name, std::size_t from) {
    for (std::size_t at = description.find(name, from); at != std::string::npos; at = description.find(name, at + 1)) {
      const std::size_t after = description.find_first_not_of(' ', at + name.size());
      if (after != at + name.size() && description.compare(after, 2, "- ") == 0) {
        return at;
      }
    }
    return std::string::npos;
  };
  std::size_t items = 0;
  for (std::size_t at = description.find(" - "); at != std::string::npos; at = description.find(" - ", at + 3)) {
    ++items;
  }
  bool in_order = items == enumeration.size();
  std::size_t position = 0;
  for (std::size_t index = 0; in_order && index < enumeration.size(); ++index) {
    position = find_item(enumeration[index], position);
    in_order = position != std::string::npos;
  }
  if (!in_order) {
    std::string expected;
    for (const std::string_view name : enumeration) {
      expected += (expected.empty() ? "" : ", ") + std::string(name);
    }
    throw Exception("dash-bench: this MPICH describes " + variable.name() + " as \"" + description +
                    "\", not as the algorithms " + expected +
                    " in this order (MPICH 4.0's), so their numbers are unknown");
  }
}

// MPICH's smp algorithms work in stages within and across nodes (allreduce: reduce within each node,
// allreduce across the nodes, bcast within each node). Throws PointNotApplicable unless `comm` spans
// several nodes and some node holds several of its ranks, where they are meant to run. Collective.
void require_node_hierarchy(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  comm::check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
                  "dash-bench: MPI_Comm_split_type");
  int node_rank = 0;
  int largest = 0;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &largest);
  MPI_Comm_free(&node);
  int nodes = node_rank == 0 ? 1 : 0;
  comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &nodes, 1, MPI_INT, MPI_SUM, comm), "dash-bench: MPI_Allreduce");
  comm::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPI_INT, MPI_MAX, comm), "dash-bench: MPI_Allreduce");
  if (nodes < 2 || largest < 2) {
    throw PointNotApplicable("MPICH's smp algorithm is for communicators over several nodes with several ranks "
                             "on a node; this one spans " + std::to_string(nodes) + " node(s), at most " +
                             std::to_string(largest) + " rank(s) on one");
  }
}

}  // namespace

const std::vector<NativeAlgorithm>& native_algorithms(std::string_view collective) {
  static const std::vector<std::pair<std::string_view, std::vector<NativeAlgorithm>>> table = [] {
    std::vector<std::pair<std::string_view, std::vector<NativeAlgorithm>>> algorithms;
    for (const MpichCollective& entry : mpich_collectives()) {
      std::vector<NativeAlgorithm> forced;
      for (std::size_t id = 1; id < entry.enumeration.size(); ++id) {
        // MPICH takes this alltoall only in place (MPI_IN_PLACE), which the coll suite never calls.
        if (entry.enumeration[id] != "pairwise_sendrecv_replace") {
          forced.push_back({entry.enumeration[id], static_cast<int>(id)});
        }
      }
      algorithms.emplace_back(entry.name, std::move(forced));
    }
    return algorithms;
  }();
  for (const auto& [name, algorithms] : table) {
    if (name == collective) {
      return algorithms;
    }
  }
  throw InvalidArgument("dash-bench: no native algorithms known for " + std::string(collective));
}

std::string_view native_library_name() { return "MPICH"; }

std::string describe_native_algorithm(std::string_view collective, const NativeAlgorithm& algorithm) {
  return "MPICH " + std::string(collective) + " algorithm " + std::string(algorithm.name) + " (" +
         algorithm_variable(collective) + "=" + std::to_string(algorithm.id) + ")";
}

// MPICH reads its choice at every call, process-wide, so it is set only while the forced calls run,
// together with MPIR_CVAR_COLLECTIVE_FALLBACK = error (0): otherwise MPICH silently runs its default
// decision where the forced algorithm cannot take the arguments. Not for smp, whose stages select
// their own algorithms: with errors for fallbacks, MPICH 4.0.2 fails inside its allreduce (on one
// node: in the bcast after the reduce) and then corrupts memory; smp runs only where it applies
// (require_node_hierarchy), and its stages fall back as MPICH chooses.
struct ForcedAlgorithm::Control {
  ControlVariable algorithm;
  ControlVariable fallback;
  int id;
  bool errors_for_fallbacks;
  int default_algorithm;
  int default_fallback;
};

ForcedAlgorithm::ForcedAlgorithm(MPI_Comm base, std::string_view collective, const NativeAlgorithm& algorithm)
    : base_(base),
      control_(new Control{ControlVariable(algorithm_variable(collective)),
                           ControlVariable("MPIR_CVAR_COLLECTIVE_FALLBACK"), algorithm.id, algorithm.name != "smp",
                           0, 0}) {
  if (algorithm.name == "smp") {
    require_node_hierarchy(base);
  }
  check_enumeration(control_->algorithm, mpich_collective(collective).enumeration);
  control_->default_algorithm = control_->algorithm.read();
  control_->default_fallback = control_->fallback.read();
  comm_ = probe_comm();
}

MPI_Comm ForcedAlgorithm::probe_comm() {
  MPI_Comm comm = MPI_COMM_NULL;
  comm::check_mpi(MPI_Comm_dup(base_, &comm), "dash-bench: MPI_Comm_dup");
  return comm;
}

void ForcedAlgorithm::engage() {
  control_->algorithm.write(control_->id);
  if (control_->errors_for_fallbacks) {
    control_->fallback.write(0);
  }
}

void ForcedAlgorithm::release() {
  control_->algorithm.write(control_->default_algorithm);
  control_->fallback.write(control_->default_fallback);
}

#endif

ForcedAlgorithm::~ForcedAlgorithm() {
  release();
  MPI_Comm_free(&comm_);
}

MPI_Comm ForcedAlgorithm::open_probe() {
  const MPI_Comm probe = probe_comm();
  comm::check_mpi(MPI_Comm_set_errhandler(probe, MPI_ERRORS_RETURN), "dash-bench: MPI_Comm_set_errhandler");
  return probe;
}

std::optional<std::string> ForcedAlgorithm::probe_outcome(MPI_Comm probe, int result) {
  std::optional<std::string> reason;
  if (result != MPI_SUCCESS) {
    reason = std::string(native_library_name()) + " refuses it for these arguments: " + refusal_reason(result);
  }
  MPI_Comm_free(&probe);
  return reason;
}

}  // namespace dash::bench

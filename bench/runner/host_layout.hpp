#pragma once
// The hosts a job runs on, as MPI sees them (shared-memory nodes, MPI_Comm_split_type), and the
// --hosts layouts dash-bench runs across: KxN (K hosts of N ranks) or N1,N2,... (one host per count).

#include <string>
#include <string_view>
#include <vector>

#include <mpi.h>
#include <nlohmann/json.hpp>

namespace dash::bench {

struct Host {
  std::string name;        // MPI_Get_processor_name of its lowest rank
  std::vector<int> ranks;  // its ranks in the job, ascending
};

// The job's hosts in the order of their lowest rank. Collective over `world`.
std::vector<Host> host_layout(MPI_Comm world);

// [{"name": ..., "ranks": [...]}, ...] for the results header.
nlohmann::json to_json(const std::vector<Host>& hosts);

// "2 hosts (vhost0: 1 rank, vhost1: 1 rank)"; "1 host" for a job on one. Takes to_json's list.
std::string describe(const nlohmann::json& hosts);

// The ranks per host of a --hosts layout, in host order. Throws dash::InvalidArgument naming the
// accepted forms.
std::vector<int> parse_hosts(std::string_view layout);

// Throws dash::InvalidArgument unless `hosts` has the ranks per host that `layout` names, in order.
void check_layout(const std::vector<Host>& hosts, std::string_view layout);

}  // namespace dash::bench

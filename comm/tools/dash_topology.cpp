// dash-topology: prints the topology dash detects for a job: the network (DASH_TOPOLOGY or
// --network), the nodes and each rank's package, NUMA domain and core.
//
//   mpirun -n 4 dash-topology
//   DASH_TOPOLOGY=torus:2x2 mpirun -n 4 dash-topology      (a virtual torus: one node per rank)
//   mpirun -n 8 dash-topology --network clos:T=4,mu=0.25
//
// Exit status 0, or 2 with the reason on standard error (e.g. a malformed descriptor).

#include <cstdio>
#include <exception>
#include <string_view>

#include <dash/comm/environment.hpp>
#include <dash/comm/exception.hpp>
#include <dash/comm/locality.hpp>
#include <dash/comm/network.hpp>
#include <dash/comm/topology.hpp>

int main(int argc, char** argv) {
  try {
    dash::Environment environment(argc, argv);
    const std::string_view option = argc > 1 ? argv[1] : "";
    if (argc > 3 || (argc > 1 && (option != "--network" || argc != 3))) {
      throw dash::InvalidArgument("dash-topology: usage: dash-topology [--network <descriptor>]");
    }
    const auto topology = argc == 3 ? dash::comm::Topology::detect(dash::comm::parse_network(argv[2], "dash-topology --network"))
                                    : dash::comm::Topology::detect();
    if (dash::myid() == 0) {
      std::printf("%shardware: %s\n", topology.describe().c_str(),
                  dash::comm::locality().hardware_source.c_str());
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "dash-topology: %s\n", error.what());
    return 2;
  }
}

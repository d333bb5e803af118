#pragma once
// Waiting outside MPI without starving the peers.
//
// Some of a peer's communication completes only while this process is inside MPI: a passive-
// target read of this process's window (MPICH, and Open MPI's point-to-point one-sided component,
// serve it from the target's progress engine), a rendezvous send whose receiver is here, a TCP
// connection to set up. A loop that waits on shared memory (flags another process sets) makes no
// MPI call, so a peer that waits on such an operation meanwhile waits on this loop: the two
// processes deadlock. Every library wait loop that spins outside MPI calls these.

namespace dash::comm {

// Lets MPI progress this process's part of others' communication (one MPI_Iprobe on a communicator
// no message is ever sent on). Cheap, but not free: a tight loop calls it every so many polls. Does
// nothing when the library is not initialised.
void drive_peer_progress();

// One idle step of a wait on other processes: drive_peer_progress(), then give the core away
// (oversubscribed, the process that holds the next step may need it).
void yield_to_peers();

namespace detail {

// The probe's communicator, a duplicate of MPI_COMM_WORLD: made by dash::init, freed by
// dash::finalize (both collective).
void open_peer_progress();
void close_peer_progress();

}  // namespace detail

}  // namespace dash::comm

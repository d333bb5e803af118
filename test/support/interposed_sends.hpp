#pragma once
// The point-to-point send calls the library makes (MPI_Isend, MPI_Issend, MPI_Send, MPI_Ssend,
// MPI_Sendrecv), interposed through MPI's profiling interface: each reports its message to
// record_send, which the including test program defines, and then sends it. Include it in one
// source file of a test program only.

#include <mpi.h>

// One message of `count` elements of `type` to `destination` on `comm`; `synchronous` for the
// synchronous-mode sends.
void record_send(int count, MPI_Datatype type, int destination, MPI_Comm comm, bool synchronous);

extern "C" int MPI_Isend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  record_send(count, type, destination, comm, false);
  return PMPI_Isend(buffer, count, type, destination, tag, comm, request);
}

extern "C" int MPI_Issend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm,
                          MPI_Request* request) {
  record_send(count, type, destination, comm, true);
  return PMPI_Issend(buffer, count, type, destination, tag, comm, request);
}

extern "C" int MPI_Send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm) {
  record_send(count, type, destination, comm, false);
  return PMPI_Send(buffer, count, type, destination, tag, comm);
}

extern "C" int MPI_Ssend(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm) {
  record_send(count, type, destination, comm, true);
  return PMPI_Ssend(buffer, count, type, destination, tag, comm);
}

extern "C" int MPI_Sendrecv(const void* send_buffer, int send_count, MPI_Datatype send_type, int destination,
                            int send_tag, void* receive_buffer, int receive_count, MPI_Datatype receive_type,
                            int source, int receive_tag, MPI_Comm comm, MPI_Status* status) {
  record_send(send_count, send_type, destination, comm, false);
  return PMPI_Sendrecv(send_buffer, send_count, send_type, destination, send_tag, receive_buffer, receive_count,
                       receive_type, source, receive_tag, comm, status);
}

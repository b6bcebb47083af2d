#ifndef PARLEY_CLIBPQ_SHIM_H
#define PARLEY_CLIBPQ_SHIM_H
#include <libpq-fe.h>
// ParleyPostgres waits on connection sockets with epoll (Swift's Glibc module omits it).
#include <sys/epoll.h>
#endif

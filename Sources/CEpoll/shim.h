// epoll and eventfd for ParleyHTTP's event loop: Swift's Glibc module does not export them.
#ifndef PARLEY_CEPOLL_SHIM_H
#define PARLEY_CEPOLL_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/uio.h>
#endif

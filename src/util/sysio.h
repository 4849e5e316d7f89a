/* The two system helpers every live part needs: a monotonic clock in
 * seconds and a write that does not stop half-way.  Nothing owned. */
#ifndef OOMDIAG_SYSIO_H
#define OOMDIAG_SYSIO_H

#include <stddef.h>

/* Seconds on CLOCK_MONOTONIC: for intervals only. */
double sysio_now_s(void);

/* Writes all N bytes of P to FD, again after EINTR and, for a descriptor
 * in non-blocking mode, after it becomes writable.  0, or -1 with errno. */
int sysio_write_all(int fd, const void *p, size_t n);

#endif

// Linux calls that glibc declares only with _GNU_SOURCE, which Swift's Glibc module does not
// define. (sanitizer.h beside it holds the ThreadSanitizer annotations.)
#ifndef OFFLINEKIT_CSYSTEM_SHIM_H
#define OFFLINEKIT_CSYSTEM_SHIM_H

#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <unistd.h>

#include <fcntl.h>

/// syncfs(2): flushes the file system that holds `fd` (fsync of every file written there).
static inline int ok_syncfs(int fd) { return syncfs(fd); }

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writing the dirty pages of a range
/// to the device and returns without waiting for them.
static inline int ok_start_writeback(int fd, long long offset, long long count) {
  return sync_file_range(fd, offset, count, SYNC_FILE_RANGE_WRITE);
}

#include <stdio.h>

/// Opens the file that `fd` is open on a second time, for writing whole blocks past the page
/// cache (O_DIRECT), through /proc/self/fd: the same file even if it was renamed meanwhile.
/// -1 with errno set where /proc is missing or the file system refuses O_DIRECT.
static inline int ok_open_direct_writer(int fd) {
  char path[40];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  return open(path, O_WRONLY | O_DIRECT | O_CLOEXEC);
}

#include <malloc.h>

/// mallopt(3) M_TRIM_THRESHOLD: glibc keeps up to `bytes` of freed memory at the top of each
/// heap instead of handing it back to the kernel. For an application's main, never a library.
static inline void ok_keep_freed_heap(int bytes) { mallopt(M_TRIM_THRESHOLD, bytes); }

#include <sys/prctl.h>

/// prctl(2) PR_SET_PDEATHSIG: the kernel sends `signal` to this process when the thread that
/// started it ends (its process killed, even with SIGKILL). prctl is variadic: Swift cannot
/// call it. A parent that dies before this call is not seen: compare getppid() after it.
static inline int ok_set_parent_death_signal(int signal) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}
#else
#include <unistd.h>
static inline int ok_syncfs(int fd) { (void)fd; sync(); return 0; }
static inline int ok_start_writeback(int fd, long long offset, long long count) {
  (void)fd; (void)offset; (void)count; return 0;
}
static inline void ok_keep_freed_heap(int bytes) { (void)bytes; }
#include <errno.h>
static inline int ok_open_direct_writer(int fd) { (void)fd; errno = ENOTSUP; return -1; }
static inline int ok_set_parent_death_signal(int signal) {
  (void)signal; errno = ENOTSUP; return -1;
}
#endif

#endif

// Linux calls that glibc declares only with _GNU_SOURCE, which Swift's Glibc module does not
// define. (sanitizer.h beside it holds the ThreadSanitizer annotations.)
#ifndef OFFLINEKIT_CSYSTEM_SHIM_H
#define OFFLINEKIT_CSYSTEM_SHIM_H

#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <unistd.h>

/// syncfs(2): flushes the file system that holds `fd` (fsync of every file written there).
static inline int ok_syncfs(int fd) { return syncfs(fd); }
#else
#include <unistd.h>
static inline int ok_syncfs(int fd) { (void)fd; sync(); return 0; }
#endif

#endif

// libmicrohttpd for Swift: typed wrappers for what Swift cannot call (the variadic
// MHD_start_daemon, and the constants defined as casts).
#ifndef OFFLINEKIT_CMICROHTTPD_SHIM_H
#define OFFLINEKIT_CMICROHTTPD_SHIM_H

#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

/// Starts a daemon on `address` with a pool of `threads` epoll threads, a connection limit,
/// an idle timeout (seconds), a per-connection memory limit for headers, a completion
/// callback and an unescape callback (so the handler sees the URL as the client sent it).
static inline struct MHD_Daemon *offline_mhd_start(
    unsigned int flags, const struct sockaddr *address, MHD_AccessHandlerCallback handler,
    void *context, MHD_RequestCompletedCallback completed, unsigned int connection_limit,
    unsigned int timeout_seconds, size_t memory_limit, unsigned int threads,
    size_t (*unescape)(void *cls, struct MHD_Connection *connection, char *uri)) {
  return MHD_start_daemon(
      flags, 0, NULL, NULL, handler, context,
      MHD_OPTION_SOCK_ADDR, address,
      MHD_OPTION_THREAD_POOL_SIZE, threads,
      MHD_OPTION_NOTIFY_COMPLETED, completed, context,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
      MHD_OPTION_UNESCAPE_CALLBACK, unescape, context,
      MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0); 0 when unknown.
static inline uint16_t offline_mhd_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

/// MHD_SIZE_UNKNOWN: a response whose length is not known in advance (chunked).
static inline uint64_t offline_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }

/// MHD_CONTENT_READER_END_OF_STREAM.
static inline ssize_t offline_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }

/// MHD_CONTENT_READER_END_WITH_ERROR.
static inline ssize_t offline_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

#endif

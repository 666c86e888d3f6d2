// Typed wrappers for what Swift cannot use from FFmpeg's libavformat, libavcodec and libavutil:
// macros (error codes, AV_NOPTS_VALUE, time bases) and the variadic log callback. Nothing else
// lives here: all logic is in Swift (OfflineExport).
#ifndef OFFLINEKIT_CAVFORMAT_SHIM_H
#define OFFLINEKIT_CAVFORMAT_SHIM_H

#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/mathematics.h>
#include <libavutil/murmur3.h>
#include <stdio.h>

/// AVERROR_EOF: the end of the input (a tag macro Swift does not import).
static inline int ok_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR(EAGAIN): a filter wants another packet before it gives one.
static inline int ok_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EXIT: returned by libav when the interrupt callback asked it to stop.
static inline int ok_averror_exit(void) { return AVERROR_EXIT; }
/// AV_NOPTS_VALUE: a timestamp that is not known.
static inline int64_t ok_av_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE_Q: microseconds, the time base of durations in AVFormatContext.
static inline AVRational ok_av_time_base_q(void) { return AV_TIME_BASE_Q; }

/// The function Swift gives to receive libav's log lines: a level and one formatted line.
typedef void (*ok_av_log_sink)(int level, const char *line);

/// The sink libav's log goes to; set once by ok_av_log_install.
static ok_av_log_sink ok_av_log_target = NULL;
/// Whether the next piece starts a line (libav logs some lines in pieces), as libav's own
/// callback keeps it; like libav's, unlocked: two threads logging at once may misplace a
/// prefix, nothing worse.
static int ok_av_log_line_start = 1;

/// Formats one libav log call (printf-style, with a va_list Swift cannot take) into a plain
/// string, the context's prefix only at the start of a line, and hands it to the sink.
/// Messages less severe than `AV_LOG_WARNING` are dropped.
static void ok_av_log_forward(void *context, int level, const char *format, va_list arguments) {
  if (level > AV_LOG_WARNING || ok_av_log_target == NULL) return;
  char line[1024];
  av_log_format_line2(
      context, level, format, arguments, line, (int)sizeof(line), &ok_av_log_line_start);
  ok_av_log_target(level, line);
}

/// Sends every libav log message of level warning and up to `sink`, never to stderr.
static inline void ok_av_log_install(ok_av_log_sink sink) {
  ok_av_log_target = sink;
  av_log_set_level(AV_LOG_WARNING);
  av_log_set_callback(ok_av_log_forward);
}

#endif

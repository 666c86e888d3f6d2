// Typed wrappers for libcurl's variadic functions and macros, which Swift cannot call.
// Nothing else lives here: all logic is in Swift (OfflineHTTP).
#ifndef OFFLINEKIT_CCURL_SHIM_H
#define OFFLINEKIT_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode ok_easy_setopt_long(CURL *h, CURLoption o, long v) {
  return curl_easy_setopt(h, o, v);
}
static inline CURLcode ok_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) {
  return curl_easy_setopt(h, o, v);
}
static inline CURLcode ok_easy_setopt_ptr(CURL *h, CURLoption o, void *v) {
  return curl_easy_setopt(h, o, v);
}
static inline CURLcode ok_easy_setopt_str(CURL *h, CURLoption o, const char *v) {
  return curl_easy_setopt(h, o, v);
}
static inline CURLcode ok_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) {
  return curl_easy_setopt(h, o, v);
}

typedef size_t (*ok_data_callback)(char *ptr, size_t size, size_t nmemb, void *userdata);

static inline CURLcode ok_easy_setopt_data_callback(CURL *h, CURLoption o, ok_data_callback f) {
  return curl_easy_setopt(h, o, f);
}

static inline CURLcode ok_easy_getinfo_long(CURL *h, CURLINFO i, long *v) {
  return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ok_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) {
  return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ok_easy_getinfo_str(CURL *h, CURLINFO i, char **v) {
  return curl_easy_getinfo(h, i, v);
}
static inline CURLcode ok_easy_getinfo_ptr(CURL *h, CURLINFO i, void **v) {
  return curl_easy_getinfo(h, i, v);
}

static inline CURLMcode ok_multi_setopt_long(CURLM *m, CURLMoption o, long v) {
  return curl_multi_setopt(m, o, v);
}

/// The result code of a finished transfer, read from the union inside CURLMsg.
static inline CURLcode ok_msg_result(const CURLMsg *msg) { return msg->data.result; }

/// CURL_WRITEFUNC_PAUSE, a macro.
static inline size_t ok_writefunc_pause(void) { return CURL_WRITEFUNC_PAUSE; }

/// CURLAUTH_BASIC, a macro with a cast.
static inline long ok_auth_basic(void) { return (long)CURLAUTH_BASIC; }

// The share interface (a cookie jar shared by the easy handles of one content).
static inline CURLSHcode ok_share_setopt_long(CURLSH *s, CURLSHoption o, long v) {
  return curl_share_setopt(s, o, v);
}
static inline CURLSHcode ok_share_setopt_ptr(CURLSH *s, CURLSHoption o, void *v) {
  return curl_share_setopt(s, o, v);
}
static inline CURLSHcode ok_share_setopt_lock(CURLSH *s, curl_lock_function f) {
  return curl_share_setopt(s, CURLSHOPT_LOCKFUNC, f);
}
static inline CURLSHcode ok_share_setopt_unlock(CURLSH *s, curl_unlock_function f) {
  return curl_share_setopt(s, CURLSHOPT_UNLOCKFUNC, f);
}

#endif

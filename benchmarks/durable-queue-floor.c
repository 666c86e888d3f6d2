// What one thread can do for a queue of small files when every file is made durable,
// hashed and recorded, as `offline run` does, with nothing else: a lower bound for the
// queue row, to set beside curl (which does none of the three) and `offline run`.
//
// Build: cc -O2 -pthread -o durable-queue-floor durable-queue-floor.c -lcurl -lcrypto -lsqlite3
// Run:   durable-queue-floor URL_LIST FOLDER [PARALLEL=8] [THREADS=1] [LEAVE_OUT]
//
// One libcurl multi handle runs PARALLEL requests at a time on this thread. Each body is
// gathered in memory; when it ends: SHA-256 (libcrypto), written past the page cache
// (O_DIRECT, whole blocks; the tail through the page cache) into NAME.part, renamed to
// NAME. Every 64 files (and at the end): one syncfs, then one SQLite transaction (WAL,
// synchronous=NORMAL) records each file's path, URL, length and SHA-256 as downloaded.
// THREADS=N > 1 hands each ended body to N-1 more threads for all of that (hash, write,
// rename, batch), so the network and the disk work overlap, and N-1 direct writes wait for
// the device at once.
// LEAVE_OUT, a comma-separated list, drops parts of that to show what each costs: `hash`
// (no SHA-256), `direct` (the whole body written through the page cache), `rename` (written
// under its final name), `sync` (no syncfs), `record` (no SQLite). With all five left out
// it does what curl does: each body written once through the page cache, and nothing else.
// There is no resume, no retry and no journal of partial files: it is a floor, not a
// downloader. Exits 1 on the first failure (a status other than 200, a short write).
// benchmarks/queue-ab.sh runs it beside curl when FLOOR=1.
#define _GNU_SOURCE
#include <curl/curl.h>
#include <fcntl.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { block = 4096, batch_size = 64 };

/// What LEAVE_OUT dropped; set once in main, before any thread starts.
static int skip_hash, skip_direct, skip_rename, skip_sync, skip_record;

typedef struct {
  char *bytes;
  size_t length, capacity;
  char url[1024];
  char path[1024];
  char sha256[65];
} Body;

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "durable-queue-floor: %s: %s\n", what, detail);
  exit(1);
}

static size_t gather(char *data, size_t size, size_t count, void *context) {
  Body *body = context;
  size_t n = size * count;
  if (body->length + n > body->capacity) {
    size_t capacity = body->capacity * 2;
    while (capacity < body->length + n) capacity *= 2;
    char *grown;
    if (posix_memalign((void **)&grown, block, capacity) != 0) fail("memory", body->url);
    memcpy(grown, body->bytes, body->length);
    free(body->bytes);
    body->bytes = grown;
    body->capacity = capacity;
  }
  memcpy(body->bytes + body->length, data, n);
  body->length += n;
  return n;
}

static void write_durably(Body *body) {
  if (!skip_hash) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256((const unsigned char *)body->bytes, body->length, digest);
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++) sprintf(body->sha256 + 2 * i, "%02x", digest[i]);
  }
  char part[1100];
  snprintf(part, sizeof part, skip_rename ? "%s" : "%s.part", body->path);
  size_t whole = skip_direct ? 0 : body->length / block * block;
  if (whole > 0) {
    int fd = open(part, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_CLOEXEC, 0644);
    if (fd < 0) fail("open", part);
    if (pwrite(fd, body->bytes, whole, 0) != (ssize_t)whole) fail("write", part);
    close(fd);
  }
  if (body->length > whole || body->length == 0) {
    int flags = whole > 0 ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
    int fd = open(part, flags, 0644);
    size_t tail = body->length - whole;
    if (fd < 0 || pwrite(fd, body->bytes + whole, tail, whole) != (ssize_t)tail) {
      fail("write", part);
    }
    close(fd);
  }
  if (!skip_rename && rename(part, body->path) != 0) fail("rename", part);
  free(body->bytes);
  body->bytes = NULL;
}

static void record_batch(sqlite3 *db, sqlite3_stmt *insert, int folder, Body **done, int count) {
  if (!skip_sync && syncfs(folder) != 0) fail("syncfs", "folder");
  if (skip_record) {
    for (int i = 0; i < count; i++) free(done[i]);
    return;
  }
  sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
  for (int i = 0; i < count; i++) {
    sqlite3_bind_text(insert, 1, done[i]->path, -1, SQLITE_STATIC);
    sqlite3_bind_text(insert, 2, done[i]->url, -1, SQLITE_STATIC);
    sqlite3_bind_int64(insert, 3, (sqlite3_int64)done[i]->length);
    sqlite3_bind_text(insert, 4, done[i]->sha256, -1, SQLITE_STATIC);
    if (sqlite3_step(insert) != SQLITE_DONE) fail("sqlite", sqlite3_errmsg(db));
    sqlite3_reset(insert);
    free(done[i]);
  }
  if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) fail("sqlite", sqlite3_errmsg(db));
}

/// Ended bodies handed from the network thread to the disk threads (THREADS > 1), and the
/// bodies they wrote, recorded 64 at a time by whichever disk thread finds a batch due.
typedef struct {
  pthread_mutex_t lock;
  pthread_cond_t ready;
  Body **items;
  int head, tail;  // `items` holds every body of the run: no wrapping
  int closed;
  Body **written;
  int written_count, recorded, recording;
  sqlite3 *db;
  sqlite3_stmt *insert;
  int folder;
} HandOff;

static void hand_over(HandOff *queue, Body *body) {
  pthread_mutex_lock(&queue->lock);
  queue->items[queue->tail++] = body;
  pthread_cond_signal(&queue->ready);
  pthread_mutex_unlock(&queue->lock);
}

static void *disk_thread(void *context) {
  HandOff *queue = context;
  for (;;) {
    pthread_mutex_lock(&queue->lock);
    while (queue->head == queue->tail && !queue->closed) {
      pthread_cond_wait(&queue->ready, &queue->lock);
    }
    if (queue->head == queue->tail) {
      pthread_mutex_unlock(&queue->lock);
      break;
    }
    Body *body = queue->items[queue->head++];
    pthread_mutex_unlock(&queue->lock);
    write_durably(body);
    pthread_mutex_lock(&queue->lock);
    queue->written[queue->written_count++] = body;
    if (!queue->recording && queue->written_count - queue->recorded >= batch_size) {
      int from = queue->recorded;
      queue->recorded += batch_size;
      queue->recording = 1;
      pthread_mutex_unlock(&queue->lock);
      record_batch(queue->db, queue->insert, queue->folder, queue->written + from, batch_size);
      pthread_mutex_lock(&queue->lock);
      queue->recording = 0;
    }
    pthread_mutex_unlock(&queue->lock);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 3) fail("usage", "durable-queue-floor URL_LIST FOLDER [PARALLEL] [THREADS] [LEAVE_OUT]");
  const char *folder_path = argv[2];
  int parallel = argc > 3 ? atoi(argv[3]) : 8;
  int threads = argc > 4 ? atoi(argv[4]) : 1;
  const char *leave_out = argc > 5 ? argv[5] : "";
  char parts[256];
  snprintf(parts, sizeof parts, "%s", leave_out);
  for (char *part = strtok(parts, ","); part; part = strtok(NULL, ",")) {
    if (!strcmp(part, "hash")) skip_hash = 1;
    else if (!strcmp(part, "direct")) skip_direct = 1;
    else if (!strcmp(part, "rename")) skip_rename = 1;
    else if (!strcmp(part, "sync")) skip_sync = 1;
    else if (!strcmp(part, "record")) skip_record = 1;
    else fail("LEAVE_OUT names an unknown part", part);
  }
  FILE *list = fopen(argv[1], "r");
  if (!list) fail("cannot read", argv[1]);
  char line[1024];
  char **urls = NULL;
  int total = 0;
  while (fgets(line, sizeof line, list)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!*line || *line == '#') continue;
    urls = realloc(urls, sizeof(char *) * (total + 1));
    urls[total++] = strdup(line);
  }
  fclose(list);

  char db_path[1100];
  snprintf(db_path, sizeof db_path, "%s/index.sqlite", folder_path);
  sqlite3 *db;
  if (sqlite3_open(db_path, &db) != SQLITE_OK) fail("sqlite", db_path);
  sqlite3_exec(
    db,
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; CREATE TABLE IF NOT EXISTS files "
    "(path TEXT PRIMARY KEY, url TEXT, length INTEGER, sha256 TEXT, state TEXT)",
    NULL, NULL, NULL);
  sqlite3_stmt *insert;
  sqlite3_prepare_v2(
    db, "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, 'downloaded')", -1, &insert, NULL);
  int folder = open(folder_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder < 0) fail("open", folder_path);

  HandOff queue = {
    .items = calloc(total + 1, sizeof(Body *)), .written = calloc(total + 1, sizeof(Body *)),
    .db = db, .insert = insert, .folder = folder};
  pthread_mutex_init(&queue.lock, NULL);
  pthread_cond_init(&queue.ready, NULL);
  pthread_t disks[16];
  int disk_count = threads > 17 ? 16 : threads - 1;
  for (int i = 0; i < disk_count; i++) pthread_create(&disks[i], NULL, disk_thread, &queue);
  curl_global_init(CURL_GLOBAL_ALL);
  CURLM *multi = curl_multi_init();
  Body *done[batch_size];
  int next = 0, running = 0, finished = 0, pending = 0;
  while (finished < total) {
    while (running < parallel && next < total) {
      Body *body = calloc(1, sizeof *body);
      body->capacity = 128 << 10;
      if (posix_memalign((void **)&body->bytes, block, body->capacity) != 0) fail("memory", "");
      snprintf(body->url, sizeof body->url, "%s", urls[next]);
      const char *name = strrchr(urls[next], '/');
      snprintf(body->path, sizeof body->path, "%s/%s", folder_path, name ? name + 1 : "file");
      next++;
      CURL *easy = curl_easy_init();
      curl_easy_setopt(easy, CURLOPT_URL, body->url);
      curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, gather);
      curl_easy_setopt(easy, CURLOPT_WRITEDATA, body);
      curl_easy_setopt(easy, CURLOPT_PRIVATE, body);
      curl_multi_add_handle(multi, easy);
      running++;
    }
    int still, queued, ended = 0;
    curl_multi_perform(multi, &still);
    CURLMsg *message;
    while ((message = curl_multi_info_read(multi, &queued))) {
      if (message->msg != CURLMSG_DONE) continue;
      CURL *easy = message->easy_handle;
      Body *body;
      long status = 0;
      curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&body);
      curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
      if (message->data.result != CURLE_OK || status != 200) fail("request failed", body->url);
      curl_multi_remove_handle(multi, easy);
      curl_easy_cleanup(easy);
      running--;
      ended++;
      finished++;
      if (disk_count > 0) {
        hand_over(&queue, body);
        continue;
      }
      write_durably(body);
      done[pending++] = body;
      if (pending == batch_size || finished == total) {
        record_batch(db, insert, folder, done, pending);
        pending = 0;
      }
    }
    if (finished < total && ended == 0) curl_multi_poll(multi, NULL, 0, 1000, NULL);
  }
  if (disk_count > 0) {
    pthread_mutex_lock(&queue.lock);
    queue.closed = 1;
    pthread_cond_broadcast(&queue.ready);
    pthread_mutex_unlock(&queue.lock);
    for (int i = 0; i < disk_count; i++) pthread_join(disks[i], NULL);
    while (queue.recorded < queue.written_count) {
      int count = queue.written_count - queue.recorded;
      if (count > batch_size) count = batch_size;
      record_batch(db, insert, folder, queue.written + queue.recorded, count);
      queue.recorded += count;
    }
  }
  sqlite3_finalize(insert);
  sqlite3_close(db);
  return 0;
}

// Happens-before annotations for ThreadSanitizer, for locks it cannot see into.
//
// Swift's Synchronization.Mutex on Linux hands a contended lock over inside the kernel (a
// futex), in code the sanitizer does not instrument, so TSan would report state guarded by it
// as racing. `OfflineLocks.Locked` calls these around every critical section. Outside a TSan
// build the runtime's functions are absent (weak symbols resolve to null) and these do nothing.
#ifndef OFFLINEKIT_CSYSTEM_SANITIZER_H
#define OFFLINEKIT_CSYSTEM_SANITIZER_H

#if defined(__linux__)
extern void __tsan_acquire(void *addr) __attribute__((weak));
extern void __tsan_release(void *addr) __attribute__((weak));

/// Tells TSan that what happened before the last `ok_tsan_release(addr)` is visible now.
static inline void ok_tsan_acquire(void *addr) {
  if (__tsan_acquire) __tsan_acquire(addr);
}

/// Tells TSan that what happened so far is visible to the next `ok_tsan_acquire(addr)`.
static inline void ok_tsan_release(void *addr) {
  if (__tsan_release) __tsan_release(addr);
}
#else
// On Apple platforms Mutex is an os_unfair_lock, which TSan understands on its own.
static inline void ok_tsan_acquire(void *addr) { (void)addr; }
static inline void ok_tsan_release(void *addr) { (void)addr; }
#endif

#endif

import Foundation

/// Runs `work`, which blocks its thread (ffmpeg making a fixture, nginx starting, a decode),
/// on a thread of its own and awaits it.
///
/// The concurrency pool has as many threads as cores (two here): a test that blocks one to
/// wait for a process, while other suites run in parallel, leaves the managers and transfers
/// under test without a thread, and their bounded waits run out. Awaiting a continuation
/// resumed from a thread of its own keeps the pool free.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Result { try work() }) }.start()
  }
}

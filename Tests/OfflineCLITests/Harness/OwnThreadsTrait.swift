import TestSupport
import Testing

/// Runs a test's body on threads of its own (a ``DispatchTaskExecutor``) instead of the
/// concurrency pool, whose two threads here other suites may hold (an ffmpeg fixture being
/// made, nginx started or stopped: TestSupport calls that still block). A test that kills or
/// signals a process after a pause, or waits for bytes to arrive, then acts on time while
/// other suites run beside it.
struct OwnThreadsTrait: SuiteTrait, TestTrait, TestScoping {
  var isRecursive: Bool { true }

  func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withTaskExecutorPreference(DispatchTaskExecutor(label: "test-\(test.name)")) {
      try await function()
    }
  }
}

extension Trait where Self == OwnThreadsTrait {
  /// Runs each test of the suite on threads of its own (see ``OwnThreadsTrait``).
  static var ownThreads: Self { OwnThreadsTrait() }
}

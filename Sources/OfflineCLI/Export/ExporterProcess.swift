import ExportChannel
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of `offline-export`: started with `posix_spawn`, its standard output (the
/// messages) read and its end waited for, all on a thread of its own.
///
/// That thread lives until the exporter has ended, which matters: the exporter asks the kernel
/// to kill it when the thread that started it ends (`PR_SET_PDEATHSIG`), so that a SIGKILL of
/// `offline` never leaves an exporter running; a thread of the task pool could end first.
/// Cancelling the calling task sends the exporter SIGINT, and it stops as it does on Ctrl-C.
final class ExporterProcess: Sendable {
  /// How the exporter ended.
  struct Termination: Sendable, Equatable {
    /// Its exit code, or 128 plus the signal that killed it.
    var status: Int32
    /// The signal that killed it, if one did.
    var signal: Int32?
  }

  private struct Child {
    var pid: pid_t?
    var cancelled = false
  }

  /// The executable.
  let path: String
  /// Its arguments, after its name.
  let arguments: [String]
  /// Its whole environment.
  let environment: [String: String]
  private let child = Mutex(Child())

  init(path: String, arguments: [String], environment: [String: String]) {
    self.path = path
    self.arguments = arguments
    self.environment = environment
  }

  /// Runs the exporter to its end, calling `received` (on the exporter's thread, in order) with
  /// each message it writes. Nil when cancelled before it started.
  func run(received: @escaping @Sendable (ExportMessage) -> Void) async throws(ExporterError)
    -> Termination?
  {
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<Termination?, ExporterError>, Never>) in
        let thread = Thread { [self] in
          continuation.resume(returning: spawnAndWait(received: received))
        }
        thread.name = "offline-export-child"
        thread.start()
      }
    } onCancel: {
      stop()
    }
    return try result.get()
  }

  /// Sends SIGINT to a running exporter; one not yet started is not started.
  private func stop() {
    child.withLock { child in
      child.cancelled = true
      if let pid = child.pid { kill(pid, SIGINT) }
    }
  }

  private func spawnAndWait(received: @Sendable (ExportMessage) -> Void) -> Result<
    Termination?, ExporterError
  > {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return .failure(.couldNotStart(path: path, errno: errno)) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let spawned = child.withLock { child -> Result<pid_t, ExporterError>? in
      // Under the lock, so that a stop either comes before (nothing starts) or sees the pid.
      guard !child.cancelled else { return nil }
      let result = spawn(output: ends[1])
      if case .success(let pid) = result { child.pid = pid }
      return result
    }
    close(ends[1])
    guard let spawned else {
      close(ends[0])
      return .success(nil)
    }
    guard case .success(let pid) = spawned else {
      close(ends[0])
      return spawned.map { _ in nil }
    }
    Self.readLines(from: ends[0]) { line in
      if let message = ExportMessage(line: line) { received(message) }
    }
    close(ends[0])
    return .success(wait(for: pid))
  }

  /// Starts the exporter with `output` as its standard output, /dev/null as its standard
  /// input, this process's standard error, no signal blocked and SIGINT, SIGTERM and SIGPIPE
  /// at their default actions.
  private func spawn(output: Int32) -> Result<pid_t, ExporterError> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid = pid_t()
    let code = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    return code == 0 ? .success(pid) : .failure(.couldNotStart(path: path, errno: code))
  }

  /// Waits for the exporter to end and reaps it. The pid is forgotten before it is reaped, so
  /// that a late stop never signals another process that got the number.
  private func wait(for pid: pid_t) -> Termination {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
    child.withLock { $0.pid = nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    return signal == 0
      ? Termination(status: (status >> 8) & 0xff, signal: nil)
      : Termination(status: 128 + signal, signal: signal)
  }

  /// Calls `line` with each line read from `descriptor` until its end (split on bytes, so a
  /// character cut between two reads is whole in its line).
  private static func readLines(from descriptor: Int32, line: (String) -> Void) {
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      pending += buffer[..<count]
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        line(String(decoding: pending[..<newline], as: UTF8.self))
        pending.removeSubrange(...newline)
      }
    }
    if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
  }
}

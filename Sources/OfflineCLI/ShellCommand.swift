import Foundation

/// One `/bin/sh -c` command whose standard output is read until the command itself exits.
///
/// Foundation's `Process` on Linux learns of the exit through a descriptor the child
/// inherits, and `readabilityHandler` waits for the end of the output: a command that
/// leaves a process in the background (`helper &`) hands both to that process, which kept
/// the caller waiting for as long as it ran. Here the command is spawned with
/// `posix_spawn`, its exit is read with `waitpid`, and what it wrote before exiting is read
/// from the pipe without waiting for the pipe's other holders to close it.
struct ShellCommand {
  /// How the command ended.
  enum Ending: Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)
    /// It ran past the timeout; its process group was killed.
    case timedOut
  }

  /// The command line given to `/bin/sh -c`.
  let command: String
  /// The variables added to `baseEnvironment` for it.
  let environment: [String: String]
  /// The environment of the run it belongs to (not read from the process).
  let baseEnvironment: [String: String]
  /// The folder it starts in.
  let workingDirectory: String
  /// The longest it may run, in seconds.
  let timeout: Double
  /// At most this many bytes of its output are kept; the rest is read and dropped.
  var outputLimit = 64 << 10

  /// Runs the command (standard input `/dev/null`, standard error this process's) and
  /// returns how it ended with what it printed; an error text when it cannot start.
  func run() -> Result<(ending: Ending, output: Data), ShellCommandError> {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return .failure(ShellCommandError(errno: errno)) }
    let (reader, writer) = (ends[0], ends[1])
    _ = fcntl(reader, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writer, F_SETFD, FD_CLOEXEC)
    let spawned = spawn(writingTo: writer)
    close(writer)
    defer { close(reader) }
    guard case .success(let pid) = spawned else {
      if case .failure(let error) = spawned { return .failure(error) }
      return .failure(ShellCommandError(errno: EINVAL))
    }
    _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
    var output = Data()
    let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
    var status: Int32 = 0
    while true {
      drain(reader, into: &output)
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid || (waited < 0 && errno != EINTR) { break }
      if ContinuousClock.now >= deadline {
        kill(-pid, SIGKILL)  // its own process group: what it left behind goes too
        _ = waitpid(pid, &status, 0)
        return .success((.timedOut, output))
      }
      var watched = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
      _ = poll(&watched, 1, 10)
    }
    // Everything it wrote before exiting is in the pipe now; a process it left in the
    // background may hold the pipe open, so read what is there and no more.
    drain(reader, into: &output)
    let signal = status & 0x7f
    return .success((signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal), output))
  }

  /// Reads what `descriptor` holds now, keeping at most ``outputLimit`` bytes in `output`.
  private func drain(_ descriptor: Int32, into output: inout Data) {
    var buffer = [UInt8](repeating: 0, count: 16 << 10)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return }
      let room = max(0, outputLimit - output.count)
      output.append(contentsOf: buffer.prefix(min(count, room)))
    }
  }

  /// Starts `/bin/sh -c command` in a process group of its own, its standard output
  /// `writer`, with the default handling of the signals this process ignores or traps.
  private func spawn(writingTo writer: Int32) -> Result<pid_t, ShellCommandError> {
    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #else
      var actions: posix_spawn_file_actions_t? = nil
      var attributes: posix_spawnattr_t? = nil
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, writer, STDOUT_FILENO)
    #if canImport(Glibc)
      Self.addChdir(&actions, workingDirectory)
    #else
      posix_spawn_file_actions_addchdir_np(&actions, workingDirectory)
    #endif
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    var variables = baseEnvironment
    variables.merge(environment) { _, given in given }
    let words: [String] = ["/bin/sh", "-c", command]
    let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    let entries: [UnsafeMutablePointer<CChar>?] =
      variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in arguments + entries { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, entries)
    guard result == 0 else { return .failure(ShellCommandError(errno: result)) }
    return .success(pid)
  }
}

#if canImport(Glibc)
  extension ShellCommand {
    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which the Glibc module
    /// does not import: the child starts in the run's working folder without this process
    /// ever changing its own (`chdir` is process-wide).
    private typealias AddChdir =
      @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>)
      -> Int32

    private static let addChdirFunction: AddChdir? = {
      let name = "posix_spawn_file_actions_addchdir_np"
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
      return unsafeBitCast(symbol, to: AddChdir.self)
    }()

    /// Adds "change to `folder`" to `actions`; without the function the child starts where
    /// this process is.
    fileprivate static func addChdir(_ actions: inout posix_spawn_file_actions_t, _ folder: String)
    {
      _ = addChdirFunction?(&actions, folder)
    }
  }
#endif

/// Why a ``ShellCommand`` could not start: the system's words for the error number.
struct ShellCommandError: Error, CustomStringConvertible {
  let errno: Int32
  var description: String { String(cString: strerror(errno)) }
}

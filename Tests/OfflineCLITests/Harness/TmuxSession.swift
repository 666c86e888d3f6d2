import Foundation
import TestSupport

/// A detached tmux session of a fixed size running `bash`: commands are typed with
/// `send-keys` and the screen is read with `capture-pane`, as a user at a terminal sees it.
/// Its own server socket, killed when the session goes.
final class TmuxSession {
  private let socket = "offlinekit-\(UUID().uuidString.prefix(8))"

  /// Starts `bash` (no rc files, a plain prompt) in a `width` x `height` terminal.
  init(width: Int = 100, height: Int = 20) async throws {
    // The tmux server outlives the client: were it to inherit a descriptor of ours (the
    // test process leaves some open across exec), Process would not see the client end.
    // Perl closes them, and clears blocked and ignored signals, before it runs tmux.
    let shell = "env -i PATH=/usr/bin:/bin HOME=/tmp TERM=tmux-256color PS1='$ ' bash --norc"
    let started = try await ProcessRunner.run(
      "/usr/bin/perl",
      [
        "-e",
        "use POSIX; $SIG{$_} = 'DEFAULT' for grep { !/^(KILL|STOP|__WARN__|__DIE__)$/ } keys %SIG;"
          + " sigprocmask(SIG_SETMASK, POSIX::SigSet->new); open(STDOUT, '>', '/dev/null');"
          + " open(STDERR, '>', '/dev/null'); POSIX::close($_) for 3 .. 4096; exec(@ARGV) or exit 127",
        "/usr/bin/tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-x", "\(width)",
        "-y", "\(height)", "-s", "main", shell,
      ], timeout: 10)
    guard started.status == 0 else {
      throw TestSupportError.processFailed(
        command: "tmux new-session", status: started.status, stderr: started.stderrText)
    }
    // Keys typed before bash shows its prompt are echoed twice, on one line.
    guard try await wait(seconds: 10, until: { $0.hasPrefix("$") }) != nil else {
      throw await TestSupportError.unexpectedOutput(command: "bash in tmux", output: try screen())
    }
  }

  /// Kills the session's server without waiting for it (a `deinit` cannot suspend).
  deinit {
    let kill = Process()
    kill.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
    kill.arguments = ["-L", socket, "-f", "/dev/null", "kill-server"]
    try? kill.run()
  }

  /// Types `command` and Enter.
  func type(_ command: String) async throws {
    _ = try await tmux(["send-keys", "-t", "main", "-l", command])
    _ = try await tmux(["send-keys", "-t", "main", "Enter"])
  }

  /// The visible screen, one line per row (a line the terminal wrapped joined again, so
  /// one too long for it shows), trailing blanks removed.
  func screen() async throws -> String {
    let text = try await tmux(["capture-pane", "-p", "-J", "-t", "main"]).stdoutText
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
      .joined(separator: "\n")
  }

  /// Types a short command that runs `script` with `sh` (so the screen is not filled with a
  /// long command line) and prints `ENDED-<status>` on a line of its own when it ends.
  func run(script: String, in folder: URL) async throws {
    let file = folder.appending(path: "typed-\(UUID().uuidString.prefix(6)).sh")
    try (script + "\necho ENDED-$?\n").write(to: file, atomically: true, encoding: .utf8)
    try await type("sh \(file.path)")
  }

  /// Waits (bounded) for the line `ENDED-<status>`; the screen then, or nil.
  func waitForEnd(seconds: Double) async throws -> String? {
    try await wait(seconds: seconds) { screen in
      screen.split(separator: "\n").contains { $0.hasPrefix("ENDED-") }
    }
  }

  /// Reads the screen every 100 ms until `isDone` holds (the screen then) or `seconds` pass
  /// (nil then).
  func wait(seconds: Double, until isDone: (String) -> Bool) async throws -> String? {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while ContinuousClock.now < deadline {
      let text = try await screen()
      if isDone(text) { return text }
      usleep(100_000)
    }
    return nil
  }

  private func tmux(_ arguments: [String]) async throws -> ProcessRunner.Output {
    try await ProcessRunner.run(
      "/usr/bin/tmux", ["-L", socket, "-f", "/dev/null"] + arguments, timeout: 10)
  }
}

import Foundation

/// What a run of `offline` reads as its standard input: the URLs of `add -i -`, and the
/// password `-u USER` asks for on a terminal.
///
/// The executable reads the process's descriptor 0 (``process``); an in-process caller gives
/// bytes (``bytes(_:)``, not a terminal) or what a user would type on a terminal
/// (``terminal(typing:)``).
public struct OfflineStandardInput: Sendable {
  /// Whether it is a terminal (a password is asked for only then).
  public let isTerminal: Bool
  private let readAll: @Sendable () -> Data?
  private let readSecret: @Sendable (_ prompt: () -> Void) -> String?

  /// The process's standard input, read only when a command asks for it.
  public static var process: OfflineStandardInput {
    OfflineStandardInput(
      isTerminal: isatty(STDIN_FILENO) == 1,
      readAll: { try? FileHandle.standardInput.readToEnd() ?? Data() },
      readSecret: readLineWithoutEcho)
  }

  /// Nothing: an empty input that is not a terminal (as `/dev/null`).
  public static var empty: OfflineStandardInput { bytes(Data()) }

  /// `data`, not a terminal (as a file or a pipe).
  public static func bytes(_ data: Data) -> OfflineStandardInput {
    OfflineStandardInput(isTerminal: false, readAll: { data }, readSecret: { _ in nil })
  }

  /// A terminal on which the user types `text` (its first line answers a password prompt).
  public static func terminal(typing text: String) -> OfflineStandardInput {
    let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
    return OfflineStandardInput(
      isTerminal: true, readAll: { Data(text.utf8) },
      readSecret: { prompt in
        prompt()
        return line
      })
  }

  /// Everything to its end; nil when it cannot be read.
  func readToEnd() -> Data? { readAll() }

  /// One line typed without echo (the newline dropped), `prompt` shown once echo is off;
  /// nil at the end of the input.
  func readSecretLine(showing prompt: () -> Void) -> String? { readSecret(prompt) }

  /// Turns echo off on descriptor 0 while one line is read, as curl does for a password.
  private static func readLineWithoutEcho(_ prompt: () -> Void) -> String? {
    var settings = termios()
    tcgetattr(STDIN_FILENO, &settings)
    var silent = settings
    silent.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSANOW, &silent)
    defer { tcsetattr(STDIN_FILENO, TCSANOW, &settings) }
    prompt()
    return readLine(strippingNewline: true)
  }
}

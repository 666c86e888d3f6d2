/// Why a playlist could not be parsed, with the 1-based line where the problem was found.
///
/// ```swift
/// do { _ = try PlaylistParser.parse(text) } catch { print(error) }  // "line 7: EXTINF ..."
/// ```
public struct PlaylistError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The 1-based number of the line that holds the problem.
  public var line: Int
  /// A sentence that says what is wrong with that line.
  public var message: String

  /// Creates an error for `line` (1-based) with a human-readable `message`.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// The error as `line N: message`.
  public var description: String { "line \(line): \(message)" }
}

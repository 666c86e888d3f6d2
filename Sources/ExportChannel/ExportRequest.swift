/// One export as `offline` asks `offline-export` for it, written as that executable's command
/// line: `offline-export SOURCE -o FILE [--format mp4|mkv] [--force] [--subs-sidecar]
/// [--parent PID]`.
///
/// ```swift
/// let request = ExportRequest(source: "/downloads/film", destination: "/movies/film.mp4")
/// let again = try ExportRequest(arguments: request.arguments)  // the same request
/// ```
public struct ExportRequest: Sendable, Equatable {
  /// The containers an export writes, as `--format` and file extensions name them.
  public enum Format: String, Sendable, Equatable, CaseIterable {
    /// MP4, its `moov` box first (`.mp4`, `.m4v`).
    case mp4
    /// Matroska (`.mkv`).
    case mkv

    /// The format a file's extension names (`film.mp4`, `film.M4V`, `film.mkv`), or nil.
    public init?(path: String) {
      let name = path.split(separator: "/").last ?? ""
      guard let dot = name.lastIndex(of: ".") else { return nil }
      switch name[name.index(after: dot)...].lowercased() {
      case "mp4", "m4v": self = .mp4
      case "mkv": self = .mkv
      default: return nil
      }
    }
  }

  /// Why a command line is not a request; the text is a sentence for an `Error:` line.
  public struct ArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the command line.
    public let description: String
  }

  /// The offline folder, or its `index.m3u8` or `index.mpd`: an absolute path.
  public var source: String
  /// The file to write: an absolute path.
  public var destination: String
  /// The container; nil takes it from the destination's extension.
  public var format: Format?
  /// Whether a file already at the destination may be replaced.
  public var overwrite: Bool
  /// Whether the subtitle track is also written as a `.vtt` file beside the destination.
  public var subtitleSidecar: Bool
  /// The process that asked, when it waits for the answer: the exporter ends when that
  /// process does (its parent-death signal), and refuses to start when its parent is not it.
  public var parent: Int32?

  /// Describes an export.
  public init(
    source: String, destination: String, format: Format? = nil, overwrite: Bool = false,
    subtitleSidecar: Bool = false, parent: Int32? = nil
  ) {
    self.source = source
    self.destination = destination
    self.format = format
    self.overwrite = overwrite
    self.subtitleSidecar = subtitleSidecar
    self.parent = parent
  }

  /// The request as `offline-export`'s arguments (after the program's name).
  public var arguments: [String] {
    var words = [source, "-o", destination]
    if let format { words += ["--format", format.rawValue] }
    if overwrite { words.append("--force") }
    if subtitleSidecar { words.append("--subs-sidecar") }
    if let parent { words += ["--parent", String(parent)] }
    return words
  }

  /// Reads `offline-export`'s arguments (after the program's name).
  public init(arguments: [String]) throws(ArgumentError) {
    var source: String?
    var destination: String?
    var format: Format?
    var overwrite = false
    var subtitleSidecar = false
    var parent: Int32?
    var words = arguments[...]
    while let word = words.popFirst() {
      switch word {
      case "-o", "--output": destination = try Self.value(of: word, in: &words)
      case "--force": overwrite = true
      case "--subs-sidecar": subtitleSidecar = true
      case "--format":
        let name = try Self.value(of: word, in: &words)
        guard let named = Format(rawValue: name) else {
          throw ArgumentError(description: "'\(name)' is not one of mp4 or mkv.")
        }
        format = named
      case "--parent":
        let text = try Self.value(of: word, in: &words)
        guard let pid = Int32(text), pid > 0 else {
          throw ArgumentError(description: "'\(text)' is not a process id.")
        }
        parent = pid
      default:
        guard !word.hasPrefix("-"), source == nil else {
          throw ArgumentError(description: "Unexpected argument '\(word)'.")
        }
        source = word
      }
    }
    guard let source else { throw ArgumentError(description: "Missing the source folder.") }
    guard let destination else { throw ArgumentError(description: "Missing --output.") }
    self.init(
      source: source, destination: destination, format: format, overwrite: overwrite,
      subtitleSidecar: subtitleSidecar, parent: parent)
  }

  private static func value(of option: String, in words: inout ArraySlice<String>)
    throws(ArgumentError) -> String
  {
    guard let value = words.popFirst() else {
      throw ArgumentError(description: "Option '\(option)' needs a value.")
    }
    return value
  }
}

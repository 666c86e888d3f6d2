/// Why a Metalink, or one file of it, was refused: what is wrong and where, as the path of the
/// element (`metalink/file[2]`, 1-based among siblings of the same name).
///
/// Messages are sentences a user can act on. They name a file by its name as the document
/// wrote it (control characters escaped, at most 120 characters) and a URL by its scheme
/// only, never in full: a URL can carry a token.
///
/// ```swift
/// do { _ = try MetalinkParser.parse(data) } catch { print(error) }
/// // "metalink/file[1]: The file name '../../.bashrc' has a '..' segment, which could
/// //  leave the output folder (RFC 5854 §4.1.2.1)."
/// ```
public struct MetalinkError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem it is: a value, so a release can add one without breaking a
  /// `switch` that has a `default`.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    /// The code's name, such as `notXML`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// The code's name.
    public var description: String { name }

    /// The bytes are not well-formed XML in UTF-8. Refuses the document.
    public static let notXML = Code("notXML")
    /// The root is not a Metalink 3 or 4 `metalink` element. Refuses the document.
    public static let notMetalink = Code("notMetalink")
    /// The document describes no file. Refuses the document.
    public static let noFiles = Code("noFiles")
    /// A file's name is empty, absolute, has a `..`, `.` or empty segment, a NUL or other
    /// control character, or a backslash, or is too long. Refuses the file.
    public static let unsafeFileName = Code("unsafeFileName")
    /// A second file has the same name as an earlier one. Refuses the later file.
    public static let duplicateFileName = Code("duplicateFileName")
    /// A file has no `http` or `https` URL. Refuses the file.
    public static let noUsableURL = Code("noUsableURL")
    /// A file's `size` is not a whole number of bytes. Refuses the file.
    public static let invalidSize = Code("invalidSize")
    /// A hash of a known function is not hexadecimal of the function's length, or two hashes
    /// of one function differ. Refuses the file.
    public static let invalidHash = Code("invalidHash")
    /// A file's piece length is not a whole number above 0, its piece hashes do not number
    /// ceil(size / length), or Metalink 3 piece numbers are missing or repeated. Refuses the
    /// file.
    public static let invalidPieces = Code("invalidPieces")
  }

  /// What kind of problem it is.
  public var code: Code
  /// The element's path, such as `metalink/file[2]`.
  public var path: String
  /// A sentence that says what is wrong.
  public var message: String

  /// Creates an error of `code` at `path` with a human-readable `message`.
  public init(_ code: Code, at path: String, _ message: String) {
    self.code = code
    self.path = path
    self.message = message
  }

  /// The error as `path: message`.
  public var description: String { "\(path): \(message)" }

  /// `text` as it may be shown in a message: control characters and quotes escaped, cut to
  /// at most 120 characters.
  static func shown(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars.prefix(120) {
      if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "'" || scalar == "\\" {
        result += scalar.escaped(asASCII: true)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return text.unicodeScalars.count > 120 ? result + "…" : result
  }
}

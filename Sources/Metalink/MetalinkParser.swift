import Foundation
import XMLTree

/// Reads a Metalink 4 (RFC 5854) or Metalink 3 document into a ``MetalinkDocument``.
///
/// Pure: no I/O, and any input either parses or throws a ``MetalinkError``; it never traps.
/// Elements are read only in the document's namespace and attributes only without a prefix,
/// so extensions from other namespaces are ignored (RFC 5854 §5); unknown elements and hash
/// functions are ignored too.
///
/// Which rule refuses what:
/// - **The whole document** when it is not UTF-8 XML, its root is not a Metalink 3 or 4
///   `metalink`, it describes no file, or every file it describes is refused (the error is
///   then the first file's). A `metalink` root in no namespace is read as Metalink 3 when its
///   `version` starts with `3.`, as Metalink 4 otherwise; in another namespace it is refused.
/// - **One file** (listed in ``MetalinkDocument/refusedFiles``, the others kept) when its name
///   is not a safe relative path, repeats an earlier file's name, its size is not a whole
///   number, a hash of a known function is malformed or contradicts another, its piece hashes
///   do not match its size, or it has no usable URL.
/// - **One URL** (kept in ``MetalinkFile/urls`` with ``MetalinkURL/unusableReason``) when it
///   is not an absolute `http` or `https` URL; a malformed `priority` or `location` is dropped.
///
/// ```swift
/// let metalink = try MetalinkParser.parse(data)
/// let file = metalink.files[0]
/// let mirrors = file.usableURLs(preferring: "de")
/// let expected = file.strongestHash(checkable: [.sha256])
/// ```
public enum MetalinkParser {
  /// The Metalink 4 namespace (RFC 5854 §1.2).
  public static let metalink4Namespace = "urn:ietf:params:xml:ns:metalink"
  /// The Metalink 3 namespace.
  public static let metalink3Namespace = "http://www.metalinker.org/"

  /// Parses the bytes of a Metalink document.
  ///
  /// - Throws: ``MetalinkError`` with code `notXML`, `notMetalink` or `noFiles`, or the first
  ///   file's error when every file was refused.
  public static func parse(_ data: Data) throws(MetalinkError) -> MetalinkDocument {
    let root: XMLNode
    do {
      root = try XMLTreeBuilder.parse(data)
    } catch {
      throw MetalinkError(error)
    }
    guard root.name == "metalink" else {
      throw MetalinkError(
        .notMetalink, at: MetalinkError.shown(root.qualifiedName),
        "The root element is not metalink, so this is not a Metalink document.")
    }
    let document: MetalinkDocument
    let candidates: [Result<MetalinkFile, MetalinkError>]
    switch root.namespace {
    case metalink4Namespace:
      (document, candidates) = version4(
        MetalinkElement(node: root, path: "metalink", namespace: root.namespace))
    case metalink3Namespace:
      (document, candidates) = version3(
        MetalinkElement(node: root, path: "metalink", namespace: root.namespace))
    case nil where root.attributes["version"]?.hasPrefix("3.") == true:
      (document, candidates) = version3(
        MetalinkElement(node: root, path: "metalink", namespace: nil))
    case nil:
      (document, candidates) = version4(
        MetalinkElement(node: root, path: "metalink", namespace: nil))
    case let other?:
      throw MetalinkError(
        .notMetalink, at: "metalink",
        "The root element is in namespace '\(MetalinkError.shown(other))', not Metalink 4's "
          + "(\(metalink4Namespace)) or Metalink 3's (\(metalink3Namespace)).")
    }
    return try assemble(document, candidates)
  }

  /// Parses the text of a Metalink document.
  public static func parse(_ text: String) throws(MetalinkError) -> MetalinkDocument {
    try parse(Data(text.utf8))
  }

  /// Puts the files that passed into `document`, refusing a repeated name; throws when none
  /// passed.
  private static func assemble(
    _ document: MetalinkDocument, _ candidates: [Result<MetalinkFile, MetalinkError>]
  ) throws(MetalinkError) -> MetalinkDocument {
    guard !candidates.isEmpty else {
      throw MetalinkError(.noFiles, at: "metalink", "The Metalink describes no file.")
    }
    var result = document
    var names: Set<String> = []
    for (index, candidate) in candidates.enumerated() {
      switch candidate {
      case .success(let file) where names.contains(file.name):
        result.refusedFiles.append(
          MetalinkError(
            .duplicateFileName, at: MetalinkFileRules.path(of: index, result.format),
            "The file name '\(MetalinkError.shown(file.name))' is used by an earlier file too; "
              + "only the first is kept."))
      case .success(let file):
        names.insert(file.name)
        result.files.append(file)
      case .failure(let error):
        result.refusedFiles.append(error)
      }
    }
    if result.files.isEmpty, let first = result.refusedFiles.first { throw first }
    return result
  }
}

import Foundation

/// The digests a response gives for its file: `Repr-Digest` and `Content-Digest` (RFC 9530),
/// and the obsolete `Digest` (RFC 3230) that RFC 6249 servers such as MirrorBrain send.
///
/// `Repr-Digest` and `Digest` describe the whole selected representation, whatever range a
/// response carries, so they can check the finished file. `Content-Digest` describes only this
/// response's content (after any content coding, and only the part a 206 carries), so it
/// checks the file only in a 200 without a content coding.
///
/// ```swift
/// // Repr-Digest: sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:
/// let digests = HTTPDigests(fields: response.headers)
/// let expected = Checksum.strongest(in: digests.representation, checkable: [.sha256])
/// ```
public struct HTTPDigests: Sendable, Hashable {
  /// The digests of the whole file: `Repr-Digest`'s, or, when it has none this module
  /// knows, `Digest`'s.
  public var representation: [Checksum]
  /// The digests of this response's content (`Content-Digest`).
  public var content: [Checksum]

  /// Creates the value from its parts.
  public init(representation: [Checksum] = [], content: [Checksum] = []) {
    self.representation = representation
    self.content = content
  }

  /// Reads the digest fields among `fields` (names in any case; several lines of one field
  /// are read as one list). A malformed field gives no digests; unknown algorithms are
  /// ignored.
  public init(fields: [(name: String, value: String)]) {
    func values(_ name: String) -> String? {
      let found = fields.filter { $0.name.lowercased() == name }.map(\.value)
      return found.isEmpty ? nil : found.joined(separator: ", ")
    }
    let repr = values("repr-digest").flatMap(HTTPDigests.structured) ?? []
    let legacy = values("digest").flatMap(HTTPDigests.legacy) ?? []
    self.init(
      representation: repr.isEmpty ? legacy : repr,
      content: values("content-digest").flatMap(HTTPDigests.structured) ?? [])
  }

  /// The digests of a `Repr-Digest` or `Content-Digest` value (RFC 9530 §2, §3): a
  /// Structured Field dictionary of byte sequences keyed by algorithm. Only the two active
  /// algorithms of RFC 9530's registry, `sha-256` and `sha-512`, are read; a member whose bytes
  /// are not the algorithm's length is ignored. Nil when the value is not a valid dictionary.
  public static func structured(_ value: String) -> [Checksum]? {
    guard let members = StructuredDictionary.byteSequences(in: value) else { return nil }
    return [("sha-512", HashAlgorithm.sha512), ("sha-256", .sha256)].compactMap { key, algorithm in
      members[key].flatMap { Checksum(algorithm, bytes: $0) }
    }
  }

  /// The digests of an RFC 3230 `Digest` value (`SHA-256=base64, MD5=base64`): algorithm
  /// names in any case (`SHA` is SHA-1), base64 values; unknown algorithms (`UNIXsum`,
  /// `id-sha-256`) and malformed members are ignored. Nil when no member has the
  /// `algorithm=value` shape.
  public static func legacy(_ value: String) -> [Checksum]? {
    var result: [Checksum] = []
    var wellFormed = false
    for member in value.split(separator: ",") {
      let text = member.trimmingCharacters(in: .whitespaces)
      guard let equals = text.firstIndex(of: "=") else { continue }
      wellFormed = true
      let name = String(text[..<equals]).trimmingCharacters(in: .whitespaces)
      var encoded = String(text[text.index(after: equals)...])
        .trimmingCharacters(in: .whitespaces)
      if encoded.count >= 2, encoded.hasPrefix("\""), encoded.hasSuffix("\"") {
        encoded = String(encoded.dropFirst().dropLast())
      }
      guard let algorithm = HashAlgorithm(name: name),
        let data = Data(base64Encoded: encoded),
        let checksum = Checksum(algorithm, bytes: [UInt8](data)),
        !result.contains(where: { $0.algorithm == algorithm })
      else { continue }
      result.append(checksum)
    }
    return wellFormed ? result : nil
  }
}

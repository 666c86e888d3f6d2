import Foundation

/// What the journal knows about one download: where it goes, how far it got, how to resume it.
///
/// The journal is the truth: ``durableOffset`` never exceeds the bytes of the `.part` file that
/// are known to be on disk, so a resume after a crash starts there and never trusts bytes that
/// were still in a cache.
package struct TransferRecord: Sendable, Equatable {
  /// Where the download stands.
  package enum Phase: String, Sendable {
    /// Bytes are being (or will be) written to the `.part` file.
    case active
    /// Every byte is on disk; the file is being verified and renamed into place.
    case finishing
    /// The file is verified and at ``TransferRecord/destination`` (or, for a piece with a
    /// ``TransferRecord/pack``, in its pack).
    case complete
  }

  /// The absolute path of the final file; the record's key.
  package var destination: String
  /// The URL the bytes come from.
  package var url: String
  /// Where the download stands.
  package var phase: Phase
  /// The bytes of the `.part` file known to be fsynced to disk.
  package var durableOffset: Int64
  /// The kernel boot id during which the `.part` file was last written.
  ///
  /// After a reboot, bytes written but not fsynced may be lost; comparing boot ids tells whether
  /// the file can be trusted past ``durableOffset``.
  package var bootID: String?
  /// The full length of the resource, when the server said it.
  package var totalLength: Int64?
  /// The entity tag the server sent, used as `If-Range` validator on resume.
  package var etag: String?
  /// The `Last-Modified` header the server sent, the fallback validator.
  package var lastModified: String?
  /// The SHA-256 the user expects the file to have, lowercase hex.
  package var expectedSHA256: String?
  /// The SHA-256 of the complete file, lowercase hex, once known.
  package var sha256: String?
  /// The content coding of the bytes in the `.part` file as their response stated it (nil:
  /// identity); a resume in another coding is never appended to them.
  package var contentEncoding: String?
  /// The identity of the complete file, recorded when it was renamed into place; nil before,
  /// and for records written by versions that did not record it.
  package var fileIdentity: FileIdentity?
  /// Where the bytes are when they are not a file of their own at ``destination`` but
  /// ``totalLength`` bytes inside a pack: one file that holds many small pieces of a stream,
  /// each written there whole once it had arrived. Nil for every other download.
  package var pack: Pack?
  /// When the record last changed; the journal sets it on every write, to the millisecond.
  package var updatedAt: Date

  /// Creates a record; a new download starts ``Phase/active`` at offset 0.
  package init(
    destination: String, url: String, phase: Phase = .active, durableOffset: Int64 = 0,
    bootID: String? = nil, totalLength: Int64? = nil, etag: String? = nil,
    lastModified: String? = nil, expectedSHA256: String? = nil, sha256: String? = nil,
    contentEncoding: String? = nil, fileIdentity: FileIdentity? = nil, pack: Pack? = nil,
    updatedAt: Date = Date()
  ) {
    self.destination = destination
    self.url = url
    self.phase = phase
    self.durableOffset = durableOffset
    self.bootID = bootID
    self.totalLength = totalLength
    self.etag = etag
    self.lastModified = lastModified
    self.expectedSHA256 = expectedSHA256
    self.sha256 = sha256
    self.contentEncoding = contentEncoding
    self.fileIdentity = fileIdentity
    self.pack = pack
    self.updatedAt = updatedAt
  }

  /// Where in a pack a piece's bytes are.
  package struct Pack: Sendable, Equatable, Hashable {
    /// The absolute path of the pack.
    package var path: String
    /// Where the piece's first byte is in the pack.
    package var offset: Int64

    /// Creates a location.
    package init(path: String, offset: Int64) {
      self.path = path
      self.offset = offset
    }
  }
}

import Foundation
import OfflineStore

/// What is wrong with the files of a downloaded content: every file that is missing, has
/// another size than the download recorded, was changed since, or (after a full
/// ``OfflineContent/verify(progress:)``) holds other bytes.
///
/// A damaged content stays `downloaded` (see ``OfflineState``) with its damage on the
/// ``OfflineContent/Snapshot/damage``;
/// ``OfflineContent/playbackURL(restrictedToAssetCache:)`` refuses it with an
/// ``OfflineError`` with the code ``OfflineError/Code/damaged`` naming what is wrong, and
/// ``OfflineContent/repair(redownload:)`` mends it.
public struct ContentDamage: Sendable, Equatable, CustomStringConvertible {
  /// What a file of a content is.
  public enum FileKind: String, Sendable, Hashable, CaseIterable {
    /// The content's one file.
    case file
    /// A media segment of a stream, or a pack of them.
    case segment
    /// An init section (`EXT-X-MAP`, DASH `Initialization`) or an index (`sidx`).
    case initSection = "init"
    /// A decryption key of an HLS stream.
    case key
    /// An offline playlist or manifest written by OfflineKit (`index.m3u8`, `index.mpd`,
    /// `offline.json`).
    case playlist

    /// The kind the index records.
    package init(_ recorded: PieceRecord.Kind) {
      switch recorded {
      case .file: self = .file
      case .segment: self = .segment
      case .initSection: self = .initSection
      case .key: self = .key
      case .playlist: self = .playlist
      }
    }
  }

  /// One file that is not what the download recorded.
  public struct Problem: Sendable, Equatable, CustomStringConvertible {
    /// Its path inside the content's folder.
    public var path: String
    /// What kind of file it is.
    public var kind: FileKind
    /// What is wrong.
    public var fault: Fault
    /// For a pack of a stream's segments whose bytes are wrong: those segments, each named
    /// by its position in its playlist and the URL it came from, in pack order; empty for
    /// any other problem (and for a pack whose journal no longer says where they are).
    public var segments: [Segment]

    /// Creates a problem.
    public init(path: String, kind: FileKind, fault: Fault, segments: [Segment] = []) {
      self.path = path
      self.kind = kind
      self.fault = fault
      self.segments = segments
    }

    /// The problem in words: "video/s00003.ts (segment) is missing", "pack.ts (segment) has
    /// a wrong hash in segment 3 of playlist.m3u8 (https://cdn.example/seg2.ts)".
    public var description: String {
      let what = kind == .file ? path : "\(path) (\(kind.phrase))"
      if kind == .segment, case .wrongHash(let offsets) = fault, !offsets.isEmpty {
        // A pack of segments: named as a player meets them, else by their offsets.
        guard segments.isEmpty else { return "\(what) \(Segment.wrongHash(in: segments))" }
        return "\(what) \(Fault.wrongHash(in: "segment", at: offsets))"
      }
      return "\(what) \(fault.description)"
    }
  }

  /// What is wrong with one file.
  public enum Fault: Sendable, Equatable, CustomStringConvertible {
    /// The file is gone.
    case missing
    /// The file is shorter than recorded (`actual` of `expected` bytes).
    case short(expected: Int64, actual: Int64)
    /// The file is longer than recorded.
    case long(expected: Int64, actual: Int64)
    /// The file was written or replaced since the download (its modification time or inode
    /// changed, its size did not): found by the quick check, which does not read bytes;
    /// ``OfflineContent/verify(progress:)`` says whether its bytes are still right.
    case changed
    /// The bytes differ from the recorded SHA-256. For a file with chunk digests,
    /// `chunkOffsets` are the offsets of the 4 MiB chunks that differ; for a pack of a
    /// stream's segments, the offsets of the segments that differ in it; empty for a piece
    /// (or a pack whose segments are all right: bytes no playlist names changed).
    case wrongHash(chunkOffsets: [Int64])

    /// The fault in words.
    public var description: String {
      switch self {
      case .missing: "is missing"
      case .short(let expected, let actual): "is short: \(actual) of \(expected) bytes"
      case .long(let expected, let actual):
        "is longer than recorded: \(actual), not \(expected) bytes"
      case .changed: "changed since the download (run verify to check its bytes)"
      case .wrongHash(let offsets) where offsets.isEmpty: "has a wrong hash"
      case .wrongHash(let offsets): Self.wrongHash(in: "chunk", at: offsets)
      }
    }

    /// "has a wrong hash in the chunk at offset 0" or "in 3 segments at offset 0, 10, 20":
    /// the first eight of `offsets`, then "..." when there are more.
    static func wrongHash(in unit: String, at offsets: [Int64]) -> String {
      "has a wrong hash in " + (offsets.count == 1 ? "the \(unit)" : "\(offsets.count) \(unit)s")
        + " at offset " + offsets.prefix(8).map(String.init).joined(separator: ", ")
        + (offsets.count > 8 ? ", ..." : "")
    }
  }

  /// Every problem, by path.
  public var problems: [Problem]

  /// Creates a report of `problems`.
  public init(problems: [Problem]) {
    self.problems = problems
  }

  /// Whether a file is missing or has another size than recorded: damage that is certain
  /// without reading a byte (a `changed` file may still hold the right bytes).
  public var isMissingOrResized: Bool {
    problems.contains {
      switch $0.fault {
      case .missing, .short, .long: true
      case .changed, .wrongHash: false
      }
    }
  }

  /// The problems in words, one sentence.
  public var description: String {
    problems.prefix(5).map(\.description).joined(separator: "; ")
      + (problems.count > 5 ? "; and \(problems.count - 5) more" : "")
  }
}

extension ContentDamage.FileKind {
  /// The kind in words.
  public var phrase: String {
    switch self {
    case .file: "file"
    case .segment: "segment"
    case .initSection: "init section"
    case .key: "key"
    case .playlist: "offline playlist"
    }
  }
}

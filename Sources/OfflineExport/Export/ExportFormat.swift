import Foundation

/// The container an export writes.
public enum ExportFormat: String, Sendable, Equatable, CaseIterable {
  /// An MP4 file (ISO BMFF) with its `moov` box before its `mdat` (`faststart`), so players
  /// start at once.
  case mp4
  /// A Matroska file.
  case mkv

  /// The format a destination's file extension names (`.mp4`, `.m4v`, `.mkv`), or nil.
  ///
  /// ```swift
  /// ExportFormat(destination: URL(fileURLWithPath: "/tmp/film.mkv"))  // .mkv
  /// ```
  public init?(destination: URL) {
    switch destination.pathExtension.lowercased() {
    case "mp4", "m4v": self = .mp4
    case "mkv": self = .mkv
    default: return nil
    }
  }

  /// The name of libavformat's muxer for this format.
  var muxerName: String {
    switch self {
    case .mp4: "mp4"
    case .mkv: "matroska"
    }
  }
}

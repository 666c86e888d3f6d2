import Foundation

extension HLSPlanner {
  /// Where the whole segment OfflineKit named `local` (`video/s00003.ts`: the planner names
  /// the segment at index N of a media playlist `sNNNNN.<ext>`, in the folder of that
  /// playlist, `playlist.m3u8`) sits: its offline media playlist and its index there (0 for
  /// the first); nil for any other name.
  static func place(ofWholeSegment local: String) -> (playlist: String, index: Int)? {
    let folder = (local as NSString).deletingLastPathComponent
    let name = (local as NSString).lastPathComponent
    guard name.hasPrefix("s") else { return nil }
    let digits = name.dropFirst().prefix { $0.isASCII && $0.isNumber }
    guard digits.count >= 5, name.dropFirst(1 + digits.count).hasPrefix("."),
      let index = Int(digits)
    else { return nil }
    return (folder.isEmpty ? "playlist.m3u8" : folder + "/playlist.m3u8", index)
  }
}

import Foundation
import HLSPlaylist
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 43, item 3: a rendition that does not answer is fetched from the same rendition of
/// a backup variant's group, found by `NAME` and `LANGUAGE` (then `CHARACTERISTICS`), its
/// place in the group only when nothing else tells; a backup listing its renditions in
/// another order gets the right one. One row a rule.
@Suite(.timed) struct HLSBackupRenditionTests {
  static func audio(
    _ group: String, _ name: String, _ language: String?, characteristics: String? = nil
  ) -> Rendition {
    var rendition = Rendition(type: .audio, groupID: group, name: name)
    rendition.language = language
    rendition.characteristics = characteristics
    rendition.uri = "\(group)/\(name).m3u8"
    return rendition
  }

  static let own = [
    audio("a1", "English", "en"), audio("a1", "Commentary", "en", characteristics: "c"),
    audio("a1", "Français", "fr"),
  ]

  @Test(
    arguments: [
      // The same NAME and LANGUAGE, whatever the order.
      (0, [audio("a2", "Français", "fr"), audio("a2", "English", "en")], "English"),
      // The only one of the same NAME, its LANGUAGE written otherwise.
      (2, [audio("a2", "Français", "fra"), audio("a2", "English", "eng")], "Français"),
      // Named otherwise: the only one of the same LANGUAGE.
      (2, [audio("a2", "French", "fr"), audio("a2", "English (US)", "en")], "French"),
      // Two of the same LANGUAGE: the one of the same CHARACTERISTICS.
      (
        1,
        [
          audio("a2", "Director", "en", characteristics: "c"), audio("a2", "Main", "en"),
          audio("a2", "Fra", "fr"),
        ],
        "Director"
      ),
      // Nothing tells, and the groups are as long: the same place.
      (0, [audio("a2", "One", nil), audio("a2", "Two", nil), audio("a2", "Three", nil)], "One"),
    ] as [(Int, [Rendition], String)])
  func theBackupsRenditionIsFoundByWhatItIs(at: Int, backup: [Rendition], expected: String) {
    let found = HLSDownload.counterpart(of: Self.own[at], in: Self.own, among: backup)
    #expect(found?.name == expected)
  }

  @Test func nothingMatchesWhenNothingTellsAndTheGroupsDiffer() {
    let backup = [Self.audio("a2", "One", "de"), Self.audio("a2", "Two", "it")]
    #expect(HLSDownload.counterpart(of: Self.own[0], in: Self.own, among: backup) == nil)
  }

  /// Two of the same LANGUAGE and CHARACTERISTICS, neither of the same NAME: the place is no
  /// guide, as the LANGUAGE already says they are not what they seem.
  @Test func anAmbiguousLanguageMatchesNothing() {
    let backup = [
      Self.audio("a2", "X", "en"), Self.audio("a2", "Y", "en"), Self.audio("a2", "Z", "fr"),
    ]
    #expect(HLSDownload.counterpart(of: Self.own[0], in: Self.own, among: backup) == nil)
  }
}

import Foundation
import Testing

@testable import OfflineKit

/// The decisions of a part of a live recording split through the queue (issue 41, item 5),
/// without I/O: its share, whether a part follows, the next part's place and id.
@Suite struct QueuedLivePartTests {
  func options(every: Duration = .seconds(600), recordFor: Duration? = nil)
    -> LiveRecordingOptions
  {
    var live = LiveRecordingOptions(start: .fromStart, recordFor: recordFor)
    live.splitEvery = every
    return live
  }

  @Test func aRecordingThatIsNotSplitHasNoPart() {
    #expect(QueuedLivePart(id: "live", live: LiveRecordingOptions()) == nil)
  }

  @Test func theFirstPartNamesTheRecordingAndRecordsItsShareUnsplit() throws {
    let part = try #require(QueuedLivePart(id: "live", live: options()))
    #expect(part.recording == "live" && part.number == 1 && part.recordedBefore == 0)
    let recording = part.recordingOptions
    #expect(recording.splitEvery == nil && recording.part == nil)
    #expect(recording.recordFor == .seconds(600))
    #expect(recording.start == .fromStart)
  }

  @Test func aPartRecordsWhatTheWholeRecordForLeavesWhenLessThanItsShare() throws {
    var live = options(recordFor: .seconds(1500))
    live.part = .init(recording: "live", number: 3, recordedBefore: 1200)
    let part = try #require(QueuedLivePart(id: "live-3", live: live))
    #expect(part.recordingOptions.recordFor == .seconds(300))
    #expect(part.isFollowed(finished: .durationReached, recorded: 299))
    #expect(!part.isFollowed(finished: .durationReached, recorded: 300), "the whole is reached")
  }

  @Test func onlyAPartThatReachedItsShareIsFollowed() throws {
    let part = try #require(QueuedLivePart(id: "live", live: options()))
    #expect(part.isFollowed(finished: .durationReached, recorded: 600))
    for reason: LiveRecording.FinishReason in [.endList, .untilReached, .stopped] {
      #expect(!part.isFollowed(finished: reason, recorded: 600), "\(reason)")
    }
    #expect(!part.isFollowed(finished: nil, recorded: 600))
  }

  @Test func theNextPartCountsWhatThePartsBeforeRecorded() throws {
    var live = options()
    live.part = .init(recording: "live", number: 2, recordedBefore: 601)
    let part = try #require(QueuedLivePart(id: "live-2", live: live))
    let next = part.nextOptions(recorded: 602)
    #expect(next.part == .init(recording: "live", number: 3, recordedBefore: 1203))
    #expect(next.splitEvery == .seconds(600) && next.start == .fromStart)
    #expect(QueuedLivePart.isPart(3, of: "live", options: next))
    #expect(!QueuedLivePart.isPart(3, of: "other", options: next))
    #expect(!QueuedLivePart.isPart(2, of: "live", options: next))
  }

  @Test func aPartsIdIsTheRecordingsWithItsNumberWithinSixtyFourBytes() {
    #expect(QueuedLivePart.id(ofPart: 2, recording: "live") == "live-2")
    let long = String(repeating: "a", count: 64)
    let id = QueuedLivePart.id(ofPart: 12, recording: long)
    #expect(id.utf8.count == 64 && id.hasSuffix("-12"))
    #expect(ContentFiles.isValidID(id))
  }

  /// Unsplit options are stored as before (no `splitEvery`, no `part`: what an earlier
  /// version wrote and reads), and split ones read back whole.
  @Test func unsplitOptionsAreStoredAsBeforeAndSplitOnesReadBack() throws {
    let unsplit = LiveRecordingOptions(start: .fromStart, recordFor: .seconds(90))
    let text = String(decoding: try JSONEncoder().encode(unsplit), as: UTF8.self)
    #expect(!text.contains("splitEvery") && !text.contains("part"), "\(text)")
    #expect(try JSONDecoder().decode(LiveRecordingOptions.self, from: Data(text.utf8)) == unsplit)
    var split = options()
    split.part = .init(recording: "live", number: 2, recordedBefore: 600.5)
    let again = try JSONDecoder().decode(
      LiveRecordingOptions.self, from: JSONEncoder().encode(split))
    #expect(again == split)
  }
}

import Foundation
import OfflineKit
import TestSupport
import TestTiming
import Testing

@testable import OfflineService

/// Issue 36, item 10: `/jsonrpc` batches are bounded in calls and in work per call.
@Suite("aria2 JSON-RPC batches are bounded", .serialized, .timed)
struct AriaRPCBoundsTests {
  /// `POST /jsonrpc` with `body` (from a file: a big batch is longer than an argument may be).
  static func post(_ body: String, to fixture: ServiceFixture) async throws -> Curl.Reply {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-rpc-batch")
    try Data(body.utf8).write(to: scratch.file("batch.json"))
    return try await Curl.fetch(
      fixture.url("/jsonrpc"),
      [
        "-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
        "@" + scratch.file("batch.json").path,
      ])
  }

  static func tellStatus(_ gid: String, _ number: Int) -> String {
    #"{"jsonrpc":"2.0","id":\#(number),"method":"aria2.tellStatus","params":["\#(gid)",["gid","status"]]}"#
  }

  // Pins: a batch had no limit on its calls, and each call naming a GID listed every
  // content with its quick check: a 140 KB batch kept the service busy for 30 s.
  @Test func aHugeBatchIsRefusedWholeAndABatchNamingGIDsListsOnce() async throws {
    let fixture = try await ServiceFixture()
    await fixture.manager.stop(suspendingRunning: false)  // the contents stay queued
    let sources = (0..<600).map { OfflineSource(url: fixture.nginx.url("/queued.bin?n=\($0)")) }
    let ids = try await fixture.manager.add(sources).map(\.id)
    let gid = AriaGID.of(ids[300])
    let planted = fixture.nginx.url("/planted.bin").absoluteString
    let add =
      #"{"jsonrpc":"2.0","id":"add","method":"aria2.addUri","params":[["\#(planted)"]]}"#
    let huge =
      "[" + ([add] + (0..<1500).map { Self.tellStatus(gid, $0) }).joined(separator: ",")
      + "]"
    #expect(huge.utf8.count > 140_000)
    let started = ContinuousClock.now
    let refused = try await Self.post(huge, to: fixture)
    let refusedIn = ContinuousClock.now - started
    #expect(refused.status == 400)
    let error = (refused.json as? [String: Any])?["error"] as? [String: Any]
    #expect(error?["code"] as? Int == -32600, "\(refused.text.prefix(300))")
    #expect((error?["message"] as? String)?.contains("at most 64 calls") == true)
    #expect(refusedIn < .seconds(2), "\(refusedIn)")
    let all = try await fixture.manager.snapshots()
    #expect(all.count == 600, "none of the refused batch ran: \(all.count) contents")

    let batch = "[" + (0..<64).map { Self.tellStatus(gid, $0) }.joined(separator: ",") + "]"
    let begun = ContinuousClock.now
    let answered = try await Self.post(batch, to: fixture)
    let answeredIn = ContinuousClock.now - begun
    #expect(answered.status == 200)
    let answers = answered.json as? [[String: Any]] ?? []
    #expect(answers.count == 64)
    #expect(
      answers.allSatisfy { ($0["result"] as? [String: Any])?["gid"] as? String == gid },
      "\(answered.text.prefix(300))")
    print("jsonrpc: 1501 calls refused in \(refusedIn); 64 tellStatus answered in \(answeredIn)")
    await fixture.close()
  }
}

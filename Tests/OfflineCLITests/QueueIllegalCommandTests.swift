import Foundation
import TestSupport
import TestTiming
import Testing

/// Commands the transition table does not allow exit 1, name the state, and change nothing.
@Suite(.ownThreads, .timed) struct QueueIllegalCommandTests {
  /// A command given to a content in a state that does not allow it.
  struct IllegalCall: Sendable, CustomTestStringConvertible {
    let verb: String
    let state: String
    var testDescription: String { "\(verb) a \(state) content" }
  }

  static let calls = [
    IllegalCall(verb: "pause", state: "downloaded"),
    IllegalCall(verb: "resume", state: "downloading"),
    IllegalCall(verb: "rm", state: "suspended"),
    IllegalCall(verb: "cancel", state: "notDownloaded"),
    IllegalCall(verb: "path", state: "notDownloaded"),
    IllegalCall(verb: "forget", state: "downloading"),
    IllegalCall(verb: "download", state: "suspended"),
  ]

  @Test(arguments: calls)
  func anIllegalCommandExits1NamesTheStateAndChangesNothing(call: IllegalCall) async throws {
    let fixture = try QueueFixture()
    let id = try await Self.content(in: call.state, fixture)
    let before = try await fixture.offline(["ls", "--json"]).stdoutText

    let result = try await fixture.offline([call.verb, id])
    #expect(result.status == 1)
    #expect(result.stdoutText.isEmpty)
    #expect(result.stderrText.hasPrefix("Error: "), "\(result.stderrText)")
    #expect(result.stderrText.contains("content \(id)"), "\(result.stderrText)")
    // The state in words ("not downloaded"), not its identifier (pins: "it is notDownloaded").
    let phrase = call.state == "notDownloaded" ? "not downloaded" : call.state
    #expect(result.stderrText.contains("is \(phrase)."), "\(result.stderrText)")
    await #expect(try fixture.offline(["ls", "--json"]).stdoutText == before)
  }

  @Test func anIllegalCommandFollowsTheDocumentedMessage() async throws {
    let fixture = try QueueFixture()
    let id = try await Self.content(in: "downloading", fixture)
    let result = try await fixture.offline(["resume", id])
    #expect(result.status == 1)
    #expect(result.stderrText == "Error: Cannot resume content \(id): it is downloading.\n")
  }

  @Test(arguments: ["pause", "resume", "cancel", "rm", "download", "forget", "path"])
  func anUnknownIDExits1AndSaysSo(verb: String) async throws {
    let fixture = try QueueFixture()
    _ = try await fixture.addOne([fixture.url("small.bin")])
    let before = try await fixture.offline(["ls", "--json"]).stdoutText
    let result = try await fixture.offline([verb, "nosuchid"])
    #expect(result.status == 1)
    #expect(result.stderrText.hasPrefix("Error: "))
    #expect(result.stderrText.contains("nosuchid"), "\(result.stderrText)")
    await #expect(try fixture.offline(["ls", "--json"]).stdoutText == before)
  }

  /// Makes a content of `small.bin` in `state` and returns its id.
  static func content(in state: String, _ fixture: QueueFixture) async throws -> String {
    let id = try await fixture.addOne([fixture.url("small.bin")])
    switch state {
    case "downloaded":
      try await #require(try fixture.offline(["run", "--quiet"]).status == 0)
    case "suspended":
      try await #require(try fixture.offline(["pause", id]).status == 0)
    case "notDownloaded":
      try await #require(try fixture.offline(["cancel", id]).status == 0)
    default:
      break
    }
    try await #require(try fixture.entry(id)?.state == state)
    return id
  }
}

import Foundation
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The README's Swift samples are the bodies of the functions in `Examples/`, which every
/// build compiles: a sample that stops compiling fails the build, one edited in only one
/// place fails here.
@Suite(.timed) struct ReadmeSamplesTests {
  @Test func everyReadmeSampleIsTheBodyOfACompiledExample() throws {
    let blocks = try SampleBlocks.swiftBlocks(in: SampleBlocks.root.appending(path: "README.md"))
    let examples = try SampleBlocks.examples()
    #expect(blocks.count >= 2)
    for block in blocks {
      let mismatch = SampleBlocks.mismatch(of: block, in: examples)
      #expect(mismatch == nil, "README: \(mismatch ?? "")")
    }
  }

  /// The built `offline-examples`, beside the test bundle in the build folder.
  static let examplesBinary = BuiltProduct.path("offline-examples")

  static func sha256(_ data: Data) -> String {
    let hasher = SHA256()
    data.withUnsafeBytes { hasher.update($0) }
    return hasher.finalizeHex()
  }

  /// Pins issue 12: the README's library sample never ended (its `for await` over the
  /// events had no end, and nothing closed the manager). Run as the README shows it, from
  /// the `offline-examples` binary, it downloads the file, prints where it is, and exits.
  @Test func theReadmeLibrarySampleDownloadsTheFileAndReturns() async throws {
    let origin = try ManagerOrigin()
    let store = try TemporaryDirectory(prefix: "offlinekit-readme")
    let body = try #require(origin.body("file.bin"))

    let run = try await ProcessRunner.run(
      Self.examplesBinary,
      ["queue", store.url.path, origin.url("file.bin").absoluteString, Self.sha256(body)],
      timeout: 120)

    #expect(run.status == 0, "\(run.stderrText)")
    let line = run.stdoutText.split(separator: "\n").first { $0.hasPrefix("Offline at ") }
    let path = try #require(line.map { String($0.dropFirst("Offline at ".count)) })
    #expect(FileManager.default.contents(atPath: path) == body)
  }

  /// The same sample when the download fails for good (the file is not the one whose
  /// SHA-256 was given): it prints the error and returns too.
  @Test func theReadmeLibrarySamplePrintsTheErrorAndReturnsWhenTheDownloadFails() async throws {
    let origin = try ManagerOrigin()
    let store = try TemporaryDirectory(prefix: "offlinekit-readme")

    let run = try await ProcessRunner.run(
      Self.examplesBinary,
      [
        "queue", store.url.path, origin.url("file.bin").absoluteString,
        String(repeating: "ab", count: 32),
      ],
      timeout: 120)

    #expect(run.status == 0, "\(run.stderrText)")
    #expect(run.stdoutText.contains("SHA-256"), "\(run.stdoutText)")
    #expect(!run.stdoutText.contains("Offline at"))
  }
}

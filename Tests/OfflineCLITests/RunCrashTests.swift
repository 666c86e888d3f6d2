import Foundation
import TestSupport
import Testing

/// SIGKILL of `offline run` at random moments while contents are being cancelled and
/// deleted from another process: after the next run, every file that should exist is
/// complete and verified, nothing cancelled or deleted comes back, nothing stays `canceling`.
@Suite(.ownThreads) struct RunCrashTests {
  struct Item: Decodable {
    let id: String
    let state: String
    let path: String
  }

  @Test func killsDuringCancelsAndDeletesLoseNothingAndResurrectNothing() async throws {
    let count = 8
    let folder = try TemporaryDirectory()
    let www = folder.url.appending(path: "www")
    try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
    var hashes: [String: String] = [:]
    for index in 0..<count {
      let body = TestData.bytes(count: 4 << 20, seed: UInt64(100 + index))
      try body.write(to: www.appending(path: "f\(index).bin"))
      hashes["f\(index)"] = try await TestData.sha256Hex(of: body)
    }
    let nginx = try NginxServer(root: www, options: .init(limitRate: "2m"))
    try nginx.start()
    let store = folder.url.appending(path: "store")
    func offline(_ arguments: [String]) async throws -> ProcessRunner.Output {
      try await OfflineBinary.run(["--store", store.path] + arguments, timeout: 60)
    }
    for index in 0..<count {
      let added = try await offline([
        "add", nginx.url("/f\(index).bin").absoluteString, "--id", "f\(index)", "--sha256",
        hashes["f\(index)"]!,
      ])
      #expect(added.status == 0)
    }

    var gone = Set<String>()  // cancelled or deleted: must never come back
    var generator = SystemRandomNumberGenerator()
    for round in 0..<30 {
      let runner = try OfflineBinary.start(["run", "--quiet"], store: store)
      try await Task.sleep(
        for: .microseconds(UInt32.random(in: 50_000...400_000, using: &generator)))
      if round % 4 == 1 {
        // Cancel or delete one content from another process, racing the kill below.
        let items = try await list(offline)
        if let target = items.first(where: {
          !gone.contains($0.id) && ["downloading", "suspended"].contains($0.state)
        }) {
          if try await offline(["cancel", target.id]).status == 0 { gone.insert(target.id) }
        } else if let target = items.first(where: {
          !gone.contains($0.id) && $0.state == "downloaded"
        }) {
          if try await offline(["rm", target.id]).status == 0 { gone.insert(target.id) }
        }
      }
      kill(runner.processIdentifier, SIGKILL)
      _ = await runner.waitBounded(seconds: 10)
    }

    let last = try await offline(["run", "--quiet"])
    #expect(last.status == 0, "\(last.stderrText)")
    let items = try await list(offline)
    #expect(items.count == count)
    for item in items {
      #expect(item.state != "canceling", "\(item.id) stuck in canceling")
      let folderPath = (item.path as NSString).deletingLastPathComponent
      if gone.contains(item.id) {
        #expect(item.state == "notDownloaded", "\(item.id) came back as \(item.state)")
        // Its own folder gone; a flat file (in the shared `files/`) gone with its part.
        let own = (folderPath as NSString).lastPathComponent == item.id
        for path in own ? [folderPath] : [item.path, item.path + ".part"] {
          #expect(!FileManager.default.fileExists(atPath: path), "\(item.id) left \(path)")
        }
      } else {
        #expect(item.state == "downloaded", "\(item.id) is \(item.state)")
        #expect(
          try await TestData.sha256Hex(of: URL(fileURLWithPath: item.path)) == hashes[item.id],
          "\(item.id) is corrupt")
      }
    }
    #expect(!gone.isEmpty, "the test cancelled or deleted nothing")
  }

  private func list(_ offline: ([String]) async throws -> ProcessRunner.Output) async throws
    -> [Item]
  {
    let output = try await offline(["ls", "--json"])
    return try JSONDecoder().decode([Item].self, from: output.stdout)
  }
}

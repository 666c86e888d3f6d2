import Foundation
import TestSupport
import Testing

extension GetPeerTests.Peer {
  /// A peer whose queue has downloaded `setup`'s file from its origin.
  static func holding(_ setup: GetCommandTests.Setup) async throws -> GetPeerTests.Peer {
    let peer = try await GetPeerTests.Peer()
    _ = try await peer.download(setup.nginx.url("/file.bin"))
    return peer
  }

  /// Runs `offline` with `arguments` in `setup`'s store and folder while this peer serves,
  /// and closes the peer after it.
  func serving(_ arguments: [String], for setup: GetCommandTests.Setup) async throws
    -> OfflineRun
  {
    let result = try await InProcessOffline.run(arguments, store: setup.store, in: setup.out)
    await close()
    return result
  }
}

extension GetCommandTests.Setup {
  /// Expects `result` to be a success that wrote this setup's whole body to ``output``.
  func expectWholeFile(_ result: OfflineRun, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status == 0, "\(result.stderrText)", sourceLocation: sourceLocation)
    #expect(
      FileManager.default.contents(atPath: output) == body, "the file is not the origin's",
      sourceLocation: sourceLocation)
  }
}

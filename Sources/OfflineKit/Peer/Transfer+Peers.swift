import Foundation
import OfflineHTTP

extension Transfer {
  /// Asks each of ``Configuration/peers`` what it holds for the URL, all at once, and
  /// returns those that hold the file downloaded, in the order given; tells `onEvent` of
  /// each peer that could not be asked (`sourceDropped`: a warning, the origin serves).
  func askPeers(onEvent: @Sendable (Event) -> Void) async -> [PeerLookup.Found] {
    let peers = configuration.peers
    guard !peers.isEmpty else { return [] }
    let url = self.url
    let session = self.session
    let answers = await withTaskGroup(of: (Int, PeerLookup.Answer).self) { group in
      for (index, peer) in peers.enumerated() {
        group.addTask { (index, await PeerLookup.ask(peer, for: url, session: session)) }
      }
      var answers: [(Int, PeerLookup.Answer)] = []
      for await answer in group { answers.append(answer) }
      return answers.sorted { $0.0 < $1.0 }
    }
    var found: [PeerLookup.Found] = []
    for (index, answer) in answers {
      switch answer {
      case .found(let copy): found.append(copy)
      case .none: break
      case .unavailable(let reason):
        onEvent(.sourceDropped(peers[index], reason: "the peer \(reason)"))
      }
    }
    return found
  }
}

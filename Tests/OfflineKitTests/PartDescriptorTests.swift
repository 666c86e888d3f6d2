import Foundation
import OfflineLocks
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// Issue 14 (HLS CPU, the per-piece system calls): each piece of a stream opened its part
/// twice, once by its ``DestinationLock`` and once more for writing (an `openat` and a `close`
/// per piece, with their look-ups in a folder of 1000 files). The transfer now writes through
/// the descriptor its lock holds; a retry opens the part again as before.
@Suite(.timed) struct PartDescriptorTests {
  /// The descriptors of this process open on the file at `path` (by inode), read from
  /// `/proc/self/fd`; -1 when nothing is at `path`.
  static func descriptors(naming path: String) -> Int {
    var named = stat()
    guard lstat(path, &named) == 0 else { return -1 }
    let folder = "/proc/self/fd"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { name in
      var open = stat()
      return stat(folder + "/" + name, &open) == 0 && open.st_ino == named.st_ino
        && open.st_dev == named.st_dev
    }.count
  }

  /// Pins the second `openat` of each part: while the request is out, the part of a fresh
  /// transfer is open once, and the file it names has every byte from nginx.
  @Test func aFreshTransferOpensItsPartOnce() async throws {
    let www = try TemporaryDirectory(prefix: "offlinekit-www")
    let body = TestData.bytes(count: 300_000, seed: 141)
    try body.write(to: www.file("piece.ts"))
    let nginx = try NginxServer(root: www.url)
    try nginx.start()
    defer { nginx.stop() }
    let fixture = try TransferFixture()
    let destination = fixture.destination("piece.ts")
    let partPath = destination + ".part"
    let openWhileRequesting = Locked<[Int]>([])

    let outcome = try await fixture.transfer(nginx.url("/piece.ts"), to: destination).run { event in
      if case .requesting = event {
        openWhileRequesting.withLock { $0.append(Self.descriptors(naming: partPath)) }
      }
    }

    #expect(openWhileRequesting.withLock { $0 } == [1])
    #expect(fileData(outcome.destination) == body)
  }
}

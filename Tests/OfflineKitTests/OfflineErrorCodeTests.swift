import Foundation
import OfflineHTTP
import OfflineStore
import TestSupport
import TestTiming
import Testing

@testable import OfflineKit

/// The public face of a failure (issue 37, item 5): a stable code an app branches on, and
/// the details a few codes carry, with no lower module's type to match on.
@Suite(.timed) struct OfflineErrorCodeTests {
  static let url = URL(string: "https://example.com/movie.mp4")!

  static func transfer(_ kind: Transfer.Error.Kind) -> OfflineError {
    OfflineError(.transfer(Transfer.Error(kind, url: url, destination: "/store/movie.mp4")))
  }

  @Test func anHTTPStatusHasItsCodeAndItsStatus() {
    let error = Self.transfer(.status(404, retryAfter: nil))
    #expect(error.code == .httpStatus)
    #expect(error.httpStatus == 404)
    #expect(error.kindName == "http404", "the JSON and the index keep their spelling")
    #expect(error.underlying is Transfer.Error)
  }

  /// One spelling: a transfer stopped by its caller, or a request the transport canceled,
  /// is `canceled` like the content's own cancel.
  @Test func everyCancelIsSpeltCanceled() {
    #expect(Self.transfer(.canceled).code == .canceled)
    #expect(Self.transfer(.network(HTTPError(.canceled, url: Self.url))).code == .canceled)
    #expect(OfflineError(.canceled).code == .canceled)
    #expect(OfflineError(.canceled).code.name == "canceled")
  }

  @Test func aFullDiskIsStorageAndAnotherFileFailureIsFile() {
    #expect(Self.transfer(.file(TransferFileError(.write, errno: ENOSPC))).code == .storage)
    #expect(Self.transfer(.file(TransferFileError(.write, errno: EIO))).code == .file)
  }

  @Test func aNetworkFailureIsNetwork() {
    let error = Self.transfer(.network(HTTPError(.connectionLost, url: Self.url)))
    #expect(error.code == .network)
    #expect(error.httpStatus == nil)
    #expect(error.code != .httpStatus)
  }

  @Test func aRefusedCallNamesTheStateThatRefusedIt() {
    let error = OfflineError(.invalidTransition(.suspend, from: .downloaded), contentID: "m")
    #expect(error.code == .invalidTransition)
    #expect(error.state == .downloaded)
    #expect(error.contentID == "m")
    #expect(error.description == "Cannot pause content m: it is downloaded.")
    #expect(error.underlying == nil)
  }

  @Test func aDamagedContentCarriesItsDamage() {
    let damage = ContentDamage(problems: [
      .init(path: "movie.mp4", kind: .file, fault: .missing)
    ])
    let error = OfflineError(.damaged(damage))
    #expect(error.code == .damaged)
    #expect(error.damage == damage)
    #expect(error.state == nil)
  }

  @Test func anIndexFailureIsIndexWithTheStoreErrorUnderneath() {
    let error = OfflineError(.index(StoreError(code: 10, message: "disk I/O error", path: "/s")))
    #expect(error.code == .index)
    #expect((error.underlying as? StoreError)?.message == "disk I/O error")
  }

  /// A content's last error as the store keeps it (its code's name and its sentence) comes
  /// back with the same code, status and sentence, and equal to the error it was.
  @Test func aRecordedErrorComesBackAsTheErrorItWas() {
    let original = Self.transfer(.status(404, retryAfter: nil))
    let recorded = OfflineError(
      .recorded(codeName: original.kindName, message: original.description))
    #expect(recorded.code == .httpStatus && recorded.httpStatus == 404)
    #expect(recorded == original)
    let canceled = OfflineError(.recorded(codeName: "canceled", message: "It was canceled."))
    #expect(canceled.code == .canceled && canceled.httpStatus == nil)
    #expect(canceled != recorded)
  }

  /// Through the public API: an unknown id is a code, not a case to match.
  @Test func anUnknownIdIsUnknownContent() async throws {
    let store = try TemporaryDirectory()
    let manager = try OfflineManager(directory: store.url)
    defer { Task { await manager.close() } }
    await #expect {
      try await manager.content(id: "nothing-here")
    } throws: { error in
      (error as? OfflineError)?.code == .unknownContent
    }
  }
}

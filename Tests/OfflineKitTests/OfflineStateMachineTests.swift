import Foundation
import OfflineStore
import TestTiming
import Testing

@testable import OfflineKit

/// The transition table of `OfflineState`, without I/O.
@Suite(.timed) struct OfflineStateMachineTests {
  /// The rows of the table in `OfflineState.swift`: (from, call, to).
  static let rows: [(OfflineState, OfflineAction, OfflineState)] = [
    (.notDownloaded, .download, .downloading),
    (.downloading, .suspend, .suspended),
    (.suspended, .resume, .downloading),
    (.downloading, .cancel, .canceling),
    (.suspended, .cancel, .canceling),
    (.downloaded, .delete, .notDownloaded),
  ]

  /// The domain's states are OfflineKit's own (issue 37, item 1); the index keeps each as
  /// the same text, so every store written before still opens.
  @Test func everyStateIsStoredAsItsOwnNameAndReadBack() {
    #expect(OfflineState.allCases.count == ContentState.allCases.count)
    for state in OfflineState.allCases {
      #expect(state.stored.rawValue == state.rawValue)
      #expect(OfflineState(state.stored) == state)
    }
  }

  /// So is every wait reason, a retry with its time.
  @Test func everyWaitReasonIsStoredAsItsOwnNameAndReadBack() {
    let due = Date(timeIntervalSince1970: 1_800_000_000)
    let reasons: [WaitReason] = [.queued, .network, .storage, .retry(at: due), .starting]
    for reason in reasons {
      #expect(reason.stored.name == reason.name)
      #expect(WaitReason(reason.stored) == reason)
      #expect(ContentWaitReason(name: reason.name, retryAt: reason.retryAt) == reason.stored)
    }
  }

  @Test func downloadQueuesANotDownloadedContent() throws {
    #expect(try OfflineStateMachine.state(after: .download, from: .notDownloaded) == .downloading)
  }

  @Test func suspendPausesADownload() throws {
    #expect(try OfflineStateMachine.state(after: .suspend, from: .downloading) == .suspended)
  }

  @Test func resumeGoesOnWithASuspendedContent() throws {
    #expect(try OfflineStateMachine.state(after: .resume, from: .suspended) == .downloading)
  }

  @Test(arguments: [OfflineState.downloading, .suspended])
  func cancelStartsCanceling(from state: OfflineState) throws {
    #expect(try OfflineStateMachine.state(after: .cancel, from: state) == .canceling)
  }

  @Test func aFinishedCancelLeavesNothingDownloaded() throws {
    #expect(OfflineStateMachine.state(after: .cancelFinished, from: .canceling) == .notDownloaded)
  }

  @Test func aCompletedTransferIsDownloaded() throws {
    #expect(OfflineStateMachine.state(after: .finished, from: .downloading) == .downloaded)
  }

  @Test func aFailureForGoodSuspends() throws {
    #expect(OfflineStateMachine.state(after: .failedKeepingData, from: .downloading) == .suspended)
  }

  /// Pins issue 12: a failure that threw the bytes away (a checksum mismatch) ended in
  /// `suspended`, claiming partial data that was not there.
  @Test func aFailureThatDiscardedTheBytesLeavesNothingDownloaded() {
    #expect(
      OfflineStateMachine.state(after: .failedDiscardingData, from: .downloading)
        == .notDownloaded)
  }

  /// What the engine reports changes a content only in the row it belongs to: a finish
  /// or failure arriving after a call moved the content on changes nothing.
  @Test func anEngineEventOutsideTheTableChangesNothing() {
    let rows: [(OfflineState, OfflineEngineEvent)] = [
      (.downloading, .finished), (.downloading, .failedKeepingData),
      (.downloading, .failedDiscardingData), (.canceling, .cancelFinished),
    ]
    for event in OfflineEngineEvent.allCases {
      for state in OfflineState.allCases where !rows.contains(where: { $0 == (state, event) }) {
        #expect(OfflineStateMachine.state(after: event, from: state) == nil, "\(event) in \(state)")
      }
    }
  }

  @Test func deleteRemovesADownloadedContent() throws {
    #expect(try OfflineStateMachine.state(after: .delete, from: .downloaded) == .notDownloaded)
  }

  @Test func everyCallOutsideTheTableIsRejectedNamingTheCallAndTheState() {
    var rejected = 0
    for action in OfflineAction.allCases {
      for state in OfflineState.allCases {
        let row = Self.rows.first { $0.0 == state && $0.1 == action }
        do {
          let after = try OfflineStateMachine.state(after: action, from: state)
          #expect(row != nil, "\(action) in \(state) was accepted (→ \(after))")
          #expect(after == row?.2, "\(action) in \(state)")
        } catch {
          rejected += 1
          #expect(row == nil, "\(action) in \(state) was rejected: \(error)")
          guard case .invalidTransition(let refused, let from) = error.kind else {
            Issue.record("\(action) in \(state) threw \(error)")
            continue
          }
          #expect(refused == action)
          #expect(from == state)
          #expect(error.description.contains("it is \(state.phrase)."))
        }
      }
    }
    #expect(
      rejected == OfflineAction.allCases.count * OfflineState.allCases.count - Self.rows.count)
  }
}

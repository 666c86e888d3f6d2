import Foundation
import OfflineKit

/// The actions of the JSON API, in the words of the CLI, and the library calls behind them.
enum APIAction: String, CaseIterable, Sendable {
  case pause, resume, cancel, delete, download, forget

  /// The state machine's action (forget is not one: it removes a `notDownloaded` content).
  var action: OfflineAction? {
    switch self {
    case .pause: .suspend
    case .resume: .resume
    case .cancel: .cancel
    case .delete: .delete
    case .download: .download
    case .forget: nil
    }
  }

}

import Foundation
import OfflineKit

/// README, "One file, without the queue".
func readmeTransfer(storeURL: URL, movieSHA256: String) async throws {
  let transfer = try Transfer(
    url: URL(string: "https://example.com/movie.mp4")!,
    destination: "/data/movie.mp4",
    store: storeURL,  // its journal: a later run resumes where this one stopped
    configuration: .init(expectedSHA256: movieSHA256))
  let outcome = try await transfer.run { event in
    if case .progress(let progress) = event { print(progress.fractionCompleted ?? 0) }
  }
  print(outcome.destination, outcome.check)
}

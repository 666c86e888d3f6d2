import Foundation
import OfflineKit

/// README, "One file, without the queue".
func readmeTransfer(storeURL: URL, movieSHA256: String) async throws {
  let transfer = try Transfer(
    url: URL(string: "https://example.com/movie.mp4")!,
    destination: "/data/movie.mp4",
    store: storeURL,  // its journal: a later run resumes where this one stopped
    configuration: .init(expectedSHA256: movieSHA256))
  for await event in transfer.events() {  // the events of a queued content
    switch event {
    case .progress(let progress): print(progress.fractionCompleted ?? 0)
    case .finished(.success(let file)): print("Verified:", file.path)
    case .finished(.failure(let error)): print(error)  // its part is kept for the next run
    default: break
    }
  }
}

import Foundation

// The code samples of README.md, compiled by every build (CI included) so none can stop
// compiling unnoticed; Tests/OfflineKitTests/ReadmeSamplesTests.swift checks that the
// README shows exactly these lines. Run a sample against your own URLs:
//
//   swift run offline-examples queue STORE_FOLDER URL SHA256
let arguments = CommandLine.arguments.dropFirst()
if arguments.first == "queue", arguments.count == 4 {
  let values = Array(arguments)
  try await readmeQueue(
    storeURL: URL(fileURLWithPath: values[1]), movieURL: URL(string: values[2])!,
    movieSHA256: values[3])
} else {
  print("usage: offline-examples queue <store-folder> <url> <sha256>")
}

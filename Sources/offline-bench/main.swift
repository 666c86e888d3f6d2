import Foundation
import OfflineKit

// offline-bench: measurements that benchmarks/ drives, kept out of the shipping `offline`.
//
//   offline-bench cache-hit   --store DIR URL [--count N] [--rounds N]
//   offline-bench cache-index --store DIR URL [--count N] [--entries N]
//
// Prints one JSON object on standard output; exit 64 on a usage error, 1 on a failure.

var arguments = Array(CommandLine.arguments.dropFirst())
let usage =
  "usage: offline-bench cache-hit|cache-index --store <dir> <url> [--count <n>] [--rounds <n>]"
  + " [--entries <n>]\n"
guard let name = arguments.first, ["cache-hit", "cache-index"].contains(name) else {
  FileHandle.standardError.write(Data(usage.utf8))
  exit(64)
}
arguments.removeFirst()
var settings = CacheBenchmark.Settings()
var store: URL?
var url: URL?
while let argument = arguments.first {
  arguments.removeFirst()
  if argument.hasPrefix("--") {
    guard let value = arguments.first else {
      FileHandle.standardError.write(Data(usage.utf8))
      exit(64)
    }
    arguments.removeFirst()
    switch argument {
    case "--store": store = URL(fileURLWithPath: value)
    case "--count": settings.count = Int(value) ?? settings.count
    case "--rounds": settings.rounds = Int(value) ?? settings.rounds
    case "--entries": settings.entries = Int(value) ?? settings.entries
    default:
      FileHandle.standardError.write(Data(usage.utf8))
      exit(64)
    }
  } else {
    url = URL(string: argument)
  }
}
guard let store, let url else {
  FileHandle.standardError.write(Data(usage.utf8))
  exit(64)
}
do {
  print(try await CacheBenchmark.run(name, url: url, store: store, settings: settings))
} catch {
  FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
  exit(1)
}

import Foundation
import TestTiming
import Testing

@testable import OfflineCLI

/// The declarations drive everything: each option of each command is accepted by the
/// parser, is in its help and its usage line, and reads back as a typed value.
@Suite(.ownThreads, .timed) struct CommandDeclarationTests {
  static let root = CommandPath(root: RootCommand.configuration)

  /// Values one of which every option and argument of the tool takes.
  static let candidates = [
    "1", "http://127.0.0.1/a", "highest", "en", String(repeating: "ab", count: 32), "bash",
    "127.0.0.1:8380", "X-Test: 1", emptyFile, "mp4", "18:30",
  ]

  /// An empty file: a valid cookies.txt and netrc file.
  static let emptyFile: String = {
    let path = FileManager.default.temporaryDirectory
      .appending(path: "offline-declarations-\(getpid()).txt").path
    _ = FileManager.default.createFile(atPath: path, contents: Data())
    return path
  }()

  /// A value `convert` takes.
  static func sample(_ convert: (String) throws(ValueError) -> any Sendable) -> String? {
    candidates.first { (try? convert($0)) != nil }
  }

  /// The words that reach `path`, with its required arguments and options.
  static func commandLine(to path: CommandPath) -> [String] {
    let required = path.command.arguments.filter { !$0.isOptional }
    let options = path.command.options.filter(\.isRequired).flatMap { option in
      [option.key] + (option.isFlag ? [] : [sample(option.convert) ?? ""])
    }
    return path.levels.dropFirst().map(\.name) + required.compactMap { sample($0.convert) }
      + options
  }

  // Pins issue 12, item 4: options were declared in a help row and again in a parse switch,
  // and the two drifted.
  @Test func everyDeclaredOptionIsAcceptedAndInTheHelpAndTheUsage() throws {
    var checked = 0
    for path in Self.root.tree {
      let help = HelpText(path: path).render()
      let usage = UsageLine.words(path)
      for option in path.command.options {
        for name in option.names {
          let value = option.isFlag ? [] : [try #require(Self.sample(option.convert), "\(name)")]
          let line = Self.commandLine(to: path) + [name] + value
          let parsed = try CommandParser.parse(line, root: Self.root.command)
          #expect(parsed.path.words == path.words, "\(line)")
          #expect(parsed.arguments.wasGiven(Given(spec: option)), "\(line)")
        }
        #expect(help.contains(option.label), "\(path.words): \(option.label)")
        #expect(usage.contains(UsageLine.usage(of: option)), "\(path.words): \(option.key)")
        checked += 1
      }
      for argument in path.command.arguments {
        #expect(help.contains("<\(argument.name)>"), "\(path.words): \(argument.name)")
        #expect(usage.contains(argument.usage), "\(path.words): \(argument.name)")
      }
    }
    #expect(checked > 40)
  }

  @Test func noCommandDeclaresANameTwiceOrTakesHelpsNames() {
    for path in Self.root.tree {
      let names = path.command.listedOptions.flatMap(\.names)
      #expect(Set(names).count == names.count, "\(path.words): \(names)")
      let children = path.command.subcommands.map(\.name)
      #expect(Set(children).count == children.count, "\(path.words): \(children)")
    }
  }

  // Pins issue 12, item 4: benchmarks (`cache bench-hit`, `bench-index`) shipped inside the
  // CLI; they live in `offline-bench`.
  @Test func noBenchmarkShipsInTheTool() {
    for path in Self.root.tree {
      #expect(!path.command.name.contains("bench"), "\(path.words)")
      for option in path.command.options { #expect(!option.key.contains("bench"), "\(option.key)") }
    }
  }

  @Test func everyDefaultIsAValueItsOptionTakes() {
    for path in Self.root.tree {
      for option in path.command.options {
        if let text = option.defaultText { #expect((try? option.convert(text)) != nil) }
      }
    }
  }

  @Test func valuesAreTypedAndRefusalsNameTheOption() throws {
    let root = Self.root.command
    let get = try CommandParser.parse(
      [
        "get", "http://127.0.0.1/a", "--stall-timeout", "7", "--min-free", "2M", "--connections",
        "4", "--piece-retry-delay", "0.25",
      ], root: root)
    let command = try GetCommand(get.arguments)
    #expect(command.stallTimeout == .seconds(7))
    #expect(command.minimumFreeSpace == 2 << 20)
    #expect(command.connections == 4)
    #expect(command.retries == 5)
    #expect(command.hls.pieceRetryDelay == .milliseconds(250))

    for (line, message) in [
      (
        ["get", "http://x/", "--retries", "many"],
        "--retries takes a whole number above 0, not 'many'."
      ),
      (["get", "http://x/", "--connections", "33"], "--connections takes at most 32, not '33'."),
      (
        ["run", "--min-free", "lots"],
        "--min-free takes a size, such as 0, 512K, 100M or 1G, not 'lots'."
      ),
      (["completions", "tcsh"], "'tcsh' is not one of bash, zsh or fish."),
      (["get", "http://x/", "--force=yes"], "Option '--force' takes no value."),
      (["cache", "limit"], "Missing size."),
      // A required option (export's --output) left out.
      (["export", "movie", "--force"], "Missing --output."),
    ] {
      #expect(throws: ParseStop.self, "\(line)") { try CommandParser.parse(line, root: root) }
      do {
        _ = try CommandParser.parse(line, root: root)
      } catch {
        guard case .usage(let usage, _) = error else {
          Issue.record("\(line): \(error)")
          continue
        }
        #expect(usage.message == message)
      }
    }
  }

  @Test func helpIsAskedForOnTheCommandItFollows() throws {
    for (line, words) in [
      (["--help"], "offline"), (["get", "-h"], "offline get"),
      (["cache", "limit", "--help"], "offline cache limit"),
      (["cache", "--help", "ls"], "offline cache"),
    ] {
      do {
        _ = try CommandParser.parse(line, root: Self.root.command)
        Issue.record("\(line) parsed")
      } catch {
        guard case .helpRequested(let path) = error else {
          Issue.record("\(line): \(error)")
          continue
        }
        #expect(path.words == words)
      }
    }
  }
}

/// An option declaration seen only through its type-free spec (for `wasGiven`).
private struct Given: OptionDeclaring {
  let spec: OptionSpec
}

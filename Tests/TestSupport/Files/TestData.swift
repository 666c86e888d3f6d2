import Foundation

/// Deterministic test content and checksums.
///
/// The bytes depend only on the seed and the offset: `bytes(count: 10)` is a prefix of
/// `bytes(count: 20)`, and `writeFile(at:count:seed:)` writes exactly `bytes(count:seed:)`.
/// They are AES-128-CTR's keystream (``TestKeystream``): incompressible, with no period.
///
/// ```swift
/// let body = TestData.bytes(count: 1 << 20, seed: 7)
/// let hex = try TestData.sha256Hex(of: body)
/// ```
public enum TestData {
  /// The chunk size `writeFile` generates and writes at a time.
  static let chunkSize = 4 << 20

  /// Returns `count` pseudo-random bytes determined by `seed` (about 0.1 s for 128 MiB).
  ///
  /// - Parameters:
  ///   - count: How many bytes to return.
  ///   - seed: Picks the sequence; equal seeds give equal bytes.
  public static func bytes(count: Int, seed: UInt64 = 1) -> Data {
    precondition(count >= 0, "count must not be negative")
    var data = Data(count: count)
    let stream = TestKeystream(seed: seed)
    data.withUnsafeMutableBytes { stream.fill($0) }
    return data
  }

  /// Writes `bytes(count:seed:)` to `url` in 4 MiB chunks, replacing any existing file.
  ///
  /// Memory use stays at one chunk, so gigabyte files are fine.
  ///
  /// - Throws: The file handle's error when the file cannot be created or written.
  public static func writeFile(at url: URL, count: Int, seed: UInt64 = 1) throws {
    precondition(count >= 0, "count must not be negative")
    let handle = try FileHandle.creatingEmptyFile(at: url)
    defer { try? handle.close() }
    let stream = TestKeystream(seed: seed)
    var chunk = Data(count: min(count, chunkSize))
    var remaining = count
    while remaining > 0 {
      let size = min(remaining, chunkSize)
      if size < chunk.count { chunk = Data(count: size) }
      chunk.withUnsafeMutableBytes { stream.fill($0) }
      try handle.write(contentsOf: chunk)
      remaining -= size
    }
  }

  /// The SHA-256 of a file's contents as 64 lowercase hex digits, computed by `sha256sum`.
  ///
  /// - Throws: `TestSupportError` when `sha256sum` fails or prints something unexpected.
  public static func sha256Hex(of file: URL) async throws -> String {
    let command = "/usr/bin/sha256sum"
    let output = try await ProcessRunner.checked(
      command, ["--binary", "--", file.path], timeout: 120)
    let hex = output.stdoutText.prefix { !$0.isWhitespace }
    guard hex.count == 64, hex.allSatisfy(\.isHexDigit) else {
      throw TestSupportError.unexpectedOutput(command: command, output: output.stdoutText)
    }
    return hex.lowercased()
  }

  /// The SHA-256 of `data` as 64 lowercase hex digits (via a temporary file and `sha256sum`).
  ///
  /// - Throws: `TestSupportError` when the file cannot be written or `sha256sum` fails.
  public static func sha256Hex(of data: Data) async throws -> String {
    let scratch = try TemporaryDirectory(prefix: "offlinekit-sha256")
    let file = scratch.file("data")
    try data.write(to: file)
    return try await sha256Hex(of: file)
  }
}

/// The SplitMix64 generator (Steele, Lea, Flood 2014): fast, and good enough for test data.
public struct SplitMix64 {
  private var state: UInt64

  /// A generator whose stream is fixed by `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 pseudo-random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }

  /// Fills `buffer` eight bytes at a time (little-endian); a short tail takes the low bytes
  /// of one more value, so filling chunks whose sizes are multiples of 8 continues the stream.
  mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress else { return }
    let words = buffer.count / 8
    var offset = 0
    for _ in 0..<words {
      base.storeBytes(of: next().littleEndian, toByteOffset: offset, as: UInt64.self)
      offset &+= 8
    }
    if offset < buffer.count {
      var last = next()
      while offset < buffer.count {
        base.storeBytes(of: UInt8(truncatingIfNeeded: last), toByteOffset: offset, as: UInt8.self)
        last >>= 8
        offset += 1
      }
    }
  }
}

// libFuzzer entry point for the HTTP header values OfflineHTTP parses itself: Content-Range,
// Retry-After, ETag and Content-Disposition. Built by `scripts/fuzz headers`, compiled in one
// module with those parsers' sources, so no import of OfflineHTTP (and no libcurl) is needed.
//
// Every input goes to every parser. Any input may be refused; what is accepted must hold the
// parser's promises. Anything else traps, and libFuzzer saves the input as a crash artifact.
import Foundation

/// Checks one input against the four parsers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
  checkContentRange(text)
  checkRetryAfter(text)
  checkEntityTag(text)
  checkContentDisposition(text)
  return 0
}

/// A satisfied range is ordered and inside its length; every length is non-negative.
func checkContentRange(_ text: String) {
  guard let range = ContentRange(text) else { return }
  switch range {
  case .satisfied(let first, let last, let length):
    precondition(first >= 0 && first <= last, "bad range from \(text.debugDescription)")
    if let length { precondition(last < length, "range past its length: \(text.debugDescription)") }
  case .unsatisfied(let length):
    precondition(length >= 0, "negative length from \(text.debugDescription)")
  }
}

/// A delay is never negative.
func checkRetryAfter(_ text: String) {
  guard let delay = RetryAfter.delay(from: text, now: Date(timeIntervalSince1970: 1e9)) else {
    return
  }
  precondition(delay >= .zero, "negative Retry-After from \(text.debugDescription)")
}

/// An accepted tag parses again from its raw value to the same tag.
func checkEntityTag(_ text: String) {
  guard let tag = EntityTag(text) else { return }
  precondition(EntityTag(tag.rawValue) == tag, "tag does not round-trip: \(text.debugDescription)")
  precondition(tag.rawValue.hasSuffix("\""), "unquoted tag from \(text.debugDescription)")
}

/// The type is a lowercased token; parsing is deterministic.
func checkContentDisposition(_ text: String) {
  guard let disposition = ContentDisposition(text) else { return }
  precondition(!disposition.type.isEmpty, "empty type from \(text.debugDescription)")
  precondition(
    disposition.type == disposition.type.lowercased(),
    "type not lowercased: \(text.debugDescription)")
  precondition(
    ContentDisposition(text) == disposition, "not deterministic: \(text.debugDescription)")
}

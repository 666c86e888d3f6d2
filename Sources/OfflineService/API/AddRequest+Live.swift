import Foundation
import OfflineKit

/// A value of `POST /api/contents` as the JSON gave it, so that a value of the wrong type is
/// refused naming its field rather than failing the whole body.
enum AddRequestValue: Decodable, Sendable, Equatable {
  case text(String)
  case number(Double)
  case flag(Bool)
  case other

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let text = try? container.decode(String.self) {
      self = .text(text)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let flag = try? container.decode(Bool.self) {
      self = .flag(flag)
    } else {
      self = .other
    }
  }
}

/// The live options of `POST /api/contents`, those of `offline add` (issue 41): `fromStart`
/// (`--from-start`), `liveOffset` (`--live-offset`), `recordFor` (`--record-for`),
/// `recordUntil` (`--record-until`), `split` (`--split`), and `endAfterSilence`
/// (`--end-after`: how long the playlist or MPD may bring no new segment before the stream
/// counts as ended). Durations are numbers of seconds or text
/// such as `"45s"`, `"20m"`, `"1h30m"`; a time is `"18:30"` (local) or ISO 8601 with its
/// zone; each read as the command reads it (`LiveArguments`).
struct AddRequestLive: Decodable, Sendable {
  var fromStart: AddRequestValue?
  var liveOffset: AddRequestValue?
  var recordFor: AddRequestValue?
  var recordUntil: AddRequestValue?
  var split: AddRequestValue?
  var endAfterSilence: AddRequestValue?

  /// The options these fields give, over `options`, or the sentence naming the field that
  /// is wrong.
  func applied(to options: LiveRecordingOptions, now: Date = Date())
    -> Result<LiveRecordingOptions, AddRequestError>
  {
    var options = options
    switch fromStart {
    case nil: break
    case .flag(let flag)?: if flag { options.start = .fromStart }
    default: return .failure(AddRequestError("'fromStart' takes true or false."))
    }
    do throws(AddRequestError) {
      if let value = try Self.duration(liveOffset, "liveOffset") {
        guard options.start == .liveEdge else {
          throw AddRequestError("'liveOffset' and 'fromStart' name two starts; give one.")
        }
        options.start = .secondsBack(value.inSeconds)
      }
      if let value = try Self.duration(recordFor, "recordFor") { options.recordFor = value }
      if let value = try Self.duration(split, "split", aboveZero: true) {
        options.splitEvery = value
      }
      if let value = try Self.duration(endAfterSilence, "endAfterSilence", aboveZero: true) {
        options.endAfterSilence = value
      }
      if let recordUntil {
        guard case .text(let text) = recordUntil,
          let date = LiveArguments.date(from: text, now: now)
        else {
          throw AddRequestError(
            "'recordUntil' takes a time such as \"18:30\" or \"2026-12-07T18:30:00Z\".")
        }
        options.recordUntil = date
      }
    } catch {
      return .failure(error)
    }
    return .success(options)
  }

  /// The duration `value` of the field `name` gives: a number of seconds or text as
  /// `--record-for` takes it, above zero when `aboveZero` (parts or a silence of no length
  /// mean nothing); nil when the field is absent.
  private static func duration(_ value: AddRequestValue?, _ name: String, aboveZero: Bool = false)
    throws(AddRequestError) -> Duration?
  {
    let text: String
    switch value {
    case nil: return nil
    case .text(let given)?: text = given
    case .number(let seconds)?: text = "\(seconds)"
    default: text = ""
    }
    guard let duration = LiveArguments.duration(in: text), !aboveZero || duration > .zero
    else {
      throw AddRequestError(
        "'\(name)' takes a duration\(aboveZero ? " above 0" : "") such as 90 (seconds),"
          + " \"45s\", \"20m\" or \"1h30m\".")
    }
    return duration
  }
}

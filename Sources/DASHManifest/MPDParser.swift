import Foundation
import XMLTree

/// Parses an MPD (ISO/IEC 23009-1 §5.3) into an `MPD` value.
///
/// Pure: no I/O, and any input either parses or throws an `MPDError` that names the element
/// (`MPD/Period[1]/AdaptationSet[2]`); it never traps. Elements and attributes are matched by
/// local name, so the MPD namespace (`urn:mpeg:dash:schema:mpd:2011`, any case), a prefixed
/// one (`mpd:MPD`) and `cenc:`/`xlink:` attributes all work. Unknown elements and attributes
/// are ignored. URL templates are checked here, so a manifest that parses has templates
/// `SegmentResolver` can expand.
///
/// ```swift
/// let mpd = try MPDParser.parse(Data(text.utf8))
/// print(mpd.periods[0].adaptationSets.map(\.contentType))
/// ```
public enum MPDParser {
  /// Parses the bytes of a manifest.
  ///
  /// - Throws: `MPDError`: `notXML`, `notMPD`, `missingAttribute`, `malformedValue` or
  ///   `invalidTemplate`, with the element's path.
  public static func parse(_ data: Data) throws -> MPD {
    var ignored: [String] = []
    return try parse(data, ignored: &ignored)
  }

  /// Parses the bytes of a manifest, adding to `ignored` a sentence for each element it
  /// ignored rather than refused (a malformed `ContentSteering`, a second one): what a
  /// downloader logs. Kept out of the `MPD`, so a manifest written back parses the same.
  ///
  /// - Throws: `MPDError`, as `parse(_:)` does.
  public static func parse(_ data: Data, ignored: inout [String]) throws -> MPD {
    let root: XMLNode
    do {
      root = try XMLTreeBuilder.parse(data)
    } catch {
      throw MPDError(error)
    }
    guard root.name == "MPD" else {
      throw MPDError(.notMPD, at: root.qualifiedName, "The root element is not MPD.")
    }
    var mpd = try mpd(Located(node: root, path: "MPD"))
    let (steering, reasons) = contentSteering(Located(node: root, path: "MPD"))
    mpd.contentSteering = steering
    ignored += reasons
    return mpd
  }

  /// Parses the text of a manifest.
  public static func parse(_ text: String) throws -> MPD { try parse(Data(text.utf8)) }

  private static func mpd(_ element: Located) throws -> MPD {
    let type: PresentationType =
      try element.value("type", "static or dynamic") {
        PresentationType(rawValue: $0)
      } ?? .static
    var mpd = MPD(
      type: type, profiles: element.string("profiles"),
      mediaPresentationDuration: try element.duration("mediaPresentationDuration"),
      minBufferTime: try element.duration("minBufferTime"),
      maxSegmentDuration: try element.duration("maxSegmentDuration"),

      periods: try element.children("Period").map(period), live: try liveTiming(element))
    mpd.baseURLElements = baseURLs(element)
    return mpd
  }

  private static func period(_ element: Located) throws -> Period {
    var period = Period(
      id: element.string("id"), start: try element.duration("start"),
      duration: try element.duration("duration"),
      segmentInfo: try segmentInformation(element),
      adaptationSets: try element.children("AdaptationSet").map(adaptationSet))
    period.baseURLElements = baseURLs(element)
    return period
  }

  private static func adaptationSet(_ element: Located) throws -> AdaptationSet {
    var set = AdaptationSet(
      id: element.string("id"), contentType: element.string("contentType"),
      lang: element.string("lang"), common: try common(element),
      roles: try element.children("Role").map(descriptor),
      accessibilities: try element.children("Accessibility").map(descriptor),
      contentProtections: try element.children("ContentProtection").map(contentProtection),
      segmentInfo: try segmentInformation(element),
      representations: try element.children("Representation").map(representation))
    set.baseURLElements = baseURLs(element)
    return set
  }

  /// A Representation; a missing `@bandwidth` is unknown, not an error (players accept it; it
  /// only matters to `$Bandwidth$`, which the resolver checks).
  private static func representation(_ element: Located) throws -> Representation {
    var representation = Representation(
      id: try element.required("id"), bandwidth: try element.int("bandwidth"),
      common: try common(element),
      contentProtections: try element.children("ContentProtection").map(contentProtection),
      segmentInfo: try segmentInformation(element))
    representation.baseURLElements = baseURLs(element)
    return representation
  }

  private static func common(_ element: Located) throws -> CommonAttributes {
    CommonAttributes(
      mimeType: element.string("mimeType"), codecs: element.string("codecs"),
      width: try element.int("width"), height: try element.int("height"),
      frameRate: try element.value("frameRate", "a frame rate such as 25, 30000/1001 or 29.97") {
        FrameRate($0)
      },
      audioSamplingRate: element.string("audioSamplingRate"))
  }

  private static func descriptor(_ element: Located) throws -> Descriptor {
    Descriptor(schemeIdUri: try element.required("schemeIdUri"), value: element.string("value"))
  }

  private static func contentProtection(_ element: Located) throws -> ContentProtection {
    ContentProtection(
      schemeIdUri: try element.required("schemeIdUri"), value: element.string("value"),
      defaultKID: element.string("default_KID"),
      pssh: try element.child("pssh")?.trimmedText)
  }

  /// The `BaseURL` children with trimmed texts; empty ones are skipped. `dvb:priority` and
  /// `dvb:weight` (matched by local name) that are not whole numbers are ignored rather than
  /// refused: they only rank alternatives, and a player ignores them too.
  private static func baseURLs(_ element: Located) -> [BaseURL] {
    element.children("BaseURL").compactMap { child in
      guard let text = child.trimmedText else { return nil }
      return BaseURL(
        text, serviceLocation: child.string("serviceLocation"),
        priority: wholeNumber(child.string("priority")),
        weight: wholeNumber(child.string("weight")))
    }
  }

  /// `text` as a non-negative `Int`, nil when it is not one (or absent).
  private static func wholeNumber(_ text: String?) -> Int? {
    guard let text = text?.trimmingASCIIWhitespace(), !text.isEmpty,
      text.count <= 9, text.allSatisfy(\.isASCIIDigit)
    else { return nil }
    return Int(text)
  }
}

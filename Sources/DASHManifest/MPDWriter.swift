import XMLTree

/// Writes an `MPD` as XML in the MPD namespace (ISO/IEC 23009-1 §5.3).
///
/// Everything the model holds is written, so `MPDParser.parse(MPDWriter.write(mpd)) == mpd`
/// for any `mpd` the parser made. Durations are written as `PT<seconds>S` in plain digits.
/// For the offline copy of a presentation, make the model with `OfflineManifest` first.
///
/// ```swift
/// let text = MPDWriter.write(try OfflineManifest.make(from: mpd, files: files))
/// ```
public enum MPDWriter {
  /// The MPD namespace.
  public static let namespace = "urn:mpeg:dash:schema:mpd:2011"
  /// The namespace of `cenc:default_KID` and `cenc:pssh` (ISO/IEC 23001-7).
  public static let cencNamespace = "urn:mpeg:cenc:2013"
  /// The namespace of `dvb:priority` and `dvb:weight` (ETSI TS 103 285), declared when a
  /// `BaseURL` has either.
  public static let dvbNamespace = "urn:dvb:dash:dash-extensions:2014-1"

  /// The manifest as XML text.
  public static func write(_ mpd: MPD) -> String {
    var xml = XMLText()
    xml.element(
      "MPD",
      [
        ("xmlns", namespace), ("xmlns:cenc", cencNamespace),
        ("xmlns:dvb", ranksBaseURLs(mpd) ? dvbNamespace : nil), ("type", mpd.type.rawValue),
        ("profiles", mpd.profiles),
        ("mediaPresentationDuration", mpd.mediaPresentationDuration.map(ISODuration.text)),
        ("minBufferTime", mpd.minBufferTime.map(ISODuration.text)),
        ("maxSegmentDuration", mpd.maxSegmentDuration.map(ISODuration.text)),
      ] + liveAttributes(mpd.live)
    ) { xml in
      if let steering = mpd.contentSteering { write(steering, &xml) }
      baseURLs(mpd.baseURLElements, &xml)
      for period in mpd.periods { write(period, &xml) }
      for timing in mpd.live.utcTimings {
        xml.element("UTCTiming", [("schemeIdUri", timing.scheme.uri), ("value", timing.value)])
      }
    }
    return xml.text
  }

  /// The timing attributes of a live presentation, each when it has a value.
  private static func liveAttributes(_ live: LiveTiming) -> [(String, String?)] {
    [
      ("availabilityStartTime", live.availabilityStartTime.map(XSDateTime.text)),
      ("publishTime", live.publishTime.map(XSDateTime.text)),
      ("minimumUpdatePeriod", live.minimumUpdatePeriod.map(ISODuration.text)),
      ("timeShiftBufferDepth", live.timeShiftBufferDepth.map(ISODuration.text)),
      ("suggestedPresentationDelay", live.suggestedPresentationDelay.map(ISODuration.text)),
    ]
  }

  private static func write(_ period: Period, _ xml: inout XMLText) {
    xml.element(
      "Period",
      [
        ("id", period.id), ("start", period.start.map(ISODuration.text)),
        ("duration", period.duration.map(ISODuration.text)),
      ]
    ) { xml in
      baseURLs(period.baseURLElements, &xml)
      write(period.segmentInfo, &xml)
      for set in period.adaptationSets { write(set, &xml) }
    }
  }

  private static func write(_ set: AdaptationSet, _ xml: inout XMLText) {
    let attributes =
      [("id", set.id), ("contentType", set.contentType), ("lang", set.lang)]
      + common(set.common)
    xml.element("AdaptationSet", attributes) { xml in
      baseURLs(set.baseURLElements, &xml)
      for protection in set.contentProtections { write(protection, &xml) }
      for role in set.roles { descriptor("Role", role, &xml) }
      for accessibility in set.accessibilities {
        descriptor("Accessibility", accessibility, &xml)
      }
      write(set.segmentInfo, &xml)
      for representation in set.representations { write(representation, &xml) }
    }
  }

  private static func write(_ representation: Representation, _ xml: inout XMLText) {
    let attributes =
      [("id", representation.id), ("bandwidth", representation.bandwidth.map(String.init))]
      + common(representation.common)
    xml.element("Representation", attributes) { xml in
      baseURLs(representation.baseURLElements, &xml)
      for protection in representation.contentProtections { write(protection, &xml) }
      write(representation.segmentInfo, &xml)
    }
  }

  private static func common(_ common: CommonAttributes) -> [(String, String?)] {
    [
      ("mimeType", common.mimeType), ("codecs", common.codecs),
      ("width", common.width.map(String.init)), ("height", common.height.map(String.init)),
      ("frameRate", common.frameRate?.description),
      ("audioSamplingRate", common.audioSamplingRate),
    ]
  }

  private static func write(_ protection: ContentProtection, _ xml: inout XMLText) {
    xml.element(
      "ContentProtection",
      [
        ("schemeIdUri", protection.schemeIdUri), ("value", protection.value),
        ("cenc:default_KID", protection.defaultKID),
      ]
    ) { xml in
      if let pssh = protection.pssh { xml.element("cenc:pssh", text: pssh) }
    }
  }

  private static func descriptor(_ name: String, _ value: Descriptor, _ xml: inout XMLText) {
    xml.element(name, [("schemeIdUri", value.schemeIdUri), ("value", value.value)])
  }

  private static func write(_ steering: MPD.ContentSteering, _ xml: inout XMLText) {
    xml.element(
      "ContentSteering",
      [
        ("defaultServiceLocation", steering.defaultServiceLocation),
        ("queryBeforeStart", steering.queryBeforeStart ? "true" : nil),
        ("proxyServerURL", steering.proxyServerURL),
      ], text: steering.serverURL)
  }

  private static func baseURLs(_ urls: [BaseURL], _ xml: inout XMLText) {
    for url in urls {
      xml.element(
        "BaseURL",
        [
          ("serviceLocation", url.serviceLocation), ("dvb:priority", url.priority.map(String.init)),
          ("dvb:weight", url.weight.map(String.init)),
        ], text: url.url)
    }
  }

  /// Whether a `BaseURL` of `mpd` has `dvb:priority` or `dvb:weight`.
  private static func ranksBaseURLs(_ mpd: MPD) -> Bool {
    let ranked = { (urls: [BaseURL]) in urls.contains { $0.priority != nil || $0.weight != nil } }
    return ranked(mpd.baseURLElements)
      || mpd.periods.contains { period in
        ranked(period.baseURLElements)
          || period.adaptationSets.contains { set in
            ranked(set.baseURLElements)
              || set.representations.contains { ranked($0.baseURLElements) }
          }
      }
  }
}

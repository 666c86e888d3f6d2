import XMLTree

/// Writing `SegmentBase`, `SegmentList` and `SegmentTemplate`.
extension MPDWriter {
  static func write(_ info: SegmentInformation, _ xml: inout XMLText) {
    if let base = info.base {
      xml.element(
        "SegmentBase",
        [
          ("timescale", base.timescale.map(String.init)),
          ("presentationTimeOffset", base.presentationTimeOffset.map(String.init)),
          ("indexRange", base.indexRange?.description),
        ]
      ) { xml in initialization(base.initialization, &xml) }
    }
    if let list = info.list {
      xml.element(
        "SegmentList",
        multipleSegmentAttributes(
          timescale: list.timescale, duration: list.duration, startNumber: list.startNumber,
          presentationTimeOffset: list.presentationTimeOffset)
      ) { xml in
        initialization(list.initialization, &xml)
        timeline(list.timeline, &xml)
        for url in list.segmentURLs {
          xml.element(
            "SegmentURL", [("media", url.media), ("mediaRange", url.mediaRange?.description)])
        }
      }
    }
    if let template = info.template {
      xml.element(
        "SegmentTemplate",
        multipleSegmentAttributes(
          timescale: template.timescale, duration: template.duration,
          startNumber: template.startNumber,
          presentationTimeOffset: template.presentationTimeOffset)
          + [
            ("initialization", template.initializationTemplate), ("media", template.media),
            ("index", template.index),
          ]
      ) { xml in
        initialization(template.initialization, &xml)
        timeline(template.timeline, &xml)
      }
    }
  }

  /// The attributes that open both `SegmentList` and `SegmentTemplate` (ISO/IEC 23009-1
  /// §5.3.9.2.2, the multiple segment base information), in the order written.
  private static func multipleSegmentAttributes(
    timescale: UInt64?, duration: UInt64?, startNumber: UInt64?, presentationTimeOffset: Int64?
  ) -> [(String, String?)] {
    [
      ("timescale", timescale.map(String.init)), ("duration", duration.map(String.init)),
      ("startNumber", startNumber.map(String.init)),
      ("presentationTimeOffset", presentationTimeOffset.map(String.init)),
    ]
  }

  private static func initialization(_ value: Initialization?, _ xml: inout XMLText) {
    guard let value else { return }
    xml.element(
      "Initialization", [("sourceURL", value.sourceURL), ("range", value.range?.description)])
  }

  private static func timeline(_ entries: [SegmentTimelineEntry]?, _ xml: inout XMLText) {
    guard let entries else { return }
    // An empty timeline still needs its element, so write it open and closed.
    if entries.isEmpty {
      xml.element("SegmentTimeline", text: "")
      return
    }
    xml.element("SegmentTimeline") { xml in
      for entry in entries {
        xml.element(
          "S",
          [
            ("t", entry.time.map(String.init)), ("d", String(entry.duration)),
            ("r", entry.repeatCount == 0 ? nil : String(entry.repeatCount)),
          ])
      }
    }
  }
}

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
        [
          ("timescale", list.timescale.map(String.init)),
          ("duration", list.duration.map(String.init)),
          ("startNumber", list.startNumber.map(String.init)),
          ("presentationTimeOffset", list.presentationTimeOffset.map(String.init)),
        ]
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
        [
          ("timescale", template.timescale.map(String.init)),
          ("duration", template.duration.map(String.init)),
          ("startNumber", template.startNumber.map(String.init)),
          ("presentationTimeOffset", template.presentationTimeOffset.map(String.init)),
          ("initialization", template.initializationTemplate), ("media", template.media),
          ("index", template.index),
        ]
      ) { xml in
        initialization(template.initialization, &xml)
        timeline(template.timeline, &xml)
      }
    }
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

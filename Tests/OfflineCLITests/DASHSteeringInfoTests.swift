import Foundation
import TestSupport
import TestTiming
import Testing

/// Issue 43, item 3: `offline info` of an MPD with several `BaseURL`s and content steering
/// lists its service locations as sources, in the order a download tries them before the
/// steering server answers, and names the steering server, as text and in `--json`.
@Suite(.ownThreads, .timed) struct DASHSteeringInfoTests {
  let server: FaultServer

  init() throws {
    server = try FaultServer()
    let mpd = """
      <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:dvb="urn:dvb:dash:dash-extensions:2014-1"
        type="static" mediaPresentationDuration="PT4S">
      <ContentSteering defaultServiceLocation="beta" queryBeforeStart="true">/steer.json</ContentSteering>
      <BaseURL serviceLocation="alpha" dvb:priority="1">https://a.example/</BaseURL>
      <BaseURL serviceLocation="beta" dvb:priority="2">https://b.example/</BaseURL>
      <Period><AdaptationSet contentType="video" mimeType="video/mp4">
      <Representation id="v" bandwidth="300000">
      <SegmentTemplate media="s$Number$.m4s" initialization="init.mp4" duration="2"/>
      </Representation></AdaptationSet></Period></MPD>
      """
    server.setRoute("/manifest.mpd", .status(code: 200, body: Data(mpd.utf8)))
  }

  @Test func infoListsTheServiceLocationsAsSourcesDefaultFirst() async throws {
    let run = try await InProcessOffline.run(["info", server.url("/manifest.mpd").absoluteString])
    #expect(run.status == 0, "\(run.stderrText)")
    let lines = run.stdoutText.split(separator: "\n").map(String.init)
    #expect(
      lines.contains("Sources: beta https://b.example/, alpha https://a.example/"),
      "\(run.stdoutText)")
    #expect(
      lines.contains("Steering: /steer.json orders the sources while a download runs"),
      "\(run.stdoutText)")
    #expect(server.requests.map(\.path) == ["/manifest.mpd"], "info never asks the server")
  }

  @Test func infoJSONNamesTheSourcesAndTheSteeringServer() async throws {
    let run = try await InProcessOffline.run(
      ["info", server.url("/manifest.mpd").absoluteString, "--json"])
    #expect(run.status == 0, "\(run.stderrText)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdoutText.utf8)) as? [String: Any])
    #expect(
      object["sources"] as? [String] == ["beta https://b.example/", "alpha https://a.example/"])
    #expect(object["steering"] as? String == "/steer.json")
  }
}

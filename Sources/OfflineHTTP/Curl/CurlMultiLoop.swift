// libcurl is linked on Linux only (Package.swift).
#if canImport(CCurl)
  import CCurl
  import Foundation
  import OfflineLocks
  import Synchronization

  /// One libcurl multi handle and the thread that drives it.
  ///
  /// Other threads talk to it only through ``submit(_:)``, ``cancel(_:)``, ``wake(_:)`` and
  /// ``shutdown()``, which queue a command and wake the thread (`curl_multi_wakeup`).
  /// Everything else, including every libcurl callback, happens on the loop's thread; the
  /// delegates do not: each call's ``CurlDelivery`` runs them on a queue of its own, so no
  /// delegate can hold up the other transfers.
  final class CurlMultiLoop: Sendable {
    private enum Command {
      case add(CurlCall)
      case cancel(UInt64)
      case wake(UInt64)
    }

    private struct Inbox {
      var commands: [Command] = []
      var stopping = false
    }

    /// The multi handle. Only the loop's thread uses it, except `curl_multi_wakeup`, which
    /// libcurl documents as callable from any thread.
    private let multi: SendableHandle
    private let inbox = Locked(Inbox())
    private let finished = DispatchSemaphore(value: 0)

    /// How many connections libcurl keeps open for reuse (`CURLMOPT_MAXCONNECTS`).
    ///
    /// Left unset, the limit is four per request in the multi handle when a request ends, so
    /// a request that ended while few others were under way (a queue's next files not added
    /// yet) closed the idle connections above that, and the next requests opened new ones:
    /// 58 to 87 connections for the 1000 small files of the benchmark's queue, where curl's
    /// `--parallel` used 8. A fixed limit keeps a queue's connections across its files, and a
    /// segmented download's (up to 16 per file) too.
    static let keptConnections = 64

    init(configuration: CurlTransport.Configuration) {
      CurlGlobal.initializeOnce()
      multi = SendableHandle(curl_multi_init())
      _ = ok_multi_setopt_long(multi.pointer, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
      _ = ok_multi_setopt_long(multi.pointer, CURLMOPT_MAXCONNECTS, Self.keptConnections)
      let thread = Thread { [self] in run() }
      thread.name = "OfflineKit.curl"
      thread.start()
    }

    func submit(_ call: CurlCall) {
      enqueue(.add(call))
    }

    /// Cancels `call`: at once when it runs, or before it starts when it has not yet.
    func cancel(_ call: CurlCall) {
      call.cancelRequested.store(true, ordering: .sequentiallyConsistent)
      enqueue(.cancel(call.id))
    }

    /// Lets the call with `id` receive again after its delivery paused it.
    func wake(_ id: UInt64) {
      enqueue(.wake(id))
    }

    /// Stops the thread, failing whatever is still in flight as cancelled, and waits for it.
    func shutdown() {
      inbox.withLock { $0.stopping = true }
      curl_multi_wakeup(multi.pointer)
      finished.wait()
      curl_multi_cleanup(multi.pointer)
    }

    private func enqueue(_ command: Command) {
      inbox.withLock { $0.commands.append(command) }
      curl_multi_wakeup(multi.pointer)
    }

    // MARK: - The loop's thread

    private func run() {
      var active: [UnsafeMutableRawPointer: CurlCall] = [:]
      while true {
        let (commands, stopping) = inbox.withLock { state in
          defer { state.commands = [] }
          return (state.commands, state.stopping)
        }
        if stopping {
          for call in active.values { finish(call, .failure(cancelled(call)), active: &active) }
          finished.signal()
          return
        }
        for command in commands { handle(command, active: &active) }
        resumeRatePaused(active)
        var running: Int32 = 0
        curl_multi_perform(multi.pointer, &running)
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi.pointer, &remaining) {
          guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
            let call = active[easy]
          else { continue }
          completed(call, code: ok_msg_result(message), active: &active)
        }
        // What came in this turn reaches the delegates now, however little it is.
        for call in active.values { call.delivery.flush() }
        endStalls(&active)
        let nextDeadline = active.values.flatMap { [$0.rateResumeAt, $0.stallDeadline] }
          .compactMap { $0 }.min()
        curl_multi_poll(multi.pointer, nil, 0, Self.pollTimeout(until: nextDeadline), nil)
      }
    }

    /// Notes which calls took bytes this turn, then fails every call that received nothing
    /// for its stall timeout while it could.
    private func endStalls(_ active: inout [UnsafeMutableRawPointer: CurlCall]) {
      let now = ContinuousClock.now
      for call in active.values where call.receivedSinceLastTurn {
        call.receivedSinceLastTurn = false
        call.lastReceivedAt = now
      }
      let stalled = active.values.filter { call in call.stallDeadline.map { $0 <= now } ?? false }
      for call in stalled { finish(call, .failure(call.stalledError()), active: &active) }
    }

    /// Unpauses every call whose rate limiters paused it and whose pause is over.
    private func resumeRatePaused(_ active: [UnsafeMutableRawPointer: CurlCall]) {
      let now = ContinuousClock.now
      for (easy, call) in active {
        guard let resumeAt = call.rateResumeAt, resumeAt <= now else { continue }
        call.rateResumeAt = nil
        // The wait was its own: the stall watch counts from now.
        call.lastReceivedAt = now
        // May run the write callback at once, which checks the budget again.
        curl_easy_pause(easy, CURLPAUSE_RECV_CONT | CURLPAUSE_SEND_CONT)
      }
    }

    /// How long `curl_multi_poll` may wait: at most a second, and no later than the next
    /// rate-paused call may go on or the next stall is due.
    private static func pollTimeout(until deadline: ContinuousClock.Instant?) -> Int32 {
      guard let deadline else { return 1000 }
      let wait = ContinuousClock.now.duration(to: deadline)
      return Int32(min(1000, max(0, (wait.inMilliseconds + 1))))
    }

    private func handle(_ command: Command, active: inout [UnsafeMutableRawPointer: CurlCall]) {
      switch command {
      case .add(let call):
        if call.cancelRequested.load(ordering: .sequentiallyConsistent) {
          conclude(call, .failure(cancelled(call)))
        } else {
          start(call, active: &active)
        }
      case .cancel(let id):
        // A call not active yet sees its flag when it is added; one already finished is gone.
        if let call = active.values.first(where: { $0.id == id }) {
          finish(call, .failure(cancelled(call)), active: &active)
        }
      case .wake(let id):
        if let call = active.values.first(where: { $0.id == id }), let easy = call.easy {
          // The wait was the delegate's: the stall watch counts from now.
          call.pausedForDelivery = false
          call.lastReceivedAt = .now
          // May run the write callback at once, with the data libcurl held back.
          curl_easy_pause(easy, CURLPAUSE_RECV_CONT | CURLPAUSE_SEND_CONT)
        }
      }
    }

    private func start(_ call: CurlCall, active: inout [UnsafeMutableRawPointer: CurlCall]) {
      guard let easy = call.makeEasy() else {
        conclude(call, .failure(HTTPError(.other, url: call.currentURL, detail: "curl_easy_init")))
        return
      }
      active[easy] = call
      curl_multi_add_handle(multi.pointer, easy)
    }

    private func completed(
      _ call: CurlCall, code: CURLcode, active: inout [UnsafeMutableRawPointer: CurlCall]
    ) {
      if code == CURLE_OK, call.redirectLocation != nil {
        detach(call, active: &active)
        do {
          try call.followRedirect()
          start(call, active: &active)
        } catch {
          conclude(call, .failure(error))
        }
        return
      }
      let outcome = CurlOutcome.result(of: call, code: code)
      if case .failure(let error) = outcome, error.kind == .headersTooLarge,
        !call.retriedTooLargeHead
      {
        // Once more on a fresh connection (the head may have been a passing fault, or bytes
        // left on a reused connection); a second one is the end.
        detach(call, active: &active)
        call.retriedTooLargeHead = true
        start(call, active: &active)
        return
      }
      finish(call, outcome, active: &active)
    }

    private func finish(
      _ call: CurlCall, _ result: Result<HTTPResponseHead, HTTPError>,
      active: inout [UnsafeMutableRawPointer: CurlCall]
    ) {
      detach(call, active: &active)
      conclude(call, result)
    }

    /// Resumes the waiting task with `result` once the delegate has had everything queued.
    private func conclude(_ call: CurlCall, _ result: Result<HTTPResponseHead, HTTPError>) {
      call.delivery.finish(result, url: call.currentURL) { call.resume($0) }
    }

    private func detach(_ call: CurlCall, active: inout [UnsafeMutableRawPointer: CurlCall]) {
      if let easy = call.easy {
        curl_multi_remove_handle(multi.pointer, easy)
        active[easy] = nil
      }
      call.releaseEasy()
    }

    private func cancelled(_ call: CurlCall) -> HTTPError {
      HTTPError(.canceled, url: call.currentURL)
    }
  }

  extension CurlCall {
    /// Resumes the waiting task once; later calls do nothing. Called on the delivery queue.
    func resume(_ result: Result<HTTPResponseHead, HTTPError>) {
      ThreadHandOff.release(self)
      continuation?.resume(returning: result)
      continuation = nil
    }
  }

  /// A C handle that is safe to share because only thread-safe functions are called on it
  /// from more than one thread (see ``CurlMultiLoop``).
  struct SendableHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?

    init(_ pointer: UnsafeMutableRawPointer?) {
      self.pointer = pointer
    }
  }

  /// `curl_global_init`, once per process, before any thread uses libcurl.
  enum CurlGlobal {
    private static let initialized: Bool = {
      curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    static func initializeOnce() {
      _ = initialized
    }
  }
#endif

import Foundation
import OfflineHTTP
import OfflineStore

/// Why a content in `downloading` is not moving: queued, waiting for the
/// network, for disk space, for a retry at a time, or started and waiting for its first
/// bytes. The index stores it as it is (`ContentWaitReason` in OfflineStore).
public typealias WaitReason = ContentWaitReason

import FamilyEntitlements
import Foundation

extension AppStoreService {
    /// The handler of the notification URL: the HTTP status it returns is the answer to Apple.
    func receiveAppStoreNotification(body: Data) async -> Int {
        do throws(NotificationRejection) {
            return await record(try await intake.receive(requestBody: body))
        } catch {
            // Refused for good: 200, a retry would get the same answer. verification_unavailable: 503, Apple retries.
            logger.warning("App Store notification \(error.outcome): \(error)")
            return error.httpStatus
        }
    }

    /// Acts on an accepted notification once: Apple's retries and recovered copies of it change nothing.
    func record(_ verified: VerifiedNotification) async -> Int {
        for unknown in verified.unknownValues {
            logger.error("App Store sent \(unknown); this service has no handler for it yet")
        }
        do {
            if try await store.hasRecorded(verified.notification) { return 200 }  // by notificationUUID
            try await handle(verified.notification)  // absorbs and rebuilds: harmless to run twice
            try await store.record(verified.notification)
            return 200
        } catch {
            return 503  // the service's own failure, or Apple's history unreachable: let Apple retry
        }
    }
}

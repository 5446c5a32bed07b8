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

    /// Absorbs an accepted notification into the customer's ledger and writes the decision, then answers 200.
    ///
    /// The ledger is the record of what was handled: Apple's retries and recovered copies absorb as repeats, decide
    /// alike and call for no action, so they need no list of notificationUUIDs beside it.
    func record(_ verified: VerifiedNotification) async -> Int {
        for unknown in verified.unknownValues {
            logger.error("App Store sent \(unknown); this service has no handler for it yet")
        }
        do {
            try await handle(verified.notification)  // one conditional write: ledger, report, outbox
            return 200  // only after the write: a failure or a crash before it leaves Apple retrying
        } catch {
            return 503  // the service's own failure, or Apple's history unreachable: let Apple retry
        }
    }
}

import FamilyEntitlements
import Foundation

/// Whatever fetches Get Notification History pages: an HTTP client posting `body.jsonData()` and decoding the answer
/// with `NotificationHistoryResponse(jsonData:)`, or Apple's client.
protocol NotificationHistoryPages: Sendable {
    func page(_ body: NotificationHistoryRequestBody, paginationToken: String?) async throws
        -> NotificationHistoryResponse
}

extension AppStoreService {
    /// Feeds every notification Apple could not deliver since `lastSeen` through the same intake and `record`.
    ///
    /// Returns false when one must be tried again (a 503): keep `lastSeen` and run the recovery again later.
    func recoverNotifications(
        since lastSeen: Date, until now: Date, from history: some NotificationHistoryPages
    ) async throws -> Bool {
        let body = NotificationHistoryRequestBody.failures(from: lastSeen.addingTimeInterval(-3600), to: now)
        var complete = true
        // Every page, by paginationToken; a failure throws PagingError, and the recovery runs again later.
        let pages = try await allNotificationHistoryPages(body) { body, paginationToken in
            try await history.page(body, paginationToken: paginationToken)
        }
        for page in pages {
            for item in page.notificationHistory ?? [] {
                guard let signedPayload = item.signedPayload else {
                    logger.warning("a Get Notification History item has no signedPayload")
                    continue
                }
                let status: Int
                do throws(NotificationRejection) {
                    status = await record(try await intake.receive(signedPayload: signedPayload))
                } catch {
                    logger.warning("recovered App Store notification \(error.outcome): \(error)")
                    status = error.httpStatus
                }
                complete = complete && status == 200
            }
        }
        return complete
    }
}

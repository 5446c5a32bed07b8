import FamilyEntitlements
import Foundation

/// One page of Get Notification History: the signed notifications on it, and the token of the next page.
struct NotificationHistoryPage: Sendable {
    var signedPayloads: [String]
    /// Nil on the last page.
    var paginationToken: String?
}

/// Whatever fetches Get Notification History pages: Apple's client, or an HTTP client posting `body.jsonData()`.
protocol NotificationHistoryPages: Sendable {
    func page(_ body: NotificationHistoryRequestBody, paginationToken: String?) async throws -> NotificationHistoryPage
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
        var paginationToken: String? = nil
        repeat {
            let page = try await history.page(body, paginationToken: paginationToken)
            for signedPayload in page.signedPayloads {
                let status: Int
                do throws(NotificationRejection) {
                    status = await record(try await intake.receive(signedPayload: signedPayload))
                } catch {
                    logger.warning("recovered App Store notification \(error.outcome): \(error)")
                    status = error.httpStatus
                }
                complete = complete && status == 200
            }
            paginationToken = page.paginationToken
        } while paginationToken != nil
        return complete
    }
}

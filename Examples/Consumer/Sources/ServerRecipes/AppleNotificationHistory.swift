import AppStoreServerLibrary
import FamilyEntitlements
import Foundation

/// Get Notification History through Apple's client.
struct AppleNotificationHistory: NotificationHistoryPages {
    let client: AppStoreServerAPIClient

    struct Unavailable: Error {
        let statusCode: Int?
        let apiError: APIError?
    }

    func page(_ body: NotificationHistoryRequestBody, paginationToken: String?) async throws
        -> FamilyEntitlements.NotificationHistoryResponse
    {
        var request = NotificationHistoryRequest(
            startDate: body.startDate, endDate: body.endDate, onlyFailures: body.onlyFailures ? true : nil)
        switch body.filter {
        case .notificationType(let type, let subtype):
            request.notificationType = NotificationTypeV2(rawValue: type.rawValue)
            request.notificationSubtype = subtype.flatMap { Subtype(rawValue: $0.rawValue) }
        case .transactionId(let transactionId):
            request.transactionId = transactionId
        case nil:
            break
        }
        let result = await client.getNotificationHistory(
            paginationToken: paginationToken, notificationHistoryRequest: request)
        guard case .success(let response) = result else {
            if case .failure(let statusCode, _, let apiError, _, _) = result {
                throw Unavailable(statusCode: statusCode, apiError: apiError)
            }
            throw Unavailable(statusCode: nil, apiError: nil)
        }
        // Apple's response type has the same name and members: read it back through this library's decoder.
        return try FamilyEntitlements.NotificationHistoryResponse(jsonData: try JSONEncoder().encode(response))
    }
}

import FamilyEntitlements
import Foundation

// The baseline: plain Codable structs with the same fields, decoded by Foundation's JSONDecoder with
// `.millisecondsSince1970` dates, the way Apple's app-store-server-library-swift models decode the same bytes.

struct BaselineTransaction: Decodable {
    var originalTransactionId: String?
    var transactionId: String?
    var webOrderLineItemId: String?
    var bundleId: String?
    var productId: String?
    var subscriptionGroupIdentifier: String?
    var purchaseDate: Date?
    var originalPurchaseDate: Date?
    var expiresDate: Date?
    var quantity: Int32?
    var type: String?
    var appAccountToken: UUID?
    var inAppOwnershipType: String?
    var signedDate: Date?
    var revocationReason: Int32?
    var revocationDate: Date?
    var isUpgraded: Bool?
    var offerType: Int32?
    var offerIdentifier: String?
    var environment: String?
    var storefront: String?
    var storefrontId: String?
    var transactionReason: String?
    var currency: String?
    var price: Int64?
    var offerDiscountType: String?
    var appTransactionId: String?
    var offerPeriod: String?
    var revocationType: String?
    var revocationPercentage: Int32?
    var billingPlanType: String?
    var commitmentInfo: BaselineCommitment?
    var advancedCommerceInfo: BaselineAdvancedCommerce?
}

struct BaselineCommitment: Decodable {
    var billingPeriodNumber: Int32?
    var commitmentExpiresDate: Date?
    var commitmentPrice: Int64?
    var totalBillingPeriods: Int32?
}

struct BaselineAdvancedCommerce: Decodable {
    struct Descriptors: Decodable {
        var description: String?
        var displayName: String?
    }

    struct Refund: Decodable {
        var refundAmount: Int64?
        var refundDate: Date?
        var refundReason: String?
        var refundType: String?
    }

    struct Item: Decodable {
        // swift-format-ignore: AlwaysUseLowerCamelCase
        var SKU: String?
        var description: String?
        var displayName: String?
        var price: Int64?
        var refunds: [Refund]?
        var revocationDate: Date?
    }

    var descriptors: Descriptors?
    var estimatedTax: Int64?
    var items: [Item]?
    var period: String?
    var requestReferenceId: String?
    var taxCode: String?
    var taxExclusivePrice: Int64?
    var taxRate: String?
}

struct BaselineRenewalInfo: Decodable {
    var expirationIntent: Int32?
    var originalTransactionId: String?
    var autoRenewProductId: String?
    var productId: String?
    var autoRenewStatus: Int32?
    var isInBillingRetryPeriod: Bool?
    var priceIncreaseStatus: Int32?
    var gracePeriodExpiresDate: Date?
    var offerType: Int32?
    var offerIdentifier: String?
    var signedDate: Date?
    var environment: String?
    var recentSubscriptionStartDate: Date?
    var renewalDate: Date?
    var currency: String?
    var renewalPrice: Int64?
    var offerDiscountType: String?
    var eligibleWinBackOfferIds: [String]?
    var appAccountToken: UUID?
    var appTransactionId: String?
    var offerPeriod: String?
    var renewalBillingPlanType: String?
}

struct BaselineNotification: Decodable {
    struct NotificationData: Decodable {
        var environment: String?
        var appAppleId: Int64?
        var bundleId: String?
        var bundleVersion: String?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
        var status: Int32?
        var consumptionRequestReason: String?
    }

    var notificationType: String?
    var subtype: String?
    var notificationUUID: String?
    var data: NotificationData?
    var version: String?
    var signedDate: Date?
}

struct BaselineHistoryResponse: Decodable {
    var revision: String?
    var bundleId: String?
    var appAppleId: Int64?
    var environment: String?
    var hasMore: Bool?
    var signedTransactions: [String]?
}

enum Baseline {
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    /// Decodes a history page and its signed transactions (unverified): split, base64url with Foundation, JSONDecoder.
    static func decodeHistoryPage(_ data: Data, with decoder: JSONDecoder) throws -> [BaselineTransaction] {
        let page = try decoder.decode(BaselineHistoryResponse.self, from: data)
        return try (page.signedTransactions ?? []).map { signed in
            let parts = signed.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3 else { throw BaselineError.malformedJWS }
            var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            guard let payload = Data(base64Encoded: base64) else { throw BaselineError.malformedJWS }
            return try decoder.decode(BaselineTransaction.self, from: payload)
        }
    }

    enum BaselineError: Error {
        case malformedJWS
    }
}

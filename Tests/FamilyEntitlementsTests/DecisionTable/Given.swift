import FamilyEntitlements
import Foundation

/// Terse construction of histories for the decision table: days from a fixed origin, sensible defaults.
enum Given {
    /// 2026-01-01T00:00:00Z, day 0 of every row.
    static let origin = Date(timeIntervalSince1970: 1_767_225_600)

    static let monthly = "org.familyentitlements.demo.premium.monthly"
    static let yearly = "org.familyentitlements.demo.premium.yearly"
    static let basic = "org.familyentitlements.demo.basic.monthly"
    static let lifetime = "org.familyentitlements.demo.lifetime"
    static let pass = "org.familyentitlements.demo.season.pass"
    static let coins = "org.familyentitlements.demo.coins"

    static func day(_ number: Double) -> Date {
        origin.addingTimeInterval(number * 86_400)
    }

    /// An auto-renewable transaction of `product` for days `from..<to`, signed at its purchase.
    static func subscription(
        _ id: String, _ product: String = monthly, original: String? = nil, from: Double, to: Double,
        ownership: OwnershipType = .purchased, signed: Double? = nil,
        _ change: (inout TransactionPayload) -> Void = { _ in }
    ) -> TransactionPayload {
        var transaction = TransactionPayload(
            originalTransactionId: original ?? id, transactionId: id, webOrderLineItemId: "9" + id,
            bundleId: "org.familyentitlements.demo", productId: product, subscriptionGroupIdentifier: "21000001",
            purchaseDate: day(from), originalPurchaseDate: day(from), expiresDate: day(to), quantity: 1,
            type: .autoRenewable, inAppOwnershipType: ownership, signedDate: day(signed ?? from),
            environment: .production, storefront: "USA", storefrontId: "143441",
            transactionReason: original == nil || original == id ? .purchase : .renewal, currency: "USD",
            price: 4990)
        change(&transaction)
        return transaction
    }

    /// A one-time transaction (non-consumable, non-renewing or consumable) bought on day `on`.
    static func oneTime(
        _ id: String, _ product: String, type: ProductType?, on: Double, ownership: OwnershipType = .purchased,
        signed: Double? = nil, _ change: (inout TransactionPayload) -> Void = { _ in }
    ) -> TransactionPayload {
        var transaction = TransactionPayload(
            originalTransactionId: id, transactionId: id, bundleId: "org.familyentitlements.demo", productId: product,
            purchaseDate: day(on), originalPurchaseDate: day(on), quantity: 1, type: type,
            inAppOwnershipType: ownership, signedDate: day(signed ?? on), environment: .production,
            storefront: "USA", storefrontId: "143441", transactionReason: .purchase, currency: "USD", price: 9990)
        change(&transaction)
        return transaction
    }

    /// Renewal info of the chain `original`, signed on day `signed`.
    static func renewal(
        _ original: String, _ product: String = monthly, signed: Double, autoRenew: AutoRenewStatus? = .on,
        _ change: (inout RenewalInfoPayload) -> Void = { _ in }
    ) -> RenewalInfoPayload {
        var info = RenewalInfoPayload(
            originalTransactionId: original, productId: product, autoRenewProductId: product,
            autoRenewStatus: autoRenew, signedDate: day(signed), environment: .production)
        change(&info)
        return info
    }

    /// A notification carrying a transaction and renewal info, signed on day `signed`.
    static func notification(
        _ type: NotificationType, _ subtype: NotificationSubtype? = nil, signed: Double,
        transaction: TransactionPayload? = nil, renewal: RenewalInfoPayload? = nil,
        environment: Environment = .production
    ) -> NotificationPayload {
        NotificationPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid(signed: signed),
            version: "2.0", signedDate: day(signed),
            data: NotificationData(
                environment: environment, appAppleId: 6_450_000_001, bundleId: "org.familyentitlements.demo",
                bundleVersion: "42", transactionInfo: transaction, renewalInfo: renewal))
    }

    /// The notification of `notification(_:_:signed:)` as evidence names it.
    static func mention(
        _ type: NotificationType, _ subtype: NotificationSubtype? = nil, signed: Double
    ) -> NotificationMention {
        NotificationMention(
            type: type, subtype: subtype, signedDate: day(signed), notificationUUID: uuid(signed: signed))
    }

    /// A notification's UUID, from its signedDate in days.
    private static func uuid(signed: Double) -> String? {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", Int(signed * 1000)))?.uuidString.lowercased()
    }
}

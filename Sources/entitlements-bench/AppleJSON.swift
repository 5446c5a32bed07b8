import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation

/// Writes payloads the way Apple signs them: compact JSON, members in Apple's order, dates as integer milliseconds.
struct AppleJSONWriter {
    private var text = "{"

    mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        raw(
            name,
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\"")
    }

    mutating func member(_ name: String, _ value: Int64?) {
        guard let value else { return }
        raw(name, String(value))
    }

    mutating func member(_ name: String, _ value: Int32?) {
        guard let value else { return }
        raw(name, String(value))
    }

    mutating func member(_ name: String, _ value: Bool?) {
        guard let value else { return }
        raw(name, value ? "true" : "false")
    }

    mutating func member(_ name: String, _ value: Date?) {
        guard let value else { return }
        raw(name, String(Int64((value.timeIntervalSince1970 * 1000).rounded())))
    }

    mutating func raw(_ name: String, _ json: String?) {
        guard let json else { return }
        if text.count > 1 { text += "," }
        text += "\"\(name)\":\(json)"
    }

    var json: String { text + "}" }
}

enum AppleJSON {
    /// Advanced Commerce API information in the shape of Apple's sample transaction, compact.
    static let advancedCommerceInfo =
        #"{"descriptors":{"description":"Premium Plan","displayName":"Premium"},"estimatedTax":1500,"items":[{"SKU":"#
        + #""com.example.sku.premium","description":"Premium feature","displayName":"Premium Feature","price":9990,"#
        + #""refunds":[{"refundAmount":5000,"refundDate":1698149100000,"refundReason":"FULFILLMENT_ISSUE","refundType":"#
        + #""PRORATED"}],"revocationDate":1698149200000}],"period":"P1M","requestReferenceId":"ref-12345","taxCode":"#
        + #""TAX_CODE_1","taxExclusivePrice":8490,"taxRate":"0.15"}"#

    /// A decoded transaction; `full` adds every optional member Apple documents, Advanced Commerce included.
    static func transaction(_ transaction: TransactionPayload, full: Bool = false) -> Data {
        var value = transaction
        if full {
            value.appAccountToken = value.appAccountToken ?? UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
            value.revocationReason = .init(rawValue: 1)
            value.revocationDate = value.purchaseDate?.addingTimeInterval(50)
            value.isUpgraded = true
            value.offerType = .introductory
            value.offerIdentifier = "abc.123"
            value.offerDiscountType = .payAsYouGo
            value.offerPeriod = "P1Y"
            value.revocationType = .refundProrated
            value.revocationPercentage = 50_000
        }
        var writer = AppleJSONWriter()
        writer.member("transactionId", value.transactionId)
        writer.member("originalTransactionId", value.originalTransactionId)
        writer.member("webOrderLineItemId", value.webOrderLineItemId)
        writer.member("bundleId", value.bundleId)
        writer.member("productId", value.productId)
        writer.member("subscriptionGroupIdentifier", value.subscriptionGroupIdentifier)
        writer.member("purchaseDate", value.purchaseDate)
        writer.member("originalPurchaseDate", value.originalPurchaseDate)
        writer.member("expiresDate", value.expiresDate)
        writer.member("quantity", value.quantity)
        writer.member("type", value.type?.rawValue)
        writer.member("appAccountToken", value.appAccountToken?.uuidString.lowercased())
        writer.member("inAppOwnershipType", value.inAppOwnershipType?.rawValue)
        writer.member("signedDate", value.signedDate)
        writer.member("revocationReason", value.revocationReason?.rawValue)
        writer.member("revocationDate", value.revocationDate)
        writer.member("isUpgraded", value.isUpgraded)
        writer.member("offerType", value.offerType?.rawValue)
        writer.member("offerIdentifier", value.offerIdentifier)
        writer.member("environment", value.environment?.rawValue)
        writer.member("transactionReason", value.transactionReason?.rawValue)
        writer.member("storefront", value.storefront)
        writer.member("storefrontId", value.storefrontId)
        writer.member("price", value.price)
        writer.member("currency", value.currency)
        writer.member("offerDiscountType", value.offerDiscountType?.rawValue)
        writer.member("appTransactionId", value.appTransactionId)
        writer.member("offerPeriod", value.offerPeriod)
        writer.member("revocationType", value.revocationType?.rawValue)
        writer.member("revocationPercentage", value.revocationPercentage)
        if full {
            writer.raw("advancedCommerceInfo", advancedCommerceInfo)
            writer.member("billingPlanType", "MONTHLY")
            writer.raw(
                "commitmentInfo",
                #"{"billingPeriodNumber":3,"commitmentExpiresDate":1698150000000,"commitmentPrice":119880,"#
                    + #""totalBillingPeriods":12}"#)
        }
        return Data(writer.json.utf8)
    }

    /// The renewal information of the chain `transaction` belongs to.
    static func renewalInfo(for transaction: TransactionPayload, index: Int) -> Data {
        var writer = AppleJSONWriter()
        let billingRetry = index % 7 == 0
        if index % 5 == 0 { writer.member("expirationIntent", Int32(1)) }
        writer.member("originalTransactionId", transaction.originalTransactionId)
        writer.member("autoRenewProductId", transaction.productId)
        writer.member("productId", transaction.productId)
        writer.member("autoRenewStatus", Int32(index % 5 == 0 ? 0 : 1))
        writer.member("isInBillingRetryPeriod", billingRetry)
        writer.member("priceIncreaseStatus", Int32(0))
        writer.member(
            "gracePeriodExpiresDate", billingRetry ? transaction.expiresDate?.addingTimeInterval(16 * 86_400) : nil)
        writer.member("signedDate", transaction.signedDate)
        writer.member("environment", transaction.environment?.rawValue)
        writer.member("recentSubscriptionStartDate", transaction.originalPurchaseDate)
        writer.member("renewalDate", transaction.expiresDate)
        writer.member("renewalPrice", transaction.price)
        writer.member("currency", transaction.currency)
        writer.member("appTransactionId", transaction.appTransactionId)
        writer.member("appAccountToken", transaction.appAccountToken?.uuidString.lowercased())
        if index % 3 == 0 { writer.raw("eligibleWinBackOfferIds", #"["winback.monthly.1","winback.yearly.1"]"#) }
        return Data(writer.json.utf8)
    }

    /// A V2 notification carrying a transaction and its renewal information as JWS strings with certificate chains.
    static func notification(transactionJWS: String, renewalJWS: String, index: Int) -> Data {
        var writer = AppleJSONWriter()
        let types = [
            ("DID_RENEW", nil), ("SUBSCRIBED", "RESUBSCRIBE"), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED"),
            ("REVOKE", nil), ("DID_FAIL_TO_RENEW", "GRACE_PERIOD"),
        ]
        let (type, subtype) = types[index % types.count]
        writer.member("notificationType", type)
        writer.member("subtype", subtype)
        writer.member("notificationUUID", UUID(uuid: uuidBytes(index)).uuidString.lowercased())
        var data = AppleJSONWriter()
        data.member("appAppleId", Int64(1_234_567_890))
        data.member("bundleId", FamilyHistory.bundleId)
        data.member("bundleVersion", "4.12.1")
        data.member("environment", "Production")
        data.member("signedTransactionInfo", transactionJWS)
        data.member("signedRenewalInfo", renewalJWS)
        data.member("status", Int32(1))
        writer.raw("data", data.json)
        writer.member("version", "2.0")
        writer.member("signedDate", Date(timeIntervalSince1970: 1_700_000_000 + Double(index)))
        return Data(writer.json.utf8)
    }

    /// A Get Transaction History page of signed transactions.
    static func historyPage(_ signedTransactions: [String]) -> Data {
        var writer = AppleJSONWriter()
        writer.member("revision", "ZXhhbXBsZS1yZXZpc2lvbi10b2tlbi0xMjM0NTY3ODkw")
        writer.member("bundleId", FamilyHistory.bundleId)
        writer.member("appAppleId", Int64(1_234_567_890))
        writer.member("environment", "Production")
        writer.member("hasMore", true)
        writer.raw("signedTransactions", "[" + signedTransactions.map { "\"\($0)\"" }.joined(separator: ",") + "]")
        return Data(writer.json.utf8)
    }

    /// A compact JWS of `payload` whose header carries a three-certificate `x5c` chain of Apple's sizes (not real
    /// certificates: the benchmark never verifies them) and whose signature is 64 bytes, as ES256 writes it.
    static func jws(payload: Data, random: inout SeededRandom) -> String {
        func base64(_ count: Int) -> String {
            Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }).base64EncodedString()
        }
        let header =
            #"{"alg":"ES256","x5c":[""# + base64(1_180) + #"",""# + base64(1_090) + #"",""# + base64(580)
            + #""]}"#
        let signature = Data((0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        return [Data(header.utf8), payload, signature].map(Base64URL.encode).joined(separator: ".")
    }

    private static func uuidBytes(_ index: Int) -> uuid_t {
        let value = UInt64(index) &* 0x9E37_79B9_7F4A_7C15
        func byte(_ shift: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: value >> shift) }
        return (
            byte(0), byte(8), byte(16), byte(24), byte(32), byte(40), 0x40 | byte(48) & 0x0F, byte(56), 0x80, 1, 2, 3,
            4,
            5, 6, byte(7)
        )
    }
}

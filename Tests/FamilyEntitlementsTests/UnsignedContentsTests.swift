import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Decoded contents written beside a signed string, which Apple never sends: the signed string decides.
enum UnsignedSample {
    static let start = date(milliseconds: 1_767_225_600_000)  // 2026-01-01T00:00:00Z
    static let asOf = date(milliseconds: 1_770_681_600_000)  // 2026-02-10T00:00:00Z
    static let renewalSigned = date(milliseconds: 1_769_990_400_000)  // 2026-02-02T00:00:00Z
    static let graceEnds = date(milliseconds: 1_771_286_400_000)  // 2026-02-17T00:00:00Z

    static let lifetimeProduct = DemoProduct(
        productId: "org.familyentitlements.demo.premium.lifetime", type: .nonConsumable, price: 99_990,
        entitlements: ["premium"])
    /// The signed transaction: a monthly plan that expired on 1 February.
    static let expiredMonthly = TransactionBuilder.subscription(.premiumMonthly, purchased: start)
    /// The unsigned transaction someone wrote beside it: a lifetime purchase.
    static let lifetime = TransactionBuilder.oneTime(lifetimeProduct, purchased: start)
    /// The signed renewal info: the customer cancelled, so the plan ended.
    static let cancelled = RenewalInfoBuilder.expired(expiredMonthly, signed: renewalSigned)
    /// The unsigned renewal info written beside it: billing retry in a grace period that would keep access.
    static let inGracePeriod = RenewalInfoBuilder.billingRetry(
        expiredMonthly, gracePeriodEnds: graceEnds, signed: renewalSigned)

    static let signer = FakeJWSSigner()

    /// A notification whose `data` holds the given decoded contents and signed strings.
    static func notification(
        transactionInfo: TransactionPayload? = nil, signedTransaction: TransactionPayload? = nil,
        renewalInfo: RenewalInfoPayload? = nil, signedRenewalInfo: RenewalInfoPayload? = nil
    ) throws -> NotificationPayload {
        var notification = NotificationBuilder.notification(
            .didChangeRenewalStatus, transaction: transactionInfo, renewalInfo: renewalInfo, signed: renewalSigned)
        notification.data?.signedTransactionInfo = try signedTransaction.map { try signer.sign($0) }
        notification.data?.signedRenewalInfo = try signedRenewalInfo.map { try signer.sign($0) }
        return notification
    }
}

/// One document carrying a notification, in one of the forms the tool reads, and what the rebuild must grant.
struct UnsignedContentsCase: CustomTestStringConvertible, Sendable {
    enum Form: Sendable {
        /// The body Apple posts, `{"signedPayload": ...}`, its JWS decoded without verification.
        case requestBody
        /// The notification's decoded JSON on its own, as `decode` prints it.
        case decodedNotification
        /// The library's history file.
        case historyObject
        /// The same bytes with `"version": 1`: a stored customer ledger, which must read them as the history does.
        case ledger
    }

    var name: String
    var form: Form
    var notification: @Sendable () throws -> NotificationPayload
    /// The products with access at the instant.
    var granted: [String]
    /// The paths of the decoded contents set aside and reported.
    var setAside: [String]
    var testDescription: String { name }

    func document() throws -> Data {
        let notification = try notification()
        switch form {
        case .requestBody:
            return try NotificationRequestBody(signedPayload: UnsignedSample.signer.sign(notification)).jsonData()
        case .decodedNotification:
            return try notification.jsonData()
        case .historyObject:
            return try History(notifications: [notification]).jsonData()
        case .ledger:
            let history = try History(notifications: [notification]).jsonData()
            return Data(#"{"version":1,"#.utf8) + history.dropFirst()
        }
    }

    static let all: [UnsignedContentsCase] = forms + forms.filter { $0.form == .historyObject }.map(\.asLedger)

    static let forms: [UnsignedContentsCase] = [
        UnsignedContentsCase(
            name:
                "request body: a lifetime purchase unsigned beside a signed expired monthly -> the monthly, no access",
            form: .requestBody,
            notification: {
                try UnsignedSample.notification(
                    transactionInfo: UnsignedSample.lifetime, signedTransaction: UnsignedSample.expiredMonthly)
            }, granted: [], setAside: ["signedPayload.data.transactionInfo"]),
        UnsignedContentsCase(
            name: "decoded notification: a lifetime purchase beside a signed expired monthly -> no access",
            form: .decodedNotification,
            notification: {
                try UnsignedSample.notification(
                    transactionInfo: UnsignedSample.lifetime, signedTransaction: UnsignedSample.expiredMonthly)
            }, granted: [], setAside: ["data.transactionInfo"]),
        UnsignedContentsCase(
            name: "history file: a lifetime purchase beside a signed expired monthly -> no access",
            form: .historyObject,
            notification: {
                try UnsignedSample.notification(
                    transactionInfo: UnsignedSample.lifetime, signedTransaction: UnsignedSample.expiredMonthly)
            }, granted: [], setAside: ["notifications[0].data.transactionInfo"]),
        UnsignedContentsCase(
            name: "request body: a grace period unsigned beside signed renewal info that ended -> no access",
            form: .requestBody,
            notification: {
                try UnsignedSample.notification(
                    signedTransaction: UnsignedSample.expiredMonthly, renewalInfo: UnsignedSample.inGracePeriod,
                    signedRenewalInfo: UnsignedSample.cancelled)
            }, granted: [], setAside: ["signedPayload.data.renewalInfo"]),
        UnsignedContentsCase(
            name: "history file: the same transaction decoded beside its signed string -> set aside all the same",
            form: .historyObject,
            notification: {
                try UnsignedSample.notification(
                    transactionInfo: UnsignedSample.expiredMonthly, signedTransaction: UnsignedSample.expiredMonthly)
            }, granted: [], setAside: ["notifications[0].data.transactionInfo"]),
        UnsignedContentsCase(
            name: "history file: decoded contents with no signed string beside them -> read, as stored services do",
            form: .historyObject,
            notification: {
                try UnsignedSample.notification(
                    transactionInfo: UnsignedSample.lifetime, renewalInfo: UnsignedSample.inGracePeriod)
            }, granted: [UnsignedSample.lifetimeProduct.productId.rawValue], setAside: []),
    ]
}

extension UnsignedContentsCase {
    /// A history-file case again as a stored ledger: the same bytes plus `"version": 1` decide the same and set the
    /// same aside (the ledger reader once dropped the signed string beside decoded contents, so a ledger granted what
    /// the history refused).
    var asLedger: UnsignedContentsCase {
        var ledger = self
        ledger.form = .ledger
        ledger.name = name.replacingOccurrences(of: "history file:", with: "ledger:")
        return ledger
    }
}

@Suite("Unsigned contents never beat the signed string")
struct UnsignedContentsTests {
    @Test(arguments: UnsignedContentsCase.all)
    func signedStringDecides(_ row: UnsignedContentsCase) throws {
        let decoded = try History.decodeUnverified(try row.document())
        let report = rebuildEntitlements(history: decoded.history, asOf: UnsignedSample.asOf)
        #expect(report.products.filter(\.hasAccess).map(\.productId.rawValue) == row.granted)
        #expect(decoded.warnings.map(\.path) == row.setAside)
        #expect(decoded.warnings.allSatisfy { $0.code == .unsignedContentsIgnored })
    }

    @Test("the notification as received lists what decoding its signed strings replaces, and nothing else")
    func unsignedContentsAreListed() throws {
        let both = try UnsignedSample.notification(
            transactionInfo: UnsignedSample.lifetime, signedTransaction: UnsignedSample.expiredMonthly,
            renewalInfo: UnsignedSample.inGracePeriod, signedRenewalInfo: UnsignedSample.cancelled)
        #expect(both.unsignedContentsBesideSignedStrings.map(\.path) == ["data.transactionInfo", "data.renewalInfo"])
        let decoded = try both.decodingNestedPayloadsUnverified()
        #expect(decoded.data?.transactionInfo == UnsignedSample.expiredMonthly)
        #expect(decoded.data?.renewalInfo == UnsignedSample.cancelled)
        let stored = try UnsignedSample.notification(transactionInfo: UnsignedSample.lifetime)
        #expect(stored.unsignedContentsBesideSignedStrings.isEmpty)
        #expect(try stored.decodingNestedPayloadsUnverified() == stored)
    }
}

import FamilyEntitlements
import Foundation
import Testing

/// Payload values with as many fields set as the types have, built here rather than read from Apple's samples.
enum Examples {
    static let token = UUID(
        uuid: (0x7E, 0x3F, 0xB2, 0x0B, 0x4C, 0xDB, 0x47, 0xCC, 0x93, 0x6D, 0x99, 0xD6, 0x5F, 0x60, 0x81, 0x38))

    static let transaction = TransactionPayload(
        originalTransactionId: "1000000000000001",
        transactionId: "1000000000000002",
        webOrderLineItemId: "2000000000000001",
        bundleId: "com.example.family",
        productId: "com.example.family.monthly",
        subscriptionGroupIdentifier: "21000001",
        purchaseDate: date(milliseconds: 1_698_148_900_000),
        originalPurchaseDate: date(milliseconds: 1_698_148_800_123),
        expiresDate: date(milliseconds: 1_700_827_300_000),
        quantity: 1,
        type: .autoRenewable,
        appAccountToken: token,
        inAppOwnershipType: .familyShared,
        signedDate: date(milliseconds: 1_698_148_900_456),
        revocationReason: .otherReason,
        revocationDate: date(milliseconds: 1_699_000_000_000),
        isUpgraded: false,
        offerType: .winBack,
        offerIdentifier: "winback.2025",
        environment: .sandbox,
        storefront: "GBR",
        storefrontId: "143444",
        transactionReason: .renewal,
        currency: "GBP",
        price: 4990,
        offerDiscountType: .payUpFront,
        appTransactionId: "704289572311523456",
        offerPeriod: "P3M",
        revocationType: .familyRevoke,
        revocationPercentage: 100_000,
        billingPlanType: "MONTHLY",
        commitmentInfo: TransactionCommitmentInfo(
            billingPeriodNumber: 2, commitmentExpiresDate: date(milliseconds: 1_730_000_000_000),
            commitmentPrice: 59_880, totalBillingPeriods: 12),
        advancedCommerceInfo: AdvancedCommerceTransactionInfo(
            estimatedTax: 1500,
            items: [
                AdvancedCommerceTransactionItem(
                    sku: "sku.one", price: 4990,
                    refunds: [
                        AdvancedCommerceRefund(
                            refundAmount: 1000, refundType: AdvancedCommerceRefundType(rawValue: "NEW"))
                    ],
                    unknownMembers: ["revoked": .bool(false), "note": .null])
            ],
            period: .oneMonth,
            taxRate: Decimal(sign: .plus, exponent: -2, significand: 15),
            unknownMembers: ["ratio": .number(0.25)]))

    static let renewalInfo = RenewalInfoPayload(
        originalTransactionId: "1000000000000001",
        productId: "com.example.family.monthly",
        autoRenewProductId: "com.example.family.yearly",
        autoRenewStatus: .on,
        expirationIntent: .billingError,
        isInBillingRetryPeriod: true,
        gracePeriodExpiresDate: date(milliseconds: 1_701_000_000_000),
        priceIncreaseStatus: .accepted,
        offerType: .offerCode,
        offerIdentifier: "code.2025",
        offerDiscountType: .freeTrial,
        offerPeriod: "P1W",
        signedDate: date(milliseconds: 1_698_148_900_000),
        environment: .production,
        recentSubscriptionStartDate: date(milliseconds: 1_690_000_000_000),
        renewalDate: date(milliseconds: 1_700_827_300_000),
        currency: "JPY",
        renewalPrice: 300_000,
        eligibleWinBackOfferIds: ["winback.a", "winback.b"],
        appAccountToken: token,
        appTransactionId: "704289572311523456",
        renewalBillingPlanType: "MONTHLY",
        commitmentInfo: RenewalCommitmentInfo(
            commitmentAutoRenewProductId: "com.example.family.commitment", commitmentAutoRenewStatus: .off,
            commitmentRenewalBillingPlanType: "MONTHLY", commitmentRenewalDate: date(milliseconds: 1_731_000_000_000),
            commitmentRenewalPrice: 4990),
        advancedCommerceInfo: AdvancedCommerceRenewalInfo(
            consistencyToken: "token", period: AdvancedCommercePeriod(rawValue: "P2Y"),
            unknownMembers: ["later": .array([.integer(1)])]))

    static let appTransaction = AppTransactionPayload(
        receiptType: .production,
        appAppleId: 531_412,
        bundleId: "com.example.family",
        applicationVersion: "2.4.1",
        versionExternalIdentifier: 812_345_678,
        receiptCreationDate: date(milliseconds: 1_698_148_900_000),
        originalPurchaseDate: date(milliseconds: -62_135_769_600_000),
        originalApplicationVersion: "1.0",
        deviceVerification: "c2lnbmVkIGRldmljZQ==",
        deviceVerificationNonce: token,
        preorderDate: date(milliseconds: 1_690_000_000_000),
        appTransactionId: "704289572311523456",
        originalPlatform: "iOS")

    static let notification = NotificationPayload(
        notificationType: .revoke,
        subtype: nil,
        notificationUUID: "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6",
        version: "2.0",
        signedDate: date(milliseconds: 1_699_000_000_500),
        data: NotificationData(
            environment: .production,
            appAppleId: 41234,
            bundleId: "com.example.family",
            bundleVersion: "2.4.1",
            signedTransactionInfo: "header.transaction.signature",
            signedRenewalInfo: "header.renewal.signature",
            transactionInfo: transaction,
            renewalInfo: renewalInfo,
            status: .revoked,
            consumptionRequestReason: .fulfillmentIssue))

    static let summaryNotification = NotificationPayload(
        notificationType: .renewalExtension,
        subtype: .summary,
        notificationUUID: "efb27071-45a4-4aca-9854-2a1e9146f265",
        version: "2.0",
        signedDate: date(milliseconds: 1_698_148_900_000),
        summary: NotificationSummary(
            requestIdentifier: "efb27071-45a4-4aca-9854-2a1e9146f265", environment: .sandbox, appAppleId: 41234,
            bundleId: "com.example.family", productId: "com.example.family.monthly",
            storefrontCountryCodes: ["CAN", "USA"], failedCount: 2, succeededCount: 5),
        externalPurchaseToken: ExternalPurchaseToken(
            externalPurchaseId: "b2158121-7af9-49d4-9561-1f588205523e",
            tokenCreationDate: date(milliseconds: 1_698_148_950_000), appAppleId: 55555, bundleId: "com.example"),
        appData: NotificationAppData(
            appAppleId: 41234, bundleId: "com.example.family", environment: .sandbox,
            signedAppTransactionInfo: "header.app.signature"))

    static let history = TransactionHistoryResponse(
        revision: "revision_output", hasMore: true, bundleId: "com.example.family", appAppleId: 323_232,
        environment: .production, signedTransactions: ["a.b.c", "d.e.f"])

    static let statuses = SubscriptionStatusesResponse(
        environment: .sandbox, bundleId: "com.example.family", appAppleId: 5_454_545,
        data: [
            SubscriptionGroupStatus(
                subscriptionGroupIdentifier: "21000001",
                lastTransactions: [
                    LastTransactionsItem(
                        status: .billingGracePeriod, originalTransactionId: "1000000000000001",
                        signedTransactionInfo: "a.b.c", signedRenewalInfo: "d.e.f")
                ])
        ])

    static let requestBody = NotificationRequestBody(signedPayload: "header.payload.signature")
}

/// One payload value that must survive `jsonData()` and decoding unchanged.
struct RoundTripCase: CustomTestStringConvertible, Sendable {
    let name: String
    /// Encodes, decodes, and re-encodes; reports whether the value and the bytes came back the same.
    let roundTrip: @Sendable () throws -> (sameValue: Bool, firstBytes: Data, secondBytes: Data)

    var testDescription: String { "\(name) -> jsonData -> decode gives an equal value and the same bytes" }

    static func of<T: AppStorePayload>(_ name: String, _ value: T) -> RoundTripCase {
        RoundTripCase(name: name) {
            let first = try value.jsonData()
            let decoded = try T(jsonData: first)
            return (decoded == value, first, try decoded.jsonData())
        }
    }

    static let all: [RoundTripCase] = [
        .of("family-shared revoked transaction, every field set", Examples.transaction),
        .of("renewal info in billing retry, every field set", Examples.renewalInfo),
        .of("app transaction with the year-1 original purchase date", Examples.appTransaction),
        .of("REVOKE notification carrying decoded transaction and renewal info", Examples.notification),
        .of("summary notification with token and appData", Examples.summaryNotification),
        .of("transaction history page", Examples.history),
        .of("subscription statuses body", Examples.statuses),
        .of("notification request body", Examples.requestBody),
        .of("transaction with every field absent", TransactionPayload()),
    ]
}

/// One date and the JSON number it must be written as.
struct DateEncodingCase: CustomTestStringConvertible, Sendable {
    let name: String
    let milliseconds: Double
    let json: String

    var testDescription: String { "\(name) -> \"purchaseDate\":\(json)" }

    static let all: [DateEncodingCase] = [
        DateEncodingCase(name: "whole second", milliseconds: 1_698_148_900_000, json: "1698148900000"),
        DateEncodingCase(name: "whole millisecond", milliseconds: 1_698_148_900_123, json: "1698148900123"),
        DateEncodingCase(name: "the epoch", milliseconds: 0, json: "0"),
        DateEncodingCase(name: "before the epoch", milliseconds: -1_000, json: "-1000"),
        DateEncodingCase(
            name: "Xcode's year-1 original purchase date", milliseconds: -62_135_769_600_000,
            json: "-62135769600000"),
        DateEncodingCase(
            name: "the last millisecond of 9999", milliseconds: 253_402_300_799_999, json: "253402300799999"),
        DateEncodingCase(
            name: "Xcode fractional milliseconds stay a fraction", milliseconds: 1_697_679_936_049.7297,
            json: "1697679936049.7297"),
    ]
}

@Suite("Encoding round trips")
struct RoundTripTests {
    @Test("a payload encodes and decodes back to an equal value", arguments: RoundTripCase.all)
    func roundTrip(_ row: RoundTripCase) throws {
        let result = try row.roundTrip()
        #expect(result.sameValue)
        #expect(
            String(decoding: result.secondBytes, as: UTF8.self) == String(decoding: result.firstBytes, as: UTF8.self))
    }

    @Test("a date is written as Apple writes it, an integer when whole", arguments: DateEncodingCase.all)
    func dateEncoding(_ row: DateEncodingCase) throws {
        let transaction = TransactionPayload(purchaseDate: date(milliseconds: row.milliseconds))
        let json = try transaction.jsonData()
        #expect(String(decoding: json, as: UTF8.self) == "{\"purchaseDate\":\(row.json)}")
        #expect(try TransactionPayload(jsonData: json) == transaction)
    }

    @Test("appAccountToken is written in lowercase and read in any case")
    func uuidCase() throws {
        let upper = #"{"appAccountToken":"7E3FB20B-4CDB-47CC-936D-99D65F608138"}"#
        let transaction = try TransactionPayload(jsonData: Data(upper.utf8))
        #expect(transaction.appAccountToken == Examples.token)
        #expect(
            String(decoding: try transaction.jsonData(), as: UTF8.self)
                == #"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#)
    }
}

extension RoundTripTests {
    /// A report read back from its JSON holds its evidence as words: such a reason equals the reason it was written
    /// from. Between reasons as data, equality is the rule and the fact, never a looser match.
    @Test("two reasons are equal when they state the same fact of the same rule, or read the same")
    func reasonEquality() throws {
        let granted = Reason(.snapshots, .newestSnapshot(transactionId: "1", signed: Date(timeIntervalSince1970: 0)))
        let other = Reason(.snapshots, .newestSnapshot(transactionId: "2", signed: Date(timeIntervalSince1970: 0)))
        let sameFact = Reason(.evidence, .newestSnapshot(transactionId: "1", signed: Date(timeIntervalSince1970: 0)))
        #expect(granted == granted)
        #expect(granted != other, "another fact of the same rule")
        #expect(granted.text != other.text)
        #expect((granted == sameFact) == (granted.text == sameFact.text), "the same fact named by another rule")
        #expect(granted == Reason(.evidence, .text(granted.text)), "the reason read back from its words")
        #expect(granted != Reason(.evidence, .text(other.text)))
        #expect(Set([granted, other, Reason(.evidence, .text(granted.text))]).count == 2)
    }
}

import FamilyEntitlements
import Foundation

/// The rows of the trust boundary: dates no rule may read, entries that cannot be placed in time, and revocations
/// Apple states without a date. Each rule's file lists them among its own rows.
extension DecisionRow {
    /// A date a payload built in code may hold, which no decoder gives: NaN, the infinities, a year past 9999.
    static let notANumber = Date(timeIntervalSince1970: .nan)
    static let infinity = Date(timeIntervalSince1970: .infinity)
    /// 10000-01-01T00:00:00Z, the first instant after the range the readers accept.
    static let year10000 = Date(timeIntervalSince1970: 253_402_300_800)

    /// Rule 10: a date a rule cannot read, on a transaction, makes it impossible, whatever else it holds.
    static let impossibleDateCases: [(String, TransactionPayload)] = {
        func lifetime(_ change: @escaping (inout TransactionPayload) -> Void) -> TransactionPayload {
            Given.oneTime("4401", Given.lifetime, type: .nonConsumable, on: 10, change)
        }
        return [
            ("a revocationDate that is NaN (built in code)", lifetime { $0.revocationDate = notANumber }),
            ("a purchaseDate that is NaN (built in code)", lifetime { $0.purchaseDate = notANumber }),
            ("a signedDate that is NaN (built in code)", lifetime { $0.signedDate = notANumber }),
            ("a signedDate of +infinity (built in code)", lifetime { $0.signedDate = infinity }),
            (
                "an expiresDate of +infinity (built in code)",
                Given.subscription("2402", from: 10, to: 40) { $0.expiresDate = infinity }
            ),
            (
                "an expiresDate that is NaN (built in code)",
                Given.subscription("2402", from: 10, to: 40) { $0.expiresDate = notANumber }
            ),
            ("a purchaseDate after the year 9999 (built in code)", lifetime { $0.purchaseDate = year10000 }),
            (
                "a revocationDate in 9999 on a snapshot signed on day 10: after its own signedDate",
                lifetime { $0.revocationDate = year10000.addingTimeInterval(-1) }
            ),
            (
                "a revocationDate a day after its own signedDate",
                lifetime { $0.revocationDate = Given.day(11) }
            ),
        ]
    }()

    /// Rule 10: a notification dated where no rule may read makes what it names untrusted.
    static let impossibleNotificationDates: [DecisionRow] = {
        func dated(_ notification: NotificationPayload, _ date: Date) -> NotificationPayload {
            var notification = notification
            notification.signedDate = date
            return notification
        }
        let inSeconds = Date(timeIntervalSince1970: Given.day(32).timeIntervalSince1970 / 1_000)
        let shared = Given.subscription("2421", from: 0, to: 30, ownership: .familyShared)
        let lapsed = Given.subscription("2422", from: 0, to: 30)
        let retrying = Given.renewal("2422", signed: 30) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(46)
        }
        func row(
            _ name: String, _ transaction: TransactionPayload, renewal: RenewalInfoPayload? = nil,
            _ notification: NotificationPayload, asOf: Double
        ) -> DecisionRow {
            DecisionRow(
                rule: .unknownValues, name: name,
                source: "decision table: never access on bad data; no real notification is signed before the App "
                    + "Store opened, and a notification names what it ends",
                history: History(
                    transactions: [transaction], renewalInfos: renewal.map { [$0] } ?? [],
                    notifications: [notification]), asOf: asOf, products: [], customer: .equals(.inactive),
                customerReason: .equals(.undetermined), diagnostics: [.impossibleValue, .untrustedSnapshot])
        }
        let longPass = ProductCatalog(products: [
            ProductID(Given.pass): ProductCatalog.Product(type: .nonRenewing, duration: ISO8601Duration(years: 20))
        ])
        // 9990-01-01T00:00:00Z and 9995-01-01T00:00:00Z, in days from the origin (2026-01-01).
        let (in9990, in9995) = (2_908_791.0, 2_910_617.0)
        return [
            DecisionRow(
                rule: .unknownValues,
                name: "a non-renewing subscription whose catalog duration ends after 9999 (P20Y from 9990): "
                    + "undetermined, never unlimited, reported",
                source: "decision table: a report's dates stay within the years its readers accept",
                history: History(transactions: [
                    Given.oneTime("2431", Given.pass, type: .nonRenewing, on: in9990)
                ]), asOf: in9995, catalog: longPass,
                products: [ProductExpectation(Given.pass, .undetermined, access: false)],
                diagnostics: [.impossibleValue]),
            row(
                "a REVOKE whose own signedDate is in seconds (1970): impossible; the copy it names grants nothing",
                shared, dated(Given.notification(.revoke, signed: 3, transaction: shared), inSeconds), asOf: 5),
            row(
                "a REVOKE whose own signedDate is NaN (built in code): the copy it names grants nothing",
                shared, dated(Given.notification(.revoke, signed: 3, transaction: shared), notANumber), asOf: 5),
            row(
                "an EXPIRED whose own signedDate is in seconds (1970): the grace period does not keep running",
                lapsed, renewal: retrying,
                dated(Given.notification(.expired, signed: 32, transaction: lapsed, renewal: retrying), inSeconds),
                asOf: 35),
            row(
                "a GRACE_PERIOD_EXPIRED whose own signedDate is +infinity (built in code): nothing grants",
                lapsed, renewal: retrying,
                dated(
                    Given.notification(.gracePeriodExpired, signed: 32, transaction: lapsed, renewal: retrying),
                    infinity), asOf: 35),
        ]
    }()

    /// Rule 1: entries that cannot be placed in time, and instants the rebuild cannot decide at.
    static let undatedEntries: [DecisionRow] = {
        func undated(_ transaction: TransactionPayload) -> TransactionPayload {
            var transaction = transaction
            transaction.signedDate = nil
            return transaction
        }
        func undated(_ notification: NotificationPayload) -> NotificationPayload {
            var notification = notification
            notification.signedDate = nil
            return notification
        }
        let refunded = undated(
            Given.subscription("1501", from: 0, to: 30) {
                $0.revocationDate = Given.day(3)
                $0.revocationType = .refundFull
            })
        let shared = Given.subscription("1503", from: 0, to: 30, ownership: .familyShared)
        let source = "decision table: an entry that cannot be placed in time never grants, and one that ends access "
        return [
            DecisionRow(
                rule: .snapshots,
                name: "a refund snapshot without signedDate beside the dated purchase: the one that grants less wins",
                source: source + "ends what it names; the snapshot ends what it names",
                history: History(transactions: [Given.subscription("1501", from: 0, to: 30), refunded]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                    }
                ], diagnostics: [.undatedEntry]),
            DecisionRow(
                rule: .snapshots,
                name: "an undated snapshot that grants no less than the dated one signed by then: the dated one, "
                    + "placed in time, speaks",
                source: source + "ends what it names; an undated snapshot never decides by the order of its JSON",
                history: History(transactions: [
                    Given.oneTime("1509", Given.lifetime, type: nil, on: 0),
                    Given.oneTime("1509", Given.lifetime, type: .nonConsumable, on: 0) { $0.signedDate = nil },
                ]), asOf: 1,
                products: [ProductExpectation(Given.lifetime, .undetermined, access: false)],
                diagnostics: [.undatedEntry, .unknownProductType]),
            DecisionRow(
                rule: .snapshots,
                name: "an undated snapshot revoked after the instant beside a dated one of unknown type: the dated "
                    + "one speaks, a revocation ahead never lends the copy a type",
                source: source + "ends what it names; an undated snapshot is used only where it grants less at every "
                    + "instant (found by the fuzzer)",
                history: History(transactions: [
                    Given.oneTime("1510", Given.lifetime, type: nil, on: 0),
                    Given.oneTime("1510", Given.lifetime, type: .nonConsumable, on: 0) {
                        $0.signedDate = nil
                        $0.revocationDate = Given.day(10)
                        $0.revocationReason = .otherReason
                    },
                ]), asOf: 1,
                products: [ProductExpectation(Given.lifetime, .undetermined, access: false)],
                diagnostics: [.undatedEntry, .unknownProductType]),
            DecisionRow(
                rule: .snapshots,
                name: "an undated refund that ends after the dated expiry: the dated expiry stands, the refund does "
                    + "not reopen the weeks between",
                source: source + "ends what it names; an undated snapshot is used only where it grants less at every "
                    + "instant",
                history: History(transactions: [
                    Given.subscription("1511", from: 0, to: 30),
                    undated(
                        Given.subscription("1511", from: 0, to: 60) {
                            $0.revocationDate = Given.day(45)
                            $0.revocationType = .refundFull
                        }),
                ]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                diagnostics: [.undatedEntry]),
            DecisionRow(
                rule: .snapshots,
                name: "a single undated snapshot that competes with nothing: decided as before, granting by its dates",
                source: "decision table: nothing else speaks for the transaction, so its own dates decide",
                history: History(transactions: [undated(Given.subscription("1502", from: 0, to: 30))]), asOf: 5,
                products: [ProductExpectation(Given.monthly, .active, access: true)]),
            DecisionRow(
                rule: .snapshots,
                name: "a REVOKE without signedDate is placed by its transaction's: the member's copy is revoked then",
                source: "apple-facts 4: a REVOKE carries the member's transaction, signed when Apple sent it",
                history: History(
                    transactions: [shared],
                    notifications: [
                        undated(
                            Given.notification(
                                .revoke, signed: 3,
                                transaction: Given.subscription(
                                    "1503", from: 0, to: 30, ownership: .familyShared, signed: 3)))
                    ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                    }
                ]),
            DecisionRow(
                rule: .snapshots,
                name: "a notification's transaction without signedDate is signed with its notification, not at the "
                    + "beginning of time: before both notifications, the earlier one's snapshot speaks",
                source: "apple-facts 4: a notification and the payloads it carries are signed together; rule 1: a "
                    + "snapshot signed after the instant is used where nothing is known by then, the earliest first "
                    + "(found by the fuzzer)",
                history: History(notifications: [
                    Given.notification(
                        .subscribed, .initialBuy, signed: 1,
                        transaction: Given.subscription("1512", from: 0, to: 30, ownership: .familyShared, signed: 1)),
                    Given.notification(
                        .revoke, signed: 10,
                        transaction: undated(
                            Given.subscription("1512", from: 0, to: 30, ownership: .familyShared) {
                                $0.type = nil
                                $0.expiresDate = nil
                            })),
                ]), asOf: 0.5,
                products: [ProductExpectation(Given.monthly, .active, access: true)],
                diagnostics: [.signedAfterInstant]),
            DecisionRow(
                rule: .snapshots,
                name: "a Sandbox REVOKE whose transaction has no signedDate is left out where its notification stands: "
                    + "the older Production snapshot it might have replaced is not trusted to grant",
                source: "apple-facts 4 and 10: a notification's payloads are signed with it; production refuses "
                    + "sandbox, and a snapshot left out might have spoken for the instant (found by the fuzzer)",
                history: History(notifications: [
                    Given.notification(
                        .subscribed, .initialBuy, signed: 1,
                        transaction: Given.subscription("1513", from: 0, to: 30, ownership: .familyShared, signed: 1)),
                    Given.notification(
                        .revoke, signed: 10,
                        transaction: undated(Given.subscription("1513", from: 0, to: 30, ownership: .familyShared)),
                        environment: .sandbox),
                ]), asOf: 15, products: [], customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.foreignEnvironment, .untrustedSnapshot]),
            DecisionRow(
                rule: .snapshots,
                name: "a REVOKE with no signedDate anywhere: it still ends the copy it names, from its purchase",
                source: source + "ends what it names; a REVOKE only ever takes access away",
                history: History(
                    transactions: [shared],
                    notifications: [undated(Given.notification(.revoke, signed: 3, transaction: undated(shared)))]),
                asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                    }
                ], diagnostics: [.undatedEntry]),
            DecisionRow(
                rule: .snapshots,
                name: "a SUBSCRIBED with no signedDate anywhere: what it carries grants nothing",
                source: source + "ends what it names",
                history: History(notifications: [
                    undated(
                        Given.notification(
                            .subscribed, .initialBuy, signed: 0,
                            transaction: undated(Given.subscription("1505", from: 0, to: 30))))
                ]), asOf: 5, products: [], customer: .equals(.inactive), customerReason: .equals(.undetermined),
                diagnostics: [.undatedEntry]),
            DecisionRow(
                rule: .snapshots,
                name: "an instant before the App Store opened (2008-01-01): a real question, the customer is new",
                source: "decision table: a purchase after the instant does not count yet",
                history: History(transactions: [Given.oneTime("1508", Given.lifetime, type: .nonConsumable, on: 0)]),
                asOf: Date(timeIntervalSince1970: 1_199_145_600).timeIntervalSince(Given.origin) / 86_400,
                products: [], customer: .equals(.new)),
        ]
    }()

    /// Rule 7: a snapshot that says it is revoked without a revocationDate, and a REVOKE that finds nothing to end.
    static let revocationsWithoutDate: [DecisionRow] = {
        let source =
            "decision table: Apple documents no such shape; Get Transaction History answers so for a member's copy "
            + "after the member left, and reading the fields as saying nothing would let the copy grant"
        func leftFamily(_ change: @escaping (inout TransactionPayload) -> Void) -> TransactionPayload {
            Given.subscription("7601", from: 0, to: 30, ownership: .familyShared, signed: 3, change)
        }
        return [
            DecisionRow(
                rule: .revocationCause,
                name: "a member's copy with revocationReason 0 and FAMILY_REVOKE but no revocationDate: revoked from "
                    + "its signedDate, familyRevocation, inferred",
                source: source,
                history: History(transactions: [
                    Given.subscription("7601", from: 0, to: 30, ownership: .familyShared),
                    leftFamily {
                        $0.revocationReason = .otherReason
                        $0.revocationType = .familyRevoke
                    },
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                        $0.causeInferred = .equals(true)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation)),
            DecisionRow(
                rule: .revocationCause,
                name: "a member's copy with revocationReason 0 alone and no revocationDate: revoked from its "
                    + "signedDate, cause unknown, inferred",
                source: source,
                history: History(transactions: [leftFamily { $0.revocationReason = .otherReason }]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.unknown)
                        $0.causeInferred = .equals(true)
                    }
                ]),
            DecisionRow(
                rule: .revocationCause,
                name: "a member's shared non-consumable with revocationReason 0 and no revocationDate: revoked, not "
                    + "granted forever",
                source: source,
                history: History(transactions: [
                    Given.oneTime(
                        "7602", Given.lifetime, type: .nonConsumable, on: 0, ownership: .familyShared,
                        signed: 3
                    ) { $0.revocationReason = .otherReason }
                ]), asOf: 100,
                products: [ProductExpectation(Given.lifetime, .revoked, access: false)]),
            DecisionRow(
                rule: .revocationCause,
                name: "a newer snapshot without revocationReason restores the copy, as REFUND_REVERSED does",
                source: "decision table: the newest snapshot is the truth (rule 1)",
                history: History(transactions: [
                    leftFamily { $0.revocationReason = .otherReason },
                    Given.subscription("7601", from: 0, to: 30, ownership: .familyShared, signed: 4),
                ]), asOf: 5, products: [ProductExpectation(Given.monthly, .active, access: true)]),
            DecisionRow(
                rule: .revocationCause,
                name: "a REVOKE without revocationDate ends only what it could still end: an expired copy of another "
                    + "product keeps its own end, and the customer's reason follows the newest transaction",
                source: "apple-facts 4: REVOKE ends a member's access; a copy that already expired had none left",
                history: History(
                    transactions: [
                        Given.subscription("7701", Given.basic, from: 0, to: 30, ownership: .familyShared),
                        Given.subscription("7702", original: "7701", from: 30, to: 60, ownership: .familyShared),
                        Given.subscription("7703", original: "7701", from: 50, to: 80, ownership: .familyShared),
                    ],
                    notifications: [
                        Given.notification(
                            .revoke, signed: 45,
                            transaction: Given.subscription(
                                "7702", original: "7701", from: 30, to: 60, ownership: .familyShared, signed: 45))
                    ]), asOf: 90,
                products: [
                    ProductExpectation(Given.basic, .expired, access: false),
                    ProductExpectation(Given.monthly, .expired, access: false) { $0.transactionId = .equals("7703") },
                ], customer: .equals(.inactive), customerReason: .equals(.expired)),
            DecisionRow(
                rule: .revocationCause,
                name: "a REVOKE before the instant revokes a copy whose only snapshot, signed later, states an unknown "
                    + "revocationType dated later: familyRevocation, and the unknown type is not reported before its "
                    + "date revokes",
                source: "apple-facts 4: REVOKE ends a member's access; decision table: unknown values are reported",
                history: History(
                    transactions: [
                        Given.oneTime("7911", Given.lifetime, type: .nonConsumable, on: 0, ownership: .familyShared) {
                            $0.originalTransactionId = "7910"
                            $0.signedDate = Given.day(12)
                            $0.revocationDate = Given.day(12)
                            $0.revocationType = RevocationType(rawValue: "FAMILY_REVOKE_NEW")
                        }
                    ],
                    notifications: [
                        Given.notification(
                            .revoke, signed: 5,
                            transaction: Given.oneTime(
                                "7912", Given.lifetime, type: .nonConsumable, on: 0, ownership: .familyShared,
                                signed: 5
                            ) { $0.originalTransactionId = "7910" })
                    ]), asOf: 11,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                        $0.causeInferred = .equals(true)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation)),
            DecisionRow(
                rule: .revocationCause,
                name:
                    "a REVOKE signed in the very millisecond an upgrade replaced the older product finds nothing left "
                    + "to end there: the older product is upgraded, the newer one revoked",
                source: "apple-facts 4: REVOKE ends a member's access; a replaced copy had none left",
                history: History(
                    transactions: [
                        Given.subscription("7801", Given.basic, from: 0, to: 30, ownership: .familyShared),
                        Given.subscription("7802", original: "7801", from: 20, to: 50, ownership: .familyShared),
                    ],
                    notifications: [
                        Given.notification(
                            .revoke, signed: 20,
                            transaction: Given.subscription(
                                "7802", original: "7801", from: 20, to: 50, ownership: .familyShared, signed: 20))
                    ]), asOf: 25,
                products: [
                    ProductExpectation(Given.basic, .upgraded, access: false),
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                        $0.causeInferred = .equals(true)
                    },
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation)),
        ]
    }()
}

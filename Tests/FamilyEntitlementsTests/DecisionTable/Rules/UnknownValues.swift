import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// The rows of ``DecisionRule/unknownValues``, in the order docs/decision-table.md lists them.
    static let unknownValues: [DecisionRow] =
        unknownValueRows + impossibleValues + impossibleNotificationDates + unreadEntries

    /// A REVOKE whose signed transaction could not be decoded, as `History.decodeUnverified` leaves it: the
    /// notification is kept with the string as sent, and nothing is taken from the string.
    static let unreadRevoke = NotificationPayload(
        notificationType: .revoke, notificationUUID: "00000000-0000-4000-8000-000000010000", version: "2.0",
        signedDate: Given.day(10),
        data: NotificationData(
            environment: .production, appAppleId: 6_450_000_001, bundleId: "org.familyentitlements.demo",
            bundleVersion: "42", signedTransactionInfo: "not-a-jws"))

    /// The warning reading `unreadRevoke` in a history document gives.
    static let unreadWarning = PayloadDecodingWarning(
        code: .undecodableSignedString, path: "notifications[0].data.signedTransactionInfo",
        message: "the signed string cannot be decoded (malformed_jws); it is kept as sent and nothing is taken from it")

    /// Rule 10: what reading the input noticed. An entry that could not be read might name any chain.
    static let unreadEntries: [DecisionRow] = [
        DecisionRow(
            rule: .unknownValues,
            name:
                "a REVOKE whose signed transaction cannot be read: nothing grants, undetermined, reported with its path",
            source: "decision table: never access on bad data; apple-facts 2: a REVOKE ends a member's access",
            history: History(
                transactions: [Given.subscription("1201", from: 0, to: 30, ownership: .familyShared)],
                notifications: [unreadRevoke]), asOf: 15, decodingWarnings: [unreadWarning],
            products: [
                ProductExpectation(Given.monthly, .undetermined, access: false) {
                    $0.reasons = [Reason(.unknownValues, .unreadEntries(paths: [unreadWarning.path]))]
                }
            ], customer: .equals(.inactive), customerReason: .equals(.undetermined),
            diagnostics: [.undecodableSignedString]),
        DecisionRow(
            rule: .unknownValues,
            name:
                "a REVOKE held only as a signed string, no warnings passed: the rebuild reports the string it did not "
                + "read (undecoded_signed_string) at its path; nothing grants, undetermined",
            source:
                "decision table: never access on bad data, nothing silently dropped; the rebuild never decodes a "
                + "signed string",
            history: History(
                transactions: [Given.subscription("1206", from: 0, to: 30, ownership: .familyShared)],
                notifications: [unreadRevoke]), asOf: 15,
            products: [
                ProductExpectation(Given.monthly, .undetermined, access: false) {
                    $0.reasons = [Reason(.unknownValues, .unreadEntries(paths: [unreadWarning.path]))]
                }
            ], customer: .equals(.inactive), customerReason: .equals(.undetermined),
            diagnostics: [.undecodedSignedString]),
        DecisionRow(
            rule: .unknownValues,
            name: "a signed renewal info without its decoded contents: undecoded too, though the transaction is read",
            source: "decision table: never access on bad data; a renewal info may end billing retry or grace",
            history: History(
                transactions: [Given.subscription("1207", from: 0, to: 30)],
                notifications: [
                    NotificationPayload(
                        notificationType: .didChangeRenewalStatus,
                        notificationUUID: "00000000-0000-4000-8000-000000010001",
                        version: "2.0", signedDate: Given.day(10),
                        data: NotificationData(
                            environment: .production, appAppleId: 6_450_000_001,
                            bundleId: "org.familyentitlements.demo",
                            bundleVersion: "42", signedRenewalInfo: "eyJ.eyJ.sig"))
                ]), asOf: 15,
            products: [
                ProductExpectation(Given.monthly, .undetermined, access: false) {
                    $0.reasons = [
                        Reason(.unknownValues, .unreadEntries(paths: ["notifications[0].data.signedRenewalInfo"]))
                    ]
                }
            ], customer: .equals(.inactive), customerReason: .equals(.undetermined),
            diagnostics: [.undecodedSignedString]),
        DecisionRow(
            rule: .unknownValues,
            name: "an unreadable entry and nothing else: inactive (undetermined), never new",
            source: "decision table: never access on bad data",
            history: History(notifications: [unreadRevoke]), asOf: 15,
            decodingWarnings: [
                PayloadDecodingWarning(
                    code: .undecodableSignedString, path: "signedPayload",
                    message: "the signed string cannot be decoded")
            ], products: [], customer: .equals(.inactive), customerReason: .equals(.undetermined),
            diagnostics: [.undecodableSignedString]),
        DecisionRow(
            rule: .unknownValues,
            name: "an unreadable entry beside a product that grants nothing: the product keeps its own state",
            source: "decision table: never access on bad data",
            history: History(
                transactions: [Given.subscription("1202", from: 0, to: 10)], notifications: [unreadRevoke]),
            asOf: 15, decodingWarnings: [unreadWarning],
            products: [ProductExpectation(Given.monthly, .expired, access: false)], customer: .equals(.inactive),
            customerReason: .equals(.undetermined), diagnostics: [.undecodableSignedString]),
        DecisionRow(
            rule: .unknownValues,
            name:
                "two unreadable entries, warned of in reverse order: the evidence names both, paths in ascending order",
            source: "decision table: never access on bad data; the same history in any order gives the same answer",
            history: History(transactions: [Given.subscription("1205", from: 0, to: 30)]), asOf: 15,
            decodingWarnings: [
                PayloadDecodingWarning(
                    code: .undecodableSignedString, path: "transactions[2]",
                    message: "the signed string cannot be decoded"),
                PayloadDecodingWarning(
                    code: .undecodableSignedString, path: "transactions[1]",
                    message: "the signed string cannot be decoded"),
            ],
            products: [
                ProductExpectation(Given.monthly, .undetermined, access: false) {
                    $0.reasons = [
                        Reason(.unknownValues, .unreadEntries(paths: ["transactions[1]", "transactions[2]"]))
                    ]
                }
            ], customer: .equals(.inactive), customerReason: .equals(.undetermined),
            diagnostics: [.undecodableSignedString]),
        DecisionRow(
            rule: .unknownValues,
            name: "unsigned contents beside a signed string: a warning with its path, the signed string decides",
            source: "apple-facts 1: Apple signs a notification's transaction on its own and never sends it decoded",
            history: History(transactions: [Given.subscription("1203", from: 0, to: 30)]), asOf: 15,
            decodingWarnings: [
                PayloadDecodingWarning(
                    code: .unsignedContentsIgnored, path: "notifications[0].data.transactionInfo",
                    message: "decoded contents beside data.signedTransactionInfo are ignored")
            ], products: [ProductExpectation(Given.monthly, .active, access: true)], customer: .equals(.active),
            diagnostics: [.unsignedContentsIgnored]),
        DecisionRow(
            rule: .unknownValues,
            name: "a reading warning of a code this release does not know: an error, and nothing grants",
            source: "decision table: unknown values are kept and reported; never access on bad data",
            history: History(transactions: [Given.subscription("1204", from: 0, to: 30)]), asOf: 15,
            decodingWarnings: [
                PayloadDecodingWarning(
                    code: PayloadDecodingWarning.Code(rawValue: "truncated_entry"), path: "transactions[1]",
                    message: "a later release's warning")
            ], products: [ProductExpectation(Given.monthly, .undetermined, access: false)],
            customer: .equals(.inactive), customerReason: .equals(.undetermined),
            diagnostics: [Diagnostic.Code(rawValue: "truncated_entry")]),
    ]

    /// Rule 10: unknown values are kept and reported, never a crash.
    static let unknownValueRows: [DecisionRow] = [
        DecisionRow(
            rule: .unknownValues,
            name: "an unknown notification type: reported as a warning, its transaction still counts",
            source: "apple-facts 3: Apple adds types every year",
            history: History(notifications: [
                Given.notification(
                    NotificationType(rawValue: "SUBSCRIPTION_PAUSED"), signed: 0,
                    transaction: Given.subscription("1101", from: 0, to: 30))
            ]), asOf: 5,
            products: [ProductExpectation(Given.monthly, .active, access: true)],
            diagnostics: [.unknownNotificationType]),
        DecisionRow(
            rule: .unknownValues, name: "an unknown subtype: reported as a warning, its transaction still counts",
            source: "apple-facts 3",
            history: History(notifications: [
                Given.notification(
                    .subscribed, NotificationSubtype(rawValue: "REACTIVATED"), signed: 0,
                    transaction: Given.subscription("1102", from: 0, to: 30))
            ]), asOf: 5,
            products: [ProductExpectation(Given.monthly, .active, access: true)],
            diagnostics: [.unknownNotificationSubtype]),
        DecisionRow(
            rule: .unknownValues,
            name: "an unknown ownership (ASSIGNED): counts where its fields allow, cannot manage, reported",
            source: "apple-facts 2: StoreKit added an assigned ownership; no server value is documented",
            history: History(transactions: [
                Given.subscription("1103", from: 0, to: 30, ownership: OwnershipType(rawValue: "ASSIGNED"))
            ]), asOf: 5,
            products: [
                ProductExpectation(Given.monthly, .active, access: true) {
                    $0.canManage = .equals(false)
                    $0.ownership = .equals(OwnershipType(rawValue: "ASSIGNED"))
                }
            ], diagnostics: [.unknownOwnership]),
        DecisionRow(
            rule: .unknownValues, name: "an unknown product type with expiresDate: access only until it",
            source: "decision table: counts where its fields allow",
            history: History(transactions: [
                Given.subscription("1104", from: 0, to: 30) {
                    $0.type = ProductType(rawValue: "Bundle Subscription")
                }
            ]), asOf: 5,
            products: [
                ProductExpectation(Given.monthly, .active, access: true) {
                    $0.willRenew = .equals(nil)
                    $0.reasons = [
                        Reason(
                            .unknownValues,
                            .unknownTypeBounded(productType: ProductType(rawValue: "Bundle Subscription")))
                    ]
                }
            ],
            diagnostics: [.unknownProductType]),
        DecisionRow(
            rule: .unknownValues,
            name: "an unknown product type without expiresDate: undetermined, never unlimited",
            source: "decision table: never access on bad data",
            history: History(transactions: [
                Given.oneTime("1105", Given.lifetime, type: ProductType(rawValue: "Bundle"), on: 0)
            ]), asOf: 5,
            products: [
                ProductExpectation(Given.lifetime, .undetermined, access: false) {
                    $0.reasons = [
                        Reason(.unknownValues, .unknownTypeUnbounded(productType: ProductType(rawValue: "Bundle")))
                    ]
                }
            ],
            diagnostics: [.unknownProductType]),
        DecisionRow(
            rule: .unknownValues, name: "a transaction without purchaseDate never grants and is reported",
            source: "decision table: never access on bad data",
            history: History(transactions: [Given.subscription("1106", from: 0, to: 30) { $0.purchaseDate = nil }]),
            asOf: 5, products: [], customer: .equals(.new), diagnostics: [.incompleteTransaction]),
        DecisionRow(
            rule: .unknownValues, name: "a transaction without originalTransactionId never grants and is reported",
            source: "decision table: never access on bad data",
            history: History(transactions: [
                Given.subscription("1110", from: 0, to: 30) { $0.originalTransactionId = nil }
            ]), asOf: 5, products: [], customer: .equals(.new), diagnostics: [.incompleteTransaction]),
        DecisionRow(
            rule: .unknownValues, name: "a transaction without productId never grants and is reported",
            source: "decision table: never access on bad data",
            history: History(transactions: [Given.subscription("1111", from: 0, to: 30) { $0.productId = nil }]),
            asOf: 5, products: [], customer: .equals(.new), diagnostics: [.incompleteTransaction]),
        DecisionRow(
            rule: .unknownValues, name: "a transaction without transactionId never grants and is reported",
            source: "decision table: never access on bad data",
            history: History(transactions: [Given.subscription("1112", from: 0, to: 30) { $0.transactionId = nil }]),
            asOf: 5, products: [], customer: .equals(.new), diagnostics: [.incompleteTransaction]),
        DecisionRow(
            rule: .unknownValues,
            name: "a newer snapshot without purchaseDate is left out, and the older one it may correct is untrusted",
            source: "decision table: never access on bad data; a snapshot left out may carry a refund",
            history: History(transactions: [
                Given.subscription("1109", from: 0, to: 30),
                Given.subscription("1109", from: 0, to: 30, signed: 3) {
                    $0.purchaseDate = nil
                    $0.revocationDate = Given.day(3)
                },
            ]), asOf: 5, products: [], customer: .equals(.inactive), customerReason: .equals(.undetermined),
            diagnostics: [.incompleteTransaction, .untrustedSnapshot]),
        DecisionRow(
            rule: .unknownValues,
            name: "a price finer than the currency's minor units (4,995 milliunits of USD): kept exact, reported",
            source: "apple-facts 9: price is in milliunits; ISO 4217 gives USD two decimals",
            history: History(transactions: [Given.subscription("1107", from: 0, to: 30) { $0.price = 4_995 }]),
            asOf: 5, products: [ProductExpectation(Given.monthly, .active, access: true)],
            diagnostics: [.inexactPrice]),
        DecisionRow(
            rule: .unknownValues,
            name: "a price in a currency ISO 4217 does not know: kept in milliunits, reported",
            source: "apple-facts 9: price is in milliunits of the currency Apple names",
            history: History(transactions: [
                Given.subscription("1108", from: 0, to: 30) { $0.currency = "XZZ" }
            ]), asOf: 5, products: [ProductExpectation(Given.monthly, .active, access: true)],
            diagnostics: [.inexactPrice]),
    ]

    /// Rule 10: values no real payload carries never grant.
    static let impossibleValues: [DecisionRow] = {
        func lifetime(_ change: @escaping (inout TransactionPayload) -> Void) -> TransactionPayload {
            Given.oneTime("4401", Given.lifetime, type: .nonConsumable, on: 10, change)
        }
        let cases: [(String, TransactionPayload)] =
            [
                (
                    "an expiresDate before purchaseDate",
                    Given.subscription("2402", from: 10, to: 5)
                ),
                ("a revocationDate before purchaseDate", lifetime { $0.revocationDate = Given.day(5) }),
                ("an empty productId", lifetime { $0.productId = "" }),
                ("an empty transactionId", lifetime { $0.transactionId = "" }),
                ("quantity 0", lifetime { $0.quantity = 0 }),
                ("a negative price", lifetime { $0.price = -9990 }),
                (
                    "a purchaseDate in seconds mistaken for milliseconds (1970)",
                    lifetime { $0.purchaseDate = Date(timeIntervalSince1970: 1_767_225_600 / 1_000) }
                ),
                ("an empty originalTransactionId", lifetime { $0.originalTransactionId = "" }),
                (
                    "a signedDate in seconds mistaken for milliseconds (1970)",
                    lifetime { $0.signedDate = Date(timeIntervalSince1970: 1_767_225_600 / 1_000) }
                ),
                (
                    "an expiresDate in seconds mistaken for milliseconds (1970)",
                    Given.subscription("2402", from: 10, to: 40) {
                        $0.expiresDate = Date(timeIntervalSince1970: 1_770_681_600 / 1_000)
                    }
                ),
                (
                    "a revocationDate in seconds mistaken for milliseconds (1970)",
                    lifetime { $0.revocationDate = Date(timeIntervalSince1970: 1_768_089_600 / 1_000) }
                ),
            ] + impossibleDateCases
        let renewalInfo = Given.renewal("2402", signed: 10) {
            $0.isInBillingRetryPeriod = true
            $0.gracePeriodExpiresDate = Given.day(40)
        }
        var rows = cases.map { name, transaction in
            DecisionRow(
                rule: .unknownValues, name: "\(name): impossible, grants nothing, reported",
                source: "decision table: never access on bad data; the App Store opened on 2008-07-10",
                history: History(transactions: [transaction], renewalInfos: [renewalInfo]), asOf: 12, products: [],
                customer: .equals(.inactive), customerReason: .equals(.undetermined), diagnostics: [.impossibleValue])
        }
        // A newer snapshot with an impossible value, inside a notification, is left out like one on its own: the
        // older snapshot it may correct is not trusted.
        rows.append(
            DecisionRow(
                rule: .unknownValues,
                name: "a newer snapshot with an impossible value inside a notification: the older one is untrusted",
                source: "decision table: never access on bad data; a snapshot left out may carry a refund",
                history: History(
                    transactions: [Given.subscription("2408", from: 0, to: 30)],
                    notifications: [
                        Given.notification(
                            .refund, signed: 3,
                            transaction: Given.subscription("2408", from: 0, to: 30, signed: 3) {
                                $0.revocationDate = Given.day(3)
                                $0.price = -4_990
                            })
                    ]), asOf: 5, products: [], customer: .equals(.inactive),
                customerReason: .equals(.undetermined), diagnostics: [.impossibleValue, .untrustedSnapshot]))
        // After a transaction of the same app, each impossible value is refused as well: one check admits every
        // transaction, wherever it stands.
        let ordinary = Given.subscription("2401", Given.basic, from: 0, to: 30)
        rows += cases.map { name, transaction in
            DecisionRow(
                rule: .unknownValues, name: "\(name), after a transaction of the same app: impossible, reported",
                source: "decision table: never access on bad data, whatever came before it",
                history: History(transactions: [ordinary, transaction], renewalInfos: [renewalInfo]), asOf: 12,
                products: [ProductExpectation(Given.basic, .active, access: true)], customer: .equals(.active),
                diagnostics: [.impossibleValue])
        }
        // The edges of two impossibility checks: the opening instant itself, and a period of no length, are possible.
        rows.append(
            DecisionRow(
                rule: .unknownValues,
                name: "a purchase at the very millisecond the App Store opened: possible, admitted, grants",
                source: "decision table: only a date before the App Store opened (2008-07-10T00:00:00Z) is impossible",
                history: History(transactions: [
                    lifetime {
                        $0.purchaseDate = Date(timeIntervalSince1970: 1_215_648_000)
                        $0.originalPurchaseDate = $0.purchaseDate
                    }
                ]), asOf: 12, products: [ProductExpectation(Given.lifetime, .active, access: true)],
                customer: .equals(.active)))
        rows.append(
            DecisionRow(
                rule: .unknownValues,
                name: "an expiresDate equal to purchaseDate: a period of no length, possible, grants nothing",
                source: "decision table: only an expiresDate before purchaseDate is impossible; rule 2: a period "
                    + "grants from purchaseDate up to, not including, expiresDate",
                history: History(transactions: [Given.subscription("2409", from: 10, to: 10)]), asOf: 10,
                products: [ProductExpectation(Given.monthly, .expired, access: false)], customer: .equals(.inactive)))
        rows.append(
            DecisionRow(
                rule: .unknownValues,
                name: "a renewal info signed before the App Store opened is left out: no grace period",
                source: "decision table: never access on bad data",
                history: History(
                    transactions: [Given.subscription("2403", from: 0, to: 30)],
                    renewalInfos: [
                        Given.renewal("2403", signed: 30) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Given.day(40)
                            $0.signedDate = Date(timeIntervalSince1970: 1_769_817_600 / 1_000)
                        }
                    ]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                diagnostics: [.impossibleValue]))
        rows.append(
            DecisionRow(
                rule: .unknownValues,
                name: "a renewal info with a gracePeriodExpiresDate in seconds is left out: no grace period",
                source: "decision table: never access on bad data",
                history: History(
                    transactions: [Given.subscription("2404", from: 0, to: 30)],
                    renewalInfos: [
                        Given.renewal("2404", signed: 30) {
                            $0.isInBillingRetryPeriod = true
                            $0.gracePeriodExpiresDate = Date(timeIntervalSince1970: 1_770_681_600 / 1_000)
                        }
                    ]), asOf: 35,
                products: [ProductExpectation(Given.monthly, .expired, access: false)],
                diagnostics: [.impossibleValue]))
        rows.append(
            DecisionRow(
                rule: .unknownValues,
                name: "a renewal info with an empty originalTransactionId is left out, and reported",
                source: "decision table: never access on bad data",
                history: History(
                    transactions: [Given.subscription("2405", from: 0, to: 30)],
                    renewalInfos: [Given.renewal("", signed: 20) { $0.autoRenewStatus = .off }]), asOf: 10,
                products: [ProductExpectation(Given.monthly, .active, access: true) { $0.willRenew = .equals(nil) }],
                diagnostics: [.impossibleValue]))
        return rows
    }()
}

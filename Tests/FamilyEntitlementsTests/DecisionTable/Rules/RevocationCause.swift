import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Rule 7: the cause of a revocation, stated or inferred.
    static let revocationCause: [DecisionRow] = {
        func revoked(
            _ name: String, ownership: OwnershipType, type: RevocationType? = nil, reason: RevocationReason? = nil,
            cause: RevocationCause, inferred: Bool, diagnostics: Set<Diagnostic.Code> = [], source: String
        ) -> DecisionRow {
            DecisionRow(
                rule: .revocationCause, name: name, source: source,
                history: History(transactions: [
                    Given.subscription("7001", from: 0, to: 30, ownership: ownership, signed: 3) {
                        $0.revocationDate = Given.day(3)
                        $0.revocationType = type
                        $0.revocationReason = reason
                    }
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(cause)
                        $0.causeInferred = .equals(inferred)
                    }
                ], diagnostics: diagnostics)
        }
        let shared = Given.subscription("7101", from: 0, to: 30, ownership: .familyShared)
        let revoke = Given.notification(.revoke, signed: 10, transaction: shared)
        return [
            revoked(
                "revocationType REFUND_FULL: refund, stated", ownership: .purchased, type: .refundFull,
                reason: .appIssue,
                cause: .refund, inferred: false, source: "apple-facts 2: revocationType"),
            revoked(
                "revocationType REFUND_PRORATED: proratedRefund", ownership: .purchased, type: .refundProrated,
                cause: .proratedRefund, inferred: false, source: "apple-facts 2 and 5"),
            revoked(
                "revocationType FAMILY_REVOKE on a member's copy: familyRevocation, stated", ownership: .familyShared,
                type: .familyRevoke, reason: .otherReason, cause: .familyRevocation, inferred: false,
                source: "apple-facts 4: revocationType says it outright"),
            revoked(
                "revocationType ASSIGNMENT_REVOKE: assignmentRevocation", ownership: .purchased,
                type: .assignmentRevoke, cause: .assignmentRevocation, inferred: false, source: "apple-facts 2"),
            revoked(
                "an unknown revocationType: revoked, cause unknown, reported", ownership: .purchased,
                type: RevocationType(rawValue: "REFUND_PARTIAL_NEW"), cause: .unknown, inferred: false,
                diagnostics: [.unknownRevocationType], source: "decision table: unknown values are reported"),
            revoked(
                "no revocationType, PURCHASED, reason 0: refund, inferred", ownership: .purchased, reason: .otherReason,
                cause: .refund, inferred: true, source: "apple-facts 2 and 4"),
            revoked(
                "no revocationType, PURCHASED, reason 1: refund, inferred", ownership: .purchased, reason: .appIssue,
                cause: .refund, inferred: true, source: "apple-facts 2"),
            revoked(
                "no revocationType, PURCHASED, no reason: refund, inferred", ownership: .purchased, cause: .refund,
                inferred: true, source: "apple-facts 5"),
            revoked(
                "no revocationType, PURCHASED, an unknown reason: unknown, inferred, reported", ownership: .purchased,
                reason: RevocationReason(rawValue: 7), cause: .unknown, inferred: true,
                diagnostics: [.unknownRevocationReason], source: "decision table: unknown values are reported"),
            revoked(
                "no revocationType, FAMILY_SHARED, reason 1: refund, inferred (only refunds carry 1)",
                ownership: .familyShared, reason: .appIssue, cause: .refund, inferred: true, source: "apple-facts 4"),
            revoked(
                "no revocationType, FAMILY_SHARED, reason 0: unknown (member left, or purchaser refunded)",
                ownership: .familyShared, reason: .otherReason, cause: .unknown, inferred: true,
                source: "apple-facts 4: 0 is set both when the member leaves and after a purchaser refund"),
            DecisionRow(
                rule: .revocationCause,
                name: "no revocationType, FAMILY_SHARED, no reason: unknown, the customer is inactive (revoked)",
                source: "apple-facts 4: only revocationReason 1 proves a refund on a member's copy",
                history: History(transactions: [
                    Given.subscription("7301", from: 0, to: 30, ownership: .familyShared, signed: 3) {
                        $0.revocationDate = Given.day(3)
                    }
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.unknown)
                        $0.causeInferred = .equals(true)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.revoked)),
            DecisionRow(
                rule: .revocationCause,
                name: "no revocationType, an unknown ownership (ASSIGNED): cause unknown, inferred, reported",
                source: "apple-facts 2: no server value of the assigned ownership is documented; never guess a refund",
                history: History(transactions: [
                    Given.subscription(
                        "7302", from: 0, to: 30, ownership: OwnershipType(rawValue: "ASSIGNED"), signed: 3
                    ) {
                        $0.revocationDate = Given.day(3)
                        $0.revocationReason = .otherReason
                    }
                ]), asOf: 5,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.unknown)
                        $0.causeInferred = .equals(true)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.revoked), diagnostics: [.unknownOwnership]),
            DecisionRow(
                rule: .revocationCause,
                name: "a REVOKE earlier than a refund snapshot decides the cause: familyRevocation",
                source: "apple-facts 4: the earliest revocation ends access; a departure's REVOKE carries no "
                    + "revocationDate (seed documents; Apple documents revocationDate for family revocations too)",
                history: History(
                    transactions: [
                        Given.subscription("7401", from: 0, to: 30, ownership: .familyShared, signed: 3) {
                            $0.revocationDate = Given.day(3)
                            $0.revocationReason = .appIssue
                        }
                    ],
                    notifications: [
                        Given.notification(
                            .revoke, signed: 2,
                            transaction: Given.subscription(
                                "7401", from: 0, to: 30, ownership: .familyShared, signed: 2))
                    ]), asOf: 4,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                        $0.causeInferred = .equals(true)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation)),
            DecisionRow(
                rule: .revocationCause,
                name: "a REVOKE signed in the very millisecond of a refund snapshot's revocationDate: the snapshot's "
                    + "stated refund decides the cause",
                source: "apple-facts 4: the earliest revocation ends access, and only an earlier REVOKE outranks the "
                    + "revocation the snapshot states; revocationReason 1 proves a refund",
                history: History(
                    transactions: [
                        Given.subscription("7402", from: 0, to: 30, ownership: .familyShared, signed: 3) {
                            $0.revocationDate = Given.day(3)
                            $0.revocationReason = .appIssue
                        }
                    ],
                    notifications: [
                        Given.notification(
                            .revoke, signed: 3,
                            transaction: Given.subscription(
                                "7402", from: 0, to: 30, ownership: .familyShared, signed: 2))
                    ]), asOf: 4,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.refund)
                        $0.causeInferred = .equals(true)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.refunded)),
            DecisionRow(
                rule: .revocationCause,
                name: "member leaves: REVOKE without revocationDate -> revoked, familyRevocation at its signedDate",
                source: "apple-facts 4: a departure's REVOKE arrives without revocationDate",
                history: History(transactions: [shared], notifications: [revoke]), asOf: 12,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                        $0.causeInferred = .equals(true)
                        $0.reasons = [
                            Reason(
                                .revocationCause,
                                .revokedByNotification(
                                    Given.mention(.revoke, signed: 10), signed: Given.day(10),
                                    originalTransactionId: "7101",
                                    cause: .familyRevocation))
                        ]
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation)),
            DecisionRow(
                rule: .revocationCause,
                name: "two REVOKEs of one member's copy: the earlier one revokes, a later one does not postpone it",
                source: "apple-facts 4: REVOKE ends access when it is signed; a repeat says nothing new",
                history: History(
                    transactions: [shared],
                    notifications: [Given.notification(.revoke, signed: 16, transaction: shared), revoke]),
                asOf: 12,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                        $0.reasons = [
                            Reason(
                                .revocationCause,
                                .revokedByNotification(
                                    Given.mention(.revoke, signed: 10), signed: Given.day(10),
                                    originalTransactionId: "7101", cause: .familyRevocation))
                        ]
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation)),
            DecisionRow(
                rule: .revocationCause, name: "exactly at a REVOKE's signedDate: revoked, familyRevocation",
                source: "apple-facts 4: REVOKE ends access",
                history: History(transactions: [shared], notifications: [revoke]), asOf: 10,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                    }
                ]),
            DecisionRow(
                rule: .revocationCause, name: "before the REVOKE's signedDate the member still had access",
                source: "decision table: the instant of evaluation is explicit",
                history: History(transactions: [shared], notifications: [revoke]), asOf: 8,
                products: [ProductExpectation(Given.monthly, .active, access: true)]),
            DecisionRow(
                rule: .revocationCause, name: "a stale snapshot arriving after the REVOKE does not undo it",
                source: "apple-facts 5: the newest information is the truth",
                history: History(
                    transactions: [Given.subscription("7101", from: 0, to: 30, ownership: .familyShared, signed: 2)],
                    notifications: [revoke]), asOf: 12,
                products: [ProductExpectation(Given.monthly, .revoked, access: false)]),
            DecisionRow(
                rule: .revocationCause,
                name: "the member rejoins: a transaction purchased after the REVOKE grants again",
                source: "apple-facts 4: grant on the transactions Apple issues",
                history: History(
                    transactions: [
                        shared,
                        Given.subscription("7102", original: "7101", from: 15, to: 30, ownership: .familyShared),
                    ], notifications: [revoke]), asOf: 16,
                products: [
                    ProductExpectation(Given.monthly, .active, access: true) { $0.transactionId = .equals("7102") }
                ]),
            DecisionRow(
                rule: .revocationCause,
                name: "REVOKE of a PURCHASED transaction without revocationDate: revoked, cause unknown, reported",
                source: "apple-facts 4: REVOKE is sent for FAMILY_SHARED transactions",
                history: History(notifications: [
                    Given.notification(.revoke, signed: 10, transaction: Given.subscription("7201", from: 0, to: 30))
                ]), asOf: 12,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.unknown)
                    }
                ], diagnostics: [.unexpectedRevoke]),
        ] + revokes
    }()

    /// Rule 7: what a REVOKE without revocationDate reaches, by ownership, product type and instant.
    static let revokes: [DecisionRow] = {
        let renewal = Given.subscription("7302", original: "7301", from: 30, to: 60, ownership: .familyShared)
        let sharedLifetime = Given.oneTime(
            "7501", Given.lifetime, type: .nonConsumable, on: 0, ownership: .familyShared)
        func revokeOf(_ ownership: OwnershipType?) -> History {
            History(notifications: [
                Given.notification(
                    .revoke, signed: 10,
                    transaction: Given.subscription("7601", from: 0, to: 30) { $0.inAppOwnershipType = ownership })
            ])
        }
        return [
            DecisionRow(
                rule: .revocationCause,
                name: "a REVOKE signed in the very millisecond a renewal is purchased revokes that renewal too",
                source: "apple-facts 4: a REVOKE revokes the chain's transactions purchased up to its signedDate",
                history: History(
                    transactions: [Given.subscription("7301", from: 0, to: 30, ownership: .familyShared), renewal],
                    notifications: [Given.notification(.revoke, signed: 30, transaction: renewal)]), asOf: 35,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                        $0.causeInferred = .equals(true)
                        $0.transactionId = .equals("7302")
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation)),
            DecisionRow(
                rule: .revocationCause,
                name: "a REVOKE of a shared non-consumable: revoked at its signedDate, familyRevocation inferred",
                source: "apple-facts 4: a member who leaves loses every shared purchase, not only subscriptions",
                history: History(
                    transactions: [sharedLifetime],
                    notifications: [Given.notification(.revoke, signed: 10, transaction: sharedLifetime)]),
                asOf: 12,
                products: [
                    ProductExpectation(Given.lifetime, .revoked, access: false) {
                        $0.revocationCause = .equals(.familyRevocation)
                        $0.causeInferred = .equals(true)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.familyRevocation)),
            DecisionRow(
                rule: .revocationCause,
                name: "a REVOKE of a shared non-consumable: before its signedDate the member still has access",
                source: "decision table: the instant of evaluation is explicit",
                history: History(
                    transactions: [sharedLifetime],
                    notifications: [Given.notification(.revoke, signed: 10, transaction: sharedLifetime)]),
                asOf: 8, products: [ProductExpectation(Given.lifetime, .active, access: true)]),
            DecisionRow(
                rule: .revocationCause,
                name: "REVOKE of a copy of unknown ownership (ASSIGNED): revoked, cause unknown, both reported",
                source: "apple-facts 4: REVOKE is sent for FAMILY_SHARED transactions",
                history: revokeOf(OwnershipType(rawValue: "ASSIGNED")), asOf: 12,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.unknown)
                        $0.causeInferred = .equals(true)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.revoked),
                diagnostics: [.unexpectedRevoke, .unknownOwnership]),
            DecisionRow(
                rule: .revocationCause,
                name: "REVOKE of a copy without inAppOwnershipType: revoked, cause unknown, reported",
                source: "apple-facts 4: REVOKE is sent for FAMILY_SHARED transactions",
                history: revokeOf(nil), asOf: 12,
                products: [
                    ProductExpectation(Given.monthly, .revoked, access: false) {
                        $0.revocationCause = .equals(.unknown)
                        $0.causeInferred = .equals(true)
                    }
                ], customer: .equals(.inactive), customerReason: .equals(.revoked), diagnostics: [.unexpectedRevoke]),
        ] + revocationsWithoutDate
    }()
}

extension RevocationCause {
    /// The cause of a transaction's revocation: stated by `revocationType`, or inferred from older payloads.
    ///
    /// Rule 7 of the decision table. Without `revocationType` (payloads before December 2025): a PURCHASED
    /// transaction is a refund when `revocationReason` is 0, 1 or absent; a FAMILY_SHARED one is a refund only when
    /// the reason is 1, because Apple sets 0 both when a member leaves and when the purchaser is refunded for another
    /// reason. Anything else is `unknown`.
    static func of(_ transaction: TransactionPayload) -> (cause: RevocationCause, inferred: Bool) {
        if let type = transaction.revocationType {
            switch type {
            case .refundFull: return (.refund, false)
            case .refundProrated: return (.proratedRefund, false)
            case .familyRevoke: return (.familyRevocation, false)
            case .assignmentRevoke: return (.assignmentRevocation, false)
            default: return (.unknown, false)
            }
        }
        let reason = transaction.revocationReason
        switch transaction.inAppOwnershipType {
        case .purchased?:
            return (reason == nil || reason == .otherReason || reason == .appIssue ? .refund : .unknown, true)
        case .familyShared?:
            return (reason == .appIssue ? .refund : .unknown, true)
        default:
            return (.unknown, true)
        }
    }
}

extension PricingPeriod {
    /// The pricing of a transaction's period from its offer fields: rule 8 of the decision table.
    ///
    /// Only an introductory offer with `FREE_TRIAL`, or with an explicit price of 0 where `offerDiscountType` is
    /// absent, is a free trial; an absent price is not a zero price. Unknown offer types are reported as `normal`
    /// with a diagnostic.
    static func of(_ transaction: TransactionPayload) -> PricingPeriod? {
        guard let offerType = transaction.offerType else { return .normal }
        switch offerType {
        case .introductory:
            if let discount = transaction.offerDiscountType {
                return discount == .freeTrial ? .freeTrial : .introductory
            }
            return transaction.price == 0 ? .freeTrial : .introductory
        case .promotional: return .promotional
        case .offerCode: return .offerCode
        case .winBack: return .winBack
        default: return nil
        }
    }
}

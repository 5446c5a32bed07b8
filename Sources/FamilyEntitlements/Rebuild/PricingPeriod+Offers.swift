#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PricingPeriod {
    /// The rule of the decision table that decides a period.
    static let rule = DecisionRule.offers

    /// The pricing of a transaction's period from its offer fields: rule 8 of the decision table.
    ///
    /// Only an introductory offer with `FREE_TRIAL`, or with an explicit price of 0 where `offerDiscountType` is
    /// absent, is a free trial; an absent price is not a zero price. Unknown offer types are reported as `normal`
    /// with a diagnostic. Reads the transaction in place.
    static func of(_ transaction: PayloadView) -> PricingPeriod? {
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

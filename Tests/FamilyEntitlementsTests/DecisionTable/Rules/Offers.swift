import FamilyEntitlements
import Foundation

extension DecisionRow {
    /// Rule 8: how the period is paid; a paid introductory offer is never a trial.
    static let offers: [DecisionRow] = {
        func offer(
            _ name: String, type: OfferType?, discount: OfferDiscountType?, price: Int64?, expected: PricingPeriod,
            product: String = Given.monthly, productType: ProductType = .autoRenewable,
            diagnostics: Set<Diagnostic.Code> = []
        ) -> DecisionRow {
            let transaction: TransactionPayload
            if productType == .autoRenewable {
                transaction = Given.subscription("8001", product, from: 0, to: 30) {
                    $0.offerType = type
                    $0.offerDiscountType = discount
                    $0.price = price
                    $0.offerIdentifier = type == .introductory || type == nil ? nil : "offer.2026"
                }
            } else {
                transaction = Given.oneTime("8001", product, type: productType, on: 0) {
                    $0.offerType = type
                    $0.offerDiscountType = discount
                    $0.price = price
                    $0.offerIdentifier = "offer.2026"
                }
            }
            return DecisionRow(
                rule: .offers, name: name, source: "apple-facts 2: offerType and offerDiscountType",
                history: History(transactions: [transaction]), asOf: 5,
                products: [ProductExpectation(product, .active, access: true) { $0.period = .equals(expected) }],
                diagnostics: diagnostics)
        }
        return [
            offer(
                "offerType 1 with FREE_TRIAL: freeTrial", type: .introductory, discount: .freeTrial, price: 0,
                expected: .freeTrial),
            offer(
                "offerType 1 with PAY_AS_YOU_GO: a paid introductory offer, never a trial", type: .introductory,
                discount: .payAsYouGo, price: 990, expected: .introductory),
            offer(
                "offerType 1 with PAY_UP_FRONT: a paid introductory offer, never a trial", type: .introductory,
                discount: .payUpFront, price: 2990, expected: .introductory),
            offer(
                "offerType 1 without discount type, explicit price 0: freeTrial", type: .introductory, discount: nil,
                price: 0, expected: .freeTrial),
            offer(
                "offerType 1 with FREE_TRIAL and no price: freeTrial, the discount type decides", type: .introductory,
                discount: .freeTrial, price: nil, expected: .freeTrial),
            offer(
                "offerType 1 with PAY_AS_YOU_GO at price 0: introductory, the discount type decides",
                type: .introductory, discount: .payAsYouGo, price: 0, expected: .introductory),
            offer(
                "offerType 1 without discount type or price: introductory (an absent price is not a zero price)",
                type: .introductory, discount: nil, price: nil, expected: .introductory),
            offer(
                "offerType 1 without discount type, price 990: introductory", type: .introductory, discount: nil,
                price: 990, expected: .introductory),
            offer(
                "offerType 2: promotional", type: .promotional, discount: .payAsYouGo, price: 2990,
                expected: .promotional),
            offer("offerType 3: offerCode", type: .offerCode, discount: .freeTrial, price: 0, expected: .offerCode),
            offer(
                "offerType 3 with ONE_TIME on a non-consumable: offerCode", type: .offerCode, discount: .oneTime,
                price: 4990, expected: .offerCode, product: Given.lifetime, productType: .nonConsumable),
            offer("offerType 4: winBack", type: .winBack, discount: .payUpFront, price: 990, expected: .winBack),
            offer("no offer: normal", type: nil, discount: nil, price: 4990, expected: .normal),
            offer(
                "an unknown offerType: normal, reported", type: OfferType(rawValue: 9), discount: nil, price: 4990,
                expected: .normal, diagnostics: [.unknownOfferType]),
        ]
    }()
}

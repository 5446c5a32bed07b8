import FamilyEntitlements
import Foundation
import Testing

/// The block of docs/money.md, compiled and run.
@Test func moneyInMilliunits() throws {
    let price = Money(milliunits: 1990, currency: "USD")
    let cents = try price.minorUnits()  // 199 (cents)
    let text = try price.formattedAmount()  // "1.99"
    let amount = price.decimalAmount  // Decimal 1.99, built from the integer
    #expect(cents == 199)
    #expect(text == "1.99")
    #expect(amount == Decimal(string: "1.99"))
}

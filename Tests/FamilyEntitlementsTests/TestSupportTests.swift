import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// The builders and the fake signer of `FamilyEntitlementsTestSupport` give what their documentation promises, read
/// through the engine as a downstream test would.
struct TestSupportTests {
    static let purchase = DemoApp.date("2026-03-02T10:15:00Z")
    static let later = DemoApp.date("2026-03-20T12:00:00Z")

    // MARK: - Families

    struct FamilyCase: CustomTestStringConvertible, Sendable {
        var family: FamilyBuilder
        /// Whether the organiser, then members 1 to 5, have premium at `later`.
        var premium: [Bool]
        var testDescription: String

        static let all: [FamilyCase] = [
            .init(
                family: FamilyBuilder(purchased: purchase),
                premium: [true, true, true, true, true, true],
                testDescription: "family of six, nothing happens: all six have premium"),
            .init(
                family: FamilyBuilder(purchased: purchase).memberLeaves(2, at: DemoApp.date("2026-03-10T08:00:00Z")),
                premium: [true, true, false, true, true, true],
                testDescription: "member 2 leaves, REVOKE without revocationDate: only member 2 loses premium"),
            .init(
                family: FamilyBuilder(purchased: purchase).sharingStopped(at: DemoApp.date("2026-03-10T08:00:00Z")),
                premium: [true, false, false, false, false, false],
                testDescription: "the organiser stops sharing: every member loses premium, the organiser keeps it"),
            .init(
                family: FamilyBuilder(purchased: purchase).purchaserRefunded(at: DemoApp.date("2026-03-10T08:00:00Z")),
                premium: [false, false, false, false, false, false],
                testDescription: "Apple refunds the purchaser: all six lose premium"),
            .init(
                family: FamilyBuilder(purchased: purchase, members: 2, sharingDelay: 30 * 86_400),
                premium: [true, false, false],
                testDescription: "shared copies not yet issued by Apple: members have nothing yet"),
        ]
    }

    @Test(arguments: FamilyCase.all)
    func familyBuilderGivesEachPersonTheirHistory(_ row: FamilyCase) {
        let histories = row.family.build()
        let premium = histories.everyone.map { history in
            rebuildEntitlements(history: history, asOf: Self.later, catalog: DemoProduct.catalog)
                .hasAccess(to: "premium")
        }
        #expect(premium == row.premium)
    }

    @Test
    func familyMembersHaveTransactionsOfTheirOwn() {
        let histories = FamilyBuilder(purchased: Self.purchase, periods: 3).build()
        let transactions = histories.everyone.flatMap { $0.notifications.compactMap(\.data?.transactionInfo) }
        let ids = transactions.compactMap(\.transactionId)
        let owners = Dictionary(grouping: transactions, by: \.transactionId).mapValues {
            Set($0.map(\.appTransactionId))
        }
        #expect(ids.count == 6 * 3)
        #expect(Set(ids).count == ids.count, "no two people share a transactionId")
        #expect(owners.values.allSatisfy { $0.count == 1 })
        #expect(
            histories.members.allSatisfy { member in
                member.notifications.allSatisfy {
                    $0.data?.transactionInfo?.inAppOwnershipType == .familyShared
                        && $0.data?.transactionInfo?.appAccountToken == nil
                }
            })
    }

    // MARK: - Transactions and offers

    struct OfferCase: CustomTestStringConvertible, Sendable {
        var offer: TransactionBuilder.Offer?
        var period: PricingPeriod
        var price: Int64
        var testDescription: String

        static let all: [OfferCase] = [
            .init(offer: nil, period: .normal, price: 4990, testDescription: "no offer: normal, full price"),
            .init(offer: .freeTrial(), period: .freeTrial, price: 0, testDescription: "free trial: freeTrial, price 0"),
            .init(
                offer: .introductory(price: 1990), period: .introductory, price: 1990,
                testDescription: "paid introductory offer: introductory, never a trial"),
            .init(
                offer: .promotional("org.familyentitlements.demo.promo.loyalty", price: 2490), period: .promotional,
                price: 2490, testDescription: "promotional offer: promotional"),
            .init(
                offer: .offerCode("org.familyentitlements.demo.code.spring2026", price: 9990), period: .offerCode,
                price: 9990, testDescription: "offer code paid up front: offerCode"),
            .init(offer: .winBack(), period: .winBack, price: 2490, testDescription: "win-back offer: winBack"),
        ]
    }

    @Test(arguments: OfferCase.all)
    func subscriptionOffersDecideTheirPeriod(_ row: OfferCase) throws {
        let transaction = TransactionBuilder.subscription(purchased: Self.purchase, offer: row.offer)
        let report = rebuildEntitlements(
            history: History(notifications: [NotificationBuilder.subscribed(transaction)]),
            asOf: Self.purchase.addingTimeInterval(86_400), catalog: DemoProduct.catalog)
        let decision = try #require(report.decision(for: DemoProduct.premiumMonthly.productId))
        #expect(decision.hasAccess)
        #expect(decision.period == row.period)
        #expect(decision.price?.milliunits == row.price)
    }

    struct EventCase: CustomTestStringConvertible, Sendable {
        var notifications: [NotificationPayload]
        var state: AccessState
        var testDescription: String

        static let all: [EventCase] = {
            let first = TransactionBuilder.subscription(purchased: purchase)
            let second = TransactionBuilder.renewal(of: first)
            let member = TransactionBuilder.subscription(purchased: purchase, ownership: .familyShared)
            let failure = second.expiresDate ?? purchase
            let nextDay = purchase.addingTimeInterval(86_400)
            let subscribed = NotificationBuilder.subscribed(first)
            let renewed = NotificationBuilder.didRenew(second)
            let refunded = NotificationBuilder.refund(first, at: nextDay)
            return [
                .init(
                    notifications: [subscribed, renewed], state: .active,
                    testDescription: "SUBSCRIBED then DID_RENEW: active"),
                .init(
                    notifications: [
                        subscribed, renewed,
                        NotificationBuilder.didFailToRenew(
                            second, at: failure, gracePeriodEnds: failure.addingTimeInterval(16 * 86_400)),
                    ],
                    state: .gracePeriod, testDescription: "DID_FAIL_TO_RENEW GRACE_PERIOD: grace period, access"),
                .init(
                    notifications: [subscribed, renewed, NotificationBuilder.didFailToRenew(second, at: failure)],
                    state: .billingRetry, testDescription: "DID_FAIL_TO_RENEW without grace: billing retry"),
                .init(
                    notifications: [subscribed, renewed, NotificationBuilder.expired(second, at: failure)],
                    state: .expired, testDescription: "EXPIRED VOLUNTARY: expired"),
                .init(notifications: [subscribed, refunded], state: .revoked, testDescription: "REFUND: revoked"),
                .init(
                    notifications: [
                        subscribed, refunded,
                        NotificationBuilder.refundReversed(first, at: nextDay.addingTimeInterval(86_400)),
                    ],
                    state: .active, testDescription: "REFUND then REFUND_REVERSED: active again"),
                .init(
                    notifications: [
                        NotificationBuilder.subscribed(member), NotificationBuilder.revoke(member, at: nextDay),
                    ],
                    state: .revoked, testDescription: "member's REVOKE without revocationDate: revoked"),
            ]
        }()
    }

    @Test(arguments: EventCase.all)
    func notificationBuildersCarryTheirEvent(_ row: EventCase) throws {
        let asOf = try #require(row.notifications.compactMap(\.signedDate).max()).addingTimeInterval(3600)
        let report = rebuildEntitlements(
            history: History(notifications: row.notifications), asOf: asOf, catalog: DemoProduct.catalog)
        #expect(report.decision(for: DemoProduct.premiumMonthly.productId)?.state == row.state)
    }

    // MARK: - Fake signing

    struct SignedFixtureCase: CustomTestStringConvertible, Sendable {
        var fixture: NotificationFixture
        var testDescription: String { "\(fixture.rawValue): the fake-signed request body reads back unchanged" }
    }

    @Test(arguments: NotificationFixture.allCases.map(SignedFixtureCase.init))
    func requestBodyReadsBackAsTheFixture(_ row: SignedFixtureCase) throws {
        let payload = try row.fixture.payload()
        let decoded = try History.decodeUnverified(try row.fixture.requestBody())
        let nested = (payload.data?.transactionInfo == nil ? 0 : 1) + (payload.data?.renewalInfo == nil ? 0 : 1)
        #expect(decoded.unverifiedJWSCount == 1 + nested)
        var notification = try #require(decoded.history.notifications.first)
        notification.data?.signedTransactionInfo = nil
        notification.data?.signedRenewalInfo = nil
        #expect(notification == payload)
    }

    @Test
    func fakeSignatureIsMarkedNotApple() throws {
        let body = try NotificationFixture.revokeFamilySharedWithoutRevocationDate.requestBody()
        let signedPayload = try #require(try NotificationRequestBody(jsonData: body).signedPayload)
        let jws = try UnverifiedJWS(compact: signedPayload)
        #expect(try jws.header().kid == FakeJWSSigner.keyIdentifier)
        #expect(jws.signature == FakeJWSSigner.signatureMarker)
    }

    // MARK: - Catalogs

    struct CatalogCase: CustomTestStringConvertible, Sendable {
        var scenario: Scenario
        var testDescription: String { "\(scenario.rawValue) sells from DemoProduct.catalog" }

        static let all = Scenario.allCases.filter {
            $0 != .purchaserRefundedMember && $0 != .unknownNotificationType
        }.map(CatalogCase.init)
    }

    @Test(arguments: CatalogCase.all)
    func scenarioCatalogIsTheDemoCatalog(_ row: CatalogCase) throws {
        #expect(try row.scenario.catalog() == DemoProduct.catalog)
    }
}

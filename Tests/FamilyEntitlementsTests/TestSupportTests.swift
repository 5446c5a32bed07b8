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

// MARK: - The app under test, not the demo app

/// A service's own app and products, as a downstream test describes them.
enum ServiceApp {
    static let app = AppUnderTest(bundleId: "com.example.family", appAppleId: 1_234_567_890)
    static let monthly = TestProduct.autoRenewable(
        "com.example.family.monthly", group: "20000001", period: ISO8601Duration(months: 1), price: 5990,
        entitlements: ["family"])
    static let lifetime = TestProduct.nonConsumable("com.example.family.lifetime", entitlements: ["family"])
    static let summerPass = TestProduct.nonRenewing(
        "com.example.family.summer", duration: ISO8601Duration(months: 3), entitlements: ["summer"])
    static let tokens = TestProduct.consumable("com.example.family.tokens")
    static let catalog = TestProduct.catalog(
        of: [monthly, lifetime, summerPass, tokens], bundleId: app.bundleId)
    static let production = NotificationPolicy.production(bundleId: app.bundleId, appAppleId: 1_234_567_890)
}

extension TestSupportTests {
    struct AppUnderTestCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var notification: NotificationPayload
        var policy: NotificationPolicy = ServiceApp.production
        /// The rejection, or nil where the intake accepts it.
        var rejection: NotificationRejection.Code?

        static let all: [AppUnderTestCase] = {
            let purchase = DemoApp.date("2026-03-02T10:15:00Z")
            let family = FamilyBuilder(
                product: ServiceApp.monthly, purchased: purchase, members: 2, app: ServiceApp.app
            )
            .memberLeaves(2, at: DemoApp.date("2026-03-12T18:45:00Z")).build()
            let bought = TransactionBuilder.subscription(ServiceApp.monthly, purchased: purchase, app: ServiceApp.app)
            let sandbox = AppUnderTest(bundleId: ServiceApp.app.bundleId, appAppleId: nil, environment: .sandbox)
            return [
                .init(
                    testDescription: "the app's SUBSCRIBED passes its production policy",
                    notification: NotificationBuilder.subscribed(bought, app: ServiceApp.app)),
                .init(
                    testDescription: "the app's lifetime ONE_TIME_CHARGE passes its production policy",
                    notification: NotificationBuilder.oneTimeCharge(
                        TransactionBuilder.oneTime(ServiceApp.lifetime, purchased: purchase, app: ServiceApp.app),
                        app: ServiceApp.app)),
                .init(
                    testDescription: "a family member's SUBSCRIBED for the app passes its production policy",
                    notification: family.member(1).notifications[0]),
                .init(
                    testDescription: "a family member's REVOKE for the app passes its production policy",
                    notification: family.member(2).notifications[family.member(2).notifications.count - 1]),
                .init(
                    testDescription: "the same purchase built for the demo app -> wrong_bundle_id",
                    notification: NotificationBuilder.subscribed(
                        TransactionBuilder.subscription(ServiceApp.monthly, purchased: purchase)),
                    rejection: .wrongBundleId),
                .init(
                    testDescription: "the app's sandbox purchase at its production URL -> wrong_environment",
                    notification: NotificationBuilder.subscribed(
                        TransactionBuilder.subscription(ServiceApp.monthly, purchased: purchase, app: sandbox),
                        app: sandbox),
                    rejection: .wrongEnvironment),
                .init(
                    testDescription: "the app's sandbox purchase passes the app's sandbox policy",
                    notification: NotificationBuilder.subscribed(
                        TransactionBuilder.subscription(ServiceApp.monthly, purchased: purchase, app: sandbox),
                        app: sandbox),
                    policy: .sandbox(bundleId: ServiceApp.app.bundleId)),
            ]
        }()
    }

    @Test(arguments: AppUnderTestCase.all)
    func builtForTheAppUnderTest(_ row: AppUnderTestCase) async throws {
        let intake = NotificationIntake(policy: row.policy, verifier: FakeJWSVerifier())
        let body = try FakeJWSSigner().requestBody(for: row.notification)
        do throws(NotificationRejection) {
            let verified = try await intake.receive(requestBody: body)
            #expect(row.rejection == nil)
            #expect(verified.notification.data?.bundleId == ServiceApp.app.bundleId)
        } catch {
            #expect(error.code == row.rejection, "\(error)")
        }
    }

    struct ProductCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var transaction: TransactionPayload
        var entitlement: String
        var hasAccess: Bool

        static let all: [ProductCase] = {
            let purchase = DemoApp.date("2026-03-02T10:15:00Z")
            let app = ServiceApp.app
            return [
                .init(
                    testDescription: "the app's monthly subscription unlocks family",
                    transaction: TransactionBuilder.subscription(ServiceApp.monthly, purchased: purchase, app: app),
                    entitlement: "family", hasAccess: true),
                .init(
                    testDescription: "the app's non-consumable unlocks family",
                    transaction: TransactionBuilder.oneTime(ServiceApp.lifetime, purchased: purchase, app: app),
                    entitlement: "family", hasAccess: true),
                .init(
                    testDescription: "the app's non-renewing pass lasts the catalog's three months",
                    transaction: TransactionBuilder.oneTime(ServiceApp.summerPass, purchased: purchase, app: app),
                    entitlement: "summer", hasAccess: true),
                .init(
                    testDescription: "the app's consumable unlocks nothing",
                    transaction: TransactionBuilder.oneTime(ServiceApp.tokens, purchased: purchase, app: app),
                    entitlement: "family", hasAccess: false),
            ]
        }()
    }

    @Test(arguments: ProductCase.all)
    func productsOfTheAppUnderTestGrant(_ row: ProductCase) {
        let report = rebuildEntitlements(
            history: History(transactions: [row.transaction]), asOf: Self.later, catalog: ServiceApp.catalog)
        #expect(row.transaction.bundleId == ServiceApp.app.bundleId)
        #expect(report.hasAccess(to: EntitlementID(row.entitlement)) == row.hasAccess)
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
    }

    // MARK: - A renewal after a gap: billing recovery

    struct RecoveryCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var asOf: Date
        var state: AccessState

        static let first = TransactionBuilder.subscription(
            ServiceApp.monthly, purchased: DemoApp.date("2026-01-05T09:00:00Z"), app: ServiceApp.app)
        static let lapsed = first.expiresDate ?? DemoApp.date("2026-02-05T09:00:00Z")
        static let recovery = DemoApp.date("2026-02-17T14:30:00Z")
        static let recovered = TransactionBuilder.renewal(of: first, into: ServiceApp.monthly, startingAt: recovery)
        static let history = History(notifications: [
            NotificationBuilder.subscribed(first, app: ServiceApp.app),
            NotificationBuilder.didFailToRenew(first, at: lapsed, app: ServiceApp.app),
            NotificationBuilder.didRenew(recovered, billingRecovery: true, app: ServiceApp.app),
        ])

        static let all: [RecoveryCase] = [
            .init(
                testDescription: "before the renewal failed: active", asOf: DemoApp.date("2026-01-20T00:00:00Z"),
                state: .active),
            .init(
                testDescription: "in the gap, billing retry: no access", asOf: DemoApp.date("2026-02-10T00:00:00Z"),
                state: .billingRetry),
            .init(
                testDescription: "after DID_RENEW BILLING_RECOVERY: active from the recovery",
                asOf: DemoApp.date("2026-02-20T00:00:00Z"), state: .active),
            .init(
                testDescription: "the recovered period runs a month from the recovery, not from the lapse",
                asOf: DemoApp.date("2026-03-10T00:00:00Z"), state: .active),
        ]
    }

    @Test(arguments: RecoveryCase.all)
    func renewalAfterAGapRecoversBilling(_ row: RecoveryCase) {
        let report = rebuildEntitlements(history: RecoveryCase.history, asOf: row.asOf, catalog: ServiceApp.catalog)
        #expect(report.decision(for: ServiceApp.monthly.productId)?.state == row.state)
    }

    @Test
    func renewalAfterAGapStartsAtTheRecovery() {
        let renewal = RecoveryCase.recovered
        #expect(renewal.purchaseDate == RecoveryCase.recovery)
        #expect(renewal.expiresDate == ISO8601Duration(months: 1).added(to: RecoveryCase.recovery))
        #expect(renewal.transactionReason == .renewal)
        #expect(renewal.originalTransactionId == RecoveryCase.first.originalTransactionId)
        #expect(renewal.transactionId != RecoveryCase.first.transactionId)
        #expect(renewal.bundleId == ServiceApp.app.bundleId)
    }

    // MARK: - The fake verifier

    struct VerifierCase: CustomTestStringConvertible, Sendable {
        enum Expected: Equatable, Sendable {
            case payload
            case invalid
            case unavailable
        }

        var testDescription: String
        var verifier: FakeJWSVerifier
        var signed: @Sendable () throws -> String
        var expected: Expected

        static let transaction = TransactionBuilder.subscription(
            ServiceApp.monthly, purchased: DemoApp.date("2026-03-02T10:15:00Z"), app: ServiceApp.app)

        static let all: [VerifierCase] = [
            .init(
                testDescription: "FakeJWSSigner's string -> its payload", verifier: FakeJWSVerifier(),
                signed: { try FakeJWSSigner().sign(transaction) }, expected: .payload),
            .init(
                testDescription: "the same payload under another signature -> invalid", verifier: FakeJWSVerifier(),
                signed: {
                    let parts = try FakeJWSSigner().sign(transaction).split(separator: ".")
                    return parts.dropLast().joined(separator: ".") + ".c2lnbmVkIGJ5IHNvbWVvbmUgZWxzZQ"
                }, expected: .invalid),
            .init(
                testDescription: "FakeJWSSigner's signature with another key id -> invalid",
                verifier: FakeJWSVerifier(),
                signed: {
                    let header = Data(#"{"alg":"ES256","kid":"apple","typ":"JWT"}"#.utf8)
                    return [header, try transaction.jsonData(), FakeJWSSigner.signatureMarker]
                        .map(Base64URL.encode).joined(separator: ".")
                }, expected: .invalid),
            .init(
                testDescription: "not a JWS -> invalid", verifier: FakeJWSVerifier(), signed: { "not a jws" },
                expected: .invalid),
            .init(
                testDescription: "told to fail retryably -> VerificationUnavailable, even for its own string",
                verifier: .unavailable(), signed: { try FakeJWSSigner().sign(transaction) }, expected: .unavailable),
        ]
    }

    @Test(arguments: VerifierCase.all)
    func fakeVerifierAcceptsOnlyTheFakeSigner(_ row: VerifierCase) async throws {
        let signed = try row.signed()
        do {
            let payload = try await row.verifier.verifyTransaction(signedTransaction: signed)
            #expect(row.expected == .payload)
            #expect(try TransactionPayload(jsonData: payload) == VerifierCase.transaction)
        } catch is VerificationUnavailable {
            #expect(row.expected == .unavailable)
        } catch is FakeJWSVerifier.InvalidSignature {
            #expect(row.expected == .invalid)
        }
    }
}

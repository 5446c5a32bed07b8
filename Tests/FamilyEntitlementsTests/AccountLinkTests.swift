import FamilyEntitlements
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Users and purchases for the account-link tables.
private enum LinkSample {
    static let alice = AppAccountToken(
        UUID(uuid: (0x7e, 0x3f, 0xb2, 0x0b, 0x4c, 0xdb, 0x47, 0xcc, 0x93, 0x6d, 0x99, 0xd6, 0x5f, 0x60, 0x81, 0x38)))
    static let bob = AppAccountToken(
        UUID(uuid: (0x0c, 0x1b, 0x5e, 0x2d, 0x9a, 0x4f, 0x4d, 0x3e, 0x8b, 0x6a, 0x2f, 0x1e, 0x0d, 0x9c, 0x8b, 0x7a)))
    static let alicePurchase: OriginalTransactionID = "1000000001"
    static let bobMemberCopy: OriginalTransactionID = "1000000002"
}

struct TokenCase: CustomTestStringConvertible, Sendable {
    var testDescription: String
    var text: String
    /// The normalised token, or nil when the text must be rejected.
    var expected: String?
}

struct LinkCase: CustomTestStringConvertible, Sendable {
    enum Expected: Equatable, Sendable {
        case link
        case alreadyLinked
        case conflict(owner: AppAccountToken)
    }

    var testDescription: String
    var links: AccountLinks
    var request: AccountLinkRequest
    var expected: Expected
    /// The links after `link(_:)`.
    var expectedOwners: [OriginalTransactionID: AppAccountToken]
}

@Suite struct AccountLinkTests {
    static let tokens: [TokenCase] = [
        TokenCase(
            testDescription: "lower-case UUID -> accepted as is", text: "7e3fb20b-4cdb-47cc-936d-99d65f608138",
            expected: "7e3fb20b-4cdb-47cc-936d-99d65f608138"),
        TokenCase(
            testDescription: "upper-case UUID -> accepted, written in lower case",
            text: "7E3FB20B-4CDB-47CC-936D-99D65F608138", expected: "7e3fb20b-4cdb-47cc-936d-99d65f608138"),
        TokenCase(
            testDescription: "mixed-case UUID -> accepted, written in lower case",
            text: "7e3FB20b-4Cdb-47cc-936D-99d65f608138", expected: "7e3fb20b-4cdb-47cc-936d-99d65f608138"),
        TokenCase(testDescription: "empty text -> rejected", text: "", expected: nil),
        TokenCase(testDescription: "a user name, not a UUID -> rejected", text: "user-42", expected: nil),
        TokenCase(
            testDescription: "an e-mail address -> rejected", text: "alice@example.com", expected: nil),
        TokenCase(
            testDescription: "32 hex digits without hyphens -> rejected", text: "7e3fb20b4cdb47cc936d99d65f608138",
            expected: nil),
        TokenCase(
            testDescription: "UUID in braces -> rejected", text: "{7e3fb20b-4cdb-47cc-936d-99d65f608138}",
            expected: nil),
        TokenCase(
            testDescription: "UUID with surrounding spaces -> rejected", text: " 7e3fb20b-4cdb-47cc-936d-99d65f608138 ",
            expected: nil),
        TokenCase(
            testDescription: "36 characters with a misplaced hyphen -> rejected",
            text: "7e3fb20b4-cdb-47cc-936d-99d65f608138", expected: nil),
        TokenCase(
            testDescription: "36 characters that are not hex -> rejected", text: "zzzzzzzz-4cdb-47cc-936d-99d65f608138",
            expected: nil),
    ]

    @Test(arguments: tokens)
    func parsesToken(_ row: TokenCase) {
        do throws(AccountLinkError) {
            let token = try AppAccountToken(parsing: row.text)
            #expect(token.description == row.expected)
        } catch {
            #expect(row.expected == nil)
            #expect(error.code == .invalidAppAccountToken)
            #expect(error.message.contains("\"\(row.text)\""))
        }
    }

    /// Tokens sort by their lower-case text, strictly: no token sorts before itself, so sorting, `min` and sets of
    /// tokens behave as Comparable requires.
    @Test("tokens order strictly by their lower-case text")
    func tokensOrderStrictly() {
        let tokens = [LinkSample.alice, LinkSample.bob]
        for token in tokens {
            #expect(!(token < token), "\(token) sorts before itself")
        }
        #expect(LinkSample.bob < LinkSample.alice)
        #expect(!(LinkSample.alice < LinkSample.bob))
        #expect(tokens.sorted() == [LinkSample.bob, LinkSample.alice])
    }

    static let linkCases: [LinkCase] = [
        LinkCase(
            testDescription: "first launch: Alice's unlinked purchase carrying her token -> link to Alice",
            links: AccountLinks(),
            request: AccountLinkRequest(
                originalTransactionId: LinkSample.alicePurchase, user: LinkSample.alice,
                transactionAppAccountToken: LinkSample.alice, ownership: .purchased),
            expected: .link, expectedOwners: [LinkSample.alicePurchase: LinkSample.alice]),
        LinkCase(
            testDescription: "restore: Alice's purchase made before tokens existed -> link to Alice",
            links: AccountLinks(),
            request: AccountLinkRequest(
                originalTransactionId: LinkSample.alicePurchase, user: LinkSample.alice, ownership: .purchased),
            expected: .link, expectedOwners: [LinkSample.alicePurchase: LinkSample.alice]),
        LinkCase(
            testDescription: "re-link: Alice restores her own linked purchase again -> already linked, no change",
            links: AccountLinks(owners: [LinkSample.alicePurchase: LinkSample.alice]),
            request: AccountLinkRequest(
                originalTransactionId: LinkSample.alicePurchase, user: LinkSample.alice,
                transactionAppAccountToken: LinkSample.alice, ownership: .purchased),
            expected: .alreadyLinked, expectedOwners: [LinkSample.alicePurchase: LinkSample.alice]),
        LinkCase(
            testDescription: "conflict: Bob restores Alice's linked purchase -> account_token_mismatch, not moved",
            links: AccountLinks(owners: [LinkSample.alicePurchase: LinkSample.alice]),
            request: AccountLinkRequest(
                originalTransactionId: LinkSample.alicePurchase, user: LinkSample.bob, ownership: .purchased),
            expected: .conflict(owner: LinkSample.alice),
            expectedOwners: [LinkSample.alicePurchase: LinkSample.alice]),
        LinkCase(
            testDescription: "replayed restore: Bob sends an unlinked purchase bought with Alice's token -> conflict",
            links: AccountLinks(),
            request: AccountLinkRequest(
                originalTransactionId: LinkSample.alicePurchase, user: LinkSample.bob,
                transactionAppAccountToken: LinkSample.alice, ownership: .purchased),
            expected: .conflict(owner: LinkSample.alice), expectedOwners: [:]),
        LinkCase(
            testDescription: "family member: Bob's own FAMILY_SHARED copy, no token -> linked to Bob by its id",
            links: AccountLinks(owners: [LinkSample.alicePurchase: LinkSample.alice]),
            request: AccountLinkRequest(
                originalTransactionId: LinkSample.bobMemberCopy, user: LinkSample.bob, ownership: .familyShared),
            expected: .link,
            expectedOwners: [LinkSample.alicePurchase: LinkSample.alice, LinkSample.bobMemberCopy: LinkSample.bob]),
        LinkCase(
            testDescription: "family member: a token on a FAMILY_SHARED copy is not compared -> linked to Bob",
            links: AccountLinks(),
            request: AccountLinkRequest(
                originalTransactionId: LinkSample.bobMemberCopy, user: LinkSample.bob,
                transactionAppAccountToken: LinkSample.alice, ownership: .familyShared),
            expected: .link, expectedOwners: [LinkSample.bobMemberCopy: LinkSample.bob]),
        LinkCase(
            testDescription: "family member: Alice claims Bob's linked FAMILY_SHARED copy -> conflict, stays Bob's",
            links: AccountLinks(owners: [LinkSample.bobMemberCopy: LinkSample.bob]),
            request: AccountLinkRequest(
                originalTransactionId: LinkSample.bobMemberCopy, user: LinkSample.alice, ownership: .familyShared),
            expected: .conflict(owner: LinkSample.bob), expectedOwners: [LinkSample.bobMemberCopy: LinkSample.bob]),
    ]

    @Test(arguments: linkCases)
    func links(_ row: LinkCase) {
        var links = row.links
        let decided = links.decide(row.request)
        let applied = links.link(row.request)
        #expect(decided == applied)
        #expect(links.owners == row.expectedOwners)
        switch (applied, row.expected) {
        case (.link(let originalTransactionId, let user), .link):
            #expect(originalTransactionId == row.request.originalTransactionId)
            #expect(user == row.request.user)
        case (.alreadyLinked, .alreadyLinked):
            break
        case (.conflict(let conflict), .conflict(let owner)):
            #expect(conflict.code.rawValue == "account_token_mismatch")
            #expect(conflict.owner == owner)
            #expect(conflict.requestingUser == row.request.user)
            #expect(conflict.message.contains(row.request.originalTransactionId.rawValue))
        case (let decision, let expected):
            Issue.record("expected \(expected), got \(decision)")
        }
    }

    @Test func unlinkIsTheOnlyWayToMoveAPurchase() {
        var links = AccountLinks(owners: [LinkSample.alicePurchase: LinkSample.alice])
        let request = AccountLinkRequest(originalTransactionId: LinkSample.alicePurchase, user: LinkSample.bob)
        #expect(links.unlink(originalTransactionId: LinkSample.alicePurchase) == LinkSample.alice)
        #expect(links.link(request) == .link(originalTransactionId: LinkSample.alicePurchase, user: LinkSample.bob))
        #expect(links.originalTransactionIds(of: LinkSample.bob) == [LinkSample.alicePurchase])
        #expect(links.originalTransactionIds(of: LinkSample.alice).isEmpty)
    }

    struct TransactionRequestCase: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var transaction: TransactionPayload
        var expected: AccountLinkRequest?
    }

    static let transactionRequests: [TransactionRequestCase] = [
        TransactionRequestCase(
            testDescription: "purchased transaction -> request with its token and ownership",
            transaction: TransactionPayload(
                originalTransactionId: LinkSample.alicePurchase.rawValue, appAccountToken: LinkSample.alice.uuid,
                inAppOwnershipType: .purchased),
            expected: AccountLinkRequest(
                originalTransactionId: LinkSample.alicePurchase, user: LinkSample.bob,
                transactionAppAccountToken: LinkSample.alice, ownership: .purchased)),
        TransactionRequestCase(
            testDescription: "member's transaction -> request by its own originalTransactionId, no token",
            transaction: TransactionPayload(
                originalTransactionId: LinkSample.bobMemberCopy.rawValue, inAppOwnershipType: .familyShared),
            expected: AccountLinkRequest(
                originalTransactionId: LinkSample.bobMemberCopy, user: LinkSample.bob, ownership: .familyShared)),
        TransactionRequestCase(
            testDescription: "transaction without originalTransactionId -> missing_original_transaction_id",
            transaction: TransactionPayload(transactionId: "1000000009"), expected: nil),
        TransactionRequestCase(
            testDescription: "transaction with an empty originalTransactionId -> missing_original_transaction_id",
            transaction: TransactionPayload(originalTransactionId: "", transactionId: "1000000009"), expected: nil),
    ]

    @Test(arguments: transactionRequests)
    func requestFromTransaction(_ row: TransactionRequestCase) {
        do throws(AccountLinkError) {
            let request = try AccountLinkRequest(transaction: row.transaction, user: LinkSample.bob)
            #expect(request == row.expected)
        } catch {
            #expect(row.expected == nil)
            #expect(error.code == .missingOriginalTransactionId)
            #expect(error.message.contains("1000000009"))
        }
    }

    @Test func linksRoundTripAsJSON() throws {
        let links = AccountLinks(owners: [
            LinkSample.alicePurchase: LinkSample.alice, LinkSample.bobMemberCopy: LinkSample.bob,
        ])
        let data = try JSONEncoder().encode(links)
        #expect(try JSONDecoder().decode(AccountLinks.self, from: data) == links)
        let stored = Data(#"{"1000000001":"7E3FB20B-4CDB-47CC-936D-99D65F608138"}"#.utf8)
        #expect(try JSONDecoder().decode(AccountLinks.self, from: stored).owner(of: "1000000001") == LinkSample.alice)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AccountLinks.self, from: Data(#"{"1000000001":"alice"}"#.utf8))
        }
    }
}

import FamilyEntitlements
import FamilyEntitlementsTestSupport
import Foundation
import Testing

/// Nesting around the depth at which Foundation's `JSONDecoder` traps on this toolchain (a document that ends inside
/// its 513th array), for every public way into the decoders.
///
/// The library's reader allows 512 levels. Each input is a shape at a depth from 511 to 515: open (the document ends
/// inside the innermost level, which is what traps `JSONDecoder`) or closed (valid JSON up to depth 512).
struct NestedInput: CustomStringConvertible, Sendable {
    enum Shape: String, CaseIterable, Sendable {
        case arrays, objects, arraysInAMember
    }

    var shape: Shape
    var depth: Int
    var isClosed: Bool

    var description: String { "\(depth) \(isClosed ? "closed" : "open") \(shape.rawValue)" }

    /// Whether every decoder must refuse it: it is cut short, or nests deeper than 512.
    var mustFail: Bool { !isClosed || depth > 512 }

    var bytes: Data {
        var text: String
        switch shape {
        case .arrays:
            text = String(repeating: "[", count: depth)
            if isClosed { text += String(repeating: "]", count: depth) }
        case .objects:
            text = String(repeating: #"{"a":"#, count: depth)
            if isClosed { text += "1" + String(repeating: "}", count: depth) }
        case .arraysInAMember:
            text = #"{"x":"# + String(repeating: "[", count: depth - 1)
            if isClosed { text += String(repeating: "]", count: depth - 1) + "}" }
        }
        return Data(text.utf8)
    }

    static let all: [NestedInput] = Shape.allCases.flatMap { shape in
        (511...515).flatMap { depth in [false, true].map { NestedInput(shape: shape, depth: depth, isClosed: $0) } }
    }
}

/// A type of the caller's own that relies on the protocol's default `init(jsonData:)`.
private struct CallersOwnPayload: AppStorePayload {
    var note: String?
}

/// A verifier that returns the bytes it was built with as the verified payload of every string.
private struct ReturningVerifier: SignedDataVerifying {
    var payload: Data
    func verifyNotification(signedPayload: String) async throws -> Data { payload }
    func verifyTransaction(signedTransaction: String) async throws -> Data { payload }
    func verifyRenewalInfo(signedRenewalInfo: String) async throws -> Data { payload }
}

/// One public decoding entry point, fed the input's bytes directly or inside what it reads.
struct DecodingEntryPoint: CustomTestStringConvertible, Sendable {
    var name: String
    var decode: @Sendable (Data) async throws -> Void
    var testDescription: String { name }

    static func payload<T: AppStorePayload>(_ type: T.Type, _ name: String? = nil) -> DecodingEntryPoint {
        DecodingEntryPoint(name: name ?? "\(T.self)(jsonData:)") { _ = try T(jsonData: $0) }
    }

    /// A compact JWS whose payload is `data`, in `FakeJWSSigner`'s form.
    static func jws(_ data: Data) -> String {
        FakeJWSSigner().sign(json: data)
    }

    static let all: [DecodingEntryPoint] =
        [
            payload(TransactionPayload.self), payload(RenewalInfoPayload.self), payload(AppTransactionPayload.self),
            payload(NotificationPayload.self), payload(TransactionHistoryResponse.self),
            payload(SubscriptionStatusesResponse.self), payload(NotificationRequestBody.self), payload(History.self),
            payload(ProductCatalog.self), payload(AccountLinks.self), payload(CustomerLedger.self),
            payload(CallersOwnPayload.self, "a caller's own type through the protocol's default init(jsonData:)"),
            DecodingEntryPoint(name: "AppStoreDocument(data:), kind recognised") { _ = try AppStoreDocument(data: $0) },
        ]
        + AppStoreDocument.Kind.allCases.map { kind in
            DecodingEntryPoint(name: "AppStoreDocument(data:as: .\(kind))") {
                _ = try AppStoreDocument(data: $0, as: kind)
            }
        }
        + [
            DecodingEntryPoint(name: "History.decodeUnverified") { _ = try History.decodeUnverified($0) },
            DecodingEntryPoint(name: "decodeUnverifiedJWS of a JWS whose payload it is") {
                _ = try decodeUnverifiedJWS(jws($0), as: TransactionPayload.self)
            },
            DecodingEntryPoint(name: "UnverifiedJWS.decodePayload") {
                _ = try UnverifiedJWS(compact: jws($0)).decodePayload(as: NotificationPayload.self)
            },
            DecodingEntryPoint(name: "UnverifiedJWS.header() of a JWS whose header it is") {
                let compact = Base64URL.encode($0) + "." + Base64URL.encode(Data("{}".utf8)) + ".c2ln"
                _ = try UnverifiedJWS(compact: compact).header()
            },
            DecodingEntryPoint(name: "AppStoreDocument(data:) of a JWS") {
                _ = try AppStoreDocument(data: Data(jws($0).utf8))
            },
            DecodingEntryPoint(name: "History.decodeUnverified of a JWS") {
                _ = try History.decodeUnverified(Data(jws($0).utf8))
            },
            DecodingEntryPoint(name: "a notification's signedTransactionInfo and signedRenewalInfo") {
                let data = NotificationData(signedTransactionInfo: jws($0), signedRenewalInfo: jws($0))
                _ = try NotificationPayload(data: data).decodingNestedPayloadsUnverified()
            },
            DecodingEntryPoint(name: "a history page's signedTransactions") {
                _ = try TransactionHistoryResponse(signedTransactions: [jws($0)]).decodeTransactionsUnverified()
            },
            DecodingEntryPoint(name: "a status response's lastTransactions") {
                let item = LastTransactionsItem(signedTransactionInfo: jws($0), signedRenewalInfo: jws($0))
                let body = SubscriptionStatusesResponse(data: [SubscriptionGroupStatus(lastTransactions: [item])])
                _ = try body.decodeLastTransactionsUnverified()
            },
            DecodingEntryPoint(name: "a request body's signedPayload") {
                _ = try NotificationRequestBody(signedPayload: jws($0)).decodeNotificationUnverified()
            },
            DecodingEntryPoint(name: "NotificationIntake.receive(requestBody:)") {
                let intake = NotificationIntake(
                    policy: .sandbox(bundleId: "com.example"), verifier: ReturningVerifier(payload: Data()))
                _ = try await intake.receive(requestBody: $0)
            },
            DecodingEntryPoint(name: "NotificationIntake: what the verifier returns for each string") {
                let intake = NotificationIntake(
                    policy: .sandbox(bundleId: "com.example"), verifier: ReturningVerifier(payload: $0))
                _ = try await intake.receive(signedPayload: "a.b.c")
            },
        ]
}

@Suite("Nesting at Foundation's trap depth never reaches its parser")
struct DeepNestingTests {
    @Test(
        "511 to 515 nested arrays and objects, open and closed: an error or a value, never a trap",
        arguments: DecodingEntryPoint.all)
    func nestedInputs(_ entry: DecodingEntryPoint) async {
        for input in NestedInput.all {
            do {
                try await entry.decode(input.bytes)
                #expect(!input.mustFail, "\(input) decoded")
            } catch let error as PayloadDecodingError {
                if input.depth > 512 {
                    #expect(error.code == .malformedJSON, "\(input): \(error)")
                }
            } catch is NotificationRejection {
                // The intake answers every failure, a decoding one included, with a typed rejection.
            } catch {
                Issue.record("\(input): an error that is no PayloadDecodingError: \(error)")
            }
        }
    }

    @Test("the depth limit names the byte where the 513th level opens")
    func depthErrorNamesTheOffset() throws {
        let input = NestedInput(shape: .arrays, depth: 513, isClosed: false)
        let error = try #require(decodingError { try History(jsonData: input.bytes) })
        #expect(error.code == .malformedJSON)
        #expect(error.message.contains("deeper than 512"), "\(error.message)")
        #expect(error.message.contains("byte offset 512"), "\(error.message)")
    }
}

// swift-tools-version: 6.0
import PackageDescription

// A downstream package: a small service that takes App Store notifications and then fetches the customer's history
// with the library's paging helpers, tested end to end against FakeAppStore with only the public API and test support.
let package = Package(
    name: "RoundTrip",
    dependencies: [
        .package(name: "FamilyEntitlements", path: "../..")
    ],
    targets: [
        .target(
            name: "AccessService",
            dependencies: [.product(name: "FamilyEntitlements", package: "FamilyEntitlements")]
        ),
        .testTarget(
            name: "AccessServiceTests",
            dependencies: [
                "AccessService",
                .product(name: "FamilyEntitlements", package: "FamilyEntitlements"),
                .product(name: "FamilyEntitlementsTestSupport", package: "FamilyEntitlements"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

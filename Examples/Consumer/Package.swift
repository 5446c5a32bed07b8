// swift-tools-version: 6.0
import PackageDescription

// A downstream package, as a team that uses FamilyEntitlements would write it: its own access ledger in a library,
// and tests that load the shipped fixtures through FamilyEntitlementsTestSupport.
let package = Package(
    name: "Consumer",
    dependencies: [
        .package(name: "FamilyEntitlements", path: "../..")
    ],
    targets: [
        .target(
            name: "MemberAccess",
            dependencies: [.product(name: "FamilyEntitlements", package: "FamilyEntitlements")]
        ),
        .testTarget(
            name: "MemberAccessTests",
            dependencies: [
                "MemberAccess",
                .product(name: "FamilyEntitlements", package: "FamilyEntitlements"),
                .product(name: "FamilyEntitlementsTestSupport", package: "FamilyEntitlements"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "FamilyEntitlements",
    products: [
        .library(name: "FamilyEntitlements", targets: ["FamilyEntitlements"]),
        .library(name: "FamilyEntitlementsTestSupport", targets: ["FamilyEntitlementsTestSupport"]),
        .executable(name: "entitlements", targets: ["entitlements"]),
    ],
    targets: [
        .target(name: "FamilyEntitlements"),
        .target(
            name: "FamilyEntitlementsTestSupport",
            dependencies: ["FamilyEntitlements"],
            // Fixtures/ lives at the top of the repository so that reviewers and other tools find it; tools 6.0
            // copies resources from outside a target's folder, and Bundle.module finds them on Linux and macOS.
            resources: [.copy("../../Fixtures")]
        ),
        // The tool links the library alone, so that a copy of the binary runs anywhere: no test-support code and no
        // resource bundle (it reads the demo scenario from the repository's Fixtures/ when that is at hand).
        .executableTarget(
            name: "entitlements",
            dependencies: ["FamilyEntitlements"]
        ),
        .executableTarget(
            name: "entitlements-bench",
            dependencies: ["FamilyEntitlements", "FamilyEntitlementsTestSupport"]
        ),
        .testTarget(
            name: "FamilyEntitlementsTests",
            dependencies: ["FamilyEntitlements", "FamilyEntitlementsTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

import FamilyEntitlements

/// The histories a `FamilyBuilder` builds: the organiser's and each member's, one customer each.
public struct FamilyHistories: Hashable, Sendable {
    /// The purchaser's history.
    public var organiser: History
    /// The members' histories; `members[0]` is member 1.
    public var members: [History]

    public init(organiser: History, members: [History]) {
        self.organiser = organiser
        self.members = members
    }

    /// The history of member `number`, counting from 1.
    public func member(_ number: Int) -> History {
        precondition(members.indices.contains(number - 1), "member \(number) is not in a family of \(members.count)")
        return members[number - 1]
    }

    /// The organiser's history followed by every member's.
    public var everyone: [History] { [organiser] + members }
}

extension NotificationHistoryResponse {
    /// The token of the page after this one, or nil on the last page: `paginationToken` where `hasMore` is true.
    public var nextPaginationToken: String? {
        hasMore == true ? paginationToken : nil
    }
}

package simulator

import "time"

// Bulk businesses live in their own id range, far above the regular ones
// (1001 up) and the never-existing 999999.
const (
	genBulkFirstID = 2_000_001
	// BulkMaxCount is the largest bulk portfolio whose names still sort in
	// index order (seven-digit numbers, 1 to 9,999,999).
	BulkMaxCount = 9_999_999
)

// BulkBusinessID is the id of the i-th (0-based) business in the bulk user's portfolio.
func BulkBusinessID(i int) int32 { return genBulkFirstID + int32(i) }

// genBulkIndex is the bulk index of an id, or -1 for a regular id.
func genBulkIndex(id int32) int {
	if id >= genBulkFirstID {
		return int(id - genBulkFirstID)
	}
	return -1
}

// BulkListing returns the cheap part of the i-th bulk business: ID, Name, City, State, Country, NAICS, Public, Scores (enough for a download row and portfolio score histories). Must be fast: well under 5 µs and few allocations per call, because a million-row download calls it a million times. Names must sort in index order (e.g. "Portfolio Company 0000001 ..." style), because portfolio paging orders businesses by name.
//
// The fields equal those of GenerateBusiness(seed, asOf, BulkBusinessID(i)).
// Names are "Portfolio Company 0000001 Ironbridge Logistics Inc" for i = 0;
// they sort in index order for i < BulkMaxCount.
func BulkListing(seed int64, asOf time.Time, i int) Business {
	var c genCore
	genBuildCore(&c, seed, genAsOfMonth(asOf), BulkBusinessID(i), i)
	return c.listing()
}

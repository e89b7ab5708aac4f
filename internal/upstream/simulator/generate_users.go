package simulator

import (
	"slices"
	"strconv"
	"time"
)

// DemoPassword is the password of every generated user.
const DemoPassword = "demo"

// genFolderPlan is a folder to make: its name, which businesses it draws
// from, how many, and which must be in it.
type genFolderPlan struct {
	id   int
	name string
	pool func(b *Business) bool
	n    int
	must []int32
}

// genUsers makes the four demo users of DEMO-DATA "Users" and the
// two-factor user of CONTRACT-CHOICES "Two-factor sign-in". Folders draw
// from the generated businesses by trait (a retail watchlist holds
// retailers), so they read like an analyst's, and every scenario business
// is in the demo user's portfolio.
func genUsers(seed int64, asOf genMonth, d *Dataset) []User {
	r := newGenRand(seed, 0, genStreamUsers)
	sector := func(b *Business) string { return b.NAICS[0].Code[:2] }
	in := func(keys ...string) func(*Business) bool {
		return func(b *Business) bool { return slices.Contains(keys, sector(b)) }
	}
	every := func(*Business) bool { return true }
	risky := func(b *Business) bool { return genLatestRisk(b) <= 4 }
	traded := func(b *Business) bool { return b.ID <= 1100 }

	demo := User{Username: "demo", UserID: 1, Type: UserAPIUser, Access: AccessFull}
	demo.Folders = genFolders(&r, asOf, d, []genFolderPlan{
		{101, "Retail watchlist", in("44", "45"), 16, []int32{1001}},
		{102, "Q4 renewals", every, 24, []int32{1002, 1005, 1007}},
		{103, "Manufacturing suppliers", in("31", "32", "33"), 20, []int32{1002, 1006}},
		{104, "High-risk review", risky, 16, []int32{1001, 1004}},
		{105, "Distributors and carriers", in("42", "48", "49"), 14, []int32{1003, 1008}},
	})
	demo.Suppliers = map[string]int32{}
	for _, id := range genPortfolio(demo.Folders) {
		demo.Suppliers["S-"+strconv.Itoa(int(id))] = id
	}

	ordinary := User{Username: "ordinary", UserID: 2, Type: UserOrdinary, Access: AccessFull}
	ordinary.Folders = genFolders(&r, asOf, d, []genFolderPlan{
		{201, "My accounts", every, 12, nil},
		{202, "Annual credit review", every, 9, nil},
	})
	// An analyst's second list overlaps the first.
	first := ordinary.Folders[0].BusinessIDs
	ordinary.Folders[1].BusinessIDs = genSortedUnion(ordinary.Folders[1].BusinessIDs, first[:2])

	developer := User{Username: "developer", UserID: 3, Type: UserAPIDeveloper, Access: AccessAPIOnly}
	developer.Folders = genFolders(&r, asOf, d, []genFolderPlan{
		{301, "API test set", every, 15, []int32{1001, 1003}},
		{302, "Integration sample", every, 14, []int32{1004, 1006}},
		{303, "Large caps", func(b *Business) bool { return b.Public }, 14, nil},
	})

	trade := User{Username: "trade", UserID: 4, Type: UserAPIUser, Access: AccessFull}
	trade.Folders = genFolders(&r, asOf, d, []genFolderPlan{
		{401, "Accounts on credit hold", func(b *Business) bool { return traded(b) && risky(b) }, 8, nil},
		{402, "Key customers", traded, 10, nil},
	})
	trade.TradeProviders = []TradeProvider{
		{ID: "TP-1", Name: "Keystone Building Products - Trade Credit", Customers: map[string]int32{}},
		{ID: "TP-2", Name: "Lakeshore Foods Distribution - Receivables", Customers: map[string]int32{}},
	}
	for id := int32(1001); id <= 1100; id++ {
		trade.TradeProviders[0].Customers["C1-"+strconv.Itoa(int(id))] = id
		trade.TradeProviders[1].Customers["C2-"+strconv.Itoa(int(id))] = id
	}
	users := []User{demo, ordinary, developer, trade, genSecureUser(demo)}
	for i := range users {
		users[i].Password = DemoPassword
	}
	return users
}

// genSecureUser is "secure": API User, Full Access, with two-factor sign-in
// and browser verification. It watches the demo user's businesses, in
// folders of its own ids, so that an analyst trying the second step finds
// the same companies; it draws nothing at random, so adding it changed no
// other user.
func genSecureUser(demo User) User {
	u := User{Username: "secure", UserID: 5, Type: UserAPIUser, Access: AccessFull,
		TwoFactor: true, BrowserVerification: true}
	for _, f := range demo.Folders {
		f.FolderID += 400 // 101.. becomes 501..
		f.BusinessIDs = slices.Clone(f.BusinessIDs)
		u.Folders = append(u.Folders, f)
	}
	return u
}

// genFolders fills the planned folders: the musts plus a random draw from
// the pool (in id order, then shuffled, so the draw depends on the seed
// only), ids ascending, created in the last two years and updated since.
func genFolders(r *genRand, asOf genMonth, d *Dataset, plans []genFolderPlan) []Folder {
	out := make([]Folder, len(plans))
	end := (asOf + 1).first().Add(-time.Second)
	for i, p := range plans {
		var pool []int32
		for k := range d.Businesses {
			b := &d.Businesses[k]
			if p.pool(b) && !slices.Contains(p.must, b.ID) {
				pool = append(pool, b.ID)
			}
		}
		r.shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		ids := genSortedUnion(pool[:min(p.n, len(pool))], p.must)
		created := r.randomDate(asOf-24, asOf-2).Add(time.Duration(r.between(8*3600, 18*3600)) * time.Second)
		span := end.Sub(created)
		updated := created.Add(time.Duration(r.float() * float64(span))).Truncate(time.Second)
		out[i] = Folder{
			FolderID: p.id, FolderName: p.name, BusinessIDs: ids,
			DateCreated: created.Format(LayoutDateTime), DateUpdated: updated.Format(LayoutDateTime),
		}
	}
	return out
}

// genSortedUnion returns the distinct ids of a and b, ascending, in a new
// slice.
func genSortedUnion(a, b []int32) []int32 {
	out := append(append(make([]int32, 0, len(a)+len(b)), a...), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// genPortfolio is every business id in the folders, ascending.
func genPortfolio(folders []Folder) []int32 {
	var ids []int32
	for _, f := range folders {
		ids = genSortedUnion(ids, f.BusinessIDs)
	}
	return ids
}

// genLatestRisk is the most recent Risk score of a business, 0 if none.
func genLatestRisk(b *Business) int {
	for i := len(b.Scores) - 1; i >= 0; i-- {
		if b.Scores[i].Risk != nil {
			return *b.Scores[i].Risk
		}
	}
	return 0
}

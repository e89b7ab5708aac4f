package simulator

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// genUser finds a user by name.
func genUser(t *testing.T, d *Dataset, name string) *User {
	t.Helper()
	for i := range d.Users {
		if d.Users[i].Username == name {
			return &d.Users[i]
		}
	}
	t.Fatalf("no user %q", name)
	return nil
}

func TestDataUsers(t *testing.T) {
	d := genTestDataset(t)
	tests := []struct {
		name, typ, access string
		folders           [2]int // min, max
		portfolio         [2]int
	}{
		{"demo", UserAPIUser, AccessFull, [2]int{4, 6}, [2]int{60, 150}},
		{"ordinary", UserOrdinary, AccessFull, [2]int{2, 2}, [2]int{15, 25}},
		{"developer", UserAPIDeveloper, AccessAPIOnly, [2]int{3, 3}, [2]int{30, 50}},
		{"trade", UserAPIUser, AccessFull, [2]int{1, 4}, [2]int{5, 100}},
		{"secure", UserAPIUser, AccessFull, [2]int{4, 6}, [2]int{60, 150}},
	}
	if len(d.Users) != len(tests) {
		t.Errorf("%d users, want %d", len(d.Users), len(tests))
	}
	folderIDs := map[int]string{}
	asOfEnd := genTestAsOf.AddDate(0, 1, 0)
	for _, tt := range tests {
		u := genUser(t, d, tt.name)
		if u.Password != "demo" || u.Type != tt.typ || u.Access != tt.access {
			t.Errorf("%s: password %q, type %s, access %s; want demo, %s, %s", tt.name, u.Password, u.Type, u.Access, tt.typ, tt.access)
		}
		if n := len(u.Folders); n < tt.folders[0] || n > tt.folders[1] {
			t.Errorf("%s: %d folders, want %d-%d", tt.name, n, tt.folders[0], tt.folders[1])
		}
		for _, f := range u.Folders {
			if other, dup := folderIDs[f.FolderID]; dup {
				t.Errorf("folder id %d used by %s and %s", f.FolderID, other, tt.name)
			}
			folderIDs[f.FolderID] = tt.name
			created, err1 := time.Parse(LayoutDateTime, f.DateCreated)
			updated, err2 := time.Parse(LayoutDateTime, f.DateUpdated)
			if err1 != nil || err2 != nil || updated.Before(created) || !updated.Before(asOfEnd) || f.FolderName == "" {
				t.Errorf("%s folder %d %q: created %q, updated %q", tt.name, f.FolderID, f.FolderName, f.DateCreated, f.DateUpdated)
			}
			for k, id := range f.BusinessIDs {
				if _, ok := d.Business(id); !ok || (k > 0 && id <= f.BusinessIDs[k-1]) {
					t.Errorf("%s folder %d: business %d missing or out of order", tt.name, f.FolderID, id)
				}
			}
		}
		if n := len(genPortfolio(u.Folders)); n < tt.portfolio[0] || n > tt.portfolio[1] {
			t.Errorf("%s: %d businesses in the portfolio, want %d-%d", tt.name, n, tt.portfolio[0], tt.portfolio[1])
		}
	}
}

func TestDataDemoPortfolio(t *testing.T) {
	d := genTestDataset(t)
	demo := genUser(t, d, "demo")
	portfolio := genPortfolio(demo.Folders)
	in := map[int32]int{}
	for _, f := range demo.Folders {
		for _, id := range f.BusinessIDs {
			in[id]++
		}
	}
	for id := ScenarioFirstID; id <= ScenarioLastID; id++ {
		if in[id] == 0 {
			t.Errorf("scenario business %d is not in the demo portfolio", id)
		}
	}
	multi := 0
	for _, n := range in {
		if n > 1 {
			multi++
		}
	}
	if multi == 0 {
		t.Error("no business is in several demo folders")
	}
	if len(demo.Suppliers) != len(portfolio) {
		t.Errorf("%d supplier ids for %d portfolio businesses", len(demo.Suppliers), len(portfolio))
	}
	for _, id := range portfolio {
		if got, ok := demo.Suppliers[fmt.Sprintf("S-%d", id)]; !ok || got != id {
			t.Errorf("supplier S-%d -> %d, %v", id, got, ok)
		}
	}
}

func TestDataTradeProviders(t *testing.T) {
	d := genTestDataset(t)
	trade := genUser(t, d, "trade")
	if len(trade.TradeProviders) != 2 || trade.TradeProviders[0].ID != "TP-1" || trade.TradeProviders[1].ID != "TP-2" {
		t.Fatalf("trade providers %+v, want TP-1 and TP-2", trade.TradeProviders)
	}
	for k, prefix := range []string{"C1-", "C2-"} {
		tp := trade.TradeProviders[k]
		if tp.Name == "" || len(tp.Customers) != 100 {
			t.Errorf("%s: name %q, %d customers; want a name and 100", tp.ID, tp.Name, len(tp.Customers))
		}
		for id := int32(1001); id <= 1100; id++ {
			if got := tp.Customers[fmt.Sprintf("%s%d", prefix, id)]; got != id {
				t.Errorf("%s: customer %s%d -> %d", tp.ID, prefix, id, got)
			}
		}
	}
	for _, u := range d.Users {
		if u.Username != "trade" && len(u.TradeProviders) > 0 {
			t.Errorf("%s has trade providers", u.Username)
		}
		if u.Username != "demo" && len(u.Suppliers) > 0 {
			t.Errorf("%s has a supplier list", u.Username)
		}
	}
}

func TestDataSecureUser(t *testing.T) {
	d := genTestDataset(t)
	for _, u := range d.Users {
		want := u.Username == "secure"
		if u.TwoFactor != want || u.BrowserVerification != want {
			t.Errorf("%s: twoFactor %v, browserVerification %v; want %v", u.Username, u.TwoFactor, u.BrowserVerification, want)
		}
	}
	secure, demo := genUser(t, d, "secure"), genUser(t, d, "demo")
	if got, want := genPortfolio(secure.Folders), genPortfolio(demo.Folders); !slices.Equal(got, want) {
		t.Errorf("secure watches %d businesses, demo %d: want the same", len(got), len(want))
	}
}

package simulator

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// MaxAnalysts bounds AddAnalysts: enough for any load run on one machine,
// small enough that a typo cannot make the stand-in build millions of users.
const MaxAnalysts = 10_000

// AnalystPrefix names the generated analysts: load1, load2, …
const AnalystPrefix = "load"

// AddAnalysts appends n users load1..loadN to ds, each with the demo user's
// type, access, folders and suppliers, so that a load run can sign in as
// many distinct analysts whose pages cost the service what the demo user's
// do. It draws nothing at random and changes no existing user, so the demo
// data stays the same for a seed; it is applied after Generate or
// LoadDataset, never written into a dump.
func AddAnalysts(ds *Dataset, n int) error {
	if n < 0 || n > MaxAnalysts {
		return fmt.Errorf("simulator: analysts must be between 0 and %d, not %d", MaxAnalysts, n)
	}
	if n == 0 {
		return nil
	}
	i := slices.IndexFunc(ds.Users, func(u User) bool { return u.Username == "demo" })
	if i < 0 {
		return errors.New("simulator: analysts copy the demo user, and the dataset has none")
	}
	demo := ds.Users[i]
	maxID := 0
	taken := map[string]bool{}
	for _, u := range ds.Users {
		maxID = max(maxID, u.UserID)
		taken[u.Username] = true
	}
	for k := 1; k <= n; k++ {
		name := AnalystPrefix + strconv.Itoa(k)
		if taken[name] {
			return fmt.Errorf("simulator: the dataset already has a user %q", name)
		}
		u := User{
			Username: name, Password: demo.Password, UserID: maxID + k,
			Type: demo.Type, Access: demo.Access,
			// Copies, so that no two accounts share a slice or map the
			// server might one day sort or extend.
			Folders:   cloneFolders(demo.Folders),
			Suppliers: maps.Clone(demo.Suppliers),
		}
		ds.Users = append(ds.Users, u)
	}
	return nil
}

func cloneFolders(fs []Folder) []Folder {
	out := slices.Clone(fs)
	for i := range out {
		out[i].BusinessIDs = slices.Clone(out[i].BusinessIDs)
	}
	return out
}

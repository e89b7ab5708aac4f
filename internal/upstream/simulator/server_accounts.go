package simulator

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"sync"
)

// The bulk user: API User, Full Access, one folder of Options.Bulk businesses.
const (
	bulkUsername   = "bulk"
	bulkPassword   = "demo"
	bulkFolderID   = 900001
	bulkFolderName = "Bulk portfolio"
	// bulkSample is how many bulk businesses decide the bulk user's main
	// industry and feed its news: enough to be representative, few enough
	// to answer at once.
	bulkSample = 100
)

// account is a user with what the server derives from its portfolio.
type account struct {
	User
	bulk bool
	// sorted holds the portfolio's businesses once each, ordered by name
	// (empty for the bulk user, whose order is its index order).
	sorted []*Business

	sectorOnce sync.Once
	sector     string
}

// buildAccounts indexes the dataset's users and adds the bulk user.
func (s *Server) buildAccounts() map[string]*account {
	out := make(map[string]*account, len(s.ds.Users)+1)
	maxID := 0
	for _, u := range s.ds.Users {
		a := &account{User: u}
		seen := map[int32]bool{}
		for _, f := range u.Folders {
			for _, id := range f.BusinessIDs {
				if b := s.byID[id]; b != nil && !seen[id] {
					seen[id] = true
					a.sorted = append(a.sorted, b)
				}
			}
		}
		slices.SortFunc(a.sorted, func(x, y *Business) int {
			return cmp.Or(cmp.Compare(x.Name, y.Name), cmp.Compare(x.ID, y.ID))
		})
		out[u.Username] = a
		maxID = max(maxID, u.UserID)
	}
	if s.opts.Bulk > 0 {
		stamp := s.asOf.Format("2006-01-02T15:04:05")
		out[bulkUsername] = &account{bulk: true, User: User{
			Username: bulkUsername, Password: bulkPassword, UserID: maxID + 1,
			Type: UserAPIUser, Access: AccessFull,
			Folders: []Folder{{FolderID: bulkFolderID, FolderName: bulkFolderName,
				DateCreated: stamp, DateUpdated: stamp}},
		}}
	}
	return out
}

// business finds a business by id, making bulk ones on the fly.
func (s *Server) business(id int32) (*Business, bool) {
	if b, ok := s.byID[id]; ok {
		return b, true
	}
	if s.opts.Bulk > 0 {
		first := BulkBusinessID(0)
		if i := int64(id) - int64(first); i >= 0 && i < int64(s.opts.Bulk) && BulkBusinessID(int(i)) == id {
			b := GenerateBusiness(s.ds.Seed, s.asOf, id)
			return &b, true
		}
	}
	return nil, false
}

// portfolioSize is the number of distinct businesses in acct's portfolio.
func (s *Server) portfolioSize(acct *account) int {
	if acct.bulk {
		return s.opts.Bulk
	}
	return len(acct.sorted)
}

// portfolioRange returns the businesses at 0-based positions [from, to) of
// the portfolio ordered by name; bulk names sort in index order.
func (s *Server) portfolioRange(acct *account, from, to int) []*Business {
	to = min(to, s.portfolioSize(acct))
	if from >= to {
		return nil
	}
	if !acct.bulk {
		return acct.sorted[from:to]
	}
	out := make([]*Business, 0, to-from)
	for i := from; i < to; i++ {
		b := BulkListing(s.ds.Seed, s.asOf, i)
		out = append(out, &b)
	}
	return out
}

// eachMember calls fn for every folder membership of acct, folder by folder,
// with cheap listings for bulk businesses; folder nil means all folders.
// It stops when fn returns false.
func (s *Server) eachMember(acct *account, folder *Folder, fn func(f *Folder, b *Business) bool) {
	for i := range acct.Folders {
		f := &acct.Folders[i]
		if folder != nil && f.FolderID != folder.FolderID {
			continue
		}
		if acct.bulk {
			for j := range s.opts.Bulk {
				b := BulkListing(s.ds.Seed, s.asOf, j)
				if !fn(f, &b) {
					return
				}
			}
			continue
		}
		for _, id := range f.BusinessIDs {
			if b := s.byID[id]; b != nil && !fn(f, b) {
				return
			}
		}
	}
}

// findFolder resolves a FolderId parameter of acct.
func findFolder(acct *account, raw string) (*Folder, *apiError) {
	id, err := strconv.ParseInt(raw, 10, 32)
	if err != nil {
		return nil, badParam("FolderId", "must be an integer, not %q", raw)
	}
	for i := range acct.Folders {
		if acct.Folders[i].FolderID == int(id) {
			return &acct.Folders[i], nil
		}
	}
	return nil, errf(http.StatusNotFound, CodeFolderNotFound, "There is no folder %d in your portfolio.", id)
}

// fullBusinesses returns the full records of up to limit businesses of a
// folder (nil: the whole portfolio), for news; bulk ones are generated.
func (s *Server) fullBusinesses(acct *account, folder *Folder, limit int) []*Business {
	var out []*Business
	seen := map[int32]bool{}
	s.eachMember(acct, folder, func(_ *Folder, b *Business) bool {
		if seen[b.ID] {
			return true
		}
		seen[b.ID] = true
		if acct.bulk {
			full := GenerateBusiness(s.ds.Seed, s.asOf, b.ID)
			b = &full
		}
		out = append(out, b)
		return len(out) < limit
	})
	return out
}

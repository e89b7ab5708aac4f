package simulator

import (
	"fmt"
	"slices"
)

// validate checks what the server relies on: ids and names that identify
// things uniquely, references that resolve, and the month formats it
// filters by. It returns the first problem found, naming where it is.
func (d *Dataset) validate() error {
	if _, err := genParseMonth(d.AsOf); err != nil {
		return fmt.Errorf("asOf %q: want a month as YYYY-MM", d.AsOf)
	}
	for i := range d.Businesses {
		b := &d.Businesses[i]
		if b.ID <= 0 {
			return fmt.Errorf("business %d (%q): id must be positive", b.ID, b.Name)
		}
		if i > 0 && d.Businesses[i-1].ID == b.ID {
			return fmt.Errorf("business %d: duplicate id", b.ID)
		}
		if b.Name == "" {
			return fmt.Errorf("business %d: empty name", b.ID)
		}
		if err := b.validate(); err != nil {
			return fmt.Errorf("business %d: %w", b.ID, err)
		}
	}
	seenUser := map[string]bool{}
	seenUserID := map[int]bool{}
	for i := range d.Users {
		u := &d.Users[i]
		switch {
		case u.Username == "":
			return fmt.Errorf("user %d: empty username", i+1)
		case seenUser[u.Username]:
			return fmt.Errorf("user %q: duplicate username", u.Username)
		case seenUserID[u.UserID]:
			return fmt.Errorf("user %q: duplicate userId %d", u.Username, u.UserID)
		}
		seenUser[u.Username], seenUserID[u.UserID] = true, true
		if err := d.validateUser(u); err != nil {
			return fmt.Errorf("user %q: %w", u.Username, err)
		}
	}
	for sector := range d.IndustryNews {
		if sector == "" {
			return fmt.Errorf("industryNews: empty sector key")
		}
	}
	return nil
}

// validate checks one business's months: scores oldest first with real
// months, payment rows with YYYY-MM months.
func (b *Business) validate() error {
	prev := -1
	for k, s := range b.Scores {
		if s.Month < 1 || s.Month > 12 {
			return fmt.Errorf("scores[%d]: month %d out of range 1-12", k, s.Month)
		}
		m := s.Year*12 + s.Month - 1
		if m <= prev {
			return fmt.Errorf("scores[%d]: %04d-%02d is not after the month before it (scores go oldest first)", k, s.Year, s.Month)
		}
		prev = m
	}
	for _, rows := range [][]PaymentRow{b.PaymentsMonthly, b.PaymentsSIC} {
		for k := range rows {
			if _, err := genParseMonth(rows[k].MonthReported); err != nil {
				return fmt.Errorf("payments[%d]: monthReported %q: want YYYY-MM", k, rows[k].MonthReported)
			}
		}
	}
	return nil
}

// validateUser checks a user's type, access model and references.
func (d *Dataset) validateUser(u *User) error {
	if !slices.Contains([]string{UserOrdinary, UserAPIDeveloper, UserAPIUser}, u.Type) {
		return fmt.Errorf("type %q: want %s, %s or %s", u.Type, UserOrdinary, UserAPIDeveloper, UserAPIUser)
	}
	if u.Access != AccessFull && u.Access != AccessAPIOnly {
		return fmt.Errorf("access %q: want %s or %s", u.Access, AccessFull, AccessAPIOnly)
	}
	if u.BrowserVerification && !u.TwoFactor {
		return fmt.Errorf("browserVerification needs twoFactor")
	}
	folders := map[int]bool{}
	for _, f := range u.Folders {
		if folders[f.FolderID] {
			return fmt.Errorf("folder %d: duplicate folderId", f.FolderID)
		}
		folders[f.FolderID] = true
		for _, id := range f.BusinessIDs {
			if _, ok := d.Business(id); !ok {
				return fmt.Errorf("folder %d (%q): business %d does not exist", f.FolderID, f.FolderName, id)
			}
		}
	}
	for _, sid := range genSortedKeys(u.Suppliers) {
		if sid == "" {
			return fmt.Errorf("suppliers: empty SupplierId")
		}
		if _, ok := d.Business(u.Suppliers[sid]); !ok {
			return fmt.Errorf("supplier %q: business %d does not exist", sid, u.Suppliers[sid])
		}
	}
	providers := map[string]bool{}
	for _, tp := range u.TradeProviders {
		if tp.ID == "" || providers[tp.ID] {
			return fmt.Errorf("trade provider %q: empty or duplicate id", tp.ID)
		}
		providers[tp.ID] = true
		for _, cid := range genSortedKeys(tp.Customers) {
			if cid == "" {
				return fmt.Errorf("trade provider %q: empty CustomerId", tp.ID)
			}
			if _, ok := d.Business(tp.Customers[cid]); !ok {
				return fmt.Errorf("trade provider %q: customer %q: business %d does not exist", tp.ID, cid, tp.Customers[cid])
			}
		}
	}
	return nil
}

// genSortedKeys returns a map's keys in order, so that the first error
// reported does not change from run to run.
func genSortedKeys(m map[string]int32) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

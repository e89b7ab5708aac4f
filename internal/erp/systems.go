package erp

import (
	"encoding/csv"
	"io"

	"creditdash/internal/store"
)

// System is one ERP's customer import: the file's header and a line's
// cells, in the order and words that import's fields take. Every text
// cell is marked as text when a spreadsheet would read it as a formula
// (store.CSVCell), as the dashboard's other downloads are.
type System struct {
	// Name is the system's value in ?system=; Label its name for people.
	Name, Label string
	Header      []string
	row         func(Line) []string
	// Note says how the system's import is to be run with the file.
	Note string
}

// Systems are the shapes, in the page's order; the generic one last.
var Systems = []System{
	{Name: "netsuite", Label: "NetSuite",
		// The customer record's fields as the CSV Import Assistant maps
		// them by name: External ID matches the record; Hold is the
		// credit hold override, whose values are On, Off and Auto.
		Header: []string{"External ID", "Company Name", "Credit Limit", "Hold"},
		row: func(l Line) []string {
			hold := ""
			switch l.Action {
			case store.ERPHold:
				hold = "On"
			case store.ERPRelease:
				hold = "Auto"
			}
			return []string{l.Account, l.Name, limitCell(l), hold}
		},
		Note: "Import as an update of Customers, matched on External ID; an empty cell leaves the field as it is. A release sets Hold back to Auto: NetSuite then holds the customer only past its credit limit."},
	{Name: "business-central", Label: "Business Central",
		// The Customer table's fields as a configuration package names
		// them: Blocked takes " ", Ship, Invoice or All.
		Header: []string{"No.", "Name", "Credit Limit (LCY)", "Blocked"},
		row: func(l Line) []string {
			blocked := ""
			switch l.Action {
			case store.ERPHold:
				blocked = "Ship"
			case store.ERPRelease:
				blocked = " "
			}
			return []string{l.Account, l.Name, limitCell(l), blocked}
		},
		Note: "Import into a configuration package for table 18 (Customer), fields No., Name, Credit Limit (LCY) and Blocked; a hold blocks shipping (Ship), a release clears Blocked."},
	{Name: "quickbooks", Label: "QuickBooks",
		// QuickBooks Desktop's customer list (Add/Edit Multiple List
		// Entries, or an import mapping): it has a credit limit but no
		// hold field, so a hold is written in the customer's note.
		Header: []string{"Customer", "Company Name", "Credit Limit", "Note"},
		row: func(l Line) []string {
			note := ""
			switch l.Action {
			case store.ERPHold:
				note = "CREDIT HOLD: " + l.ReasonsText()
			case store.ERPRelease:
				note = "Credit hold released"
			}
			return []string{l.Account, l.Name, limitCell(l), note}
		},
		Note: "Map Customer to the customer's name in QuickBooks (the team's account number, as the ledger gives it). QuickBooks has no hold field: a hold and its release are written in Note for the order desk."},
	{Name: "xero", Label: "Xero",
		// Xero's contacts update file, matched on the contact's name and
		// account number as Xero exports them.
		Header: []string{"*ContactName", "AccountNumber", "CreditLimit", "BlockSalesOverLimit"},
		row: func(l Line) []string {
			block := ""
			switch l.Action {
			case store.ERPHold:
				block = "Yes"
			case store.ERPRelease:
				block = "No"
			}
			return []string{l.Name, l.Account, limitCell(l), block}
		},
		Note: "Import as an update of existing contacts, with Ignore empty fields on. A hold turns on blocking sales over the limit; a release turns it off."},
	{Name: "generic", Label: "Any other (generic CSV)",
		Header: []string{"account", "name", "credit_limit", "limit_changed", "previous_limit", "hold", "reasons"},
		row: func(l Line) []string {
			changed := "no"
			if l.LimitChanged {
				changed = "yes"
			}
			return []string{l.Account, l.Name, LimitText(l.Limit), changed, LimitText(l.Before), l.Action, l.ReasonsText()}
		},
		Note: "Every column of the worksheet: the limit in force (and whether it changed since the last export), and hold or release with its reasons."},
}

// limitCell is the limit to send: the limit in force when it changed,
// else empty, so that an import that ignores empty fields leaves it.
func limitCell(l Line) string {
	if !l.LimitChanged {
		return ""
	}
	return LimitText(l.Limit)
}

// SystemNamed is the system of ?system=, false for none of them.
func SystemNamed(name string) (System, bool) {
	for _, s := range Systems {
		if s.Name == name {
			return s, true
		}
	}
	return System{}, false
}

// Write writes the lines in the system's shape: its header, then a row
// per line, text marked where a spreadsheet would read a formula.
func (s System) Write(w io.Writer, lines []Line) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(s.Header); err != nil {
		return err
	}
	for _, l := range lines {
		cells := s.row(l)
		for i, c := range cells {
			cells[i] = store.CSVCell(c)
		}
		if err := cw.Write(cells); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

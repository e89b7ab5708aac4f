package ledger

import (
	"strings"
	"unicode"

	"creditdash/internal/store"
)

// legalSuffixes are the company forms a name may end with, folded; they
// say nothing of which company it is ("Acme Inc." is "ACME").
var legalSuffixes = map[string]bool{"inc": true, "incorporated": true, "corp": true, "corporation": true, "co": true,
	"company": true, "llc": true, "ltd": true, "limited": true, "plc": true, "gmbh": true, "ag": true, "sa": true, "sas": true,
	"sarl": true, "bv": true, "nv": true, "pty": true, "llp": true, "lp": true, "kg": true, "oy": true, "ab": true, "spa": true,
	"srl": true, "se": true, "the": true}

// NameKey folds a company's name for matching: letters and digits in
// lower case, words apart, "&" as "and", legal forms and a leading "the"
// dropped. "The Cannon Group, PLC" and "cannon group" agree.
func NameKey(s string) string {
	words := strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(s, "&", " and ")), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for len(words) > 1 && legalSuffixes[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	if len(words) > 1 && words[0] == "the" {
		words = words[1:]
	}
	return strings.Join(words, " ")
}

// Known is a business the team knows, by the name an account of it
// carries.
type Known struct {
	Name       string
	BusinessID int32
}

// LinkByName links each line the file links to nothing to the one
// business whose name matches its name (NameKey); a name that matches
// two businesses, or none, stays not linked: it is never guessed. It
// returns how many it linked and how many matched more than one.
func LinkByName(lines []store.LedgerLine, known []Known) (linked, ambiguous int) {
	byName := make(map[string]int32, len(known))
	for _, k := range known {
		key := NameKey(k.Name)
		if key == "" || k.BusinessID <= 0 {
			continue
		}
		if id, ok := byName[key]; ok && id != k.BusinessID {
			byName[key] = -1 // two businesses of one name
			continue
		}
		byName[key] = k.BusinessID
	}
	for i := range lines {
		l := &lines[i]
		if l.BusinessID != 0 || l.CustomerID != "" || l.SupplierID != "" {
			continue
		}
		switch id := byName[NameKey(l.Name)]; {
		case id > 0:
			l.BusinessID = id
			linked++
		case id < 0:
			ambiguous++
		}
	}
	return linked, ambiguous
}

// KnownOf are the businesses a ledger's lines link, by the names of their
// accounts: what LinkByName matches a new file's names against (the
// import page and the API's ledger push alike).
func KnownOf(have []store.LedgerBalance) []Known {
	known := make([]Known, 0, len(have))
	for _, b := range have {
		if b.BusinessID > 0 {
			known = append(known, Known{Name: b.Name, BusinessID: b.BusinessID})
		}
	}
	return known
}

// Unknown is a name no business links: the distinct name (NameKey) and
// the lines that carry it.
type Unknown struct {
	Name, Key string
	Lines     []int
}

// UnknownNames are the names of the lines the file links to nothing (no
// business, customer or supplier id) whose accounts the team's record
// does not link already (linked), each once, in the file's order: the
// names the service's Business/Search is to be asked about. The import
// page searches the first of them and queues the rest; a ledger pushed
// through the API, which holds no session key, queues them all.
func UnknownNames(lines []store.LedgerLine, linked map[string]bool) []Unknown {
	at := map[string]int{}
	var out []Unknown
	for i, l := range lines {
		if l.BusinessID != 0 || l.CustomerID != "" || l.SupplierID != "" || linked[l.Account] {
			continue
		}
		key := NameKey(l.Name)
		if key == "" {
			continue
		}
		j, seen := at[key]
		if !seen {
			j = len(out)
			at[key] = j
			out = append(out, Unknown{Name: l.Name, Key: key})
		}
		out[j].Lines = append(out[j].Lines, i)
	}
	return out
}

// Accounts are the accounts of the lines that carry the names, in order:
// what a queue of them holds.
func Accounts(lines []store.LedgerLine, names []Unknown) []string {
	var out []string
	for _, n := range names {
		for _, i := range n.Lines {
			out = append(out, lines[i].Account)
		}
	}
	return out
}

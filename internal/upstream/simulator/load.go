package simulator

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
)

// LoadDataset reads a dataset written by WriteJSON (or hand-made), validating it: unique business ids, users with unique names, folder business ids that exist, etc. Clear errors, never a panic.
//
// Unknown fields are refused (a typo in a hand-made file should not pass
// silently); businesses are sorted by id; missing lists become empty lists
// so the service answers [] rather than null. Free text (names, news,
// comments) is taken as it is, so tests can hand the service odd content.
func LoadDataset(r io.Reader) (*Dataset, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var d Dataset
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("simulator: load dataset: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("simulator: load dataset: unexpected data after the dataset")
	}
	d.normalize()
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("simulator: load dataset: %w", err)
	}
	return &d, nil
}

// WriteJSON writes the dataset as indented JSON.
func (d *Dataset) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // news markup stays readable in the file
	if err := enc.Encode(d); err != nil {
		return fmt.Errorf("simulator: write dataset: %w", err)
	}
	return nil
}

// Business returns the business with that id from the dataset (binary search; Businesses is sorted by ID).
func (d *Dataset) Business(id int32) (*Business, bool) {
	i := sort.Search(len(d.Businesses), func(i int) bool { return d.Businesses[i].ID >= id })
	if i < len(d.Businesses) && d.Businesses[i].ID == id {
		return &d.Businesses[i], true
	}
	return nil, false
}

// normalize turns absent lists into empty ones and orders businesses by id.
func (d *Dataset) normalize() {
	d.Businesses = genNonNil(d.Businesses)
	d.Users = genNonNil(d.Users)
	if d.IndustryNews == nil {
		d.IndustryNews = map[string][]NewsItem{}
	}
	for k, v := range d.IndustryNews {
		d.IndustryNews[k] = genNonNil(v)
	}
	for i := range d.Businesses {
		b := &d.Businesses[i]
		b.NAICS = genNonNil(b.NAICS)
		b.Statements = genNonNil(b.Statements)
		b.PaymentsMonthly = genNonNil(b.PaymentsMonthly)
		b.PaymentsSIC = genNonNil(b.PaymentsSIC)
		b.Scores = genNonNil(b.Scores)
		b.Officers = genNonNil(b.Officers)
		b.News = genNonNil(b.News)
		for k := range b.Statements {
			if b.Statements[k].Values == nil {
				b.Statements[k].Values = map[string]DataPoint{}
			}
		}
	}
	for i := range d.Users {
		u := &d.Users[i]
		u.Folders = genNonNil(u.Folders)
		for k := range u.Folders {
			u.Folders[k].BusinessIDs = genNonNil(u.Folders[k].BusinessIDs)
		}
		for k := range u.TradeProviders {
			if u.TradeProviders[k].Customers == nil {
				u.TradeProviders[k].Customers = map[string]int32{}
			}
		}
	}
	slices.SortStableFunc(d.Businesses, func(a, b Business) int { return cmp.Compare(a.ID, b.ID) })
}

// genNonNil returns s, or an empty slice when s is nil.
func genNonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

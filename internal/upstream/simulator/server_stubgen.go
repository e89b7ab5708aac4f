//go:build simstub

// Temporary local stand-in for the generator's API; never committed.
package simulator

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

type GenerateOptions struct {
	Seed int64
	AsOf time.Time
}

func Generate(opts GenerateOptions) *Dataset {
	asOf := opts.AsOf
	if asOf.IsZero() {
		asOf = time.Now().UTC().AddDate(0, -1, 0)
	}
	ds := &Dataset{Seed: opts.Seed, AsOf: asOf.Format("2006-01"), IndustryNews: map[string][]NewsItem{}}
	for id := int32(1001); id < 1011; id++ {
		ds.Businesses = append(ds.Businesses, GenerateBusiness(opts.Seed, asOf, id))
	}
	ds.Users = []User{{Username: "demo", Password: "demo", UserID: 1, Type: UserAPIUser, Access: AccessFull,
		Folders: []Folder{{FolderID: 1, FolderName: "Watch", BusinessIDs: []int32{1001, 1002, 1003}}}}}
	return ds
}

func GenerateBusiness(seed int64, asOf time.Time, id int32) Business {
	b := BulkListing(seed, asOf, int(id))
	b.ID = id
	b.Officers = []Officer{{FirstName: "Ann", LastName: "Lee", Title: "CEO", Age: 50}}
	b.News = []NewsItem{{ID: int64(id) * 10, Title: "News", Link: "https://example.com/", PubDate: asOf.Format(time.RFC1123)}}
	return b
}

func BulkBusinessID(i int) int32 { return 2_000_001 + int32(i) }

func BulkListing(seed int64, asOf time.Time, i int) Business {
	b := Business{ID: BulkBusinessID(i), Name: fmt.Sprintf("Bulk %08d Holdings Inc", i), City: "Springfield", State: "IL", Country: "US",
		NAICS: []NAICSCode{{Code: "423430", Name: "Computer equipment merchant wholesalers"}}, Public: i%2 == 0}
	m := time.Date(asOf.Year(), asOf.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, -23, 0)
	for k := 0; k < 24; k++ {
		r, p := 1+(i+k)%10, 1+(i*3+k)%10
		z := float64((i+k)%900)/100 - 1
		b.Scores = append(b.Scores, ScoreMonth{Year: m.Year(), Month: int(m.Month()), Risk: &r, Pay: &p, DBT: &r, Z: &z})
		m = m.AddDate(0, 1, 0)
	}
	return b
}

func LoadDataset(r io.Reader) (*Dataset, error) {
	var d Dataset
	err := json.NewDecoder(r).Decode(&d)
	return &d, err
}

func (d *Dataset) WriteJSON(w io.Writer) error { return json.NewEncoder(w).Encode(d) }

func (d *Dataset) Business(id int32) (*Business, bool) {
	for i := range d.Businesses {
		if d.Businesses[i].ID == id {
			return &d.Businesses[i], true
		}
	}
	return nil, false
}

func APIOnlyKeys() []string { return []string{"Sales", "NetIncome", "TotalAssets"} }

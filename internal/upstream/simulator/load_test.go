package simulator

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestLoadRoundTrip(t *testing.T) {
	d := genTestDataset(t)
	got, err := LoadDataset(bytes.NewReader(genTestJSON(t)))
	if err != nil {
		t.Fatalf("LoadDataset(WriteJSON(d)): %v", err)
	}
	if !reflect.DeepEqual(got, d) {
		t.Fatal("LoadDataset(WriteJSON(d)) differs from d")
	}
}

// genTiny is a small hand-made dataset that passes validation; each case
// of TestLoadRejects breaks one thing in it.
func genTiny() map[string]any {
	return map[string]any{
		"seed": 0, "asOf": "2026-05",
		"businesses": []any{
			map[string]any{"id": 2, "name": "Zeta Two Inc", "scores": []any{
				map[string]any{"year": 2026, "month": 4, "risk": 5},
				map[string]any{"year": 2026, "month": 5, "risk": nil},
			}},
			map[string]any{"id": 1, "name": "Alpha One Co", "paymentsMonthly": []any{
				map[string]any{"monthReported": "2026-05", "totalDue": 1e12},
			}},
		},
		"users": []any{
			map[string]any{"username": "u", "password": "p", "userId": 1, "type": UserAPIUser, "access": AccessFull,
				"folders":        []any{map[string]any{"folderId": 1, "folderName": "F", "businessIds": []any{1, 2}}},
				"suppliers":      map[string]any{"S-1": 1},
				"tradeProviders": []any{map[string]any{"id": "TP-1", "name": "T", "customers": map[string]any{"C-2": 2}}}},
		},
	}
}

// genPath walks a JSON-like value by keys and indexes and sets the last one.
func genSet(v any, value any, path ...any) {
	for i, p := range path {
		last := i == len(path)-1
		switch p := p.(type) {
		case string:
			m := v.(map[string]any)
			if last {
				if value == nil {
					delete(m, p)
				} else {
					m[p] = value
				}
				return
			}
			v = m[p]
		case int:
			s := v.([]any)
			if last {
				s[p] = value
				return
			}
			v = s[p]
		}
	}
}

func TestLoadTinyDataset(t *testing.T) {
	raw, _ := json.Marshal(genTiny())
	d, err := LoadDataset(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("LoadDataset(tiny): %v", err)
	}
	if d.Businesses[0].ID != 1 || d.Businesses[1].ID != 2 {
		t.Errorf("businesses not sorted by id: %d, %d", d.Businesses[0].ID, d.Businesses[1].ID)
	}
	b, ok := d.Business(2)
	if !ok || b.Scores[1].Risk != nil || b.Officers == nil || b.News == nil || b.NAICS == nil {
		t.Errorf("Business(2) = %+v, %v; want a null risk kept and absent lists empty", b, ok)
	}
	if d.IndustryNews == nil {
		t.Error("absent industryNews should load as an empty map")
	}
}

func TestLoadRejects(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(v map[string]any)
		raw   string // used instead of edit when set
		wants string
	}{
		{name: "not json", raw: "{", wants: "unexpected EOF"},
		{name: "empty input", raw: "", wants: "EOF"},
		{name: "trailing data", raw: `{"asOf":"2026-05"} {}`, wants: "after the dataset"},
		{name: "unknown field", edit: func(v map[string]any) { v["bogus"] = 1 }, wants: `unknown field "bogus"`},
		{name: "wrong type", edit: func(v map[string]any) { genSet(v, "x", "businesses", 0, "id") }, wants: "businesses.id"},
		{name: "bad asOf", edit: func(v map[string]any) { v["asOf"] = "May 2026" }, wants: `asOf "May 2026"`},
		{name: "duplicate id", edit: func(v map[string]any) { genSet(v, 1, "businesses", 0, "id") }, wants: "business 1: duplicate id"},
		{name: "zero id", edit: func(v map[string]any) { genSet(v, 0, "businesses", 0, "id") }, wants: "id must be positive"},
		{name: "empty name", edit: func(v map[string]any) { genSet(v, "", "businesses", 1, "name") }, wants: "business 1: empty name"},
		{name: "month 13", edit: func(v map[string]any) { genSet(v, 13, "businesses", 0, "scores", 1, "month") }, wants: "month 13 out of range"},
		{name: "scores not oldest first", edit: func(v map[string]any) { genSet(v, 6, "businesses", 0, "scores", 0, "month") }, wants: "oldest first"},
		{name: "bad payment month", edit: func(v map[string]any) {
			genSet(v, "2026/05", "businesses", 1, "paymentsMonthly", 0, "monthReported")
		}, wants: `monthReported "2026/05"`},
		{name: "duplicate username", edit: func(v map[string]any) {
			u := v["users"].([]any)
			v["users"] = append(u, map[string]any{"username": "u", "userId": 2, "type": UserAPIUser, "access": AccessFull})
		}, wants: `user "u": duplicate username`},
		{name: "empty username", edit: func(v map[string]any) { genSet(v, "", "users", 0, "username") }, wants: "empty username"},
		{name: "unknown user type", edit: func(v map[string]any) { genSet(v, "Gold", "users", 0, "type") }, wants: `type "Gold"`},
		{name: "unknown access", edit: func(v map[string]any) { genSet(v, "Some", "users", 0, "access") }, wants: `access "Some"`},
		{name: "folder with unknown business", edit: func(v map[string]any) {
			genSet(v, []any{1, 999999}, "users", 0, "folders", 0, "businessIds")
		}, wants: "business 999999 does not exist"},
		{name: "duplicate folder id", edit: func(v map[string]any) {
			f := map[string]any{"folderId": 1, "folderName": "G"}
			genSet(v, []any{f, f}, "users", 0, "folders")
		}, wants: "folder 1: duplicate folderId"},
		{name: "supplier to unknown business", edit: func(v map[string]any) {
			genSet(v, map[string]any{"S-9": 9}, "users", 0, "suppliers")
		}, wants: `supplier "S-9": business 9 does not exist`},
		{name: "customer to unknown business", edit: func(v map[string]any) {
			genSet(v, map[string]any{"C-8": 8}, "users", 0, "tradeProviders", 0, "customers")
		}, wants: `customer "C-8": business 8 does not exist`},
		{name: "empty trade provider id", edit: func(v map[string]any) { genSet(v, "", "users", 0, "tradeProviders", 0, "id") }, wants: "empty or duplicate id"},
		{name: "id overflows int32", edit: func(v map[string]any) { genSet(v, 1<<40, "businesses", 0, "id") }, wants: "businesses.id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := tt.raw
			if tt.edit != nil {
				v := genTiny()
				tt.edit(v)
				b, _ := json.Marshal(v)
				raw = string(b)
			}
			d, err := LoadDataset(strings.NewReader(raw))
			if err == nil {
				t.Fatalf("LoadDataset accepted it: %d businesses", len(d.Businesses))
			}
			if !strings.Contains(err.Error(), tt.wants) || !strings.HasPrefix(err.Error(), "simulator: load dataset: ") {
				t.Errorf("error %q, want it to start with the package prefix and mention %q", err, tt.wants)
			}
		})
	}
}

// FuzzLoadDataset checks that no input makes LoadDataset panic, and that
// whatever it accepts writes and loads back the same.
func FuzzLoadDataset(f *testing.F) {
	tiny, _ := json.Marshal(genTiny())
	f.Add(tiny)
	f.Add([]byte(`{"asOf":"2026-05","businesses":[{"id":1,"name":"A","scores":[{"year":2026,"month":5}]}]}`))
	f.Add([]byte(`{"asOf":"2026-05","users":[{"username":"x","type":"APIUser","access":"Full","folders":[{"businessIds":null}]}]}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, err := LoadDataset(bytes.NewReader(raw))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := d.WriteJSON(&buf); err != nil {
			t.Fatalf("WriteJSON of an accepted dataset: %v", err)
		}
		if _, err := LoadDataset(&buf); err != nil {
			t.Fatalf("an accepted dataset does not load back: %v", err)
		}
	})
}

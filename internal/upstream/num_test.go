package upstream

import (
	"encoding/json"
	"testing"
)

// TestNumReadsNumbersAndNull: an answer's optional numbers decode to a
// value or to absent, whole numbers stay whole, and anything else is
// refused, as the pointers they replaced were.
func TestNumReadsNumbersAndNull(t *testing.T) {
	type row struct {
		I Num[int]     `json:"i"`
		F Num[float64] `json:"f"`
	}
	for _, tt := range []struct {
		in   string
		want row
		bad  bool
	}{
		{in: `{"i": 7, "f": 2.25}`, want: row{Some(7), Some(2.25)}},
		{in: `{"i": null, "f": null}`, want: row{}},
		{in: `{}`, want: row{}},
		{in: `{"i": -3, "f": 0}`, want: row{Some(-3), Some(0.0)}},
		{in: `{"i": 1e2, "f": -1.5e-3}`, want: row{Some(100), Some(-0.0015)}},
		{in: `{"i": 7.5}`, bad: true},
		{in: `{"i": 1e300}`, bad: true},
		{in: `{"i": "7"}`, bad: true},
		{in: `{"f": true}`, bad: true},
		{in: `{"f": [1]}`, bad: true},
	} {
		var got row
		err := unmarshalAnswer([]byte(tt.in), &got)
		switch {
		case tt.bad && err == nil:
			t.Errorf("%s: decoded as %+v, want an error", tt.in, got)
		case !tt.bad && err != nil:
			t.Errorf("%s: %v", tt.in, err)
		case !tt.bad && got != tt.want:
			t.Errorf("%s: %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

// TestNumKeepsItsJSON: a dated copy written with encoding/json reads back
// the same, with null for an absent number.
func TestNumKeepsItsJSON(t *testing.T) {
	in := []CreditScoreHistoryRow{{RiskScore: Some(4), ZScore: Some(1.75), Year: 2026, Month: 9}, {Year: 2026, Month: 10}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `[{"RiskScore":4,"DBTScore":null,"ZScore":1.75,"PayScore":null,"Year":2026,"Month":9,"Quarter":0},` +
		`{"RiskScore":null,"DBTScore":null,"ZScore":null,"PayScore":null,"Year":2026,"Month":10,"Quarter":0}]`
	if string(b) != want {
		t.Errorf("encoded %s\nwant    %s", b, want)
	}
	var back []CreditScoreHistoryRow
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[0] != in[0] || back[1] != in[1] {
		t.Errorf("read back %+v, want %+v", back, in)
	}
	if v, ok := back[0].ZScore.Get(); !ok || v != 1.75 {
		t.Errorf("Get = %v, %v", v, ok)
	}
}

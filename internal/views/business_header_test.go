package views

import (
	"testing"

	"creditdash/internal/upstream"
)

func TestBusinessPath(t *testing.T) {
	cases := []struct {
		ref  upstream.BusinessRef
		tab  BusinessTab
		want string
	}{
		{upstream.ByID(1001), TabOverview, "/businesses/1001"},
		{upstream.ByID(1001), TabPayments, "/businesses/1001/payments"},
		{upstream.BySupplierID("S-1001"), TabFinancials, "/suppliers/S-1001/financials"},
		{upstream.ByCustomerID("C1-1001"), TabOfficers, "/customers/C1-1001/officers"},
		{upstream.ByCustomerID("C/1?x=<y>"), TabOverview, "/customers/C%2F1%3Fx=%3Cy%3E"},
	}
	for _, c := range cases {
		if got := BusinessPath(c.ref, c.tab); got != c.want {
			t.Errorf("BusinessPath(%s, %q) = %q, want %q", c.ref, c.tab, got, c.want)
		}
	}
}

func TestNewBusinessHeader(t *testing.T) {
	ident := &upstream.Identification{BusinessID: 1001, BusinessName: "Westbridge Department Stores Inc",
		City: "Columbus", State: "OH", Country: "USA", Ticker: "WDSP", Public: true}
	naics := []upstream.NAICSCode{{Code: "455110", Name: "Department Stores"}}
	h := NewBusinessHeader(upstream.BySupplierID("S-1001"), ident, naics, TabPayments, "http://x/suppliers/S-1001/payments")
	if h.Name != ident.BusinessName || !h.Named || h.Location != "Columbus, OH, USA" {
		t.Errorf("header = %+v", h)
	}
	wantFacts := []string{"Supplier id S-1001", "Business id 1001", "Ticker WDSP", "Public company"}
	if len(h.Facts) != len(wantFacts) {
		t.Fatalf("facts = %q, want %q", h.Facts, wantFacts)
	}
	for i := range wantFacts {
		if h.Facts[i] != wantFacts[i] {
			t.Errorf("facts = %q, want %q", h.Facts, wantFacts)
		}
	}
	if len(h.NAICS) != 1 || h.NAICS[0] != (NAICSItem{"455110", "Department Stores"}) {
		t.Errorf("NAICS = %+v", h.NAICS)
	}
	if len(h.Tabs) != 4 {
		t.Fatalf("tabs = %+v", h.Tabs)
	}
	for _, tab := range h.Tabs {
		if (tab.Label == "Payments") != tab.Current {
			t.Errorf("tab %s current = %v", tab.Label, tab.Current)
		}
	}
	if h.Tabs[0].URL != "/suppliers/S-1001" || h.Tabs[3].URL != "/suppliers/S-1001/officers" {
		t.Errorf("tabs must keep the supplier id: %+v", h.Tabs)
	}
	if h.ShareURL != "http://x/suppliers/S-1001/payments" {
		t.Errorf("share URL = %q", h.ShareURL)
	}

	// Without IdentificationGroup the header names the business by its id.
	plain := NewBusinessHeader(upstream.ByID(1001), nil, nil, TabOverview, "")
	if plain.Name != "Business 1001" || plain.Named || plain.Location != "" || len(plain.Facts) != 1 {
		t.Errorf("header without identification = %+v", plain)
	}
	if got := NewBusinessHeader(upstream.ByCustomerID("C1-7"), nil, nil, TabOverview, "").Name; got != "Business C1-7" {
		t.Errorf("customer header name = %q", got)
	}
	for tab, want := range map[BusinessTab]string{TabOverview: "Overview", TabOfficers: "Officers", "nope": "Overview"} {
		if got := tab.Label(); got != want {
			t.Errorf("%q.Label() = %q, want %q", tab, got, want)
		}
	}
}

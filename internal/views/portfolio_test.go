package views

import (
	"testing"
	"time"

	"creditdash/internal/upstream"
)

func TestFolderRowsCountMembersPerFolder(t *testing.T) {
	created := upstream.DateTime{Time: time.Date(2025, 2, 14, 9, 25, 8, 0, time.UTC)}
	folders := []upstream.Folder{
		{FolderID: 101, FolderName: "Retail watchlist", DateCreated: created, DateUpdated: created},
		{FolderID: 102, FolderName: "  ", DateCreated: created},
		{FolderID: 103, FolderName: "Empty"},
	}
	members := []upstream.PortfolioBusiness{{BusinessID: 1, FolderID: 101}, {BusinessID: 2, FolderID: 101}, {BusinessID: 1, FolderID: 102}}
	rows := FolderRows(folders, members, true)
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	if r := rows[0]; r.Name != "Retail watchlist" || r.URL != "/portfolio/folders/101" || r.Count != "2" ||
		r.Created != "Feb 14, 2025" || r.CreatedISO != "2025-02-14" {
		t.Errorf("row 0 = %+v", r)
	}
	if r := rows[1]; r.Name != "Folder 102" || r.Count != "1" || r.Updated != Dash || r.UpdateISO != "" {
		t.Errorf("row 1 = %+v", r)
	}
	if rows[2].Count != "0" {
		t.Errorf("empty folder counts %q", rows[2].Count)
	}
	for _, r := range FolderRows(folders, nil, false) {
		if r.Count != "" {
			t.Errorf("without a member listing, %s has count %q", r.Name, r.Count)
		}
	}
}

func TestFolderBusinesses(t *testing.T) {
	members := []upstream.PortfolioBusiness{
		{BusinessID: 3, BusinessName: "Charlie"}, {BusinessID: 1, BusinessName: "Alpha"},
		{BusinessID: 3, BusinessName: "Charlie"}, {BusinessID: 2, BusinessName: ""}, {BusinessID: 4, BusinessName: "Delta"},
	}
	list, more := FolderBusinesses(members, 3)
	if len(list) != 3 || more != 1 {
		t.Fatalf("list %+v more %d, want 3 and 1", list, more)
	}
	if list[0].Name != "Alpha" || list[1].Name != "Business 2" || list[2].Name != "Charlie" || list[2].URL != "/businesses/3" {
		t.Errorf("list = %+v", list)
	}
	if name, ok := FolderName([]upstream.Folder{{FolderID: 5, FolderName: "Five"}}, 5); !ok || name != "Five" {
		t.Errorf("FolderName = %q %v", name, ok)
	}
	if _, ok := FolderName(nil, 5); ok {
		t.Error("FolderName found a folder in nothing")
	}
}

func TestTradePage(t *testing.T) {
	tp := upstream.TradeProviders{Current: "TP-2", Providers: []upstream.TradeProvider{{ID: "TP-1", Name: "Keystone"}, {ID: "TP-2", Name: ""}}}
	p := NewTradePage(Base{}, tp, "")
	if p.Current != "TP-2 (TP-2)" || !p.Providers[1].Current || !p.Providers[1].Checked || p.Providers[0].Checked {
		t.Errorf("page = %+v", p)
	}
	if p := NewTradePage(Base{}, tp, "TP-1"); !p.Providers[0].Checked || p.Providers[1].Checked {
		t.Errorf("the user's pick is not kept: %+v", p.Providers)
	}
	if !HasProvider(tp, "TP-1") || HasProvider(tp, "TP-3") || HasProvider(tp, "") {
		t.Error("HasProvider")
	}
	if got := ChosenFlash(tp, "TP-2"); got != "Customer ids now belong to TP-2 (TP-2)." {
		t.Errorf("flash = %q", got)
	}
	if got := ChosenFlash(tp, "TP-1"); got != "" {
		t.Errorf("a choice that is not current confirms %q", got)
	}
	if p := NewTradePage(Base{}, upstream.TradeProviders{}, ""); len(p.Providers) != 0 || p.Current != "" {
		t.Errorf("no providers: %+v", p)
	}
}

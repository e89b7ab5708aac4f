package views

import (
	"testing"
	"time"
)

func TestExportFileName(t *testing.T) {
	day := time.Date(2026, time.November, 21, 23, 59, 0, 0, time.UTC)
	cases := []struct {
		folder  string
		id      int
		ext     string
		ascii   string
		unicode string
	}{
		{"", 0, "csv", "portfolio-all-2026-11-21.csv", "portfolio-all-2026-11-21.csv"},
		{"Retail watchlist", 101, "xml", "portfolio-retail-watchlist-2026-11-21.xml", "portfolio-retail-watchlist-2026-11-21.xml"},
		{`  Q4 "renewals" / 2026\..  `, 102, "json", "portfolio-q4-renewals-2026-2026-11-21.json", "portfolio-q4-renewals-2026-2026-11-21.json"},
		{"../../etc/passwd", 7, "csv", "portfolio-etc-passwd-2026-11-21.csv", "portfolio-etc-passwd-2026-11-21.csv"},
		{"Café Zürich", 103, "csv", "portfolio-caf-z-rich-2026-11-21.csv", "portfolio-café-zürich-2026-11-21.csv"},
		{"日本の取引先", 104, "csv", "portfolio-folder-104-2026-11-21.csv", "portfolio-日本の取引先-2026-11-21.csv"},
		{"\r\nContent-Type: text/html", 105, "csv", "portfolio-content-type-text-html-2026-11-21.csv", "portfolio-content-type-text-html-2026-11-21.csv"},
		{"!!!", 106, "csv", "portfolio-folder-106-2026-11-21.csv", "portfolio-folder-106-2026-11-21.csv"},
	}
	for _, c := range cases {
		a, u := ExportFileName(c.folder, c.id, day, c.ext)
		if a != c.ascii || u != c.unicode {
			t.Errorf("ExportFileName(%q) = %q, %q; want %q, %q", c.folder, a, u, c.ascii, c.unicode)
		}
		for _, r := range a {
			if r > 0x7e || r < 0x20 || r == '"' || r == '\\' || r == '/' {
				t.Errorf("ASCII name %q holds %q", a, r)
			}
		}
	}
	long := ""
	for range 30 {
		long += "word "
	}
	if a, _ := ExportFileName(long, 1, day, "csv"); len(a) > len("portfolio-")+maxSlug+len("-2026-11-21.csv")+1 {
		t.Errorf("long folder name gives %d-byte file name %q", len(a), a)
	}
}

func TestLookupExportFormat(t *testing.T) {
	for in, want := range map[string]string{"csv": "CSV", "XML": "XML", "Json": "JSON"} {
		f, ok := LookupExportFormat(in)
		if !ok || f.Wire != want {
			t.Errorf("LookupExportFormat(%q) = %+v %v", in, f, ok)
		}
	}
	for _, bad := range []string{"", "xlsx", "csv ", "c sv"} {
		if _, ok := LookupExportFormat(bad); ok {
			t.Errorf("LookupExportFormat(%q) accepted", bad)
		}
	}
	if f, _ := LookupExportFormat("json"); f.Ext != "json" {
		t.Errorf("json = %+v", f)
	}
}

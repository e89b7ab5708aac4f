package ledger

import (
	"slices"
	"testing"
	"time"

	"creditdash/internal/amount"
	"creditdash/internal/store"
)

// parseAt reads data and parses it with the table's own mapping at asOf.
func parseAt(t *testing.T, data []byte, asOf string) (*Table, Result) {
	t.Helper()
	tab, err := Read(t.Context(), data)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	m := tab.Mapping()
	if err := m.Check(tab.Header); err != nil {
		t.Fatalf("Check: %v (header %q)", err, tab.Header)
	}
	d, _ := time.Parse("2006-01-02", asOf)
	return tab, Parse(tab, m, Options{AsOf: d})
}

// byKey is the lines by account key.
func byKey(res Result) map[string]store.LedgerLine {
	out := map[string]store.LedgerLine{}
	for _, l := range res.Lines {
		out[l.Account] = l
	}
	return out
}

// wantReconciled checks the file's total row against the total imported.
func wantReconciled(t *testing.T, res Result, total float64) {
	t.Helper()
	if res.FileTotal == nil || *res.FileTotal != total || res.Imported != total || !res.Reconciled() {
		t.Errorf("file total %v, imported %v; want both %v", res.FileTotal, res.Imported, total)
	}
}

// wantLine checks an account's balance and buckets.
func wantLine(t *testing.T, lines map[string]store.LedgerLine, key string, balance float64, buckets [5]float64) {
	t.Helper()
	l, ok := lines[key]
	if !ok {
		t.Errorf("no account %q among %v", key, lines)
		return
	}
	got := [5]float64{l.Current, l.Days1to30, l.Days31to60, l.Days61to90, l.DaysOver90}
	if l.Balance != balance || got != buckets {
		t.Errorf("%s: balance %v buckets %v; want %v %v", key, l.Balance, got, balance, buckets)
	}
}

// TestQuickBooksAgingSummary: QuickBooks Online's A/R Aging Summary as it
// exports it: a title block, a blank first header cell over the
// customers' names, "$18,400.00", a TOTAL row and a timestamp footer.
// Names-only: each name is its account's key, imported not linked.
func TestQuickBooksAgingSummary(t *testing.T) {
	csv := "Craig's Design and Landscaping Services\nA/R Aging Summary\nAs of November 28, 2026\n\n" +
		",Current,1 - 30,31 - 60,61 - 90,91 and over,Total\n" +
		"Amy's Bird Sanctuary,\"$18,400.00\",,,,,\"$18,400.00\"\n" +
		"Bill's Windsurf Shop,,$85.00,,,,$85.00\n" +
		"Cool Cars,\"$2,369.52\",\"$1,000.00\",,,$100.00,\"$3,469.52\"\n" +
		"Freeman Sporting Goods,-$50.00,,,,,-$50.00\n" +
		"Kookies by Kathy,,,\"$887,721.63\",,,\"$887,721.63\"\n" +
		"TOTAL,\"$20,719.52\",\"$1,085.00\",\"$887,721.63\",$0.00,$100.00,\"$909,626.15\"\n\n\n" +
		"\"Friday, November 28, 2026 03:04:05 PM GMT-08:00\"\n"
	tab, res := parseAt(t, []byte(csv), "2026-11-28")
	if tab.HeaderRow != 5 || tab.Decimal != amount.Point || tab.Mapping()[0] != Name {
		t.Errorf("header row %d, decimal %v, mapping %v", tab.HeaderRow, tab.Decimal, tab.Mapping())
	}
	if len(res.Lines) != 5 || len(res.Bad) != 0 || res.Totals != 1 || res.Notes != 1 || res.Unlinked != 5 {
		t.Fatalf("%d lines, bad %+v, %d totals, %d notes, %d unlinked", len(res.Lines), res.Bad, res.Totals, res.Notes, res.Unlinked)
	}
	wantReconciled(t, res, 909626.15)
	lines := byKey(res)
	wantLine(t, lines, "Cool Cars", 3469.52, [5]float64{2369.52, 1000, 0, 0, 100})
	wantLine(t, lines, "Freeman Sporting Goods", -50, [5]float64{-50, 0, 0, 0, 0})
	if l := lines["Amy's Bird Sanctuary"]; l.Name != "Amy's Bird Sanctuary" || l.BusinessID != 0 {
		t.Errorf("a names-only line = %+v", l)
	}
}

// TestQuickBooksAgingDetail: the Detail report: one line per invoice
// under each customer's heading, "Total for …" subtotals, the open
// balance (never the original amount) summed and aged from due dates.
func TestQuickBooksAgingDetail(t *testing.T) {
	csv := "Craig's Design and Landscaping Services\nA/R Aging Detail\nAs of November 28, 2026\n\n" +
		",Date,Transaction Type,Num,Due Date,Amount,Open Balance\n" +
		"Amy's Bird Sanctuary\n" +
		",10/01/2026,Invoice,1001,10/31/2026,\"$1,000.00\",$400.00\n" +
		",11/15/2026,Invoice,1002,12/15/2026,$600.00,$600.00\n" +
		"Total for Amy's Bird Sanctuary,,,,,\"$1,600.00\",\"$1,000.00\"\n" +
		"Cool Cars\n" +
		",07/01/2026,Invoice,1003,07/31/2026,\"$2,000.00\",\"$2,000.00\"\n" +
		",11/20/2026,Credit Memo,1004,11/20/2026,-$150.00,-$150.00\n" +
		"Total for Cool Cars,,,,,\"$1,850.00\",\"$1,850.00\"\n" +
		"TOTAL,,,,,\"$3,450.00\",\"$2,850.00\"\n\n" +
		"\"Friday, November 28, 2026 03:04:05 PM GMT-08:00\"\n"
	_, res := parseAt(t, []byte(csv), "2026-11-28")
	if !res.OpenItems || res.Items != 4 || len(res.Lines) != 2 || len(res.Bad) != 0 || res.Subtotals != 2 || res.Totals != 1 || res.Notes != 3 {
		t.Fatalf("open %v, %d items, %d lines, bad %+v, %d subtotals, %d totals, %d notes", res.OpenItems, res.Items, len(res.Lines), res.Bad,
			res.Subtotals, res.Totals, res.Notes)
	}
	wantReconciled(t, res, 2850)
	lines := byKey(res)
	wantLine(t, lines, "Amy's Bird Sanctuary", 1000, [5]float64{600, 400, 0, 0, 0})
	wantLine(t, lines, "Cool Cars", 1850, [5]float64{0, -150, 0, 0, 2000})
}

// TestXeroAgedReceivablesSummary: Xero's Aged Receivables Summary as its
// "Export to Excel" writes it: the report's name, the organisation and
// "As at …" over the header; ageing by due date in periods of one month
// (Current, 1 Month, 2 Months, 3 Months, Older); Total the balance; an
// optional Outstanding GST column, not read; a credit note's negative
// balance; the Total row reconciled.
func TestXeroAgedReceivablesSummary(t *testing.T) {
	row := func(contact string, v ...float64) []xc {
		out := []xc{tx(contact)}
		for _, x := range v {
			out = append(out, nm(x))
		}
		return out
	}
	data := writeWorkbook(t, [][]xc{
		textRow("Aged Receivables Summary"), textRow("Kowhai Joinery Limited"), textRow("As at 30 November 2026"),
		textRow("Ageing by due date"), blankRow(),
		textRow("Contact", "Current", "1 Month", "2 Months", "3 Months", "Older", "Total", "Outstanding GST"),
		row("Bayside Club", 234, 0, 0, 0, 0, 234, 30.52),
		row("Marine Systems", 0, 1250, 0, 0, 396, 1646, 214.70),
		row("Ridgeway University", 0, 0, 500, 250, 0, 750, 97.83),
		row("Young Bros Transport", -120, 0, 0, 0, 0, -120, -15.65),
		row("Total", 114, 1250, 500, 250, 396, 2510, 327.40),
	}, nil)
	tab, res := parseAt(t, data, "2026-11-30")
	if tab.HeaderRow != 6 || len(res.Lines) != 4 || len(res.Bad) != 0 || res.Totals != 1 || res.Unlinked != 4 {
		t.Fatalf("header row %d, lines %+v, bad %+v, totals %d", tab.HeaderRow, res.Lines, res.Bad, res.Totals)
	}
	m := tab.Mapping()
	if want := (Mapping{Name, Current, Days1to30, Days31to60, Days61to90, DaysOver90, Balance, Ignore}); !slices.Equal(m, want) {
		t.Errorf("mapping %v, want %v", m, want)
	}
	wantReconciled(t, res, 2510)
	lines := byKey(res)
	wantLine(t, lines, "Marine Systems", 1646, [5]float64{0, 1250, 0, 0, 396})
	wantLine(t, lines, "Ridgeway University", 750, [5]float64{0, 0, 500, 250, 0})
	wantLine(t, lines, "Young Bros Transport", -120, [5]float64{-120, 0, 0, 0, 0})
}

// TestXeroAgedReceivablesDetail: the Detail report: each contact's name
// over its invoices and credit notes, "Total <contact>" under them, the
// grand Total row; each line's Total is what it still owes, summed per
// contact and aged from its due date (a credit note without one, from
// its date).
func TestXeroAgedReceivablesDetail(t *testing.T) {
	line := func(date, number, due string, v [5]float64, total float64) []xc {
		out := []xc{nm(serial(date)), tx(number), tx(""), tx("")}
		if due != "" {
			out[3] = nm(serial(due))
		}
		for _, x := range v {
			out = append(out, nm(x))
		}
		return append(out, nm(total))
	}
	total := func(label string, v ...float64) []xc {
		out := []xc{tx(label), tx(""), tx(""), tx("")}
		for _, x := range v {
			out = append(out, nm(x))
		}
		return out
	}
	data := writeWorkbook(t, [][]xc{
		textRow("Aged Receivables Detail"), textRow("Kowhai Joinery Limited"), textRow("As at 30 November 2026"), blankRow(),
		textRow("Invoice Date", "Invoice Number", "Invoice Reference", "Due Date", "Current", "1 Month", "2 Months", "3 Months", "Older", "Total"),
		textRow("Bayside Club"),
		line("2026-10-01", "INV-0101", "2026-10-31", [5]float64{0, 300, 0, 0, 0}, 300),
		line("2026-11-20", "INV-0140", "2026-12-20", [5]float64{180, 0, 0, 0, 0}, 180),
		line("2026-11-05", "CN-0012", "", [5]float64{0, -50, 0, 0, 0}, -50),
		total("Total Bayside Club", 180, 250, 0, 0, 0, 430),
		textRow("Marine Systems"),
		line("2026-07-15", "INV-0077", "2026-08-14", [5]float64{0, 0, 0, 396, 0}, 396),
		line("2026-09-25", "INV-0093", "2026-10-25", [5]float64{0, 0, 1250, 0, 0}, 1250),
		total("Total Marine Systems", 0, 0, 1250, 396, 0, 1646),
		total("Total", 180, 250, 1250, 396, 0, 2076),
	}, nil)
	tab, res := parseAt(t, data, "2026-11-30")
	if tab.HeaderRow != 5 || !res.OpenItems || res.Items != 5 || len(res.Lines) != 2 || len(res.Bad) != 0 || res.Subtotals != 2 || res.Totals != 1 {
		t.Fatalf("header row %d, open %v, %d items, lines %+v, bad %+v, %d subtotals, %d totals", tab.HeaderRow, res.OpenItems, res.Items,
			res.Lines, res.Bad, res.Subtotals, res.Totals)
	}
	wantReconciled(t, res, 2076)
	lines := byKey(res)
	wantLine(t, lines, "Bayside Club", 430, [5]float64{180, 250, 0, 0, 0})
	wantLine(t, lines, "Marine Systems", 1646, [5]float64{0, 0, 1250, 0, 396})
}

// TestXeroOlderLayout: a layout with a "< 1 Month" column counts its
// months one later: < 1 Month is 1-30, 1 Month 31-60, 2 Months 61-90.
func TestXeroOlderLayout(t *testing.T) {
	csv := "Aged Receivables\nDemo Company (US)\nAs at 30 November 2026\n" +
		"Contact,Current,< 1 Month,1 Month,2 Months,Older,Total\n" +
		"Bayside Club,234.00,0.00,0.00,0.00,0.00,234.00\n" +
		"Marine Systems,0.00,\"1,250.00\",75.00,0.00,396.00,\"1,721.00\"\n" +
		"Total,234.00,\"1,250.00\",75.00,0.00,396.00,\"1,955.00\"\n"
	tab, res := parseAt(t, []byte(csv), "2026-11-30")
	if tab.HeaderRow != 4 || len(res.Lines) != 2 || len(res.Bad) != 0 {
		t.Fatalf("header row %d, lines %+v, bad %+v", tab.HeaderRow, res.Lines, res.Bad)
	}
	wantReconciled(t, res, 1955)
	wantLine(t, byKey(res), "Marine Systems", 1721, [5]float64{0, 1250, 75, 0, 396})
}

// TestNetSuiteAging: NetSuite's summary: an options line above the
// header, sub-customers, parentheses for credits.
func TestNetSuiteAging(t *testing.T) {
	csv := "Honeycomb Mfg.\nA/R Aging Summary\nAs of Nov 30, 2026\nOptions: Show Zero\n" +
		"Customer,Current,1 - 30,31 - 60,61 - 90,> 90,Total\n" +
		"Acme Corp,\"$10,500.00\",$0.00,$0.00,$0.00,$0.00,\"$10,500.00\"\n" +
		"Acme Corp : Acme West,$500.00,$250.00,$0.00,$0.00,$0.00,$750.00\n" +
		"Globex,($100.00),$0.00,$0.00,$0.00,$0.00,($100.00)\n" +
		"Total,\"$10,900.00\",$250.00,$0.00,$0.00,$0.00,\"$11,150.00\"\n"
	_, res := parseAt(t, []byte(csv), "2026-11-30")
	if len(res.Lines) != 3 || len(res.Bad) != 0 {
		t.Fatalf("lines %+v, bad %+v", res.Lines, res.Bad)
	}
	wantReconciled(t, res, 11150)
	wantLine(t, byKey(res), "Globex", -100, [5]float64{-100, 0, 0, 0, 0})
}

// serial is a date as Excel stores it.
func serial(date string) float64 {
	d, _ := time.Parse("2006-01-02", date)
	return float64(d.Sub(excelEpoch).Hours() / 24)
}

// TestBusinessCentralOpenItems: Dynamics 365 Business Central's customer
// open items as XLSX: a title block, the header on row 5, one line per
// invoice and credit memo, Excel dates, the remaining amount (not the
// original one) summed per customer, and a =SUM Total row, which is
// recognised before its formula could refuse it.
func TestBusinessCentralOpenItems(t *testing.T) {
	line := func(posted, typ, doc, cust, name, due string, orig, rem float64) []xc {
		return []xc{nm(serial(posted)), tx(typ), tx(doc), tx(cust), tx(name), nm(serial(due)), nm(orig), nm(rem)}
	}
	data := writeWorkbook(t, [][]xc{
		textRow("CRONUS USA, Inc."), textRow("Customer - Open Items"), textRow("As of 11/28/2026"), blankRow(),
		textRow("Posting Date", "Document Type", "Document No.", "Customer No.", "Customer Name", "Due Date", "Original Amount", "Remaining Amount"),
		line("2026-10-31", "Invoice", "103001", "10000", "The Cannon Group PLC", "2026-11-30", 10000, 5000),
		line("2026-08-16", "Invoice", "102990", "10000", "The Cannon Group PLC", "2026-09-15", 3000, 3000),
		line("2026-10-01", "Credit Memo", "104001", "10000", "The Cannon Group PLC", "2026-10-01", -450, -450),
		line("2026-09-20", "Invoice", "103010", "20000", "Selangorian Ltd.", "2026-10-20", 8000, 8000),
		{tx("Total"), tx(""), tx(""), tx(""), tx(""), tx(""), fx("SUM(G6:G9)", fp(20550)), fx("SUM(H6:H9)", fp(15550))},
	}, nil)
	tab, res := parseAt(t, data, "2026-11-28")
	if tab.Format != "XLSX" || tab.HeaderRow != 5 || !res.OpenItems || len(res.Lines) != 2 || len(res.Bad) != 0 || res.Totals != 1 {
		t.Fatalf("%s header row %d, open %v, lines %+v, bad %+v, totals %d", tab.Format, tab.HeaderRow, res.OpenItems, res.Lines, res.Bad, res.Totals)
	}
	wantReconciled(t, res, 15550)
	lines := byKey(res)
	wantLine(t, lines, "10000", 7550, [5]float64{5000, 0, -450, 3000, 0})
	wantLine(t, lines, "20000", 8000, [5]float64{0, 0, 8000, 0, 0})
	if lines["10000"].Name != "The Cannon Group PLC" {
		t.Errorf("name = %q", lines["10000"].Name)
	}
}

// TestSAPOpenItems: an FBL5N-like list: semicolons under a title, decimal
// commas, a trailing minus, DD.MM.YYYY, "*" subtotals and a "**" total.
func TestSAPOpenItems(t *testing.T) {
	csv := "Customer Line Item Display\nCompany Code 1000\n" +
		";Account;Name 1;DocumentNo;Type;Doc. Date;Net due date;Amount in local currency;LCurr\n" +
		";100001;Müller GmbH;1800000012;DR;15.09.2026;15.10.2026;4.416,00;EUR\n" +
		";100001;Müller GmbH;1400000003;DZ;01.11.2026;01.11.2026;1.000,00-;EUR\n" +
		";100002;Schmidt AG;1800000020;DR;20.11.2026;20.12.2026;12.500,50;EUR\n" +
		"*;100001;;;;;;3.416,00;EUR\n*;100002;;;;;;12.500,50;EUR\n**;;;;;;;15.916,50;EUR\n"
	tab, res := parseAt(t, []byte(csv), "2026-11-30")
	if tab.Delimiter != ';' || tab.Decimal != amount.Comma || len(res.Lines) != 2 || len(res.Bad) != 0 || res.Subtotals != 2 {
		t.Fatalf("delimiter %q, decimal %v, lines %+v, bad %+v, subtotals %d", tab.Delimiter, tab.Decimal, res.Lines, res.Bad, res.Subtotals)
	}
	wantReconciled(t, res, 15916.5)
	lines := byKey(res)
	wantLine(t, lines, "100001", 3416, [5]float64{0, -1000, 4416, 0, 0})
	wantLine(t, lines, "100002", 12500.5, [5]float64{12500.5, 0, 0, 0, 0})
}

// TestAmbiguousDecimalsAsk: a file whose only separators could be either
// says so; its ambiguous amounts are refused until the analyst chooses,
// then read by the choice.
func TestAmbiguousDecimalsAsk(t *testing.T) {
	tab, err := Read(t.Context(), []byte("account,name,balance\nA-1,x,\"1,234\"\nA-2,y,500\n"))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Decimal != amount.Unknown || tab.Ambiguous != 1 {
		t.Fatalf("decimal %v, ambiguous %d", tab.Decimal, tab.Ambiguous)
	}
	m := tab.Mapping()
	res := Parse(tab, m, Options{})
	if len(res.Lines) != 1 || len(res.Bad) != 1 || res.Bad[0].Kind != "ambiguous amount" || res.Bad[0].Row != 2 {
		t.Errorf("undecided: lines %+v, bad %+v", res.Lines, res.Bad)
	}
	for c, want := range map[amount.Convention]float64{amount.Point: 1234, amount.Comma: 1.234} {
		res := Parse(tab, m, Options{Decimal: c})
		if len(res.Bad) != 0 || res.Lines[0].Balance != want {
			t.Errorf("%v: lines %+v, bad %+v", c, res.Lines, res.Bad)
		}
	}
}

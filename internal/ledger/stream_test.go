package ledger

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"
)

// TestFullFileIsReadAgain: a file of exactly MaxAccounts data rows under a
// title line, with blank rows between and after, keeps its first rows and
// its count; the rows read again (Parse, Validate) are every data row,
// numbered as in the file, each line with its own text.
func TestFullFileIsReadAgain(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("Aged receivables\nCustomer No.,Name,Business Id,Total Due,Credit Limit\n")
	for i := range MaxAccounts {
		if i == 5 {
			b.WriteString(",,,,\n")
		}
		fmt.Fprintf(&b, "C%06d,\"Customer %d, Inc\",%d,\"%d.50\",%d\n", i, i, 1001+i%520, i, 2*i)
	}
	b.WriteString("\n,,,,\n")
	tab, res := read(t, b.Bytes())
	if tab.Count != MaxAccounts || tab.HeaderRow != 2 || len(tab.Head) != HeadRows {
		t.Fatalf("count %d, header row %d, %d head rows", tab.Count, tab.HeaderRow, len(tab.Head))
	}
	if tab.Head[0].Number != 3 || tab.Head[0].Cell(1) != "Customer 0, Inc" || tab.Head[5].Number != 9 || tab.Head[5].Cell(0) != "C000005" {
		t.Errorf("head = %+v", tab.Head[:6])
	}
	if len(res.Lines) != MaxAccounts || res.Valid != MaxAccounts || len(res.Bad) != 0 {
		t.Fatalf("%d lines, %d valid, bad %+v", len(res.Lines), res.Valid, res.Bad)
	}
	for _, i := range []int{0, 4, 5, 31337, MaxAccounts - 1} {
		l := res.Lines[i]
		if l.Account != fmt.Sprintf("C%06d", i) || l.Name != fmt.Sprintf("Customer %d, Inc", i) || l.Balance != float64(i)+0.5 ||
			*l.ERPLimit != float64(2*i) || l.BusinessID != int32(1001+i%520) {
			t.Errorf("line %d = %+v", i, l)
		}
	}
	// Past MaxAccounts the accounts are refused, each named.
	b.WriteString("C999999,x,1001,1,1\n")
	_, res = read(t, b.Bytes())
	if res.Valid != MaxAccounts || len(res.Bad) != 1 || res.Bad[0].Kind != "too many accounts" {
		t.Errorf("one account more: %d valid, bad %+v", res.Valid, res.Bad)
	}
}

// TestValidateAgrees: the preview's Validate finds the rows Parse refuses
// and counts the ones it keeps (TestXLSX checks a workbook's).
func TestValidateAgrees(t *testing.T) {
	tab, res := read(t, []byte(erp))
	v := Validate(tab, Recognise(tab.Header), Options{})
	if v.Lines != nil || v.Valid != len(res.Lines) || res.Valid != len(res.Lines) || !reflect.DeepEqual(v.Bad, res.Bad) {
		t.Errorf("validate = %d valid, bad %+v; parse = %d lines, bad %+v", v.Valid, v.Bad, len(res.Lines), res.Bad)
	}
	if tab.Count != 8 || len(tab.Head) != 8 || tab.Head[7].Number != 10 {
		t.Errorf("count %d, head %+v", tab.Count, tab.Head)
	}
}

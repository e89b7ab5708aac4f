package ledger

import (
	"strings"
	"testing"
)

// TestOwnerIsAUserName: a ledger's owner passes the check the owner forms
// make (a user name as one signs in with), or its row is refused saying
// why; an empty owner is no owner.
func TestOwnerIsAUserName(t *testing.T) {
	file := "account,business_id,balance,owner\n" +
		"A-1,1001,10,jane.doe@example.com\n" +
		"A-2,1002,10,\n" +
		"A-3,1003,10,Jane Doe\n" +
		"A-4,1004,10,\"=HYPERLINK(\"\"http://x\"\")\"\n" +
		"A-5,1005,10," + strings.Repeat("x", 65) + "\n"
	_, res := read(t, []byte(file))
	if len(res.Lines) != 2 || res.Lines[0].Owner != "jane.doe@example.com" || res.Lines[1].Owner != "" {
		t.Errorf("lines = %+v, want A-1 owned by jane.doe@example.com and A-2 by no one", res.Lines)
	}
	bad := map[int]bool{}
	for _, p := range res.Bad {
		bad[p.Row] = true
		if !strings.Contains(p.Reason, "is not a user name") {
			t.Errorf("row %d: reason %q, want it to say the owner is not a user name", p.Row, p.Reason)
		}
	}
	if !bad[4] || !bad[5] || !bad[6] || len(bad) != 3 {
		t.Errorf("refused rows %v, want 4, 5 and 6", bad)
	}
}

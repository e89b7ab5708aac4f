package simulator

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestAddAnalystsCopiesDemoAndKeepsTheRest(t *testing.T) {
	ds := testCopy(t)
	n := len(ds.Users)
	before, _ := json.Marshal(ds.Users)
	if err := AddAnalysts(ds, 3); err != nil {
		t.Fatalf("AddAnalysts: %v", err)
	}
	if len(ds.Users) != n+3 {
		t.Fatalf("users = %d, want %d", len(ds.Users), n+3)
	}
	if after, _ := json.Marshal(ds.Users[:n]); !bytes.Equal(after, before) {
		t.Fatal("AddAnalysts changed the users that were there")
	}
	demo := ds.Users[slices.IndexFunc(ds.Users, func(u User) bool { return u.Username == "demo" })]
	for k, u := range ds.Users[n:] {
		if want := "load" + string(rune('1'+k)); u.Username != want {
			t.Errorf("user %d = %q, want %q", n+k, u.Username, want)
		}
		if u.Type != demo.Type || u.Access != demo.Access || len(u.Folders) != len(demo.Folders) || len(u.Suppliers) != len(demo.Suppliers) {
			t.Errorf("%s: type %s access %s, %d folders, %d suppliers; want the demo user's", u.Username, u.Type, u.Access, len(u.Folders), len(u.Suppliers))
		}
	}
	if err := ds.validate(); err != nil {
		t.Fatalf("validate after AddAnalysts: %v", err)
	}
}

func TestAddAnalystsBounds(t *testing.T) {
	ds := testCopy(t)
	n := len(ds.Users)
	if err := AddAnalysts(ds, 0); err != nil || len(ds.Users) != n {
		t.Fatalf("AddAnalysts(0) = %v, %d users; want nil, %d", err, len(ds.Users), n)
	}
	for _, bad := range []int{-1, MaxAnalysts + 1} {
		if err := AddAnalysts(ds, bad); err == nil {
			t.Errorf("AddAnalysts(%d) = nil, want an error", bad)
		}
	}
	if err := AddAnalysts(&Dataset{}, 1); err == nil {
		t.Error("AddAnalysts without a demo user = nil, want an error")
	}
}

func TestAddAnalystsCanSignIn(t *testing.T) {
	ds := testCopy(t)
	if err := AddAnalysts(ds, 2); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(New(ds, Options{}))
	defer srv.Close()
	form := url.Values{"Username": {"load2"}, "Password": {DemoPassword}}
	resp, err := http.Post(srv.URL+"/v1/Users/Login", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("sign-in as load2: status %d", resp.StatusCode)
	}
}

// testCopy is the shared fixture with a users slice of its own, which
// AddAnalysts may append to without touching other tests' data.
func testCopy(t *testing.T) *Dataset {
	ds := *genTestDataset(t)
	ds.Users = slices.Clone(ds.Users)
	return &ds
}

package upstream

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
)

// These tests check what the client puts on the wire for the two-factor
// calls and PeerAnalysis; contract_test.go runs them against the stand-in.

func TestSignInSendsCodeChoiceAndBrowserKey(t *testing.T) {
	for _, tt := range []struct{ name, browserKey string }{{"without a browser key", ""}, {"with one", "Bk32charactersAAAAAAAAAAAAAAAAAA"}} {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
				if err := r.ParseForm(); err != nil {
					t.Fatal(err)
				}
				f := r.PostForm
				_, hasKey := f["Key"]
				if r.URL.Path != "/v1/Users/Login" || f.Get("Username") != "secure" || f.Get("Password") != "pw" ||
					f.Get("LinkBasedMFA") != "N" || f.Get("Key") != tt.browserKey || hasKey != (tt.browserKey != "") {
					t.Errorf("login form %v at %s", f, r.URL.Path)
				}
				answer(200, `{"Success":true,"Data":{"SessionKey":"pending key","TwoFactorAuthenticationRequired":true,"Key":""}}`)(w, r)
			})
			res, err := c.SignIn(context.Background(), Credentials{User: "secure", Password: "pw", BrowserKey: tt.browserKey})
			if err != nil || !res.TwoFactorAuthenticationRequired || res.SessionKey != "pending key" || res.Username != "secure" {
				t.Errorf("SignIn = %+v, %v", res, err)
			}
		})
	}
}

func TestTwoFactorKeySendsCodeWithPendingKey(t *testing.T) {
	c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/Users/2FAKey" ||
			r.Header.Get("Authorization") != "Bearer 07/15/2025 09:15:02 pending" || r.PostFormValue("Key") != "012345" {
			t.Errorf("2FAKey request: %s %s %q Key=%q", r.Method, r.URL.Path, r.Header.Get("Authorization"), r.PostFormValue("Key"))
		}
		answer(200, `{"Success":true,"Data":{"SessionKey":"07/15/2025 09:15:02 pending","Username":"secure","SessionId":9,"TwoFactorAuthenticationRequired":false,"Key":"browser"}}`)(w, r)
	})
	res, err := c.TwoFactorKey(context.Background(), "07/15/2025 09:15:02 pending", "012345")
	if err != nil || res.BrowserKey != "browser" || res.SessionID != 9 || res.TwoFactorAuthenticationRequired {
		t.Errorf("TwoFactorKey = %+v, %v", res, err)
	}
}

func TestTwoFactorErrorsAreTyped(t *testing.T) {
	for _, tt := range []struct {
		status int
		code   string
		want   error
	}{
		{400, CodeInvalidTwoFactorKey, ErrTwoFactorCode},
		{403, CodeTwoFactorLocked, ErrTwoFactorLocked},
		{403, CodeSessionExpired, ErrTwoFactorExpired},
		{403, CodeInvalidSessionKey, ErrTwoFactorExpired},
		{500, "InternalError", ErrUnavailable},
	} {
		c, _ := fakeService(t, answer(tt.status, `{"Success":false,"Data":"Said so.","ErrorCode":"`+tt.code+`"}`))
		_, err := c.TwoFactorKey(context.Background(), "k", "1")
		var ue *Error
		if !errors.Is(err, tt.want) || !errors.As(err, &ue) || ue.Message != "Said so." {
			t.Errorf("%d %s: err = %v, want %v with the message", tt.status, tt.code, err, tt.want)
		}
		if tt.want != ErrUnavailable && errors.Is(err, ErrSessionExpired) {
			t.Errorf("%d %s: also ErrSessionExpired, which would send the analyst to sign in without a reason", tt.status, tt.code)
		}
	}
	// A pending key used elsewhere is not an expired session.
	c, _ := fakeService(t, answer(403, `{"Success":false,"Data":"Enter the code.","ErrorCode":"TwoFactorRequired"}`))
	if _, err := c.As("k").Folders(context.Background()); !errors.Is(err, ErrTwoFactorRequired) {
		t.Errorf("Folders with a pending key: %v, want ErrTwoFactorRequired", err)
	}
}

func TestPeerAnalysisSendsEveryParameter(t *testing.T) {
	want := url.Values{
		"id": {"1001"}, "type": {"json"}, "Year": {"2025"}, "Quarter": {"2"}, "SICCode": {"5311"},
		"SICPrimary": {"Y"}, "FolderId": {"101"}, "TargetCountry": {"US"}, "RiskLevelFilter": {"FS"},
		"ZScoreFilter": {"H"}, "PayScoreFilter": {"S"}, "DBTFilter": {"P"},
	}
	var got []url.Values
	c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.Query())
		answer(200, `{"Success":true,"Data":{"PeerYear":2025,"PeerQuarter":2,"SIC":"5311","PeerCount":1,"Ratios":null}}`)(w, r)
	})
	res, err := c.As("k").PeerAnalysis(context.Background(), ByID(1001), PeerQuery{Year: 2025, Quarter: 2, SICCode: "5311",
		SICPrimary: true, FolderID: 101, TargetCountry: "US", RiskLevel: RiskLevelSame, ZScore: "H",
		PayScore: ScoreFilterSame, DBT: "P"})
	if err != nil || res.Ratios == nil || res.PeerQuarter != 2 {
		t.Fatalf("PeerAnalysis = %+v, %v; want a non-nil empty list", res, err)
	}
	if _, err := c.As("k").PeerAnalysis(context.Background(), ByID(1001), PeerQuery{}); err != nil {
		t.Fatal(err)
	}
	if got[0].Encode() != want.Encode() {
		t.Errorf("query\n got %s\nwant %s", got[0].Encode(), want.Encode())
	}
	if got[1].Encode() != "id=1001&type=json" {
		t.Errorf("zero query sent %s, want only the business", got[1].Encode())
	}
}

func TestPeerRatioDirection(t *testing.T) {
	for name, want := range map[string]bool{
		RatioCurrent: true, RatioReturnOnEquity: true, RatioLiabilitiesToAssets: false, RatioDebtToEquity: false,
	} {
		if got := (PeerRatio{Ratio: name}).HigherIsBetter(); got != want {
			t.Errorf("%s: HigherIsBetter = %v, want %v", name, got, want)
		}
	}
}

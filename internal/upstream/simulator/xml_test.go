package simulator

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// node is a generic XML element.
type xmlNode struct {
	name     string
	attrs    map[string]string // by local name
	children []*xmlNode
	text     string
}

func parseXML(b []byte) (*xmlNode, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	var stack []*xmlNode
	var root *xmlNode
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &xmlNode{name: t.Name.Local, attrs: map[string]string{}}
			for _, a := range t.Attr {
				n.attrs[a.Name.Local] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			} else if root != nil {
				return nil, fmt.Errorf("two root elements")
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

func (n *xmlNode) child(name string) *xmlNode {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// sameValue compares a generic JSON value with an XML element, following
// the rules documented in xml.go.
func sameValue(j any, n *xmlNode, at string) error {
	if j == nil {
		if n.attrs["nil"] != "true" || len(n.children) > 0 || n.text != "" {
			return fmt.Errorf("%s: JSON null, XML <%s> %v %q", at, n.name, n.attrs, n.text)
		}
		return nil
	}
	if n.attrs["nil"] != "" {
		return fmt.Errorf("%s: XML nil, JSON %v", at, j)
	}
	switch v := j.(type) {
	case map[string]any:
		if len(n.children) != len(v) {
			return fmt.Errorf("%s: %d JSON fields, %d XML children", at, len(v), len(n.children))
		}
		for _, c := range n.children {
			k, isMap := c.attrs["key"]
			if !isMap {
				k = c.name
			}
			jv, ok := v[k]
			if !ok {
				return fmt.Errorf("%s: XML has %q, JSON does not", at, k)
			}
			if err := sameValue(jv, c, at+"."+k); err != nil {
				return err
			}
		}
	case []any:
		if len(n.children) != len(v) {
			return fmt.Errorf("%s: %d JSON items, %d XML items", at, len(v), len(n.children))
		}
		for i, c := range n.children {
			if err := sameValue(v[i], c, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	case json.Number:
		jf, _ := v.Float64()
		xf, err := strconv.ParseFloat(n.text, 64)
		if err != nil || jf != xf {
			return fmt.Errorf("%s: JSON %s, XML %q", at, v, n.text)
		}
	case bool:
		if n.text != strconv.FormatBool(v) {
			return fmt.Errorf("%s: JSON %v, XML %q", at, v, n.text)
		}
	case string:
		if len(n.children) > 0 || n.text != xmlText(v) {
			return fmt.Errorf("%s: JSON %q, XML %q", at, v, n.text)
		}
	default:
		return fmt.Errorf("%s: unexpected JSON %T", at, j)
	}
	return nil
}

// xmlText is what XML can carry of s: characters XML 1.0 forbids (most
// control characters, invalid UTF-8) become U+FFFD.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r <= 0xD7FF) ||
			(r >= 0xE000 && r <= 0xFFFD && r != utf8.RuneError) || (r >= 0x10000 && r <= 0x10FFFF) {
			return r
		}
		return '\ufffd'
	}, s)
}

// xmlCase is one request made in both formats; items names the XML
// elements expected along a path of first children below Data.
type xmlCase struct {
	user, method, path string
	q                  url.Values
	items              []string
}

func TestXMLMatchesJSON(t *testing.T) {
	id := url.Values{"id": {"1001"}}
	cases := []xmlCase{
		{"demo", "GET", "/v1/Business/LatestAnnualStatements", id, []string{"AnnualFinancials", "values", "DataPoint"}},
		{"developer", "GET", "/v1/Business/LatestAnnualStatements", id, []string{"AnnualFinancials"}},
		{"demo", "GET", "/v1/Business/PaymentSummary/Monthly", id, []string{"PaymentSummaryRow"}},
		{"demo", "GET", "/v1/Business/PaymentSummary/SIC", id, []string{"PaymentSummaryRow"}},
		{"demo", "GET", "/v1/Business/CreditScoreHistory", id, []string{"CreditScoreHistoryRow"}},
		{"demo", "GET", "/v1/Business/RiskHistory", id, []string{"RiskHistoryRow"}},
		{"demo", "GET", "/v1/Business/Officers", id, []string{"Officer"}},
		{"demo", "GET", "/v1/Business/NAICSCodes", id, []string{"NaicsCode"}},
		{"demo", "GET", "/v1/Business/Summary", id, []string{"DateFiled"}},
		{"demo", "GET", "/v1/Business/WordFill", id, []string{"Text"}},
		{"demo", "GET", "/v1/Business/IdentificationGroup", url.Values{"id": {"1008"}}, []string{"BusinessId"}},
		{"demo", "GET", "/v1/Business/Officers", url.Values{"id": {"1007"}}, nil},
		{"demo", "GET", "/v1/Business/Search", url.Values{"q": {"o"}}, []string{"SearchResult"}},
		{"demo", "GET", "/v1/Portfolio/PayScoreHistory", nil, []string{"TotalResults"}},
		{"demo", "GET", "/v1/Portfolio/ZScoreHistory", nil, nil},
		{"demo", "GET", "/v1/Portfolio/Folders", nil, []string{"Folder"}},
		{"demo", "GET", "/v1/Portfolio/Folders/11/News", nil, []string{"NewsItem"}},
		{"demo", "GET", "/v1/Industries/News", nil, []string{"NewsItem"}},
		{"demo", "GET", "/v1/News", nil, []string{"NewsItem"}},
		{"demo", "GET", "/v1/Portfolio/Businesses", nil, []string{"PortfolioBusiness"}},
		{"trade", "GET", "/v1/Trade/TradeProviders", nil, []string{"TradeProviders", "TradeProvider"}},
		{"trade", "POST", "/v1/Trade/TradeProviders", url.Values{"TradeProviderId": {"TP-1"}}, nil},
		{"demo", "GET", "/v1/Business/PeerAnalysis", id, []string{"Ratios", "PeerRatio", "Value"}},
		{"developer", "GET", "/v1/Business/PeerAnalysis", id, []string{"Ratios", "PeerRatio"}},
		{"demo", "GET", "/v1/Business/PeerAnalysis", url.Values{"id": {"1007"}}, []string{"PeerCount"}},
		// Errors come in XML too.
		{"demo", "GET", "/v1/Business/PeerAnalysis", url.Values{"id": {"1001"}, "DBTFilter": {"Z"}}, nil},
		{"demo", "GET", "/v1/Business/Summary", url.Values{"id": {"abc"}}, nil},
		{"demo", "GET", "/v1/Business/Summary", url.Values{"id": {"999999"}}, nil},
		{"demo", "GET", "/v1/Business/Summary", nil, nil},
		{"demo", "GET", "/v1/Portfolio/Download", url.Values{"Layout": {"x"}}, nil},
		{"demo", "GET", "/v1/Nope", nil, nil},
		{"", "GET", "/v1/Portfolio/Folders", nil, nil},
	}
	h := newAPIHarness(t, Options{})
	keys := map[string]string{"": ""}
	for _, c := range cases {
		if _, ok := keys[c.user]; !ok {
			keys[c.user] = h.login(c.user)
		}
		what := c.method + " " + c.path + "?" + c.q.Encode()
		q := url.Values{}
		for k, v := range c.q {
			q[k] = v
		}
		jr := h.do(c.method, c.path, keys[c.user], q)
		q.Set("type", "xml")
		xr := h.do(c.method, c.path, keys[c.user], q)
		compareReplies(t, what, jr, xr, c.items)
	}
}

func compareReplies(t *testing.T, what string, jr, xr apiReply, items []string) {
	t.Helper()
	if jr.status != xr.status {
		t.Errorf("%s: JSON status %d, XML status %d", what, jr.status, xr.status)
	}
	if ct := xr.header.Get("Content-Type"); ct != "application/xml; charset=utf-8" {
		t.Errorf("%s: XML Content-Type = %q", what, ct)
	}
	var j map[string]any
	dec := json.NewDecoder(bytes.NewReader(jr.body))
	dec.UseNumber()
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("%s: JSON: %v", what, err)
	}
	root, err := parseXML(xr.body)
	if err != nil {
		t.Fatalf("%s: XML not well-formed: %v\n%s", what, err, xr.body)
	}
	if root.name != "Response" || len(root.children) != 3 || root.child("Success") == nil ||
		root.child("Data") == nil || root.child("ErrorCode") == nil {
		t.Fatalf("%s: XML root %s with %d children, want Response with Success, Data, ErrorCode", what, root.name, len(root.children))
	}
	if err := sameValue(j["Success"], root.child("Success"), "Success"); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	if err := sameValue(j["ErrorCode"], root.child("ErrorCode"), "ErrorCode"); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	if err := sameValue(j["Data"], root.child("Data"), "Data"); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	n := root.child("Data")
	for _, name := range items {
		if len(n.children) == 0 {
			t.Errorf("%s: no <%s> below <%s>", what, name, n.name)
			break
		}
		if n.child(name) == nil {
			t.Errorf("%s: below <%s> found <%s>, want <%s>", what, n.name, n.children[0].name, name)
			break
		}
		n = n.child(name)
	}
}

func TestXMLLogin(t *testing.T) {
	h := newAPIHarness(t, Options{})
	r := h.do(http.MethodPost, "/v1/Users/Login", "", url.Values{"Username": {"demo"}, "Password": {"demo"}, "type": {"xml"}})
	root, err := parseXML(r.body)
	if err != nil || r.status != 200 {
		t.Fatalf("login as XML: %d %v", r.status, err)
	}
	d := root.child("Data")
	for _, f := range []string{"SessionKey", "Username", "SessionId", "TwoFactorAuthenticationRequired", "Key"} {
		if d.child(f) == nil {
			t.Errorf("login XML lacks <%s>", f)
		}
	}
	if !keyShape.MatchString(d.child("SessionKey").text) {
		t.Errorf("SessionKey = %q", d.child("SessionKey").text)
	}
	r = h.do(http.MethodPost, "/v1/Users/Login", "", url.Values{"Username": {"demo"}, "Password": {"x"}, "type": {"xml"}})
	if root, err = parseXML(r.body); err != nil || r.status != 403 || root.child("ErrorCode").text != CodeInvalidCredentials {
		t.Errorf("failed login as XML: %d %v %s", r.status, err, r.body)
	}
}

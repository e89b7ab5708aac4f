package main

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// textValue is a string flag whose value is never printed: -h shows no
// default, and a secret's String is empty.
type textValue struct{ v string }

// String is empty: -h never shows a value, a secret's least of all.
func (t *textValue) String() string { return "" }

// Set keeps s, trimmed.
func (t *textValue) Set(s string) error { t.v = strings.TrimSpace(s); return nil }

// addrValue is a host:port flag, checked when set: a bad LISTEN_ADDR is
// found before anything starts, not after the migrations ran.
type addrValue struct {
	v        string
	optional bool
}

// String is the address, the default shown by -h.
func (a *addrValue) String() string { return a.v }

// Set checks s is host:port with a port from 0 to 65535.
func (a *addrValue) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "" && a.optional {
		a.v = ""
		return nil
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return fmt.Errorf("%q is not host:port, such as 127.0.0.1:8080 or 0.0.0.0:8080", s)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("%q: the port %q is not a number from 0 to 65535", s, port)
	}
	if host != "" && net.ParseIP(host) == nil && !validHostName(host) {
		return fmt.Errorf("%q: %q is not an IP address or host name", s, host)
	}
	a.v = s
	return nil
}

// validHostName accepts letters, digits, hyphens and dots (localhost,
// web1, db.internal).
func validHostName(h string) bool {
	if len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// parsePublicURL reads PUBLIC_URL: an http or https origin (no path, query
// or credentials), kept without a trailing slash.
func parsePublicURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("PUBLIC_URL %q is not an address such as https://credit.example.com (scheme and host, no path)", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

// parseProxies reads TRUSTED_PROXIES: addresses (172.28.0.10) or networks
// (172.28.0.0/24), comma-separated.
func parseProxies(raw string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range strings.Split(raw, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("TRUSTED_PROXIES: %q is not an address or a network such as 172.28.0.10 or 172.28.0.0/24", s)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// redactURL is a URL fit for a log line: its password replaced, its query
// (which may carry a key) dropped.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(an unreadable URL)"
	}
	u.RawQuery, u.Fragment = "", ""
	return u.Redacted()
}

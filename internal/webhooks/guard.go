package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// ErrPrivate: the endpoint's address is private, loopback or otherwise
// not on the public internet, and WEBHOOK_ALLOW_PRIVATE is not set.
var ErrPrivate = errors.New("webhooks: the address is private, loopback or reserved; endpoints must be on the public internet (WEBHOOK_ALLOW_PRIVATE=true allows others)")

// reserved are ranges outside the public internet that netip's own
// predicates do not name.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64: may reach private IPv4
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("2002::/16"),       // 6to4: may embed private IPv4
}

// Private tells whether ip is somewhere a webhook may not go by default:
// loopback, private, link-local (cloud metadata among them), unspecified,
// multicast or reserved.
func Private(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return true
	}
	for _, p := range reserved {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// control is the dialer's check of the address it is about to connect
// to, after name resolution: a name that resolved to a public address at
// registration and to a private one now (DNS rebinding) is refused here.
func control(allowPrivate bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		if allowPrivate {
			return nil
		}
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("webhooks: dialling %q: %w", address, err)
		}
		if Private(ap.Addr()) {
			return fmt.Errorf("%w: %s", ErrPrivate, ap.Addr())
		}
		return nil
	}
}

// Resolver looks a host's addresses up; net.DefaultResolver in production.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// CheckURL checks an endpoint's address as a manager typed it: an
// absolute https URL (http too when private addresses are allowed, for a
// receiver on the same machine), with a host, no user or password, and,
// unless allowPrivate, a host whose every address is public. It returns
// the URL as it will be kept.
func CheckURL(ctx context.Context, raw string, allowPrivate bool, r Resolver) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return "", errors.New("webhooks: the endpoint's address is required")
	case err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "":
		return "", errors.New("webhooks: the endpoint's address is not an absolute URL such as https://erp.example.com/hooks/creditdash")
	case u.Scheme != "https" && !(u.Scheme == "http" && allowPrivate):
		return "", errors.New("webhooks: the endpoint's address must start with https://")
	case u.User != nil:
		return "", errors.New("webhooks: the endpoint's address must not carry a user name or password; the signature proves who sends")
	case u.Fragment != "":
		return "", errors.New("webhooks: the endpoint's address must not have a #fragment")
	}
	if allowPrivate {
		return u.String(), nil
	}
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); err == nil {
		if Private(ip) {
			return "", ErrPrivate
		}
		return u.String(), nil
	}
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return "", ErrPrivate
	}
	ips, err := r.LookupNetIP(ctx, "ip", host)
	if err != nil || len(ips) == 0 {
		return "", fmt.Errorf("webhooks: the endpoint's host %q does not resolve", host)
	}
	for _, ip := range ips {
		if Private(ip) {
			return "", ErrPrivate
		}
	}
	return u.String(), nil
}

// dialer is the deliveries' dialer: each connection's address checked.
func dialer(allowPrivate bool) *net.Dialer {
	return &net.Dialer{Timeout: dialTimeout, Control: control(allowPrivate)}
}

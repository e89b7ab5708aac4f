package middleware

import (
	"net"
	"net/http"
	"net/netip"

	"github.com/labstack/echo/v5"
)

// ClientAddress reads the address a request came from. With no trusted
// proxies it is the connection's: a header is anyone's to write. From a
// trusted proxy's connection it is the nearest address in X-Forwarded-For
// that is not a trusted proxy's, the one the proxy itself saw, so a client
// cannot pass for another by sending its own header. Only the networks
// named are trusted: Echo's defaults (loopback, private and link-local
// networks) would believe any machine of the office network.
func ClientAddress(trusted []netip.Prefix) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, p := range trusted {
		p = p.Masked()
		opts = append(opts, echo.TrustIPRange(&net.IPNet{IP: p.Addr().AsSlice(), Mask: net.CIDRMask(p.Bits(), p.Addr().BitLen())}))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}

// FromTrustedProxy tells whether the request's connection comes from one
// of the trusted proxies: only their headers (X-Request-ID) are believed.
func FromTrustedProxy(trusted []netip.Prefix, r *http.Request) bool {
	if len(trusted) == 0 {
		return false
	}
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	addr := ap.Addr().Unmap()
	for _, p := range trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

package simulator

import "fmt"

// Describe says in a few words what signing in as u shows, for the demo
// accounts the dashboard lists on its sign-in page in demo mode: the hourly
// limit, the access model and what is special about the account.
func (u User) Describe() string {
	limit := "no hourly limit"
	if n := hourlyLimit(u.Type); n > 0 {
		limit = fmt.Sprintf("%d requests an hour", n)
	}
	access := "Full Access"
	if u.Access == AccessAPIOnly {
		access = "API-Only access"
	}
	s := fmt.Sprintf("%s, %s", access, limit)
	switch {
	case u.TwoFactor:
		s += ", two-factor sign-in"
	case len(u.TradeProviders) > 0:
		s += fmt.Sprintf(", %d trade providers", len(u.TradeProviders))
	case len(u.Suppliers) > 0:
		s += ", a supplier list"
	}
	return s
}

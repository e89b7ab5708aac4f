package handlers

import "creditdash/internal/views"

// Demo is what the built-in stand-in tells a first-time visitor; cmd/web
// sets it only when no service is configured, so a real deployment never
// lists accounts or shows a code.
type Demo struct {
	// Accounts are the stand-in's accounts, listed on the sign-in page.
	Accounts []views.DemoAccount
	// Password is every demo account's password.
	Password string
	// Code is the two-factor code the stand-in last "sent" to user: its
	// phone is a log line, which a first visitor does not read.
	Code func(user string) (string, bool)
}

// demoCode is the stand-in's code for user in demo mode, or "".
func (h *Handler) demoCode(user string) string {
	if h.demo == nil || h.demo.Code == nil {
		return ""
	}
	code, _ := h.demo.Code(user)
	return code
}

// demoSignIn is what the sign-in page lists in demo mode, or nil: each
// account with its role in the team in force, so that a first visitor
// knows whom to sign in as to request a limit and whom to decide it.
func (h *Handler) demoSignIn() *views.DemoSignIn {
	if h.demo == nil || len(h.demo.Accounts) == 0 {
		return nil
	}
	accounts := make([]views.DemoAccount, len(h.demo.Accounts))
	for i, a := range h.demo.Accounts {
		as := h.roles.Of(a.Name)
		a.Team = views.TeamRole(string(as.Role), as.Authority)
		accounts[i] = a
	}
	return &views.DemoSignIn{Accounts: accounts, Password: h.demo.Password}
}

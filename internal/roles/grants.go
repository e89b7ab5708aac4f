package roles

import "slices"

// Action is something a signed-in user may ask the dashboard to do. Each
// route that changes something names its action and asks May; this file is
// the one table of who may do what.
type Action string

// The actions. Reading is everyone's, the team's log included.
const (
	// Read is every page and download: reports, the portfolio, the
	// workspace, the team's accounts and decisions, the audit trail.
	Read Action = "read"
	// ChangeWorkspace is a change to one's own workspace: watch list,
	// notes, alert rules and alerts, dated copies, deleting them all.
	ChangeWorkspace Action = "change-workspace"
	// ChangeAccounts is a change to the team's accounts: importing
	// ledgers, assigning owners, recording reviews.
	ChangeAccounts Action = "change-accounts"
	// RequestLimit is asking for a credit limit; within the requester's
	// authority it is approved at once, above it it waits for a manager.
	RequestLimit Action = "request-limit"
	// Decide is approving or declining another user's limit request. The
	// handler adds the rules no role table can hold: the amount within the
	// decider's authority, and never one's own request (four eyes).
	Decide Action = "decide"
	// ManageWebhooks is registering and removing the team's webhook
	// endpoints and replaying deliveries: where the team's events go.
	ManageWebhooks Action = "manage-webhooks"
	// SetPolicy is the team's credit policy and its settings (the loss
	// given default): edited by a manager, a version activated by
	// another (the handler adds four eyes).
	SetPolicy Action = "set-policy"
	// ManageTeam is adding and changing the team's members on /team, and
	// approving or declining another admin's proposed change. The store
	// adds the four eyes: a raise of authority, or making someone a
	// manager or admin, waits for a second admin.
	ManageTeam Action = "manage-team"
)

// grants is who may do what. Auditors read everything and change nothing.
var grants = map[Action][]Role{
	Read:            {Analyst, Manager, Admin, Auditor},
	ChangeWorkspace: {Analyst, Manager, Admin},
	ChangeAccounts:  {Analyst, Manager, Admin},
	RequestLimit:    {Analyst, Manager, Admin},
	Decide:          {Manager, Admin},
	ManageWebhooks:  {Manager, Admin},
	SetPolicy:       {Manager, Admin},
	ManageTeam:      {Admin},
}

// May reports whether the role may do the action; an unknown action is
// refused to everyone.
func (r Role) May(a Action) bool { return slices.Contains(grants[a], r) }

// Rule is the sentence a refusal page shows: the rule that refused the
// role, worded for the person refused.
func (r Role) Rule(a Action) string {
	switch {
	case r == Auditor:
		return "Auditors read everything of the team and change nothing."
	case a == Decide:
		return "Only managers and admins approve or decline limit requests, within their authority and never their own, and clear defaults."
	case a == ManageWebhooks:
		return "Only managers register, remove and replay the team's webhooks."
	case a == SetPolicy:
		return "Only managers edit the team's credit policy and its settings; a version is put in force by a second manager."
	case a == ManageTeam:
		return "Only the team's admins add and change members."
	}
	return "Your role does not allow this."
}

package handlers

import (
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/credit"
	"creditdash/internal/policy"
	"creditdash/internal/roles"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The team's credit policy (issue 45, point 3): a manager saves a version
// from the form (every version kept and audited), another manager puts it
// in force. The rules themselves are internal/policy's; this file reads
// the form into a policy and shows the versions.

// readPolicyForm reads the posted form into a policy, with what was typed
// (to show again) and each refusal by field.
func readPolicyForm(c *echo.Context) (policy.Policy, views.PolicyForm) {
	form := views.PolicyForm{Errors: map[string]string{}, Note: views.Clip(strings.TrimSpace(c.FormValue("note")), store.MaxRequestReasonLen+100)}
	var p policy.Policy
	for _, l := range views.FactorLabels {
		ff := views.FactorField{Kind: l.Kind, Label: l.Label, Unit: l.Unit, Use: c.FormValue("use_"+l.Kind) != "",
			Edges: views.Clip(c.FormValue("edges_"+l.Kind), 300), Points: views.Clip(c.FormValue("points_"+l.Kind), 300),
			Missing: views.Clip(strings.TrimSpace(c.FormValue("missing_"+l.Kind)), 20)}
		form.Factors = append(form.Factors, ff)
		if !ff.Use {
			continue
		}
		edges, err1 := listOf(ff.Edges, false)
		points, err2 := listOf(ff.Points, true)
		missing, err3 := strconv.Atoi(ff.Missing)
		switch {
		case err1 != nil:
			form.Errors["edges_"+l.Kind] = "Edges are numbers separated by semicolons, such as 3; 5; 8."
		case err2 != nil:
			form.Errors["points_"+l.Kind] = "Points are whole numbers separated by semicolons, such as 0; 5; 10; 15."
		case err3 != nil || abs(missing) > 1000:
			form.Errors["missing_"+l.Kind] = "The points for a missing value are a whole number, such as 5."
		case len(points) != len(edges)+1:
			form.Errors["points_"+l.Kind] = "Give one more points than edges: a value below the first edge, between each two, and at or above the last."
		case !rising(edges):
			form.Errors["edges_"+l.Kind] = "The edges must rise from left to right."
		}
		ip := make([]int, len(points))
		for i, v := range points {
			ip[i] = int(v)
		}
		p.Scorecard.Factors = append(p.Scorecard.Factors, policy.Factor{Kind: l.Kind, Edges: edges, Points: ip, Missing: missing})
	}
	if len(p.Scorecard.Factors) == 0 {
		form.Error = "Use at least one factor."
	}
	form.Classes = views.Clip(c.FormValue("classes"), 300)
	for i, part := range strings.Split(form.Classes, ";") {
		fs := strings.Fields(part)
		last := i == strings.Count(form.Classes, ";")
		switch {
		case len(fs) == 1 && last:
			p.Scorecard.Classes = append(p.Scorecard.Classes, policy.Class{Name: fs[0], Min: math.MinInt32})
		case len(fs) == 2 && !last:
			min, err := strconv.Atoi(fs[1])
			if err != nil || abs(min) > 100000 {
				form.Errors["classes"] = "Each class is a name and the lowest score it takes, such as A 80; B 65; C: the last class has no score and takes the rest."
			}
			p.Scorecard.Classes = append(p.Scorecard.Classes, policy.Class{Name: fs[0], Min: min})
		default:
			form.Errors["classes"] = "Each class is a name and the lowest score it takes, such as A 80; B 65; C: the last class has no score and takes the rest."
		}
	}
	if len(p.Scorecard.Classes) > 10 {
		form.Errors["classes"] = "At most ten classes."
	}
	for _, cl := range p.Scorecard.Classes {
		if utf8.RuneCountInString(cl.Name) > 20 || !classNameOK(cl.Name) {
			form.Errors["classes"] = "A class's name is a short word of letters and digits, such as A or Prime."
		}
		rf := views.RuleField{Class: cl.Name, Cap: views.Clip(c.FormValue("cap_"+cl.Name), 20), Share: views.Clip(c.FormValue("share_"+cl.Name), 40),
			Max: views.Clip(c.FormValue("max_"+cl.Name), 40), Table: views.Clip(c.FormValue("table_"+cl.Name), 500), AtOnce: views.Clip(c.FormValue("atonce_"+cl.Name), 40)}
		if rf.Cap == "" && rf.Share == "" && rf.AtOnce == "" {
			rf.Cap, rf.Share, rf.AtOnce = policy.CapRecommended, "100", "0" // a class the form had no row for
		}
		form.Rules = append(form.Rules, rf)
		r := policy.LimitRule{Class: cl.Name, Cap: rf.Cap}
		if !slices.Contains(policy.Caps, rf.Cap) {
			form.Errors["cap_"+cl.Name] = "Choose what the limit is worked out from."
		}
		var ok bool
		var err error
		if r.AtOnce, ok, err = amount.Typed(rf.AtOnce); err != nil || ok && r.AtOnce < 0 {
			form.Errors["atonce_"+cl.Name] = amountProblem(err, "The amount decided at once is an amount, such as 25,000, or 0 for four eyes always.")
		}
		if r.Cap == policy.CapTable {
			for _, step := range strings.Split(rf.Table, ";") {
				upto, limit, found := strings.Cut(step, "=")
				u, ok1, err1 := amount.Typed(upto)
				l, ok2, err2 := amount.Typed(limit)
				if !found || !ok1 || !ok2 || err1 != nil || err2 != nil || u < 0 || l < 0 {
					form.Errors["table_"+cl.Name] = amountProblem(errors.Join(err1, err2), "A table is steps of monthly sales = limit, separated by semicolons, such as 50,000 = 10,000; 200,000 = 40,000.")
					break
				}
				r.Upto, r.Limits = append(r.Upto, u), append(r.Limits, l)
			}
		} else {
			share, ok, err := amount.Typed(strings.TrimSuffix(strings.TrimSpace(rf.Share), "%"))
			if err != nil || !ok || share < 0 || share > 1000 {
				form.Errors["share_"+cl.Name] = amountProblem(err, "The share is a percentage from 0 to 1,000, such as 50.")
			}
			r.Share = share / 100
			if r.Max, _, err = amount.Typed(rf.Max); err != nil || r.Max < 0 {
				form.Errors["max_"+cl.Name] = amountProblem(err, "The maximum is an amount, such as 250,000, or empty for none.")
			}
		}
		p.Limits = append(p.Limits, r)
	}
	form.Default = views.Clip(strings.TrimSpace(c.FormValue("default_over90")), 40)
	if d, ok, err := amount.Typed(strings.TrimSpace(strings.TrimSuffix(form.Default, "%"))); err != nil || !ok || !(d >= 1 && d <= 100) {
		form.Errors["default_over90"] = amountProblem(err, "The default share is a percentage from 1 to 100, such as 25 or 12.5.")
	} else {
		p.DefaultOver90 = d
	}
	if form.Note == "" {
		form.Errors["note"] = "Say what this version changes and why: the note is kept with it and in the audit trail."
	}
	if len(form.Errors) == 0 && form.Error == "" {
		if err := p.Check(); err != nil {
			form.Error = strings.TrimPrefix(err.Error(), "policy: ") + "."
		}
	}
	return p, form
}

// amountProblem is the amount parser's own sentence when it has one
// (an ambiguous separator), else the form's.
func amountProblem(err error, fallback string) string {
	var ae *amount.Error
	if errors.As(err, &ae) {
		return ae.Error() + "."
	}
	return fallback
}

// listOf reads "3; 5; 8"; whole wants whole numbers.
func listOf(s string, whole bool) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" && strings.TrimSpace(s) == "" {
			return nil, nil
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(part, "−", "-"), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e12 || whole && v != math.Trunc(v) {
			return nil, errors.New("not a number")
		}
		out = append(out, v)
	}
	return out, nil
}

func abs(v int) int { return max(v, -v) }

// rising says each value is above the one before.
func rising(vs []float64) bool {
	for i := 1; i < len(vs); i++ {
		if !(vs[i] > vs[i-1]) {
			return false
		}
	}
	return true
}

// classNameOK accepts letters, digits, "-" and "+".
func classNameOK(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '+') {
			return false
		}
	}
	return s != ""
}

// showPolicy is the policy page: the version in force, the versions
// kept, and a manager's form starting from ?from= (a version id), else
// the newest version, else the starting policy.
func (h *Handler) showPolicy(c *echo.Context) error {
	return h.policyPage(c, http.StatusOK, nil, "")
}

// policyPage renders the page; form, when not nil, is a refused form.
func (h *Handler) policyPage(c *echo.Context, status int, form *views.PolicyForm, notice string) error {
	a := h.analyst(c)
	vs, err := h.store.Policies(c.Request().Context(), a)
	if err != nil {
		return accountsError(err)
	}
	manager := h.rolesNow(c).Of(a.User).Role.May(roles.SetPolicy)
	page := views.PolicyPage{Manager: manager, Caps: policy.Caps, Notice: notice}
	from, fromLabel := policy.Starting(), "the starting policy"
	want := c.QueryParam("from")
	for i, v := range vs {
		p, err := policy.Parse(v.Body)
		if err != nil {
			return err // the store only keeps checked versions
		}
		id := strconv.FormatInt(v.ID, 10)
		row := views.PolicyVersionRow{ID: id, Version: strconv.Itoa(v.Version), Note: v.Note, Active: v.Active,
			Saved: "by " + v.CreatedBy + " on " + views.Date(v.CreatedAt), EditURL: views.PolicyPath + "?from=" + id + "#edit"}
		if v.ActivatedBy != "" {
			row.Activated = "by " + v.ActivatedBy + " on " + views.Date(v.ActivatedAt)
		}
		switch {
		case !manager || v.Active:
		case v.CreatedBy == a.User:
			row.Why = "You saved it: another manager puts it in force (four eyes)."
		default:
			row.ActivateURL = views.PolicyPath + "/versions/" + id + "/activate"
		}
		if v.Active {
			s := views.NewPolicySummary(p)
			page.Active, page.ActiveLabel = &s, "Version "+row.Version+", saved "+row.Saved+", put in force "+row.Activated+"."
		}
		if want == id || want == "" && i == 0 {
			from, fromLabel = p, "version "+row.Version
		}
		page.Versions = append(page.Versions, row)
	}
	if form != nil {
		page.Form, page.FormFrom = *form, "what you typed"
	} else {
		page.Form, page.FormFrom = views.NewPolicyForm(from), fromLabel
	}
	page.Base = h.base(c, nil, "Credit policy", views.NavAccounts)
	switch {
	case c.QueryParam("saved") != "":
		page.Flash = "Version " + views.Clip(c.QueryParam("saved"), 8) + " saved; another manager puts it in force."
	case c.QueryParam("activated") != "":
		page.Flash = "Version " + views.Clip(c.QueryParam("activated"), 8) + " is in force."
	}
	return h.render(c, status, templates.Policy(page))
}

// submitPolicyVersion saves the form as a new version (422 with what was
// typed and why); a manager's (roles.SetPolicy).
func (h *Handler) submitPolicyVersion(c *echo.Context) error {
	p, form := readPolicyForm(c)
	if len(form.Errors) > 0 || form.Error != "" {
		return h.policyPage(c, http.StatusUnprocessableEntity, &form, "")
	}
	body, err := p.Marshal()
	if err != nil {
		return err
	}
	v, err := h.store.SavePolicy(c.Request().Context(), h.analyst(c), body, form.Note)
	var ve *store.ValidationError
	switch {
	case errors.As(err, &ve):
		form.Error = ve.Message + "."
		return h.policyPage(c, http.StatusUnprocessableEntity, &form, "")
	case err != nil:
		return accountsError(err)
	}
	return c.Redirect(http.StatusSeeOther, views.PolicyPath+"?saved="+strconv.Itoa(v.Version))
}

// submitPolicyActivate puts a version in force, by a manager who did not
// save it (403 naming four eyes otherwise).
func (h *Handler) submitPolicyActivate(c *echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return echo.ErrNotFound
	}
	v, err := h.store.ActivatePolicy(c.Request().Context(), h.analyst(c), id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return echo.ErrNotFound
	case errors.Is(err, store.ErrFourEyes):
		return h.policyPage(c, http.StatusForbidden, nil, "Four eyes: a version is put in force by a manager other than the one who saved it. Nothing was changed.")
	case err != nil:
		return accountsError(err)
	}
	return c.Redirect(http.StatusSeeOther, views.PolicyPath+"?activated="+strconv.Itoa(v.Version))
}

// inForce is the policy in force and its version; nil when none is.
type inForce struct {
	p       policy.Policy
	version int
}

// activePolicy reads the policy in force (nil when none was ever put in
// force).
func (h *Handler) activePolicy(c *echo.Context) (*inForce, error) {
	v, err := h.store.ActivePolicy(c.Request().Context(), h.analyst(c))
	if err != nil || v == nil {
		return nil, err
	}
	p, err := policy.Parse(v.Body)
	if err != nil {
		return nil, err
	}
	return &inForce{p: p, version: v.Version}, nil
}

// limit is the policy's limit for the account of fig, from the
// calculator's answer calc and the monthly sales it was given.
func (f *inForce) limit(fig *credit.Figures, calc credit.Limit, sales float64) credit.PolicyLimit {
	return credit.ApplyPolicy(&f.p, f.version, fig, calc, sales)
}

// atOnce is the policy's rule for a request on the account of fig, read
// from the inputs saved for it (the team's record, audited: what someone
// merely types is not); nil without a policy in force, so the authority
// alone decides, as before any policy.
func (f *inForce) atOnce(fig *credit.Figures) *store.PolicyAtOnce {
	if f == nil {
		return nil
	}
	return f.limit(fig, fig.Calc, credit.SavedSales(fig)).Request()
}

// requestPolicy is the policy's rule for a limit request of account.
func (h *Handler) requestPolicy(c *echo.Context, account string) (*store.PolicyAtOnce, error) {
	rule, err := h.activePolicy(c)
	if err != nil || rule == nil {
		return nil, err
	}
	fig, err := h.accountFigures(c, account)
	if err != nil {
		return nil, err
	}
	return rule.atOnce(fig), nil
}

// accountFigures are the figures of the team's account today (empty ones
// when the ledger does not list it).
func (h *Handler) accountFigures(c *echo.Context, account string) (*credit.Figures, error) {
	figs, err := h.teamFigures(c.Request().Context(), h.analyst(c), "")
	if err != nil {
		return nil, err
	}
	for i := range figs {
		if figs[i].Account.Account == account {
			return &figs[i], nil
		}
	}
	return &credit.Figures{}, nil
}

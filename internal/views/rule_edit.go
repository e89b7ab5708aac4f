package views

import (
	"strconv"

	"creditdash/internal/store"
)

// PostAction is where the rule form posts: a new rule, or the change of
// the rule being edited.
func (f RuleForm) PostAction() string {
	if f.Editing != "" {
		return "/alerts/rules/" + f.Editing + "/edit"
	}
	return "/alerts/rules"
}

// Legend is the rule form's title.
func (f RuleForm) Legend() string {
	switch {
	case f.Editing != "":
		return "Change rule"
	case f.For != "":
		return "New rule on " + f.For
	}
	return "New rule"
}

// Submit is the rule form's button.
func (f RuleForm) Submit() string {
	if f.Editing != "" {
		return "Save changes"
	}
	return "Add rule"
}

// EditRuleForm is the rule form filled in from a stored rule.
func EditRuleForm(r store.Rule) RuleForm {
	f := RuleForm{Editing: strconv.FormatInt(r.ID, 10), Scope: string(r.Scope), Score: string(r.Score),
		Condition: string(r.Condition)}
	switch r.Scope {
	case store.ScopeBusiness:
		f.Business = strconv.FormatInt(int64(r.BusinessID), 10)
	case store.ScopeFolder:
		f.Folder = strconv.Itoa(r.FolderID)
	}
	if r.Condition != store.WorseZone {
		f.Threshold = strconv.FormatFloat(r.Threshold, 'f', -1, 64)
	}
	return f
}

// EditURL is the rule's change form.
func (r RuleRow) EditURL() string { return "/alerts/rules/" + r.ID + "/edit" }

// AlertMeURL is the rule form filled in for one business, as a report's
// "Alert me" opens it.
func AlertMeURL(id int32) string {
	return "/alerts?business=" + strconv.FormatInt(int64(id), 10) + "#rule-form"
}

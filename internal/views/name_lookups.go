package views

import (
	"fmt"
	"strconv"
	"time"
)

// LookupsAtOnce is how many queued names one press of "Look up the next"
// looks up.
const LookupsAtOnce = 10

// LookupsQuota is what the dashboard knows of a user's hourly limit when
// it says when queued names can be looked up.
type LookupsQuota struct {
	// Offered is false when the service does not offer its name search
	// to the user.
	Offered bool
	// Known is false when the limit is not known yet, or there is none.
	Known     bool
	Remaining int
	RenewsAt  time.Time
}

// LookupsWhen says when the user can have waiting queued names looked up,
// as the handlers do it: a press of "Look up the next" (LookupsAtOnce
// names, one request each of the user's hourly limit), or the user's next
// import, which spends what its own names leave of its ImportSearches on
// the oldest of them. Nothing else looks them up: jobs hold no session
// key.
func LookupsWhen(q LookupsQuota, waiting int) string {
	if !q.Offered {
		return "The service does not offer its name search to you, so you cannot look them up; link the accounts by hand."
	}
	press := fmt.Sprintf("“Look up the next %d” (one request of your hourly limit a name)", min(waiting, LookupsAtOnce))
	atImport := func(when string) string {
		return fmt.Sprintf("your %s, which looks up the oldest of them with what its own names leave of its %d searches", when, ImportSearches)
	}
	if !q.Known {
		return "Your account's hourly limit is not known yet, or it has none: they can be looked up now, with " + press + ", or at " + atImport("next import") + "."
	}
	renews := DateTime(q.RenewsAt.UTC())
	if q.Remaining <= 0 {
		return "Your account has no requests left this hour, so they can be looked up from " + renews +
			", when its hourly limit renews: press " + press + " then, or they are looked up at " + atImport("first import after that") + "."
	}
	if q.Remaining >= waiting {
		return fmt.Sprintf("Your account has %s left this hour: all %d can be looked up now, with %s, or at %s.",
			Plural(q.Remaining, "request"), waiting, press, atImport("next import"))
	}
	return fmt.Sprintf("Your account has %s left this hour: up to %d can be looked up now, with %s; the rest from %s, when its hourly limit renews, by pressing again then or at %s.",
		Plural(q.Remaining, "request"), q.Remaining, press, renews, atImport("first import after that"))
}

// LookupsFlash says what the last press of "Look up" did: looked names
// answered of asked, found of them linked; "" when the figures (read
// from a redirect's query) make no sense.
func LookupsFlash(looked, found, asked int) string {
	if found < 0 || found > looked || looked > asked || asked > LookupsAtOnce {
		return ""
	}
	msg := Plural(looked, "name") + " looked up: " + strconv.Itoa(found) + " linked to the one business of that name, " +
		strconv.Itoa(looked-found) + " left not linked (link them by hand from the accounts not linked)."
	if looked < asked {
		msg += " " + strconv.Itoa(asked-looked) + " stay queued: the hour's requests ran out or the service failed; try again later."
	}
	return msg
}

// LookupsUnoffered is the flash after a press when the service does not
// offer its name search to the user.
const LookupsUnoffered = "The service does not offer its name search to you, so the queued names cannot be looked up; link the accounts by hand."

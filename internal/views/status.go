package views

import (
	"fmt"
	"strconv"
	"time"
)

// StatusInput is what the operator page shows, as cmd/web gathers it.
type StatusInput struct {
	Version, Revision, GoVersion string
	Started, Now                 time.Time
	Ready                        bool
	ReadyDetail                  string
	Checks                       []StatusCheckInput
	// ReplicasKnown is false without a shared store: a replica cannot
	// tell of the others then. ReplicasErr is why the list is missing.
	ReplicasKnown bool
	Replicas      []StatusReplicaInput
	ReplicasErr   error
	// Quota refusals of the last hour: the dashboard's own (a spent
	// hourly budget) and the service's 429s.
	BudgetRefusals, ServiceRefusals uint64
	InFlight, Exports               int64
	PagesWaiting                    int64
	// Workspace and Service name the database and the service (their
	// passwords redacted).
	Workspace, Service string
}

// StatusCheckInput is one background check's last result.
type StatusCheckInput struct {
	Label     string
	Err       error
	At, Since time.Time
	Took      time.Duration
}

// StatusReplicaInput is one replica the shared store heard of.
type StatusReplicaInput struct {
	Name     string
	LastSeen time.Time
}

// StatusPage is the operator page's view model.
type StatusPage struct {
	Title, Version, Uptime, Readiness string
	// ReadyWord is "Ready" or "Not ready".
	ReadyWord    string
	Ready        bool
	Checks       []StatusRow
	Replicas     []StatusRow
	ReplicasNote string
	Figures      []StatusRow
}

// StatusRow is one line of a table: what, its state, and the details.
type StatusRow struct {
	Name, State, Detail string
	OK                  bool
}

// NewStatusPage builds the operator page.
func NewStatusPage(in StatusInput) StatusPage {
	p := StatusPage{
		Title:     "CreditDash status",
		Version:   fmt.Sprintf("%s (revision %s, %s)", in.Version, shortRevision(in.Revision), in.GoVersion),
		Uptime:    in.Now.Sub(in.Started).Round(time.Second).String(),
		Readiness: in.ReadyDetail,
		Ready:     in.Ready,
		ReadyWord: "Not ready",
	}
	if in.Ready {
		p.ReadyWord = "Ready"
	}
	for _, c := range in.Checks {
		row := StatusRow{Name: c.Label, OK: c.Err == nil}
		switch {
		case c.At.IsZero():
			row.State, row.Detail = "not checked yet", ""
		case c.Err == nil:
			row.State = "up"
			row.Detail = fmt.Sprintf("answered in %s, checked %s; up since %s", latency(c.Took), Ago(c.At, in.Now), Ago(c.Since, in.Now))
		default:
			row.State = "down"
			row.Detail = fmt.Sprintf("%v (checked %s; failing since %s)", c.Err, Ago(c.At, in.Now), Ago(c.Since, in.Now))
		}
		p.Checks = append(p.Checks, row)
	}
	switch {
	case !in.ReplicasKnown:
		p.ReplicasNote = "No shared store (REDIS_URL): replicas cannot see each other."
	case in.ReplicasErr != nil:
		p.ReplicasNote = "The shared store did not say: " + in.ReplicasErr.Error()
	default:
		p.ReplicasNote = strconv.Itoa(len(in.Replicas)) + " seen in the last minute."
		for _, r := range in.Replicas {
			p.Replicas = append(p.Replicas, StatusRow{Name: r.Name, State: "seen " + Ago(r.LastSeen, in.Now), OK: true})
		}
	}
	p.Figures = []StatusRow{
		{Name: "Credit-risk service", State: in.Service},
		{Name: "Workspace database", State: in.Workspace},
		{Name: "Quota refusals in the last hour", State: strconv.FormatUint(in.BudgetRefusals+in.ServiceRefusals, 10),
			Detail: fmt.Sprintf("%d by the dashboard (hourly budget spent), %d by the service (429)", in.BudgetRefusals, in.ServiceRefusals)},
		{Name: "Requests in flight", State: strconv.FormatInt(in.InFlight, 10),
			Detail: fmt.Sprintf("%d exports streaming, %d pages waiting for a turn", in.Exports, in.PagesWaiting)},
	}
	return p
}

// latency writes a check's time to the millisecond, or in microseconds
// below one.
func latency(d time.Duration) string {
	if d < time.Millisecond {
		return d.Round(time.Microsecond).String()
	}
	return d.Round(100 * time.Microsecond).String()
}

func shortRevision(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	return r
}

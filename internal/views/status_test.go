package views

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestStatusPage(t *testing.T) {
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	p := NewStatusPage(StatusInput{
		Version: "v1.4.0", Revision: "0123456789abcdef0123", GoVersion: "go1.26", Started: now.Add(-90 * time.Minute), Now: now,
		Ready: true, ReadyDetail: "ready (degraded: the credit-risk service is not answering)",
		Checks: []StatusCheckInput{
			{Label: "the credit-risk service", Err: errors.New("dial tcp: connection refused"), At: now.Add(-2 * time.Second), Since: now.Add(-10 * time.Minute), Took: 3 * time.Millisecond},
			{Label: "the workspace database", At: now.Add(-time.Second), Since: now.Add(-time.Hour), Took: 1500 * time.Microsecond},
			{Label: "the shared store"},
		},
		ReplicasKnown: true, Replicas: []StatusReplicaInput{{Name: "web1", LastSeen: now.Add(-5 * time.Second)}, {Name: "web2", LastSeen: now}},
		BudgetRefusals: 4, ServiceRefusals: 1, InFlight: 3, Exports: 1,
	})
	if p.Version != "v1.4.0 (revision 0123456789ab, go1.26)" || p.Uptime != "1h30m0s" || p.ReadyWord != "Ready" {
		t.Errorf("head: %q %q %q", p.Version, p.Uptime, p.ReadyWord)
	}
	if c := p.Checks[0]; c.OK || c.State != "down" || !strings.Contains(c.Detail, "connection refused") || !strings.Contains(c.Detail, "failing since 10 minutes ago") {
		t.Errorf("service row %+v", c)
	}
	if c := p.Checks[1]; !c.OK || c.State != "up" || !strings.Contains(c.Detail, "answered in 1.5ms") {
		t.Errorf("database row %+v", c)
	}
	if c := p.Checks[2]; c.State != "not checked yet" {
		t.Errorf("unchecked row %+v", c)
	}
	if p.ReplicasNote != "2 seen in the last minute." || len(p.Replicas) != 2 {
		t.Errorf("replicas %q %v", p.ReplicasNote, p.Replicas)
	}
	if f := p.Figures[2]; f.State != "5" || !strings.Contains(f.Detail, "4 by the dashboard") || !strings.Contains(f.Detail, "1 by the service") {
		t.Errorf("refusals %+v", f)
	}
	if q := NewStatusPage(StatusInput{Now: now, Started: now}); !strings.Contains(q.ReplicasNote, "No shared store") || q.ReadyWord != "Not ready" {
		t.Errorf("without a shared store: %q %q", q.ReplicasNote, q.ReadyWord)
	}
}

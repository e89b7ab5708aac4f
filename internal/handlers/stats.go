package handlers

// Stats are the handlers' figures for operators: internal/metrics exposes
// them and cmd/web logs them when a shutdown cuts work.
type Stats struct {
	// InFlight are the requests being answered, downloads included.
	InFlight int64
	// PagesWaiting wait for a turn; PagesPreparing hold one (see
	// middleware.Turns); BusyRefusals are the pages that waited too long and
	// said the dashboard is busy.
	PagesWaiting   int64
	PagesPreparing int
	BusyRefusals   uint64
	// The page cache's reads that found a kept page or not, the pages it
	// dropped for room, and its bytes.
	PageCacheHits, PageCacheMisses, PageCacheEvictions uint64
	PageCacheBytes                                     uint64
	// ExportsInFlight are portfolio exports streaming now.
	ExportsInFlight int64
	// AuditWalks are the verifications of the audit trail that read it
	// through (the others answered from a kept verdict or shared one).
	AuditWalks uint64
}

// Stats returns the figures now.
func (h *Handler) Stats() Stats {
	pc := h.pages.Stats()
	return Stats{
		InFlight:           h.inFlight.Load(),
		PagesWaiting:       h.turns.Waiting(),
		PagesPreparing:     h.turns.Preparing(),
		BusyRefusals:       h.turns.Busy(),
		PageCacheHits:      pc.Hits,
		PageCacheMisses:    pc.Misses,
		PageCacheEvictions: pc.Evictions,
		PageCacheBytes:     pc.Bytes,
		ExportsInFlight:    h.exportsRunning.Load(),
		AuditWalks:         h.verdict.walks.Load(),
	}
}

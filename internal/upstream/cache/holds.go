package cache

// A kept page may be sent without reading its copies again when the cache
// still holds exactly what the page read: each copy the same version and
// fresh, and each copy it found missing still missing. Reading them again
// (a dozen lookups, each answer assigned, the page's record hashed) was
// most of a warm report's own work.

// Dep is one copy a page read, or found missing, as this process held it.
type Dep struct {
	key     string
	kind    Kind
	version uint64
	absent  bool
}

// Holds reports whether reading deps again would read the very same
// copies, so a page built from them is still what its reads would build.
// A copy found missing could since have reached the shared level, which
// only a read can see, so with one deps never hold.
func (c *Cache) Holds(deps []Dep) bool {
	for _, d := range deps {
		held, ok := c.store.GetIfPresent(d.key)
		fresh := ok && c.fresh(d.kind, held)
		if d.absent {
			if fresh || c.second != nil {
				return false
			}
			continue
		}
		if !fresh || held.version != d.version {
			return false
		}
	}
	return true
}

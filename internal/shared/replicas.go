package shared

import (
	"context"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// nsReplicas is the one sorted set of replicas seen: member the replica's
// name, score when it last said it was there (Unix milliseconds).
const nsReplicas = "rp:"

// Replica is one replica as the shared store saw it last.
type Replica struct {
	Name     string
	LastSeen time.Time
}

// Heartbeat says that the replica name is there, now; a replica not heard
// of for ttl is dropped from the set. The operator page counts replicas
// from it.
func (s *Store) Heartbeat(ctx context.Context, name string, ttl time.Duration) error {
	now := time.Now()
	key := s.key(nsReplicas, "")
	return s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		cmds := rueidis.Commands{
			c.B().Zadd().Key(key).ScoreMember().ScoreMember(float64(now.UnixMilli()), name).Build(),
			c.B().Zremrangebyscore().Key(key).Min("-inf").Max("(" + strconv.FormatInt(now.Add(-ttl).UnixMilli(), 10)).Build(),
			c.B().Pexpire().Key(key).Milliseconds(2 * ttl.Milliseconds()).Build(),
		}
		for _, r := range c.DoMulti(ctx, cmds...) {
			if err := r.Error(); err != nil {
				return err
			}
		}
		return nil
	})
}

// Replicas are the replicas heard of within ttl, most recent first.
func (s *Store) Replicas(ctx context.Context, ttl time.Duration) ([]Replica, error) {
	key := s.key(nsReplicas, "")
	var out []Replica
	err := s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		since := strconv.FormatInt(time.Now().Add(-ttl).UnixMilli(), 10)
		scores, err := c.Do(ctx, c.B().Zrange().Key(key).Min("+inf").Max(since).Byscore().Rev().Withscores().Build()).AsZScores()
		if err != nil {
			return err
		}
		for _, z := range scores {
			out = append(out, Replica{Name: z.Member, LastSeen: time.UnixMilli(int64(z.Score))})
		}
		return nil
	})
	return out, err
}

package upstream

import (
	"context"
	"reflect"
	"slices"
)

// User is the service as one signed-in user reads it: every operation is a
// method here, declared once, and goes through do. With a Keeper (a page's
// cache reader, internal/upstream/cache) answers are kept, shared and paid
// for from the user's hourly budget; without one each call goes to the
// service.
type User struct {
	c    *Client
	key  string
	keep Keeper
	// absent are operations answered "not found" without a call: the
	// service lately said it lacks them for this user.
	absent []string
}

// As returns the operations of the session key, each call going to the
// service (tools and tests).
func (c *Client) As(key string) *User { return &User{c: c, key: key} }

// Kept returns the operations of the session key read through keep.
func (c *Client) Kept(key string, keep Keeper) *User { return &User{c: c, key: key, keep: keep} }

// Without returns u answering ops (operation names such as
// OpIdentificationGroup) with ErrNotFound without asking the service.
func (u *User) Without(ops ...string) *User {
	if len(ops) == 0 {
		return u
	}
	v := *u
	v.absent = append(slices.Clip(u.absent), ops...)
	return &v
}

// Names of the optional operations, which a service may lack (see
// User.Without).
const (
	OpIdentificationGroup = "Business/IdentificationGroup"
	OpSearch              = "Business/Search"
	OpPortfolioBusinesses = "Portfolio/Businesses"
)

// Kind groups the service's data by how long a kept copy stays fresh; each
// operation names its kind.
type Kind int

// The kinds of data.
const (
	KindReport    Kind = iota // scores, payments, statements, officers, header data
	KindPortfolio             // folders, portfolio businesses, score histories
	KindNews                  // folder, industry and portfolio news
	KindSearch                // name search
	KindAccount               // trade providers
	NumKinds                  // how many kinds there are
)

// Request is one read as a Keeper sees it.
type Request struct {
	// Op names the operation, for errors and the budget.
	Op   string
	Kind Kind
	// Key is the path and query of the call: identical reads have the
	// same one, whoever makes them (the keeper adds the user).
	Key string
}

// Answer is what the service's answer told besides the value decoded.
type Answer struct {
	// Size is the length of the answer's data, to weigh what is kept.
	Size int
	// Data is a copy of the answer's data, when the fetch was asked for
	// it (a keeper sharing copies with other replicas).
	Data []byte
	// Quota is the quota the answer reported, when HasQuota.
	Quota    RateLimit
	HasQuota bool
}

// Fetch is one read's way to the service (see Keeper.Read). A value, not
// a closure: a read that a kept copy answers never uses it, and should
// not allocate it.
type Fetch struct {
	u   *User
	cl  call
	out any
}

// Do sends the read to the service and decodes its answer into the
// reader's value; with data it also returns a copy of the answer's data.
// Its Answer carries the quota even when it fails.
func (f Fetch) Do(ctx context.Context, data bool) (Answer, error) {
	return f.u.c.wire(ctx, f.cl, f.out, data)
}

// Keeper stands between a user's operations and the wire (the cache).
type Keeper interface {
	// Read answers rq into out (a pointer), from a kept copy or by
	// fetch.Do, which decodes into out.
	Read(ctx context.Context, rq Request, out any, fetch Fetch) error
	// Spend makes a call that is never kept (an export) within the
	// user's budget.
	Spend(ctx context.Context, op string, call func(context.Context) (Answer, error)) error
}

// Decode decodes a kept copy of an answer's data into out, as the wire
// would have.
func (rq Request) Decode(data []byte, out any) error {
	if err := unmarshalData(data, out); err != nil {
		return &Error{Op: rq.Op, Status: 200, Kind: ErrMalformed, Err: err}
	}
	return nil
}

// Assign sets *out (a pointer) to v, a value decoded for the same
// request earlier (see Value).
func Assign(out, v any) { reflect.ValueOf(out).Elem().Set(reflect.ValueOf(v)) }

// Value is what out (a pointer) points to, to keep and Assign later.
func Value(out any) any { return reflect.ValueOf(out).Elem().Interface() }

// do runs one operation for u: through the keeper when u has one, else
// straight to the service. It is the one way every operation takes.
func (u *User) do(ctx context.Context, cl call, out any) error {
	cl.key = u.key
	if slices.Contains(u.absent, cl.op) {
		return &Error{Op: cl.op, Status: 404, Kind: ErrNotFound, Message: "not offered (remembered)"}
	}
	if u.keep == nil {
		_, err := u.c.wire(ctx, cl, out, false)
		return err
	}
	rq := Request{Op: cl.op, Kind: cl.kind, Key: cl.query.key(cl.path)}
	return u.keep.Read(ctx, rq, out, Fetch{u: u, cl: cl, out: out})
}

package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
)

// Credentials are what a sign-in sends.
type Credentials struct {
	User     string
	Password string
	// BrowserKey is the key a right two-factor code earned this browser
	// earlier (LoginResult.BrowserKey); "" when it has none. A service that
	// no longer knows it asks for a code, as without one.
	BrowserKey string
}

// Login signs in and returns the session key. Wrong credentials are an
// ErrInvalidCredentials carrying the service's message; an account with
// two-factor sign-in is an ErrTwoFactorRequired (SignIn handles those).
func (c *Client) Login(ctx context.Context, username, password string) (LoginResult, error) {
	res, err := c.SignIn(ctx, Credentials{User: username, Password: password})
	if err != nil {
		return LoginResult{}, err
	}
	if res.TwoFactorAuthenticationRequired {
		return LoginResult{}, &Error{Op: opLogin, Status: 200, Kind: ErrTwoFactorRequired,
			Message: "This account signs in with a second step, which needs the code sent to your phone."}
	}
	return res, nil
}

// SignIn signs in, asking for a one-time code rather than a link. When the
// result's TwoFactorAuthenticationRequired is set, SessionKey is a pending
// key good only for TwoFactorKey, and a code went to the user's phone.
func (c *Client) SignIn(ctx context.Context, cr Credentials) (LoginResult, error) {
	form := url.Values{formUsername: {cr.User}, formPassword: {cr.Password}, formLinkBasedMFA: {linkBasedMFANo}}
	if cr.BrowserKey != "" {
		form.Set(formKey, cr.BrowserKey)
	}
	res, err := c.signInCall(ctx, opLogin, call{op: opLogin, path: "/v1/Users/Login", form: form})
	if err == nil && res.Username == "" {
		res.Username = cr.User
	}
	return res, err
}

// TwoFactorKey sends the one-time code for a pending key from SignIn. On a
// right code the same key becomes a full session key, and BrowserKey holds
// a key for Credentials.BrowserKey when the account has browser
// verification. A wrong code is an ErrTwoFactorCode (attempts are limited:
// TwoFactorMaxAttempts), a pending key refused for too many wrong codes an
// ErrTwoFactorLocked, and one expired or unknown an ErrTwoFactorExpired; in
// each of the last two cases only a new SignIn helps.
func (c *Client) TwoFactorKey(ctx context.Context, pendingKey, code string) (LoginResult, error) {
	const op = "Users/2FAKey"
	cl := call{op: op, path: pathTwoFactorKey, key: pendingKey, form: url.Values{formKey: {code}}}
	res, err := c.signInCall(ctx, op, cl)
	var ue *Error
	if errors.As(err, &ue) && ue.Kind == ErrSessionExpired {
		ue.Kind = ErrTwoFactorExpired
	}
	return res, err
}

// signInCall runs Login or 2FAKey, whose answers share one shape.
func (c *Client) signInCall(ctx context.Context, op string, cl call) (LoginResult, error) {
	var raw json.RawMessage
	if _, err := c.wire(ctx, cl, &raw, false); err != nil {
		return LoginResult{}, err
	}
	res, err := decodeLogin(raw)
	if err != nil {
		return LoginResult{}, &Error{Op: op, Status: 200, Kind: ErrMalformed, Err: err}
	}
	return res, nil
}

// opLogin names the sign-in operation in errors.
const opLogin = "Users/Login"

// decodeLogin accepts Data as an object with SessionKey or as the bare key.
func decodeLogin(raw json.RawMessage) (LoginResult, error) {
	raw = bytes.TrimSpace(raw)
	var res LoginResult
	if len(raw) > 0 && raw[0] == '"' {
		if err := json.Unmarshal(raw, &res.SessionKey); err != nil {
			return LoginResult{}, err
		}
	} else if err := json.Unmarshal(raw, &res); err != nil {
		return LoginResult{}, err
	}
	if res.SessionKey == "" {
		return LoginResult{}, errors.New("no session key in the answer")
	}
	return res, nil
}

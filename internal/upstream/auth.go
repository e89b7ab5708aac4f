package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/url"
)

// Login signs in and returns the session key. Wrong credentials are an
// ErrInvalidCredentials carrying the service's message.
func (c *Client) Login(ctx context.Context, username, password string) (LoginResult, error) {
	const op = "Users/Login"
	form := url.Values{formUsername: {username}, formPassword: {password}}
	var raw json.RawMessage
	if err := c.do(ctx, call{op: op, path: pathLogin, form: form}, &raw); err != nil {
		return LoginResult{}, err
	}
	res, err := decodeLogin(raw)
	if err != nil {
		return LoginResult{}, &Error{Op: op, Status: 200, Kind: ErrMalformed, Err: err}
	}
	if res.TwoFactorAuthenticationRequired {
		return LoginResult{}, &Error{Op: op, Status: 200, Kind: ErrTwoFactorRequired,
			Message: "This account signs in with a second step, which the dashboard does not offer yet."}
	}
	if res.Username == "" {
		res.Username = username
	}
	return res, nil
}

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

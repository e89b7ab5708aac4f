package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"

	"creditdash/internal/handlers"
)

// config is read once at start from the environment; flags may override.
type config struct {
	ListenAddr string
	// MetricsAddr, when set, serves Prometheus metrics on their own
	// listener (never on the dashboard's).
	MetricsAddr     string
	UpstreamURL     string // "" starts the stand-in service inside the process
	SessionSecrets  []string
	CookieSecure    bool
	UpstreamTimeout time.Duration
	SessionLifetime time.Duration
	// CacheTTL is how long report and portfolio data stay fresh; NewsTTL
	// the same for news and search; CacheBytes bounds the cache's memory.
	CacheTTL   time.Duration
	NewsTTL    time.Duration
	CacheBytes uint64
	// KeepStale is how long an expired copy is kept to show, marked, when
	// the service cannot answer.
	KeepStale time.Duration
	LogFormat string
	LogLevel  slog.Level
	DemoSeed  int64
	StaticDir string // "" serves the embedded assets
	// DataDir holds the workspace's SQLite file; DatabaseURL, when set,
	// puts the workspace on PostgreSQL instead (several replicas).
	DataDir     string
	DatabaseURL string
	// RedisURL, when set, shares cached answers, hourly budgets and
	// sign-outs with the other replicas through Valkey or Redis.
	RedisURL string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (the sign-in throttle counts by client address).
	TrustedProxies []netip.Prefix
	// PublicURL is the site's address as browsers reach it, for absolute
	// links; empty builds them from each request.
	PublicURL string
}

// demo reports whether the dashboard runs against its built-in stand-in.
func (c config) demo() bool { return c.UpstreamURL == "" }

// loadConfig reads the environment through getenv, then the flags in args.
// SESSION_SECRET has no flag: secrets on a command line show in process lists.
func loadConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	env := func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", env("LISTEN_ADDR", "127.0.0.1:8080"), "address to listen on (LISTEN_ADDR)")
	upstreamURL := fs.String("upstream", env("UPSTREAM_URL", ""), "credit-risk service base URL; empty runs the built-in stand-in (UPSTREAM_URL)")
	secure := fs.String("cookie-secure", env("COOKIE_SECURE", "true"), "mark cookies Secure (COOKIE_SECURE)")
	timeout := fs.String("upstream-timeout", env("UPSTREAM_TIMEOUT", "10s"), "limit for each call to the service (UPSTREAM_TIMEOUT)")
	lifetime := fs.String("session-lifetime", env("SESSION_LIFETIME", "12h"), "longest a sign-in lasts (SESSION_LIFETIME)")
	cacheTTL := fs.String("cache-ttl", env("CACHE_TTL", "15m"), "how long scores, statements, officers and portfolio data stay fresh (CACHE_TTL)")
	newsTTL := fs.String("news-ttl", env("NEWS_TTL", "5m"), "how long news and search results stay fresh (NEWS_TTL)")
	cacheMB := fs.String("cache-mb", env("CACHE_MB", "64"), "memory bound of the cache in MiB (CACHE_MB)")
	keepStale := fs.String("cache-keep-stale", env("CACHE_KEEP_STALE", "24h"), "how long expired copies are kept for outages (CACHE_KEEP_STALE)")
	logFormat := fs.String("log-format", env("LOG_FORMAT", "text"), "text or json (LOG_FORMAT)")
	logLevel := fs.String("log-level", env("LOG_LEVEL", "info"), "debug, info, warn or error (LOG_LEVEL)")
	seed := fs.String("demo-seed", env("DEMO_SEED", "1"), "seed of the stand-in's demo data (DEMO_SEED)")
	staticDir := fs.String("static-dir", env("STATIC_DIR", ""), "development aid: serve static files from this folder instead of the embedded copy (STATIC_DIR)")
	dataDir := fs.String("data-dir", env("DATA_DIR", "./data"), "folder of the workspace database creditdash.db (DATA_DIR)")
	proxies := fs.String("trusted-proxies", env("TRUSTED_PROXIES", ""), "addresses or networks of the reverse proxies in front, comma-separated, whose X-Forwarded-For names the client (TRUSTED_PROXIES)")
	publicURL := fs.String("public-url", env("PUBLIC_URL", ""), "the site's address as browsers reach it, such as https://credit.example.com, for share links and notes.csv; empty takes each request's Host (PUBLIC_URL)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}

	var cfg config
	var errs []error
	cfg.ListenAddr = *listen
	cfg.UpstreamURL = strings.TrimRight(*upstreamURL, "/")
	cfg.StaticDir = *staticDir
	cfg.DataDir = *dataDir
	// No flag: a database URL may carry a password, which a command line
	// would show in process lists.
	cfg.DatabaseURL = strings.TrimSpace(getenv("DATABASE_URL"))
	if u := cfg.DatabaseURL; u != "" && !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
		errs = append(errs, errors.New("DATABASE_URL must start with postgres:// or postgresql://"))
	}
	// No flag either, for the same reason.
	cfg.MetricsAddr = strings.TrimSpace(getenv("METRICS_ADDR"))
	cfg.RedisURL = strings.TrimSpace(getenv("REDIS_URL"))
	if u := cfg.RedisURL; u != "" && !strings.HasPrefix(u, "redis://") && !strings.HasPrefix(u, "rediss://") && !strings.HasPrefix(u, "unix://") {
		errs = append(errs, errors.New("REDIS_URL must start with redis://, rediss:// or unix://"))
	}
	var err error
	if cfg.CookieSecure, err = strconv.ParseBool(*secure); err != nil {
		errs = append(errs, fmt.Errorf("COOKIE_SECURE %q is not true or false", *secure))
	}
	if cfg.UpstreamTimeout, err = time.ParseDuration(*timeout); err != nil || cfg.UpstreamTimeout <= 0 {
		errs = append(errs, fmt.Errorf("UPSTREAM_TIMEOUT %q is not a positive duration such as 10s", *timeout))
	}
	if cfg.SessionLifetime, err = time.ParseDuration(*lifetime); err != nil || cfg.SessionLifetime < time.Minute {
		errs = append(errs, fmt.Errorf("SESSION_LIFETIME %q is not a duration of a minute or more", *lifetime))
	}
	if cfg.CacheTTL, err = time.ParseDuration(*cacheTTL); err != nil || cfg.CacheTTL < 0 {
		errs = append(errs, fmt.Errorf("CACHE_TTL %q is not a duration such as 15m", *cacheTTL))
	}
	if cfg.NewsTTL, err = time.ParseDuration(*newsTTL); err != nil || cfg.NewsTTL < 0 {
		errs = append(errs, fmt.Errorf("NEWS_TTL %q is not a duration such as 5m", *newsTTL))
	}
	if cfg.KeepStale, err = time.ParseDuration(*keepStale); err != nil || cfg.KeepStale <= 0 {
		errs = append(errs, fmt.Errorf("CACHE_KEEP_STALE %q is not a positive duration such as 24h", *keepStale))
	}
	if mb, err := strconv.ParseUint(*cacheMB, 10, 32); err != nil || mb == 0 {
		errs = append(errs, fmt.Errorf("CACHE_MB %q is not a positive whole number of MiB", *cacheMB))
	} else {
		cfg.CacheBytes = mb << 20
	}
	if cfg.DemoSeed, err = strconv.ParseInt(*seed, 10, 64); err != nil {
		errs = append(errs, fmt.Errorf("DEMO_SEED %q is not a whole number", *seed))
	}
	switch cfg.LogFormat = *logFormat; cfg.LogFormat {
	case "text", "json":
	default:
		errs = append(errs, fmt.Errorf("LOG_FORMAT %q is not text or json", *logFormat))
	}
	if err := cfg.LogLevel.UnmarshalText([]byte(*logLevel)); err != nil {
		errs = append(errs, fmt.Errorf("LOG_LEVEL %q is not debug, info, warn or error", *logLevel))
	}
	if cfg.PublicURL, err = parsePublicURL(*publicURL); err != nil {
		errs = append(errs, err)
	}
	if cfg.TrustedProxies, err = parseProxies(*proxies); err != nil {
		errs = append(errs, err)
	}
	if raw := getenv("SESSION_SECRET"); raw != "" {
		for _, s := range strings.Split(raw, ",") {
			s = strings.TrimSpace(s)
			if len(s) < handlers.MinSecretLen {
				errs = append(errs, fmt.Errorf("each SESSION_SECRET must be at least %d characters", handlers.MinSecretLen))
				break
			}
			cfg.SessionSecrets = append(cfg.SessionSecrets, s)
		}
	}
	if !cfg.demo() && len(cfg.SessionSecrets) == 0 {
		errs = append(errs, errors.New("SESSION_SECRET is required when UPSTREAM_URL is set: one or more random strings of at least 32 characters, separated by commas, newest first"))
	}
	return cfg, errors.Join(errs...)
}

// parseProxies reads TRUSTED_PROXIES: addresses (172.28.0.10) or networks
// (172.28.0.0/24), comma-separated.
func parseProxies(raw string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range strings.Split(raw, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if a, err := netip.ParseAddr(s); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, fmt.Errorf("TRUSTED_PROXIES: %q is not an address or a network such as 172.28.0.10 or 172.28.0.0/24", s)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// parsePublicURL reads PUBLIC_URL: an http or https origin (no path, query
// or credentials), kept without a trailing slash.
func parsePublicURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		strings.TrimSuffix(u.Path, "/") != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("PUBLIC_URL %q is not an address such as https://credit.example.com (scheme and host, no path)", raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

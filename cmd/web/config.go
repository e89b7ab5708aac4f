package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/mail"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/peterbourgon/ff/v3"

	"creditdash/internal/roles"
	"creditdash/internal/session"
)

// config is read once at start: flags, then the environment variable of
// each flag's name (-listen-addr: LISTEN_ADDR), then the default. Every
// value is checked here, before anything is started or connected.
type config struct {
	ListenAddr string
	// MetricsAddr, when set, serves Prometheus metrics and the operator
	// page on their own listener (never on the dashboard's).
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
	// the client (the sign-in throttle counts by client address) and whose
	// X-Request-ID is kept.
	TrustedProxies []netip.Prefix
	// PublicURL is the site's address as browsers reach it, for absolute
	// links; empty builds them from each request.
	PublicURL string
	// ShutdownGrace is how long a stop waits for pages and exports.
	ShutdownGrace time.Duration
	// Roles bootstrap an empty team (TEAM_ROLES, see roles.go); after that
	// members are managed on /team.
	Roles *roles.Table
	// ShowVersion is -version: print the build and exit.
	ShowVersion bool
	// Pprof serves Go's profiles (/debug/pprof/) on the operators'
	// listener, for make loadtest's CPU by part; off unless asked for.
	Pprof bool
	// SMTPURL sends the e-mail digest (smtp:// with STARTTLS when offered,
	// smtps:// with implicit TLS); empty writes mails to DATA_DIR/outbox
	// in demo mode and sends none otherwise. DigestFrom is the sender's
	// address; DigestTick how often due digests are looked for.
	SMTPURL    string
	DigestFrom string
	DigestTick time.Duration
	// WebhookAllowPrivate lets webhook endpoints be at private and
	// loopback addresses (a receiver inside the same network).
	WebhookAllowPrivate bool
	// ApplyLinkLife is how long an invitation's link works; ApplyMinFill
	// the least time a stranger takes to fill the public application (a
	// bot's speed is refused).
	ApplyLinkLife, ApplyMinFill time.Duration
}

// demo reports whether the dashboard runs against its built-in stand-in.
func (c config) demo() bool { return c.UpstreamURL == "" }

// secrets are the settings that may carry a password or key: read from the
// environment or from the file NAME_FILE names (Docker and Kubernetes
// secrets), never from the command line, where process lists show them,
// and never printed.
var secrets = []string{"session-secret", "database-url", "redis-url", "smtp-url"}

// errHelp is -h: the usage was printed, exit 0.
var errHelp = errors.New("help requested")

// loadConfig reads the flags in args and the environment through getenv
// (NAME_FILE included for secrets). -h prints every setting to stdout and
// returns errHelp.
func loadConfig(args []string, getenv func(string) string, stdout io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		secretList, databaseURL, redisURL, upstreamURL, publicURL, proxies textValue
		teamRoles, teamRolesFile, smtpURL                                  textValue
		analystAuthority                                                   = textValue{v: "0"}
		listen                                                             = addrValue{v: "127.0.0.1:8080"}
		metricsAddr                                                        = addrValue{optional: true}
		cacheMB                                                            uint
	)
	fs.Var(&listen, "listen-addr", "address the dashboard listens on, host:port")
	fs.Var(&metricsAddr, "metrics-addr", "address of the operators' listener (Prometheus /metrics and the /status page), host:port; off when empty")
	fs.Var(&upstreamURL, "upstream-url", "credit-risk service base URL; empty runs the built-in stand-in with demo data (a password in it is never logged)")
	fs.Var(&secretList, "session-secret", "secret: one or more random strings of at least 32 characters, comma-separated, newest first; required with -upstream-url")
	fs.Var(&databaseURL, "database-url", "secret: postgres:// URL of the workspace database; empty keeps it in SQLite under -data-dir")
	fs.Var(&redisURL, "redis-url", "secret: redis://, rediss:// or unix:// URL of the store shared by replicas (Valkey or Redis)")
	fs.BoolVar(&cfg.CookieSecure, "cookie-secure", true, "mark cookies Secure (false only for plain http on a trusted network)")
	fs.DurationVar(&cfg.UpstreamTimeout, "upstream-timeout", 10*time.Second, "limit for each call to the service")
	fs.DurationVar(&cfg.SessionLifetime, "session-lifetime", 12*time.Hour, "longest a sign-in lasts")
	fs.DurationVar(&cfg.CacheTTL, "cache-ttl", 15*time.Minute, "how long scores, statements, officers and portfolio data stay fresh")
	fs.DurationVar(&cfg.NewsTTL, "news-ttl", 5*time.Minute, "how long news and search results stay fresh")
	fs.UintVar(&cacheMB, "cache-mb", 84, "memory bound of the heap in MiB: the caches and the collector's room")
	fs.DurationVar(&cfg.KeepStale, "cache-keep-stale", 24*time.Hour, "how long expired copies are kept for outages")
	fs.StringVar(&cfg.LogFormat, "log-format", "text", "text or json (json: every line, the first and the last included)")
	fs.TextVar(&cfg.LogLevel, "log-level", slog.LevelInfo, "debug, info, warn or error")
	fs.Int64Var(&cfg.DemoSeed, "demo-seed", 1, "seed of the stand-in's demo data")
	fs.BoolVar(&cfg.Pprof, "pprof", false, "profiling aid: serve a CPU profile (/debug/pprof/profile?seconds=N) and the heap profile (/debug/pprof/heap) on the operators' listener (METRICS_ADDR)")
	fs.StringVar(&cfg.StaticDir, "static-dir", "", "development aid: serve static files from this folder instead of the embedded copy")
	fs.StringVar(&cfg.DataDir, "data-dir", "./data", "folder of the workspace database creditdash.db")
	fs.Var(&proxies, "trusted-proxies", "addresses or networks of the reverse proxies in front, comma-separated: their X-Forwarded-For and X-Request-ID are believed")
	fs.Var(&publicURL, "public-url", "the site's address as browsers reach it (https://credit.example.com), for share links and notes.csv; empty takes each request's Host")
	fs.Var(&teamRoles, "team-roles", "the team's roles: name=role[:authority], comma- or newline-separated; role analyst, manager or auditor")
	fs.Var(&teamRolesFile, "team-roles-file", "a file of TEAM_ROLES lines, instead of TEAM_ROLES")
	fs.Var(&analystAuthority, "analyst-authority", "authority of analysts named without one and of everyone not named; 0, the default, approves nothing alone")
	fs.DurationVar(&cfg.ShutdownGrace, "shutdown-grace", 30*time.Second, "how long a stop (SIGTERM) waits for pages and exports to finish")
	fs.Var(&smtpURL, "smtp-url", "secret: smtp://user:password@host:587 (STARTTLS when offered) or smtps://user:password@host:465 (implicit TLS) for the e-mail digest; empty writes mails to DATA_DIR/outbox in demo mode and sends none otherwise")
	fs.StringVar(&cfg.DigestFrom, "digest-from", "CreditDash <creditdash@localhost>", "sender address of the e-mail digest")
	fs.DurationVar(&cfg.DigestTick, "digest-tick", time.Minute, "how often due digests are looked for")
	fs.DurationVar(&cfg.ApplyLinkLife, "apply-link-life", 30*24*time.Hour, "how long a credit application's invitation link works")
	fs.DurationVar(&cfg.ApplyMinFill, "apply-min-fill", 5*time.Second, "the least time from opening the public credit application to sending it; faster is refused as a bot's")
	fs.BoolVar(&cfg.WebhookAllowPrivate, "webhook-allow-private", false, "allow webhook endpoints at private and loopback addresses (refused by default, also when a name resolves to one at delivery)")

	// -version is no setting: kept out of the flag set, whose every flag
	// is also read from its variable (a VERSION in the environment, common
	// in build systems, must not stop the start).
	if wantsVersion(args) {
		cfg.ShowVersion = true
		return cfg, nil
	}
	if name := secretOnCommandLine(args); name != "" {
		return cfg, fmt.Errorf("-%s is a secret: set %s or %s_FILE in the environment instead (a command line shows in process lists)", name, envName(name), envName(name))
	}
	env, err := environment(fs, getenv)
	if err != nil {
		return cfg, err
	}
	err = ff.Parse(fs, args, ff.WithEnvVars())
	// ff reads the process's environment; getenv's values (tests, and the
	// NAME_FILE contents) are set on top where no flag was given.
	if err == nil {
		err = applyEnv(fs, args, env)
	}
	if errors.Is(err, flag.ErrHelp) {
		usage(fs, stdout)
		return cfg, errHelp
	}
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}

	var errs []error
	cfg.ListenAddr, cfg.MetricsAddr = listen.v, metricsAddr.v
	cfg.UpstreamURL = strings.TrimRight(upstreamURL.v, "/")
	cfg.DatabaseURL, cfg.RedisURL, cfg.SMTPURL = databaseURL.v, redisURL.v, smtpURL.v
	if u := cfg.SMTPURL; u != "" && !strings.HasPrefix(u, "smtp://") && !strings.HasPrefix(u, "smtps://") {
		errs = append(errs, errors.New("SMTP_URL must start with smtp:// or smtps://"))
	}
	if _, err := mail.ParseAddress(cfg.DigestFrom); err != nil {
		errs = append(errs, fmt.Errorf("DIGEST_FROM %q is not an e-mail address", cfg.DigestFrom))
	}
	if cfg.DigestTick < time.Second/100 || cfg.DigestTick > 24*time.Hour {
		errs = append(errs, fmt.Errorf("DIGEST_TICK %s is not a duration between 10ms and 24h", cfg.DigestTick))
	}
	if cfg.MetricsAddr != "" && cfg.MetricsAddr == cfg.ListenAddr && !strings.HasSuffix(cfg.ListenAddr, ":0") {
		errs = append(errs, errors.New("METRICS_ADDR must differ from LISTEN_ADDR: the metrics are never served on the public listener"))
	}
	if u := cfg.UpstreamURL; u != "" && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		errs = append(errs, errors.New("UPSTREAM_URL must start with http:// or https://"))
	}
	if u := cfg.DatabaseURL; u != "" && !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
		errs = append(errs, errors.New("DATABASE_URL must start with postgres:// or postgresql://"))
	}
	if u := cfg.RedisURL; u != "" && !strings.HasPrefix(u, "redis://") && !strings.HasPrefix(u, "rediss://") && !strings.HasPrefix(u, "unix://") {
		errs = append(errs, errors.New("REDIS_URL must start with redis://, rediss:// or unix://"))
	}
	positive := map[string]time.Duration{"UPSTREAM_TIMEOUT": cfg.UpstreamTimeout, "CACHE_KEEP_STALE": cfg.KeepStale, "SHUTDOWN_GRACE": cfg.ShutdownGrace}
	for _, name := range []string{"UPSTREAM_TIMEOUT", "CACHE_KEEP_STALE", "SHUTDOWN_GRACE"} {
		if positive[name] <= 0 {
			errs = append(errs, fmt.Errorf("%s %s is not a positive duration", name, positive[name]))
		}
	}
	if cfg.SessionLifetime < time.Minute {
		errs = append(errs, fmt.Errorf("SESSION_LIFETIME %s is not a duration of a minute or more", cfg.SessionLifetime))
	}
	if cfg.CacheTTL < 0 || cfg.NewsTTL < 0 {
		errs = append(errs, errors.New("CACHE_TTL and NEWS_TTL must not be negative"))
	}
	if cacheMB == 0 || cacheMB > 1<<20 {
		errs = append(errs, fmt.Errorf("CACHE_MB %d is not a number of MiB between 1 and 1048576", cacheMB))
	}
	cfg.CacheBytes = uint64(cacheMB) << 20
	if cfg.LogFormat != "text" && cfg.LogFormat != "json" {
		errs = append(errs, fmt.Errorf("LOG_FORMAT %q is not text or json", cfg.LogFormat))
	}
	if cfg.PublicURL, err = parsePublicURL(publicURL.v); err != nil {
		errs = append(errs, err)
	}
	if cfg.TrustedProxies, err = parseProxies(proxies.v); err != nil {
		errs = append(errs, err)
	}
	if cfg.Roles, err = loadRoles(teamRoles.v, teamRolesFile.v, analystAuthority.v, cfg.demo()); err != nil {
		errs = append(errs, err)
	}
	if raw := secretList.v; raw != "" {
		for _, s := range strings.Split(raw, ",") {
			s = strings.TrimSpace(s)
			if len(s) < session.MinSecretLen {
				errs = append(errs, fmt.Errorf("each SESSION_SECRET must be at least %d characters", session.MinSecretLen))
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

// wantsVersion tells whether args ask for -version (before any "--").
func wantsVersion(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-version", "--version", "-version=true", "--version=true":
			return true
		}
	}
	return false
}

// envName is a flag's environment variable: -listen-addr is LISTEN_ADDR.
func envName(flagName string) string {
	return strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func isSecret(name string) bool {
	for _, s := range secrets {
		if s == name {
			return true
		}
	}
	return false
}

// secretOnCommandLine names a secret flag given in args, or "".
func secretOnCommandLine(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && isSecret(name) {
			return name
		}
	}
	return ""
}

// environment reads each flag's variable through getenv, and for secrets
// NAME_FILE (the file's content, trailing newline dropped) when NAME is
// unset. Setting both is refused: which one wins would be a guess.
func environment(fs *flag.FlagSet, getenv func(string) string) (map[string]string, error) {
	env := map[string]string{}
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		v := strings.TrimSpace(getenv(name))
		if isSecret(f.Name) {
			if path := strings.TrimSpace(getenv(name + "_FILE")); path != "" {
				if v != "" {
					errs = append(errs, fmt.Errorf("set %s or %s_FILE, not both", name, name))
					return
				}
				b, err := os.ReadFile(path)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s_FILE: %w", name, err))
					return
				}
				v = strings.TrimSpace(string(b))
			}
		}
		if v != "" {
			env[f.Name] = v
		}
	})
	return env, errors.Join(errs...)
}

// applyEnv sets the flags not given in args from env, naming the variable
// (never its value, which may be a secret) when one is refused.
func applyEnv(fs *flag.FlagSet, args []string, env map[string]string) error {
	var errs []error
	fs.VisitAll(func(f *flag.Flag) {
		v, ok := env[f.Name]
		if !ok || onCommandLine(args, f.Name) {
			return
		}
		if err := fs.Set(f.Name, v); err != nil {
			if isSecret(f.Name) {
				errs = append(errs, fmt.Errorf("%s is not valid", envName(f.Name)))
			} else {
				errs = append(errs, fmt.Errorf("%s %q: %w", envName(f.Name), v, unwrapFlagErr(err)))
			}
		}
	})
	return errors.Join(errs...)
}

// onCommandLine tells whether args set the flag name.
func onCommandLine(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if n == name {
			return true
		}
	}
	return false
}

func unwrapFlagErr(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// usage prints every setting: flag, variable, default, meaning. Secrets
// are listed with their _FILE variant and never with a value.
func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "Usage: web [flags]\n\nCreditDash, the credit analysts' dashboard. Every flag may be set instead by the\nenvironment variable named after it; a flag given wins.\n\n")
	fs.VisitAll(func(f *flag.Flag) {
		name := envName(f.Name)
		if isSecret(f.Name) {
			name += " or " + name + "_FILE"
		}
		fmt.Fprintf(w, "  -%s  (%s)\n      %s", f.Name, name, f.Usage)
		if !isSecret(f.Name) && f.DefValue != "" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
	fmt.Fprintf(w, "  -version\n      print the version and exit\n")
}

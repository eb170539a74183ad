//! The guard's configuration and the checks made before any DNS lookup:
//! allowed origins, local names, blocked domains, and the URL gate for what a
//! model asks to open.

use std::net::IpAddr;

use url::{Host, Url};

use crate::Reason;

/// Names that mean "this machine or its network" whatever DNS says, checked
/// after one trailing dot is removed: `(suffix, rule)`.
const LOCAL_NAMES: &[(&str, &str)] = &[
    ("localhost", "localhost [RFC 6761]"),
    ("local", "mDNS .local [RFC 6762]"),
    ("internal", ".internal, private use"),
    ("home.arpa", "home networks .home.arpa [RFC 8375]"),
];

/// An origin the user explicitly allows: scheme, host and port, exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowedOrigin {
    scheme: String,
    host: Host<String>,
    port: u16,
}

impl AllowedOrigin {
    /// Parses `http://127.0.0.1:8080` (a path, if given, must be `/`).
    pub fn parse(origin: &str) -> Result<Self, Reason> {
        let url = Url::parse(origin).map_err(|error| Reason::Malformed {
            input: origin.to_owned(),
            problem: error.to_string(),
        })?;
        let scheme = url.scheme().to_owned();
        let (Some(host), Some(port)) = (url.host(), url.port_or_known_default()) else {
            return Err(Reason::Malformed {
                input: origin.to_owned(),
                problem: "an origin needs a host".to_owned(),
            });
        };
        if !matches!(scheme.as_str(), "http" | "https")
            || url.path() != "/"
            || url.query().is_some()
        {
            return Err(Reason::Malformed {
                input: origin.to_owned(),
                problem: "an origin is scheme://host:port, with http or https".to_owned(),
            });
        }
        Ok(Self {
            scheme,
            host: host.to_owned(),
            port,
        })
    }

    /// Whether a request (scheme if known: CONNECT tunnels carry none) to
    /// `host:port` is this origin. WebSockets share their page's origin:
    /// `ws` counts as `http`, `wss` as `https`.
    fn matches_name(&self, scheme: Option<&str>, host: &Host<String>, port: u16) -> bool {
        let scheme_matches = match scheme {
            None => true,
            Some("ws") => self.scheme == "http",
            Some("wss") => self.scheme == "https",
            Some(scheme) => self.scheme == scheme,
        };
        scheme_matches && &self.host == host && self.port == port
    }

    /// Whether a connection to `address:port` is this origin's (for origins
    /// given by address).
    fn matches_address(&self, address: IpAddr, port: u16) -> bool {
        let own = match &self.host {
            Host::Ipv4(v4) => IpAddr::V4(*v4),
            Host::Ipv6(v6) => IpAddr::V6(*v6),
            Host::Domain(_) => return false,
        };
        own.to_canonical() == address.to_canonical() && self.port == port
    }
}

impl std::fmt::Display for AllowedOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}://{}:{}", self.scheme, self.host, self.port)
    }
}

/// An origin a task names (`--read-origin`, `--act-origin`): scheme, host
/// and port, the host exactly or, written `https://*.example.com`, that
/// domain and every subdomain of it. The host is read as the URL standard
/// reads it (`HTTPS://EXAMPLE.com:443` is `https://example.com`).
///
/// Written with a path (`https://shop.example/checkout`), it names only
/// the pages of that origin at that path or below it (`/checkout`,
/// `/checkout/pay`, not `/checkouts` nor `/account`): where a task acts,
/// narrowed to the part of a site the task is about. Requests are judged
/// by origin whatever the path (a page's pictures and scripts come from
/// anywhere on it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskOrigin {
    scheme: String,
    host: Host<String>,
    /// `*.` was written before the domain.
    subdomains: bool,
    port: u16,
    /// The path the pages named lie at or below, without its last `/`
    /// (`None`: every page of the origin).
    path: Option<String>,
}

impl TaskOrigin {
    /// Parses `https://shop.example`, `http://127.0.0.1:8080` or
    /// `https://*.example.com`, each with a path or not
    /// (`https://shop.example/checkout`; no query nor fragment).
    pub fn parse(origin: &str) -> Result<Self, Reason> {
        let (subdomains, spelled) = match origin.split_once("://*.") {
            Some((scheme, rest)) => (true, format!("{scheme}://{rest}")),
            None => (false, origin.to_owned()),
        };
        let (spelled, path) = match Url::parse(&spelled) {
            Ok(url) if url.query().is_none() && url.fragment().is_none() => {
                let path = url.path().trim_end_matches('/').to_owned();
                let mut bare = url;
                bare.set_path("/");
                (bare.to_string(), (!path.is_empty()).then_some(path))
            }
            _ => (spelled, None),
        };
        if path.as_deref().is_some_and(|path| !plain_path(path)) {
            return Err(Reason::Malformed {
                input: origin.to_owned(),
                problem: "a task's path is plain segments: no ;, and no escaped /, \\ or ."
                    .to_owned(),
            });
        }
        let allowed = AllowedOrigin::parse(&spelled)?;
        if subdomains && !matches!(allowed.host, Host::Domain(_)) {
            return Err(Reason::Malformed {
                input: origin.to_owned(),
                problem: "*. goes before a domain, not an address".to_owned(),
            });
        }
        Ok(Self {
            scheme: allowed.scheme,
            host: allowed.host,
            subdomains,
            port: allowed.port,
            path,
        })
    }

    /// The path it is narrowed to (`/checkout`), if any.
    pub fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// Whether a request (scheme if known: CONNECT tunnels carry none) to
    /// `host:port` is of this origin. WebSockets share their page's.
    pub fn matches(&self, scheme: Option<&str>, host: &Host<String>, port: u16) -> bool {
        let scheme_matches = match scheme {
            None => true,
            Some("ws") => self.scheme == "http",
            Some("wss") => self.scheme == "https",
            Some(scheme) => self.scheme == scheme,
        };
        let host_matches = match (&self.host, host) {
            (Host::Domain(own), Host::Domain(name)) if self.subdomains => {
                is_within(&name.trim_end_matches('.').to_ascii_lowercase(), own)
            }
            (own, other) => own == other,
        };
        scheme_matches && host_matches && self.port == port
    }

    /// Whether `url` is a page this names: of this origin, and at or
    /// below its path if it has one.
    pub fn matches_url(&self, url: &Url) -> bool {
        self.matches_origin(url)
            && self.path.as_deref().is_none_or(|path| {
                url.path().strip_prefix(path).is_some_and(|rest| {
                    (rest.is_empty() || rest.starts_with('/')) && plain_path(rest)
                })
            })
    }

    /// Whether `url`'s origin is this one, whatever its path.
    pub fn matches_origin(&self, url: &Url) -> bool {
        match (url.host(), url.port_or_known_default()) {
            (Some(host), Some(port)) => self.matches(Some(url.scheme()), &host.to_owned(), port),
            _ => false,
        }
    }
}

/// Whether a path (as the URL standard writes it) holds nothing a server
/// might read as another path than its segments say: a `;` (parameters
/// some servers strip), an escaped `/`, `\` or `.` (which some decode
/// before they route, so `/checkout/..%2faccount` is not the checkout).
fn plain_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    !(lower.contains(';')
        || lower.contains('\\')
        || ["%2f", "%5c", "%2e"]
            .iter()
            .any(|escaped| lower.contains(escaped)))
}

impl std::fmt::Display for TaskOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let star = if self.subdomains { "*." } else { "" };
        let default = match self.scheme.as_str() {
            "http" => 80,
            _ => 443,
        };
        if self.port == default {
            write!(f, "{}://{star}{}", self.scheme, self.host)?;
        } else {
            write!(f, "{}://{star}{}:{}", self.scheme, self.host, self.port)?;
        }
        f.write_str(self.path.as_deref().unwrap_or_default())
    }
}

/// The origins a task may read and act on. Empty (the default): every
/// origin the address rules allow, as before. Named: the model opens only
/// these origins, acts (types, submits, uploads, changes state) only on
/// the act origins, and, `strict`, every request of the browser stays
/// within them too, and what a page of an act origin shows is not typed
/// into any act origin's page unless a flow allows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Task {
    /// Origins the task may read (open, follow links to).
    pub read: Vec<TaskOrigin>,
    /// Origins the task may act on (and read).
    pub act: Vec<TaskOrigin>,
    /// Every request the browser makes stays within the task's origins,
    /// not only what the model opens; and data read on an act origin is
    /// typed nowhere but where `flows` allow.
    pub strict: bool,
    /// Flows the task allows besides the defaults: what is read on the
    /// first origin may be typed on the second (`--allow-flow FROM=TO`).
    /// What was read is kept by origin, so the first is judged by its
    /// origin alone; the second may name a path.
    pub flows: Vec<(TaskOrigin, TaskOrigin)>,
}

impl Task {
    /// Whether the task names any origin (else nothing is checked).
    pub fn is_set(&self) -> bool {
        !self.read.is_empty() || !self.act.is_empty()
    }

    /// Whether a request to `host:port` stays within the task's origins.
    pub fn may_reach(&self, scheme: Option<&str>, host: &Host<String>, port: u16) -> bool {
        !self.is_set()
            || self
                .read
                .iter()
                .chain(&self.act)
                .any(|origin| origin.matches(scheme, host, port))
    }

    /// Whether the task may read `url`: a page of a read origin (at its
    /// path, where one is named), or of an act origin whatever its path
    /// (the shop is read on the way to its checkout).
    pub fn may_read(&self, url: &Url) -> bool {
        !self.is_set()
            || self.read.iter().any(|origin| origin.matches_url(url))
            || self.act.iter().any(|origin| origin.matches_origin(url))
    }

    /// Whether the task may act on `url`: a page of an act origin, at or
    /// below its path where one is named.
    pub fn may_act(&self, url: &Url) -> bool {
        !self.is_set() || self.act.iter().any(|origin| origin.matches_url(url))
    }

    /// Whether the task acts anywhere on `url`'s origin (on some of its
    /// pages, if not this one).
    pub fn acts_on_origin(&self, url: &Url) -> bool {
        !self.is_set() || self.act.iter().any(|origin| origin.matches_origin(url))
    }

    /// Whether a flow names data read on `from` carried to `to`.
    pub fn allows_flow(&self, from: &Url, to: &Url) -> bool {
        self.flows
            .iter()
            .any(|(source, sink)| source.matches_origin(from) && sink.matches_url(to))
    }
}

/// What the guard lets through. The default refuses everything but public
/// addresses.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Origins reached whatever their address: the only exception to the
    /// address rules. Allowing `http://127.0.0.1:8080` allows that address and
    /// port (and its WebSocket twin), never another port or host.
    pub allowed_origins: Vec<AllowedOrigin>,
    /// Domains refused with all their subdomains (`example.com` also refuses
    /// `www.example.com`).
    pub blocked_domains: Vec<String>,
    /// Where the egress proxy listens, for a browser on another machine
    /// (`--guard-listen`): an address of this machine that browser can
    /// reach, on a port of its own per session. `None`: loopback only.
    pub listen: Option<std::net::IpAddr>,
    /// Who may connect to the proxy when it listens on `listen`
    /// (`--guard-clients`): a connection from any other address is closed
    /// before a byte is read, and recorded ([`Guard::refused_clients`](crate::Guard::refused_clients)).
    pub clients: Vec<ipnet::IpNet>,
    /// An HTTP proxy every request leaves through (`--upstream-proxy`), for
    /// a machine that reaches the web only that way. The guard still
    /// resolves and judges every address itself, and asks the upstream
    /// proxy (with `CONNECT`) for exactly the address it judged, never for
    /// a name the proxy could resolve elsewhere. `None`: dial directly.
    pub upstream: Option<UpstreamProxy>,
    /// The origins the task may read and act on (`--read-origin`,
    /// `--act-origin`, `--task-strict`). Empty: as the rules above say.
    pub task: Task,
}

/// An upstream HTTP proxy: where it listens, and the credentials it asks
/// for, if any.
#[derive(Clone, PartialEq, Eq)]
pub struct UpstreamProxy {
    /// `host:port`.
    pub address: String,
    /// `user:password`, sent as `Proxy-Authorization: Basic`.
    pub credentials: Option<String>,
}

impl UpstreamProxy {
    /// From `http://host:port` (credentials are not taken from the URL,
    /// which command lines and logs show: give them apart).
    pub fn parse(url: &str, credentials: Option<String>) -> Result<Self, String> {
        let parsed =
            url::Url::parse(url).map_err(|error| format!("{url:?} is not a URL: {error}"))?;
        if parsed.scheme() != "http" {
            return Err(format!(
                "{url:?}: an upstream proxy is spoken to over http://"
            ));
        }
        if !parsed.username().is_empty() || parsed.password().is_some() {
            return Err("credentials in the proxy's URL would show in process lists and logs: give them in TABWRIGHT_UPSTREAM_PROXY_CREDENTIALS (user:password)".to_owned());
        }
        let host = parsed
            .host_str()
            .ok_or_else(|| format!("{url:?} names no host"))?;
        let port = parsed.port_or_known_default().unwrap_or(80);
        Ok(Self {
            address: format!("{host}:{port}"),
            credentials: credentials.filter(|credentials| !credentials.is_empty()),
        })
    }
}

impl std::fmt::Debug for UpstreamProxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UpstreamProxy")
            .field("address", &self.address)
            .field("credentials", &self.credentials.as_ref().map(|_| "…"))
            .finish()
    }
}

impl Policy {
    /// Whether the named host is an allowed origin (trusted by name).
    pub(crate) fn allows_name(&self, scheme: Option<&str>, host: &Host<String>, port: u16) -> bool {
        self.allowed_origins
            .iter()
            .any(|origin| origin.matches_name(scheme, host, port))
    }

    /// Whether `address:port` is an allowed origin's.
    pub(crate) fn allows_address(&self, address: IpAddr, port: u16) -> bool {
        self.allowed_origins
            .iter()
            .any(|origin| origin.matches_address(address, port))
    }

    /// The name rules: local names and blocked domains.
    pub(crate) fn check_name(&self, name: &str) -> Result<(), Reason> {
        let bare = name.strip_suffix('.').unwrap_or(name).to_ascii_lowercase();
        for (suffix, rule) in LOCAL_NAMES {
            if is_within(&bare, suffix) {
                return Err(Reason::LocalName {
                    host: name.to_owned(),
                    rule,
                });
            }
        }
        for blocked in &self.blocked_domains {
            let blocked = blocked.trim_end_matches('.').to_ascii_lowercase();
            if is_within(&bare, &blocked) {
                return Err(Reason::BlockedDomain {
                    host: name.to_owned(),
                    rule: blocked,
                });
            }
        }
        Ok(())
    }
}

fn is_within(name: &str, domain: &str) -> bool {
    name == domain
        || name
            .strip_suffix(domain)
            .is_some_and(|prefix| prefix.ends_with('.'))
}

/// What the URL gate lets a model open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Openable {
    /// `about:blank`.
    Blank,
    /// An `http` or `https` URL, parsed the WHATWG way.
    Web(Url),
}

/// Parses what a model asks to open. Only `http`, `https` and `about:blank`
/// pass; anything malformed is refused, never "fixed". The host is parsed as
/// a browser would, so `http://2130706433/`, `http://0x7f.1/` and full-width
/// digits are the address they spell.
pub fn parse_openable(input: &str) -> Result<Openable, Reason> {
    if input == "about:blank" {
        return Ok(Openable::Blank);
    }
    let url = Url::parse(input).map_err(|error| Reason::Malformed {
        input: input.to_owned(),
        problem: error.to_string(),
    })?;
    match url.scheme() {
        "http" | "https" => {}
        scheme => {
            return Err(Reason::Scheme {
                scheme: scheme.to_owned(),
            })
        }
    }
    if url.host().is_none() {
        return Err(Reason::Malformed {
            input: input.to_owned(),
            problem: "no host".to_owned(),
        });
    }
    Ok(Openable::Web(url))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_origins_match_as_the_url_standard_reads_hosts() {
        let shop = TaskOrigin::parse("HTTPS://Shop.Example").expect("an origin");
        let any = TaskOrigin::parse("https://*.example.com").expect("an origin");
        let url = |text: &str| Url::parse(text).expect("a URL");
        assert!(shop.matches_url(&url("https://shop.example:443/cart")));
        assert!(!shop.matches_url(&url("http://shop.example/")));
        assert!(!shop.matches_url(&url("https://shop.example.evil.test/")));
        assert!(any.matches_url(&url("https://a.b.example.com/")));
        assert!(any.matches_url(&url("https://example.com/")));
        assert!(!any.matches_url(&url("https://notexample.com/")));
        assert_eq!(any.to_string(), "https://*.example.com");
        assert!(TaskOrigin::parse("https://*.10.0.0.1").is_err());
        let task = Task {
            read: vec![TaskOrigin::parse("https://mail.example").expect("an origin")],
            act: vec![shop],
            strict: true,
            flows: Vec::new(),
        };
        assert!(task.may_read(&url("https://mail.example/inbox")));
        assert!(!task.may_act(&url("https://mail.example/inbox")));
        assert!(task.may_act(&url("https://shop.example/")));
        assert!(task.may_reach(None, &Host::Domain("shop.example".into()), 443));
        assert!(!task.may_reach(None, &Host::Domain("evil.test".into()), 443));
        assert!(Task::default().may_act(&url("https://anything.test/")));
    }

    #[test]
    fn a_path_narrows_where_a_task_acts() {
        let url = |text: &str| Url::parse(text).expect("a URL");
        let checkout = TaskOrigin::parse("https://Shop.Example/checkout/").expect("an origin");
        assert_eq!(checkout.to_string(), "https://shop.example/checkout");
        assert_eq!(checkout.path(), Some("/checkout"));
        for page in [
            "https://shop.example/checkout",
            "https://shop.example/checkout/",
            "https://shop.example/checkout/pay?step=2#top",
            "https://shop.example/checkout/../checkout/pay",
        ] {
            assert!(checkout.matches_url(&url(page)), "{page}");
        }
        for page in [
            "https://shop.example/",
            "https://shop.example/checkouts",
            "https://shop.example/account",
            "https://shop.example/checkout/../account",
            "https://shop.example/checkout/%2e%2e/account",
            "https://shop.example/checkout/..%2Faccount",
            "https://shop.example/checkout/..%5caccount",
            "https://shop.example/checkout;/../account",
            "http://shop.example/checkout",
        ] {
            assert!(!checkout.matches_url(&url(page)), "{page}");
        }
        assert!(TaskOrigin::parse("https://shop.example/a%2fb").is_err());
        assert!(TaskOrigin::parse("https://shop.example/cart?x=1").is_err());
        assert!(TaskOrigin::parse("https://shop.example/cart#x").is_err());
        let sub = TaskOrigin::parse("https://*.example.com/settings").expect("an origin");
        assert_eq!(sub.to_string(), "https://*.example.com/settings");
        assert!(sub.matches_url(&url("https://mail.example.com/settings/forward")));
        let task = Task {
            read: vec![TaskOrigin::parse("https://mail.example/inbox").expect("an origin")],
            act: vec![checkout],
            strict: false,
            flows: Vec::new(),
        };
        // The shop is read whole, acted on at its checkout only.
        assert!(task.may_read(&url("https://shop.example/account")));
        assert!(!task.may_act(&url("https://shop.example/account")));
        assert!(task.acts_on_origin(&url("https://shop.example/account")));
        assert!(task.may_act(&url("https://shop.example/checkout/pay")));
        // A read origin's path narrows what is read; requests go by origin.
        assert!(task.may_read(&url("https://mail.example/inbox/3")));
        assert!(!task.may_read(&url("https://mail.example/settings")));
        assert!(!task.acts_on_origin(&url("https://mail.example/inbox")));
        assert!(task.may_reach(None, &Host::Domain("mail.example".into()), 443));
    }

    #[test]
    fn local_names_with_and_without_the_trailing_dot() {
        let policy = Policy {
            blocked_domains: vec!["tracker.example".into()],
            ..Policy::default()
        };
        for name in [
            "localhost",
            "LOCALHOST",
            "localhost.",
            "foo.localhost",
            "printer.local",
            "printer.local.",
            "metadata.google.internal",
            "router.home.arpa",
            "tracker.example",
            "a.b.tracker.example.",
        ] {
            assert!(policy.check_name(name).is_err(), "{name}");
        }
        for name in [
            "example.com",
            "notlocalhost.com",
            "localhost.example.com",
            "nottracker.example",
            "local",
        ] {
            let verdict = policy.check_name(name);
            assert_eq!(verdict.is_err(), name == "local", "{name}: {verdict:?}");
        }
    }

    #[test]
    fn the_url_gate() {
        let refused_schemes = [
            "file:///etc/passwd",
            "view-source:http://127.0.0.1/",
            "chrome://settings",
            "devtools://devtools/x",
            "chrome-extension://abc/x",
            "javascript:alert(1)",
            "data:text/html,hi",
            "blob:http://a/b",
            "filesystem:http://a/temporary/x",
            "ftp://127.0.0.1/",
            "ws://example.com/",
            "wss://example.com/",
            "mailto:a@b.c",
            "intent://x",
            "about:srcdoc",
            "about:config",
            "chrome-untrusted://x",
        ];
        for input in refused_schemes {
            assert!(
                matches!(
                    parse_openable(input),
                    Err(Reason::Scheme { .. }) | Err(Reason::Malformed { .. })
                ),
                "{input}"
            );
        }
        let malformed = [
            "http://425.510.425.510/",
            "http://7147006462/",
            "http://0x100000000/",
            "http://09.0.0.1/",
            "http://[fe80::1%25eth0]/",
            "http://[::1]:65536/",
            "http://localhost:+11211aaa/",
            "http://exa mple.com/",
            "http://example.com%00.evil/",
            "http://127.0.0.1%00/",
            "not a url",
            "",
        ];
        for input in malformed {
            assert!(
                matches!(parse_openable(input), Err(Reason::Malformed { .. })),
                "{input}"
            );
        }
        assert_eq!(parse_openable("about:blank"), Ok(Openable::Blank));
    }

    #[test]
    fn origins_are_exact() {
        let origin = AllowedOrigin::parse("http://127.0.0.1:8080").unwrap();
        let policy = Policy {
            allowed_origins: vec![origin],
            ..Policy::default()
        };
        let loopback: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(policy.allows_address(loopback, 8080));
        assert!(!policy.allows_address(loopback, 8081));
        assert!(!policy.allows_address("127.0.0.2".parse().unwrap(), 8080));
        assert!(policy.allows_address("::ffff:127.0.0.1".parse().unwrap(), 8080));
        let host = Host::Ipv4("127.0.0.1".parse().unwrap());
        assert!(policy.allows_name(Some("http"), &host, 8080));
        assert!(policy.allows_name(Some("ws"), &host, 8080));
        assert!(!policy.allows_name(Some("https"), &host, 8080));
        for bad in ["127.0.0.1:8080", "file:///x", "http://a/path", "ftp://a"] {
            assert!(AllowedOrigin::parse(bad).is_err(), "{bad}");
        }
    }
}

//! The address guard: nothing a page does may reach this machine or its
//! network.
//!
//! Three layers, from the outside in:
//!
//! 1. **The URL gate** ([`parse_openable`]): what a model asks to open must be
//!    `http`, `https` or `about:blank`, parsed the WHATWG way.
//! 2. **The address policy** ([`policy`], [`Policy`]): every address is judged
//!    against the IANA special-purpose registries and this machine's own
//!    interfaces; names like `localhost` and `*.internal` are refused before
//!    any lookup; only explicitly allowed origins are exempt.
//! 3. **The egress proxy** ([`EgressProxy`]): the browser is forced to send
//!    every request through it (HTTP, HTTPS and WebSockets, loopback
//!    included). For each upstream connection the proxy resolves the name
//!    itself, judges every address, and connects to exactly the address it
//!    judged, so a DNS answer that changes between check and connect (DNS
//!    rebinding) cannot win. The proxy is the boundary; the gate only gives
//!    clear errors early.
//!
//! Why a proxy and not CDP request interception: interception misses
//! WebSockets, service-worker navigation preload and browser-internal
//! fetches, and works only on CDP; a proxy sees everything on every backend.
//!
//! Every refusal carries a [`Reason`] a model and a log can read, and is kept
//! in [`Refusals`].

mod guarded;
mod interfaces;
pub mod policy;
mod proxy;
mod resolve;
mod rules;

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::SystemTime;

use driver_core::{Asked, Journal};
use url::{Host, Url};

pub use guarded::{GuardedDriver, MakeDriver, DEVTOOLS_ALLOWED};
pub use ipnet::IpNet;
pub use policy::AddressRefusal;
pub use proxy::{EgressProxy, PROBE_HOST};
pub use resolve::{HickoryResolver, Resolve, StaticResolver};
pub use rules::{parse_openable, AllowedOrigin, Openable, Policy, Task, TaskOrigin, UpstreamProxy};

/// Why the guard refused something.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Reason {
    /// The address is in a special-purpose block.
    #[error("{0}")]
    Address(AddressRefusal),
    /// The address is one of this machine's own.
    #[error("{address} is an address of this machine")]
    OwnAddress {
        /// The address.
        address: IpAddr,
    },
    /// A name that means this machine or its network.
    #[error("{host} is a local name ({rule})")]
    LocalName {
        /// The name asked for.
        host: String,
        /// Which rule.
        rule: &'static str,
    },
    /// A name on the user's block-list.
    #[error("{host} is blocked (block-list entry {rule})")]
    BlockedDomain {
        /// The name asked for.
        host: String,
        /// The block-list entry that matched.
        rule: String,
    },
    /// A name resolved to an address that is refused.
    #[error("{host} resolves to {refusal}")]
    Resolved {
        /// The name asked for.
        host: String,
        /// Why its address is refused.
        refusal: Box<Reason>,
    },
    /// The name does not resolve.
    #[error("{host} does not resolve: {problem}")]
    Unresolvable {
        /// The name asked for.
        host: String,
        /// What the resolver said.
        problem: String,
    },
    /// Not `http`, `https` or `about:blank`.
    #[error("the {scheme}: scheme is not allowed; only http, https and about:blank can be opened")]
    Scheme {
        /// The scheme asked for.
        scheme: String,
    },
    /// Outside the origins the task names (`--read-origin`,
    /// `--act-origin`).
    #[error("{target} is outside this task's origins (the person can allow it with --read-origin, or --act-origin to act there)")]
    OutsideTask {
        /// The origin asked for.
        target: String,
    },
    /// A document sent (a form posted) to a page of the task's origins
    /// that the task may read but not act on (`--act-origin` names where
    /// it acts).
    #[error("{target} is a page this task may read, not act on: sending a form there acts (the person can allow it with --act-origin)")]
    NotActedOn {
        /// The page sent to, without its query.
        target: String,
    },
    /// Not a URL a browser would load as it is.
    #[error("{input:?} is not a valid URL: {problem}")]
    Malformed {
        /// What was given.
        input: String,
        /// What is wrong with it.
        problem: String,
    },
}

impl Reason {
    /// Whether the guard refused to protect something (an address of this
    /// machine or its network, a local name, a blocked domain, a scheme),
    /// rather than because the name does not resolve at all.
    pub fn is_protection(&self) -> bool {
        !matches!(self, Self::Unresolvable { .. })
    }

    /// Whether the task's origins refused it (what the person can allow),
    /// rather than the guard's protection of this machine.
    pub fn is_task(&self) -> bool {
        matches!(self, Self::OutsideTask { .. } | Self::NotActedOn { .. })
    }
}

/// One refused request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What was asked for: a URL, or `host:port` for a tunnel.
    pub target: String,
    /// Why it was refused.
    pub reason: Reason,
    /// When.
    pub at: SystemTime,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "refused {}: {}", self.target, self.reason)
    }
}

/// The refused requests of a session, in order, each numbered, so a reader
/// asks for what came after the last one it saw (see [`Journal`]). Cheap to
/// clone; clones share.
#[derive(Debug, Clone)]
pub struct Refusals(Arc<parking_lot::Mutex<Journal<Refusal>>>);

/// At most this many refusals are kept; the oldest go first.
const REFUSALS_KEPT: usize = 10_000;

impl Default for Refusals {
    fn default() -> Self {
        Self(Arc::new(parking_lot::Mutex::new(Journal::new(
            REFUSALS_KEPT,
        ))))
    }
}

impl Refusals {
    /// Records a refusal and logs it.
    pub fn record(&self, target: impl Into<String>, reason: Reason) {
        let refusal = Refusal {
            target: target.into(),
            reason,
            at: SystemTime::now(),
        };
        if refusal.reason.is_protection() {
            tracing::info!(target = %refusal.target, reason = %refusal.reason, "guard refused a request");
        } else {
            // A name that does not resolve would fail without the guard too.
            tracing::debug!(target = %refusal.target, reason = %refusal.reason, "guard refused a request");
        }
        self.0.lock().push(refusal);
    }

    /// Every refusal kept.
    pub fn all(&self) -> Vec<Refusal> {
        self.0.lock().iter().cloned().collect()
    }

    /// How many refusals are kept.
    pub fn len(&self) -> usize {
        self.0.lock().len()
    }

    /// Whether nothing was refused.
    pub fn is_empty(&self) -> bool {
        self.0.lock().is_empty()
    }

    /// Where a reader that has seen every refusal so far stands.
    pub fn next_seq(&self) -> u64 {
        self.0.lock().next_seq()
    }

    /// The refusals numbered `from` and after (those still kept).
    pub fn since(&self, from: u64) -> Vec<Refusal> {
        self.read(from).0
    }

    /// The refusals numbered `from` and after, and where the reader stands
    /// once it has read them (one look, so none is missed in between).
    pub fn read(&self, from: u64) -> (Vec<Refusal>, u64) {
        let journal = self.0.lock();
        (journal.since(from).cloned().collect(), journal.next_seq())
    }
}

/// A connection to the proxy from an address that is not among the
/// policy's clients: closed before a byte was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedClient {
    /// Where it came from.
    pub from: SocketAddr,
    /// When.
    pub at: SystemTime,
}

impl fmt::Display for RefusedClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "refused a connection from {}: not among the guard's clients",
            self.from
        )
    }
}

/// At most this many refused clients are kept; the oldest go first.
const REFUSED_CLIENTS_KEPT: usize = 1_000;

/// The policy, the resolver it trusts, and the record of what it refused.
#[derive(Clone)]
pub struct Guard {
    policy: Arc<Policy>,
    /// The origins a person added to the task for this session (see
    /// [`Guard::widen`]).
    widened: Arc<parking_lot::RwLock<Task>>,
    /// Whether every request is held within the task's origins from now
    /// on, as `strict` holds them from the start (see
    /// [`Guard::hold_to_task`]).
    held: Arc<tokio::sync::watch::Sender<bool>>,
    resolver: Arc<dyn Resolve>,
    refusals: Refusals,
    refused_clients: Arc<parking_lot::Mutex<Journal<RefusedClient>>>,
}

impl fmt::Debug for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Guard")
            .field("policy", &self.policy)
            .finish_non_exhaustive()
    }
}

impl Guard {
    /// A guard with this machine's DNS resolver.
    pub fn new(policy: Policy) -> Self {
        Self::with_resolver(policy, Arc::new(HickoryResolver::new()))
    }

    /// A guard with a resolver of your own (tests, or a DNS you trust).
    pub fn with_resolver(policy: Policy, resolver: Arc<dyn Resolve>) -> Self {
        Self {
            policy: Arc::new(policy),
            widened: Arc::default(),
            held: Arc::new(tokio::sync::watch::Sender::new(false)),
            resolver,
            refusals: Refusals::default(),
            refused_clients: Arc::new(parking_lot::Mutex::new(Journal::new(REFUSED_CLIENTS_KEPT))),
        }
    }

    /// Connections to the proxy refused because they came from an address
    /// not among the policy's clients.
    pub fn refused_clients(&self) -> Vec<RefusedClient> {
        self.refused_clients.lock().iter().cloned().collect()
    }

    /// Whether a connection from `peer` may use the proxy: on loopback (the
    /// default), only this machine; on another address, only the policy's
    /// clients. A refused one is recorded.
    pub(crate) fn admits(&self, peer: SocketAddr) -> bool {
        let admitted = match self.policy.listen {
            None => peer.ip().is_loopback(),
            Some(_) => self
                .policy
                .clients
                .iter()
                .any(|client| client.contains(&peer.ip().to_canonical())),
        };
        if !admitted {
            tracing::warn!(%peer, "the guard's proxy refused a connection from a stranger");
            self.refused_clients.lock().push(RefusedClient {
                from: peer,
                at: SystemTime::now(),
            });
        }
        admitted
    }

    /// The task's origins as they stand: the policy's, with what a person
    /// added for this session.
    pub fn task(&self) -> Task {
        let mut task = self.policy.task.clone();
        let widened = self.widened.read();
        task.read.extend(widened.read.iter().cloned());
        task.act.extend(widened.act.iter().cloned());
        task.flows.extend(widened.flows.iter().cloned());
        task
    }

    /// Adds a flow to this session's task: what is read on `from` may be
    /// typed on `to`; what a person allowed when the model asked (never a
    /// page). A task that names no origin is not narrowed by it.
    pub fn widen_flow(&self, from: TaskOrigin, to: TaskOrigin) {
        if !self.policy.task.is_set() {
            return;
        }
        self.widened.write().flows.push((from, to));
    }

    /// Adds an origin to this session's task, to read or to act on: what
    /// a person allowed when the model asked (never a page). A task that
    /// names no origin is not narrowed by it: nothing is added.
    pub fn widen(&self, origin: TaskOrigin, act: bool) {
        if !self.policy.task.is_set() {
            return;
        }
        let mut widened = self.widened.write();
        if act {
            widened.act.push(origin);
        } else {
            widened.read.push(origin);
        }
    }

    /// Holds every request the browser makes within the task's origins
    /// from now on, for this session, as a strict task does from the
    /// start; connections already open to any other origin are cut.
    /// Whether this call is what held them (false when they were already,
    /// or the task is strict or names no origin).
    pub fn hold_to_task(&self) -> bool {
        if !self.policy.task.is_set() || self.policy.task.strict {
            return false;
        }
        !self.held.send_replace(true)
    }

    /// Whether every request is held within the task's origins: a strict
    /// task, or one held since ([`Guard::hold_to_task`]).
    pub fn holds_to_task(&self) -> bool {
        self.policy.task.is_set() && (self.policy.task.strict || *self.held.borrow())
    }

    /// Resolves once requests are held within the task's origins (at
    /// once, where they are).
    pub(crate) async fn held(&self) {
        if self.holds_to_task() {
            return;
        }
        let mut held = self.held.subscribe();
        if held.wait_for(|held| *held).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// What was refused so far.
    pub fn refusals(&self) -> &Refusals {
        &self.refusals
    }

    /// Judges a URL a model asks to open: the gate, then the host and every
    /// address it resolves to. Refusals are returned, not recorded (the
    /// caller never asked the browser for it).
    pub async fn check_url(&self, input: &str) -> Result<Openable, Reason> {
        let openable = parse_openable(input)?;
        if let Openable::Web(url) = &openable {
            if !self.task().may_read(url) {
                return Err(Reason::OutsideTask {
                    target: url.origin().ascii_serialization(),
                });
            }
            if let (Some(host), Some(port)) = (url.host(), url.port_or_known_default()) {
                self.vet(Some(url.scheme()), &host.to_owned(), port).await?;
            }
        }
        Ok(openable)
    }

    /// Whether a tab's next top-level document may come from `url` (a
    /// link a page follows, a redirect's hop, a tab it opens): within the
    /// origins the task may read, or anywhere when it names none; and
    /// whether a document may be sent to `url` (a form posted, in a tab or
    /// into a frame): a page the task acts on. What is not is recorded as
    /// refused (the browser never sends it). A URL of no web origin
    /// (`about:blank`, `data:`, the browser's error page) is not the
    /// guard's to judge here.
    pub fn page_may_go(&self, url: &str, asked: Asked) -> bool {
        let Ok(parsed) = Url::parse(url) else {
            return true;
        };
        if !matches!(parsed.scheme(), "http" | "https") {
            return true;
        }
        let task = self.task();
        let reason = if !task.may_read(&parsed) {
            Reason::OutsideTask {
                target: parsed.origin().ascii_serialization(),
            }
        } else if asked == Asked::Sent && !task.may_act(&parsed) {
            let mut target = parsed.clone();
            target.set_query(None);
            target.set_fragment(None);
            Reason::NotActedOn {
                target: target.to_string(),
            }
        } else {
            return true;
        };
        self.refusals.record(url, reason);
        false
    }

    /// Decides where a connection to `host:port` may go: the addresses to
    /// dial, every one of them judged. `scheme` is `None` for a tunnel.
    pub async fn vet(
        &self,
        scheme: Option<&str>,
        host: &Host<String>,
        port: u16,
    ) -> Result<Vec<SocketAddr>, Reason> {
        // Under `.invalid` a name resolves nowhere (RFC 6761): no task or
        // protection is at stake (the browser's own services point there).
        if let Host::Domain(name) = host {
            if name.ends_with(".invalid") || name == "invalid" {
                return Err(Reason::Unresolvable {
                    host: name.clone(),
                    problem: "a name under .invalid resolves nowhere".to_owned(),
                });
            }
        }
        if self.holds_to_task() && !self.task().may_reach(scheme, host, port) {
            return Err(Reason::OutsideTask {
                target: match scheme {
                    Some(scheme) => format!("{scheme}://{host}:{port}"),
                    None => format!("{host}:{port}"),
                },
            });
        }
        let trusted_name = self.policy.allows_name(scheme, host, port);
        let addresses =
            match host {
                Host::Ipv4(v4) => vec![IpAddr::V4(*v4)],
                Host::Ipv6(v6) => vec![IpAddr::V6(*v6)],
                Host::Domain(name) => {
                    if !trusted_name {
                        self.policy.check_name(name)?;
                    }
                    let found = self.resolver.resolve(name).await.map_err(|problem| {
                        Reason::Unresolvable {
                            host: name.clone(),
                            problem,
                        }
                    })?;
                    if found.is_empty() {
                        return Err(Reason::Unresolvable {
                            host: name.clone(),
                            problem: "no addresses".to_owned(),
                        });
                    }
                    found
                }
            };
        if !trusted_name {
            // Strict: one refused address refuses the name, so no answer
            // order or retry can reach it.
            // An address literal is allowed by its origin (scheme included),
            // checked above; a name's addresses are allowed by address and port.
            let by_address = matches!(host, Host::Domain(_));
            for address in &addresses {
                if let Err(reason) = self.judge_address(*address, port, by_address) {
                    return Err(match host {
                        Host::Domain(name) => Reason::Resolved {
                            host: name.clone(),
                            refusal: Box::new(reason),
                        },
                        _ => reason,
                    });
                }
            }
        }
        Ok(addresses
            .into_iter()
            .map(|address| SocketAddr::new(address, port))
            .collect())
    }

    fn judge_address(&self, address: IpAddr, port: u16, by_address: bool) -> Result<(), Reason> {
        if by_address && self.policy.allows_address(address, port) {
            return Ok(());
        }
        policy::classify(address).map_err(Reason::Address)?;
        if interfaces::is_own_address(address) {
            return Err(Reason::OwnAddress { address });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public() -> IpAddr {
        "93.184.216.34".parse().unwrap()
    }

    /// A resolver standing in for DNS: no outside name resolves on this
    /// machine, so every answer a test needs is written here.
    fn resolver() -> StaticResolver {
        StaticResolver::new()
            .answer("public.com", vec![vec![public()]])
            .answer("127.0.0.1.nip.io", vec![vec!["127.0.0.1".parse().unwrap()]])
            .answer("private.test", vec![vec!["10.0.0.1".parse().unwrap()]])
            .answer(
                "mixed.test",
                vec![vec![public(), "10.0.0.1".parse().unwrap()]],
            )
            // The resolver follows the CNAME to localhost; what the guard
            // judges is where it ends.
            .answer(
                "cname-to-localhost.test",
                vec![vec!["127.0.0.1".parse().unwrap(), "::1".parse().unwrap()]],
            )
            .answer(
                "mapped.test",
                vec![vec!["::ffff:10.0.0.1".parse().unwrap()]],
            )
            .answer("nat64.test", vec![vec!["64:ff9b::a00:1".parse().unwrap()]])
            .answer("empty.test", vec![vec![]])
            .answer(
                "rebind.test",
                vec![vec![public()], vec!["127.0.0.1".parse().unwrap()]],
            )
    }

    fn guard() -> Guard {
        Guard::with_resolver(Policy::default(), Arc::new(resolver()))
    }

    /// Which kind of refusal, in a word, for the table below.
    fn kind(verdict: &Result<Openable, Reason>) -> String {
        match verdict {
            Ok(_) => "allow".to_owned(),
            Err(Reason::Address(refusal)) => refusal.range.to_string(),
            Err(Reason::Resolved { refusal, .. }) => match refusal.as_ref() {
                Reason::Address(refusal) => format!("resolves to {}", refusal.range),
                other => format!("resolves to {other}"),
            },
            Err(Reason::LocalName { .. }) => "local name".to_owned(),
            Err(Reason::Scheme { .. }) => "scheme".to_owned(),
            Err(Reason::Malformed { .. }) => "malformed".to_owned(),
            Err(Reason::Unresolvable { .. }) => "unresolvable".to_owned(),
            Err(other) => other.to_string(),
        }
    }

    #[tokio::test]
    async fn url_spellings_are_judged_as_the_address_they_spell() {
        let cases = [
            ("http://2130706433/", "127.0.0.0/8"),
            ("http://0177.0.0.1/", "127.0.0.0/8"),
            ("http://0x7f.1/", "127.0.0.0/8"),
            ("http://127.1/", "127.0.0.0/8"),
            ("http://127.0.1/", "127.0.0.0/8"),
            ("http://0x7f000001/", "127.0.0.0/8"),
            ("http://017700000001/", "127.0.0.0/8"),
            ("http://0x7f.0x0.0x0.0x1/", "127.0.0.0/8"),
            ("http://127.0.0.1./", "127.0.0.0/8"),
            ("http://%31%32%37.0.0.1/", "127.0.0.0/8"),
            ("http://１２７.０.０.１/", "127.0.0.0/8"),
            ("http://0/", "0.0.0.0/8"),
            ("http://0x/", "0.0.0.0/8"),
            ("http://0xA9FEA9FE/", "169.254.0.0/16"),
            ("http://0251.0376.0251.0376/", "169.254.0.0/16"),
            ("http://[::1]/", "::1/128"),
            ("http://[::]/", "::/128"),
            ("http://[::ffff:127.0.0.1]/", "127.0.0.0/8"),
            ("http://[0:0:0:0:0:ffff:7f00:1]/", "127.0.0.0/8"),
            ("http://[::ffff:a9fe:a9fe]/", "169.254.0.0/16"),
            ("http://[::127.0.0.1]/", "::/96"),
            ("http://[64:ff9b::127.0.0.1]/", "64:ff9b::/96"),
            ("http://[64:ff9b::a9fe:a9fe]/", "64:ff9b::/96"),
            ("http://[2002:a9fe:a9fe::]/", "2002::/16"),
            ("http://[2002:7f00:1::]/", "2002::/16"),
            (
                "http://[2001:0:4136:e378:8000:63bf:3f57:fdf2]/",
                "2001::/32",
            ),
            ("http://[fd00:ec2::254]/", "fc00::/7"),
            ("http://[fec0::1]/", "fec0::/10"),
            ("http://[ff02::1]/", "ff00::/8"),
            ("http://localhost/", "local name"),
            ("http://LOCALHOST/", "local name"),
            ("http://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ/", "local name"),
            ("http://loca%6Chost/", "local name"),
            ("http://localhost./", "local name"),
            ("http://localhost%2e/", "local name"),
            ("http://foo.localhost/", "local name"),
            ("http://metadata.google.internal/", "local name"),
            ("http://router.home.arpa/", "local name"),
            ("http://printer.local/", "local name"),
            ("http://public.com@127.0.0.1/", "127.0.0.0/8"),
            ("http://127.0.0.1:80@public.com/", "allow"),
            ("http://127.0.0.1#@public.com/", "127.0.0.0/8"),
            ("http://127.0.0.1\\@public.com/", "127.0.0.0/8"),
            ("http:/\\127.0.0.1/", "127.0.0.0/8"),
            ("http:127.0.0.1/", "127.0.0.0/8"),
            ("HtTp://127.0.0.1/", "127.0.0.0/8"),
            ("https://public.com/", "allow"),
            ("http://127.0.0.1.nip.io/", "resolves to 127.0.0.0/8"),
            ("http://private.test/", "resolves to 10.0.0.0/8"),
            ("http://mixed.test/", "resolves to 10.0.0.0/8"),
            ("http://cname-to-localhost.test/", "resolves to 127.0.0.0/8"),
            ("http://mapped.test/", "resolves to 10.0.0.0/8"),
            ("http://nat64.test/", "resolves to 64:ff9b::/96"),
            ("http://empty.test/", "unresolvable"),
            ("http://nowhere.test/", "unresolvable"),
            ("http://425.510.425.510/", "malformed"),
            ("http://0x100000000/", "malformed"),
            ("http://[::1]:65536/", "malformed"),
            ("file:///etc/passwd", "scheme"),
            ("about:blank", "allow"),
        ];
        let guard = guard();
        for (input, expected) in cases {
            let verdict = guard.check_url(input).await;
            assert_eq!(kind(&verdict), expected, "{input}: {verdict:?}");
        }
    }

    #[tokio::test]
    async fn a_name_that_rebinds_is_judged_afresh_each_time() {
        let guard = guard();
        let host = url::Host::Domain("rebind.test".to_owned());
        let first = guard.vet(Some("http"), &host, 80).await;
        assert_eq!(first, Ok(vec![SocketAddr::new(public(), 80)]));
        let second = guard.vet(Some("http"), &host, 80).await;
        assert!(
            matches!(&second, Err(Reason::Resolved { refusal, .. }) if matches!(refusal.as_ref(), Reason::Address(_))),
            "{second:?}"
        );
    }

    #[tokio::test]
    async fn an_allowed_origin_opens_that_origin_only() {
        let policy = Policy {
            allowed_origins: vec![AllowedOrigin::parse("http://127.0.0.1:8080").unwrap()],
            blocked_domains: vec!["blocked.example".to_owned()],
            ..Policy::default()
        };
        let resolver = resolver()
            .answer("blocked.example", vec![vec![public()]])
            .answer(
                "test-public.example",
                vec![vec!["127.0.0.1".parse().unwrap()]],
            );
        let guard = Guard::with_resolver(policy, Arc::new(resolver));
        assert!(guard.check_url("http://127.0.0.1:8080/page").await.is_ok());
        // A name that the test resolver points at the allowed address and
        // port stands in for a public site: it is reached.
        assert!(guard
            .check_url("http://test-public.example:8080/")
            .await
            .is_ok());
        for refused in [
            "http://127.0.0.1:8081/",
            "http://127.0.0.2:8080/",
            "http://localhost:8080/",
            "http://[::1]:8080/",
            "https://127.0.0.1:8080/",
            "http://test-public.example:8081/",
            "http://www.blocked.example/",
        ] {
            assert!(guard.check_url(refused).await.is_err(), "{refused}");
        }
        let blocked = guard
            .check_url("http://www.blocked.example/")
            .await
            .unwrap_err();
        assert_eq!(
            blocked.to_string(),
            "www.blocked.example is blocked (block-list entry blocked.example)"
        );
    }

    #[test]
    fn refusals_are_kept_in_order() {
        let refusals = Refusals::default();
        refusals.record("http://a/", Reason::Scheme { scheme: "x".into() });
        refusals.record("http://b/", Reason::Scheme { scheme: "y".into() });
        assert_eq!(refusals.len(), 2);
        assert_eq!(refusals.since(1)[0].target, "http://b/");
        assert_eq!(refusals.next_seq(), 2);
        assert!(refusals.all()[0]
            .to_string()
            .starts_with("refused http://a/: the x: scheme"));
    }

    #[tokio::test]
    async fn a_task_held_refuses_what_it_let_through() {
        let task = |strict| Task {
            read: vec![TaskOrigin::parse("https://mail.example").unwrap()],
            act: Vec::new(),
            strict,
            flows: Vec::new(),
        };
        let guarded = |task| {
            Guard::with_resolver(
                Policy {
                    task,
                    ..Policy::default()
                },
                Arc::new(resolver()),
            )
        };
        let public = Host::Domain("public.com".to_owned());
        let guard = guarded(task(false));
        assert!(guard.vet(None, &public, 443).await.is_ok());
        assert!(guard.hold_to_task(), "held by this call");
        assert!(!guard.hold_to_task(), "held already");
        assert!(guard.holds_to_task());
        // Under .invalid, held or not: resolving nowhere, no task's refusal.
        let nowhere = Host::Domain("gaia.invalid".to_owned());
        let refused = guard.vet(None, &nowhere, 443).await;
        assert!(matches!(refused, Err(Reason::Unresolvable { .. })));
        assert!(matches!(
            guard.vet(None, &public, 443).await,
            Err(Reason::OutsideTask { .. })
        ));
        // Held already (strict), or nothing to hold to (no task).
        assert!(!guarded(task(true)).hold_to_task());
        let open = guarded(Task::default());
        assert!(!open.hold_to_task() && !open.holds_to_task());
        assert!(open.vet(None, &public, 443).await.is_ok());
    }

    #[test]
    fn a_document_is_sent_only_where_the_task_acts() {
        let guard = Guard::with_resolver(
            Policy {
                task: Task {
                    read: vec![TaskOrigin::parse("https://shop.example").unwrap()],
                    act: vec![TaskOrigin::parse("https://shop.example/checkout").unwrap()],
                    strict: false,
                    flows: Vec::new(),
                },
                ..Policy::default()
            },
            Arc::new(resolver()),
        );
        let settings = "https://shop.example/settings/forward?to=x#top";
        assert!(guard.page_may_go(settings, Asked::Read));
        assert!(guard.page_may_go("https://shop.example/checkout/done", Asked::Sent));
        assert!(guard.refusals().all().is_empty());
        assert!(!guard.page_may_go(settings, Asked::Sent));
        assert!(!guard.page_may_go("https://elsewhere.example/", Asked::Read));
        let refusals = guard.refusals().all();
        assert_eq!(
            refusals[0].reason,
            Reason::NotActedOn {
                target: "https://shop.example/settings/forward".to_owned()
            }
        );
        assert!(matches!(refusals[1].reason, Reason::OutsideTask { .. }));
        assert_eq!(Asked::by("post"), Asked::Sent);
        assert_eq!(Asked::by("HEAD"), Asked::Read);
    }
}

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
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use url::Host;

pub use guarded::{GuardedDriver, MakeDriver};
pub use policy::AddressRefusal;
pub use proxy::EgressProxy;
pub use resolve::{HickoryResolver, Resolve, StaticResolver};
pub use rules::{parse_openable, AllowedOrigin, Openable, Policy};

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
    /// Not a URL a browser would load as it is.
    #[error("{input:?} is not a valid URL: {problem}")]
    Malformed {
        /// What was given.
        input: String,
        /// What is wrong with it.
        problem: String,
    },
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

/// The refused requests of a session, in order. Cheap to clone; clones share.
#[derive(Debug, Clone, Default)]
pub struct Refusals(Arc<Mutex<Vec<Refusal>>>);

/// At most this many refusals are kept; the oldest go first.
const REFUSALS_KEPT: usize = 10_000;

impl Refusals {
    /// Records a refusal and logs it.
    pub fn record(&self, target: impl Into<String>, reason: Reason) {
        let refusal = Refusal {
            target: target.into(),
            reason,
            at: SystemTime::now(),
        };
        tracing::warn!(target = %refusal.target, reason = %refusal.reason, "guard refused a request");
        let mut list = self.lock();
        if list.len() >= REFUSALS_KEPT {
            list.remove(0);
        }
        list.push(refusal);
    }

    /// Every refusal so far.
    pub fn all(&self) -> Vec<Refusal> {
        self.lock().clone()
    }

    /// How many refusals there have been (of those kept).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether nothing was refused.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// The refusals after the first `from`.
    pub fn since(&self, from: usize) -> Vec<Refusal> {
        self.lock().iter().skip(from).cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Refusal>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The policy, the resolver it trusts, and the record of what it refused.
#[derive(Clone)]
pub struct Guard {
    policy: Arc<Policy>,
    resolver: Arc<dyn Resolve>,
    refusals: Refusals,
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
            resolver,
            refusals: Refusals::default(),
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
            if let (Some(host), Some(port)) = (url.host(), url.port_or_known_default()) {
                self.vet(Some(url.scheme()), &host.to_owned(), port).await?;
            }
        }
        Ok(openable)
    }

    /// Decides where a connection to `host:port` may go: the addresses to
    /// dial, every one of them judged. `scheme` is `None` for a tunnel.
    pub async fn vet(
        &self,
        scheme: Option<&str>,
        host: &Host<String>,
        port: u16,
    ) -> Result<Vec<SocketAddr>, Reason> {
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
            for address in &addresses {
                if let Err(reason) = self.judge_address(*address, port) {
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

    fn judge_address(&self, address: IpAddr, port: u16) -> Result<(), Reason> {
        if self.policy.allows_address(address, port) {
            return Ok(());
        }
        policy::classify(address).map_err(Reason::Address)?;
        if interfaces::is_own_address(address) {
            return Err(Reason::OwnAddress { address });
        }
        Ok(())
    }
}

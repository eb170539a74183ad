//! Name resolution the guard trusts: the proxy asks this, judges the answer,
//! and dials exactly what it judged.

use std::collections::HashMap;
use std::net::IpAddr;

use parking_lot::Mutex;

use async_trait::async_trait;
use hickory_resolver::TokioResolver;
use tokio::sync::OnceCell;

/// Resolves a host name to its addresses.
#[async_trait]
pub trait Resolve: Send + Sync {
    /// Every address of `name` (A and AAAA), or what went wrong.
    async fn resolve(&self, name: &str) -> Result<Vec<IpAddr>, String>;
}

/// This machine's DNS configuration through hickory. Names are looked up as
/// fully qualified (no search list), so `intranet` cannot turn into
/// `intranet.corp.example`.
#[derive(Default)]
pub struct HickoryResolver {
    resolver: OnceCell<Result<TokioResolver, String>>,
}

impl HickoryResolver {
    /// A resolver built on first use from `/etc/resolv.conf`.
    pub fn new() -> Self {
        Self::default()
    }
}

#[async_trait]
impl Resolve for HickoryResolver {
    async fn resolve(&self, name: &str) -> Result<Vec<IpAddr>, String> {
        let resolver = self
            .resolver
            .get_or_init(|| async {
                TokioResolver::builder_tokio()
                    .and_then(|builder| builder.build())
                    .map_err(|error| format!("no DNS resolver: {error}"))
            })
            .await
            .as_ref()
            .map_err(Clone::clone)?;
        let fully_qualified = if name.ends_with('.') {
            name.to_owned()
        } else {
            format!("{name}.")
        };
        let answer = resolver
            .lookup_ip(fully_qualified.as_str())
            .await
            .map_err(|error| error.to_string())?;
        Ok(answer.iter().collect())
    }
}

/// Answers from a table, for tests: each name has a list of answers given in
/// turn (the last repeats), so a test can play a DNS that changes its mind
/// between two lookups.
#[derive(Debug, Default)]
pub struct StaticResolver {
    answers: Mutex<HashMap<String, Vec<Vec<IpAddr>>>>,
}

impl StaticResolver {
    /// An empty table: every name is unknown.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the answers `name` gives, one per lookup, in order.
    pub fn answer(self, name: &str, answers: Vec<Vec<IpAddr>>) -> Self {
        self.lock()
            .insert(name.trim_end_matches('.').to_ascii_lowercase(), answers);
        self
    }

    fn lock(&self) -> parking_lot::MutexGuard<'_, HashMap<String, Vec<Vec<IpAddr>>>> {
        self.answers.lock()
    }
}

#[async_trait]
impl Resolve for StaticResolver {
    async fn resolve(&self, name: &str) -> Result<Vec<IpAddr>, String> {
        let key = name.trim_end_matches('.').to_ascii_lowercase();
        let mut table = self.lock();
        let answers = table
            .get_mut(&key)
            .ok_or_else(|| "no records found".to_owned())?;
        if answers.len() > 1 {
            Ok(answers.remove(0))
        } else {
            answers
                .first()
                .cloned()
                .ok_or_else(|| "no records found".to_owned())
        }
    }
}

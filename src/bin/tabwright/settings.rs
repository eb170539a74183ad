//! The settings every command takes (`BrowserArgs`: the browser, the
//! guard, the task's origins, the tool groups, the folders) and what they
//! make (`Settings`: the backend, the driver's options, the policy, the
//! pack's options), checked before anything starts.

use std::path::PathBuf;
use std::time::Duration;

use clap::ValueEnum;
use tabwright::{AllowedOrigin, Backend, Downloads, Options, Policy};
use tools::{Answers, Group, Pack, PackOptions, Secret};

/// What an action on the same page answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum AnswersArg {
    /// What changed since the model last read the page (default).
    Changes,
    /// The whole page after every action.
    Full,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum BackendArg {
    /// Chrome DevTools Protocol (default).
    Cdp,
    /// W3C WebDriver through chromedriver (or --webdriver-url).
    Webdriver,
    /// Firefox over WebDriver BiDi (Debian's firefox-esr, or --browser-path).
    Firefox,
}

/// What every subcommand's browser is started with.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct BrowserArgs {
    /// Read settings from this file (TOML, or JSON if it ends in .json):
    /// each key a flag's long name (`timeout = 20`, `allow-origin =
    /// ["http://127.0.0.1:8080"]`). Flags given here win over
    /// TABWRIGHT_<FLAG> variables, which win over the file.
    #[arg(long, value_name = "FILE", global = true)]
    pub(crate) config: Option<PathBuf>,
    /// The Chrome or Chromium to run (default: Debian's Chromium, then
    /// google-chrome and chromium on PATH; also TABWRIGHT_CHROME).
    #[arg(long, value_name = "PATH", global = true)]
    pub(crate) browser_path: Option<PathBuf>,
    /// The user agent the browser sends (default: an ordinary Chrome's,
    /// without "Headless").
    #[arg(long, value_name = "TEXT", global = true)]
    pub(crate) user_agent: Option<String>,
    /// Send every request of the browser through this HTTP proxy
    /// (http://host:port), for a machine that reaches the web only so: the
    /// guard still judges every address and asks the proxy for that
    /// address itself. Credentials, if it wants them, in
    /// TABWRIGHT_UPSTREAM_PROXY_CREDENTIALS (user:password).
    #[arg(long, value_name = "URL", global = true)]
    pub(crate) upstream_proxy: Option<String>,
    /// Refuse this site and its subdomains (repeatable: --block-site
    /// ads.example --block-site tracker.example).
    #[arg(long, value_name = "DOMAIN", global = true)]
    pub(crate) block_site: Vec<String>,
    /// Which browser, and the protocol that drives it: Chromium over the
    /// DevTools Protocol or over WebDriver, or Firefox (also `--browser
    /// firefox`).
    #[arg(
        long,
        visible_alias = "browser",
        value_enum,
        default_value = "cdp",
        global = true
    )]
    pub(crate) backend: BackendArg,
    /// Drive an already running Chrome (http://host:port or ws://…) over CDP.
    #[arg(long, value_name = "URL", global = true)]
    pub(crate) cdp_endpoint: Option<String>,
    /// Drive a remote WebDriver end (chromedriver, Selenium Grid; with
    /// --backend firefox, geckodriver or a Grid's Firefox nodes).
    #[arg(long, value_name = "URL", global = true)]
    pub(crate) webdriver_url: Option<String>,
    /// Show the browser window.
    #[arg(long, global = true)]
    pub(crate) headed: bool,
    /// Let pages reach this origin although it is on this machine or its
    /// network (scheme://host:port; repeatable).
    #[arg(long, value_name = "ORIGIN", global = true)]
    pub(crate) allow_origin: Vec<String>,
    /// An origin this task may read: open, follow links to
    /// (scheme://host[:port], or scheme://*.domain for its subdomains too;
    /// with a path, its pages at or below it; repeatable). Naming any read
    /// or act origin limits the model to them.
    #[arg(long, value_name = "ORIGIN", global = true)]
    pub(crate) read_origin: Vec<String>,
    /// An origin this task may act on: type into, submit, upload to,
    /// change state on (and read, whole; repeatable). With a path
    /// (https://shop.example/checkout), it acts only on the pages at or
    /// below it, and reads the rest of the origin.
    #[arg(long, value_name = "ORIGIN", global = true)]
    pub(crate) act_origin: Vec<String>,
    /// Keep every request of the browser within the task's origins, the
    /// pages' own included, not only what the model opens and acts on;
    /// and type nothing a page of an act origin shows into an act
    /// origin's page unless --allow-flow allows it.
    #[arg(long, global = true)]
    pub(crate) task_strict: bool,
    /// What is read on the first origin may be typed on the second
    /// (FROM=TO; repeatable): a flow --task-strict refuses otherwise.
    #[arg(long, value_name = "FROM=TO", global = true)]
    pub(crate) allow_flow: Vec<String>,
    /// For a browser on another machine (--cdp-endpoint, --webdriver-url):
    /// the address of this machine the guard's proxy listens on, which
    /// that browser can reach (each session gets a port of its own).
    #[arg(long, value_name = "IP", global = true)]
    pub(crate) guard_listen: Option<std::net::IpAddr>,
    /// Who may use the guard's proxy on --guard-listen: the remote
    /// browsers' addresses, as CIDR (repeatable; 10.0.0.7/32). Any other
    /// connection is closed unread.
    #[arg(long, value_name = "CIDR", global = true)]
    pub(crate) guard_clients: Vec<ipnet::IpNet>,
    /// Keep the browser profile (cookies, logins) in this directory.
    #[arg(long, value_name = "DIR", global = true)]
    pub(crate) profile_dir: Option<PathBuf>,
    /// The viewport size, e.g. 1280x800.
    #[arg(long, value_name = "WxH", default_value = "1280x800", global = true)]
    pub(crate) viewport: String,
    /// Vision mode: pointing tools that answer with screenshots.
    #[arg(long, global = true)]
    pub(crate) vision: bool,
    /// What an action that stays on the page answers with: what changed
    /// since the model last read it, or the whole page.
    #[arg(long, value_enum, default_value = "changes", global = true)]
    pub(crate) answers: AnswersArg,
    /// An extra Chrome command-line flag, with its dashes (repeatable).
    #[arg(long, value_name = "FLAG", global = true, allow_hyphen_values = true)]
    pub(crate) chrome_arg: Vec<String>,
    /// The longest one browser call may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, global = true)]
    pub(crate) timeout: f64,
    /// The tool groups offered, comma-separated: core (always), files,
    /// network, state, forms, emulation, script, person (handoff: added
    /// wherever a live view is served), code (run), page_tools (the page's
    /// own WebMCP tools; starts Chromium with the feature).
    #[arg(long, value_name = "GROUPS", default_value = "core", global = true)]
    pub(crate) caps: String,
    /// Ask the person before every page tool runs (`page_tool`), not only
    /// those the page marks consequential.
    #[arg(long, global = true)]
    pub(crate) confirm_page_tools: bool,
    /// The folder `upload` takes files from (files under it only).
    #[arg(long, value_name = "DIR", global = true)]
    pub(crate) files_dir: Option<PathBuf>,
    /// A file of --files-dir (or a folder of it) and the origin `upload`
    /// may hand it to (FILE=ORIGIN; repeatable). Naming any limits every
    /// upload to the files named, each to its origins.
    #[arg(long, value_name = "FILE=ORIGIN", global = true)]
    pub(crate) file_origin: Vec<String>,
    /// The folder `pdf` writes into.
    #[arg(long, value_name = "DIR", global = true)]
    pub(crate) output_dir: Option<PathBuf>,
    /// The folder saved logins (state_save, state_load) are kept in,
    /// created readable by its owner only.
    #[arg(long, value_name = "DIR", global = true)]
    pub(crate) state_dir: Option<PathBuf>,
    /// Write each session's trace under this folder: every call, the
    /// answer the model read, a small picture after each action (files
    /// readable by their owner only). `tabwright trace DIR` shows one.
    #[arg(long, value_name = "DIR", global = true)]
    pub(crate) trace: Option<PathBuf>,
    /// Let downloads land in this folder (off by default: every download
    /// is refused). The cdp backend only.
    #[arg(long, value_name = "DIR", global = true)]
    pub(crate) downloads: Option<PathBuf>,
    /// The largest a download may be, in MB; a larger one is cancelled.
    #[arg(long, value_name = "MB", default_value_t = 50, global = true)]
    pub(crate) max_download_mb: u64,
    /// Each session's memory budget in MiB (its renderers and its share of
    /// the browser): a tab whose renderer holds a quarter of it moves to a
    /// fresh renderer at its next navigation, and a session still over it
    /// is told so; 0 keeps no budget.
    #[arg(long, value_name = "MB", default_value_t = tabwright::DEFAULT_BUDGET_MB, global = true)]
    pub(crate) session_memory_mb: u64,
    /// A secret the model types as {{secret:NAME}} and never reads back,
    /// its value read from the environment variable ENV_VAR (repeatable).
    #[arg(long, value_name = "NAME=ENV_VAR", global = true)]
    pub(crate) secret: Vec<String>,
}

/// What the browser flags describe.
pub(crate) struct Settings {
    pub(crate) backend: Backend,
    pub(crate) options: Options,
    pub(crate) policy: Policy,
    pub(crate) pack: PackOptions,
}

impl BrowserArgs {
    /// The pack these flags describe, with `extra` origins also allowed.
    pub(crate) fn pack(&self, extra: &[String]) -> Result<Pack, String> {
        let settings = self.settings(extra)?;
        let browser = tabwright::browser(settings.backend, settings.options, settings.policy);
        Ok(Pack::new(browser, settings.pack))
    }

    /// The backend, options, guard policy and pack options these flags
    /// describe, with `extra` origins also allowed.
    // (Over 100 lines: every flag read and checked in the order the docs give them; split, the checks would scatter.)
    pub(crate) fn settings(&self, extra: &[String]) -> Result<Settings, String> {
        let (width, height) = self
            .viewport
            .split_once(['x', 'X', '×'])
            .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)))
            .ok_or_else(|| {
                format!(
                    "--viewport {:?}: expected WIDTHxHEIGHT, e.g. 1280x800",
                    self.viewport
                )
            })?;
        if !(self.timeout.is_finite() && self.timeout > 0.0 && self.timeout <= 3600.0) {
            return Err(format!(
                "--timeout {}: expected seconds between 0 and 3600",
                self.timeout
            ));
        }
        let mut allowed_origins = Vec::new();
        for origin in self.allow_origin.iter().chain(extra) {
            let parsed = AllowedOrigin::parse(origin)
                .map_err(|reason| format!("--allow-origin {origin:?}: {reason}"))?;
            allowed_origins.push(parsed);
        }
        let backend = match (self.backend, &self.cdp_endpoint, &self.webdriver_url) {
            (_, Some(_), Some(_)) => {
                return Err("give --cdp-endpoint or --webdriver-url, not both".to_owned())
            }
            (BackendArg::Webdriver, Some(_), _) => {
                return Err("--cdp-endpoint is for the cdp backend".to_owned())
            }
            (BackendArg::Firefox, Some(_), _) => {
                return Err(
                    "--cdp-endpoint reaches a Chromium over CDP: a Firefox elsewhere is reached with --webdriver-url (geckodriver, or a Selenium Grid with Firefox nodes)"
                        .to_owned(),
                )
            }
            (BackendArg::Cdp, _, Some(_)) | (BackendArg::Webdriver, _, _) => Backend::WebDriver,
            (BackendArg::Cdp, _, None) => Backend::Cdp,
            (BackendArg::Firefox, None, _) => Backend::Firefox,
        };
        if self.downloads.is_some() && backend != Backend::Cdp {
            return Err(
                "--downloads needs the cdp backend: over WebDriver and Firefox's BiDi a download cannot be capped as it lands, so each is refused"
                    .to_owned(),
            );
        }
        if self.max_download_mb == 0 || self.max_download_mb > 100_000 {
            return Err(format!(
                "--max-download-mb {}: expected 1 to 100000",
                self.max_download_mb
            ));
        }
        let groups = groups(&self.caps)?;
        let options = Options {
            network_log: groups.contains(&Group::Network),
            page_tools: groups.contains(&Group::PageTools),
            downloads: self.downloads.clone().map(|dir| Downloads {
                dir,
                max_bytes: self.max_download_mb * 1_000_000,
            }),
            headed: self.headed,
            width,
            height,
            profile_dir: self.profile_dir.clone(),
            timeout: Duration::from_secs_f64(self.timeout),
            endpoint: self.cdp_endpoint.clone().or(self.webdriver_url.clone()),
            executable: self.browser_path.clone(),
            // Before the user's own flags, which come last and so win (a
            // feature list of theirs joins ours).
            extra_args: self
                .user_agent
                .iter()
                .map(|agent| format!("--user-agent={agent}"))
                .chain(self.chrome_arg.iter().cloned())
                .collect(),
            memory_budget_mb: (self.session_memory_mb > 0).then_some(self.session_memory_mb),
            ..Options::default()
        };
        if self.guard_listen.is_some() && self.guard_clients.is_empty() {
            return Err(
                "--guard-listen needs --guard-clients: the addresses of the browsers that may use the proxy (e.g. 10.0.0.7/32)"
                    .to_owned(),
            );
        }
        if self.guard_listen.is_none() && !self.guard_clients.is_empty() {
            return Err("--guard-clients is for a proxy on --guard-listen".to_owned());
        }
        for site in &self.block_site {
            if site.is_empty() || site.contains(['/', ':', ' ']) {
                return Err(format!(
                    "--block-site {site:?}: expected a domain such as ads.example"
                ));
            }
        }
        let remote = self.cdp_endpoint.is_some() || self.webdriver_url.is_some();
        if remote && (self.user_agent.is_some() || self.browser_path.is_some()) {
            return Err(
                "--user-agent and --browser-path apply to a browser tabwright starts, not to one at --cdp-endpoint or --webdriver-url"
                    .to_owned(),
            );
        }
        let task_origins = |flag: &str, origins: &[String]| {
            origins
                .iter()
                .map(|origin| {
                    tabwright::TaskOrigin::parse(origin)
                        .map_err(|reason| format!("{flag} {origin:?}: {reason}"))
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let task = tabwright::Task {
            read: task_origins("--read-origin", &self.read_origin)?,
            act: task_origins("--act-origin", &self.act_origin)?,
            strict: self.task_strict,
            flows: self
                .allow_flow
                .iter()
                .map(|flow| {
                    let (from, to) = flow
                        .split_once('=')
                        .ok_or_else(|| format!("--allow-flow {flow:?}: expected FROM=TO"))?;
                    let from = task_origins("--allow-flow", &[from.trim().to_owned()])?.remove(0);
                    if from.path().is_some() {
                        return Err(format!(
                            "--allow-flow {flow:?}: FROM is a whole origin (what was read is kept by origin); TO may name a path"
                        ));
                    }
                    Ok((
                        from,
                        task_origins("--allow-flow", &[to.trim().to_owned()])?.remove(0),
                    ))
                })
                .collect::<Result<_, String>>()?,
        };
        if task.strict && !task.is_set() {
            return Err(
                "--task-strict keeps requests within the task's origins: name them with --read-origin or --act-origin"
                    .to_owned(),
            );
        }
        let task_origins = task.is_set();
        let policy = Policy {
            task,
            allowed_origins,
            blocked_domains: self.block_site.clone(),
            listen: self.guard_listen,
            clients: self.guard_clients.clone(),
            upstream: self
                .upstream_proxy
                .as_deref()
                .map(|url| {
                    tabwright::UpstreamProxy::parse(
                        url,
                        std::env::var("TABWRIGHT_UPSTREAM_PROXY_CREDENTIALS").ok(),
                    )
                })
                .transpose()
                .map_err(|problem| format!("--upstream-proxy: {problem}"))?,
        };
        Ok(Settings {
            backend,
            options,
            policy,
            pack: PackOptions {
                vision: self.vision,
                answers: match self.answers {
                    AnswersArg::Changes => Answers::Changes,
                    AnswersArg::Full => Answers::Full,
                },
                groups,
                files_dir: self.files_dir.clone(),
                file_origins: self
                    .file_origin
                    .iter()
                    .map(|rule| file_origin(rule))
                    .collect::<Result<_, _>>()?,
                output_dir: self.output_dir.clone(),
                state_dir: self.state_dir.clone(),
                trace_dir: self.trace.clone(),
                confirm_page_tools: self.confirm_page_tools,
                task_origins,
                secrets: self
                    .secret
                    .iter()
                    .map(|spec| secret(spec))
                    .collect::<Result<_, _>>()?,
                ..PackOptions::default()
            },
        })
    }
}

/// The tool groups `--caps` names: core always, then those named, each
/// once; an unknown name is an error naming the groups.
pub(crate) fn groups(caps: &str) -> Result<Vec<Group>, String> {
    let mut groups = vec![Group::Core];
    for name in caps
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
    {
        let group: Group = name
            .parse()
            .map_err(|problem| format!("--caps: {problem}"))?;
        if !groups.contains(&group) {
            groups.push(group);
        }
    }
    Ok(groups)
}

/// A `--secret NAME=ENV_VAR`: the name, and the variable's value.
/// A `--file-origin FILE=ORIGIN` rule (the origin after the last `=`: a
/// file's name may hold one, an origin cannot).
fn file_origin(rule: &str) -> Result<(String, tabwright::TaskOrigin), String> {
    let (file, origin) = rule
        .rsplit_once('=')
        .filter(|(file, _)| !file.trim().is_empty())
        .ok_or_else(|| format!("--file-origin {rule:?}: expected FILE=ORIGIN"))?;
    let origin = tabwright::TaskOrigin::parse(origin.trim())
        .map_err(|reason| format!("--file-origin {rule:?}: {reason}"))?;
    Ok((file.trim().to_owned(), origin))
}

pub(crate) fn secret(spec: &str) -> Result<Secret, String> {
    let (name, variable) = spec
        .split_once('=')
        .ok_or_else(|| format!("--secret {spec:?}: expected NAME=ENV_VAR"))?;
    let name = name.trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!(
            "--secret {spec:?}: the name must be letters, digits, _ and -"
        ));
    }
    let value = std::env::var(variable.trim()).map_err(|_| {
        format!("--secret {name}: the environment variable {variable:?} is not set")
    })?;
    if value.chars().count() < 4 {
        return Err(format!(
            "--secret {name}: its value is shorter than 4 characters, too short to hide in answers without hiding ordinary text"
        ));
    }
    Ok(Secret {
        name: name.to_owned(),
        value,
    })
}

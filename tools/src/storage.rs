//! The state group: `state_save` and `state_load` keep a session's cookies
//! and local storage in a file under the state folder (owner-only), so a
//! login outlives the browser without keeping its profile; `cookies` lists
//! the current site's cookies with their values hidden.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use driver_core::{PageText, PageValue};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::arguments;
use crate::browser::Browser;
use crate::error::ToolError;
use crate::options::Group;
use crate::output::{Outcome, ToolOutput};
use crate::page_strings::address;
use crate::page_values::PageAnswers;
use crate::state::State;
use crate::tool::{takes, Hints, Returns, Tool};

/// The state group: cookies and local storage, saved and loaded. Their handlers
/// are below; `table` says what each field means.
pub(crate) static TOOLS: &[Tool] = &[
    Tool {
        group: Group::State,
        // A save under a name that exists replaces it.
        hints: Hints { destructive: true, idempotent: true, ..Hints::LOCAL },
        returns: Returns::Itself,
        example: r#"`{"name": "shop-login"}`"#,
        ..Tool::action(
            "state_save",
            "Save cookies and storage",
            "Save this browser's cookies and the site's local storage under a name, to stay logged in across runs.",
            takes!(browser StateArgs => state_save),
        )
    },
    Tool {
        group: Group::State,
        // It replaces the browser's cookies of the same names.
        hints: Hints { destructive: true, idempotent: true, ..Hints::LOCAL },
        returns: Returns::Itself,
        example: r#"`{"name": "shop-login"}`"#,
        ..Tool::action(
            "state_load",
            "Load cookies and storage",
            "Load a saved state's cookies and local storage into this browser; open or reload the site after.",
            takes!(browser StateArgs => state_load),
        )
    },
    Tool {
        group: Group::State,
        ..Tool::reader(
            "cookies",
            "List cookies",
            "The site's cookies: name, domain, path, expiry and flags (values hidden).",
            takes!(browser NoArgs => cookies),
        )
    },
];

/// A saved state, as its file holds it.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Saved {
    /// Cookies as the browser lists them (CDP's `Network.Cookie`).
    cookies: Vec<Value>,
    /// Local storage, by origin.
    local_storage: BTreeMap<String, Vec<(String, String)>>,
}

/// The fields of a listed cookie the browser takes back.
const COOKIE_FIELDS: &[&str] = &[
    "name",
    "value",
    "domain",
    "path",
    "secure",
    "httpOnly",
    "sameSite",
    "priority",
    "sourceScheme",
    "sourcePort",
    "partitionKey",
];

/// Reads the current page's origin and local storage (none for a page
/// without one: `about:blank`, an opaque origin).
const READ_LOCAL: &str = "(() => { try { return { origin: location.origin, \
    items: Object.entries(localStorage) }; } catch { return { origin: location.origin, items: [] }; } })()";

impl Browser {
    pub(crate) async fn state_save(
        &self,
        _state: &mut State,
        args: arguments::StateArgs,
    ) -> Outcome {
        let file = self.state_file("state_save", &args.name)?;
        let mut saved = read_saved(&file).unwrap_or_default();
        let cookies = self
            .driver
            .devtools_answer("Network.getAllCookies", json!({}))
            .await?;
        // Kept in the person's file to hand back to the browser, never
        // shown.
        #[allow(clippy::disallowed_methods)]
        {
            saved.cookies = cookies
                .get("cookies")
                .items()
                .into_iter()
                .map(PageValue::into_untrusted)
                .collect();
        }
        let local = self.driver.own_world(&[], READ_LOCAL).await?;
        let origin = local.get("origin").text().unwrap_or_else(|| "null".into());
        #[allow(clippy::disallowed_methods)] // as the cookies
        let items: Vec<(String, String)> = local.get("items").decode().unwrap_or_default();
        let stored = items.len();
        if origin != "null" {
            #[allow(clippy::disallowed_methods)] // a key of the person's file
            saved
                .local_storage
                .insert(origin.untrusted().to_owned(), items);
        }
        write_private(
            &file,
            &serde_json::to_vec_pretty(&saved).unwrap_or_default(),
        )
        .map_err(|error| {
            ToolError::bad(
                "state_save",
                format!("cannot write {}: {error}", file.display()),
            )
        })?;
        let storage = if origin == "null" {
            "no local storage (this page has no site)".to_owned()
        } else {
            format!("{stored} local storage items of {}", address(&origin))
        };
        Ok(ToolOutput::text(format!(
            "Saved {} cookies and {storage} as {:?} ({}).",
            saved.cookies.len(),
            args.name,
            file.display()
        )))
    }

    pub(crate) async fn state_load(
        &self,
        state: &mut State,
        args: arguments::StateArgs,
    ) -> Outcome {
        let file = self.state_file("state_load", &args.name)?;
        let saved = match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice::<Saved>(&bytes).map_err(|error| {
                ToolError::bad(
                    "state_load",
                    format!("{} is not a saved state: {error}", file.display()),
                )
            })?,
            Err(_) => {
                let names = saved_names(file.parent().unwrap_or(Path::new(".")));
                return Err(ToolError::bad(
                    "state_load",
                    if names.is_empty() {
                        format!("there is no saved state {:?}, and none is saved yet (state_save makes one)", args.name)
                    } else {
                        format!(
                            "there is no saved state {:?}; the saved ones are: {}",
                            args.name,
                            names.join(", ")
                        )
                    },
                ));
            }
        };
        let cookies: Vec<Value> = saved.cookies.iter().map(cookie_param).collect();
        if !cookies.is_empty() {
            self.driver
                .devtools_answer("Network.setCookies", json!({ "cookies": cookies }))
                .await?;
        }
        state.pending_storage = saved.local_storage;
        let restored = self.restore_storage(state).await?;
        let mut text = format!("Loaded {} cookies of {:?}.", cookies.len(), args.name);
        if let Some(origin) = &restored {
            let _ = write!(
                text,
                " Restored the local storage of {}; reload the page to see it logged in.",
                address(origin)
            );
        }
        if !state.pending_storage.is_empty() {
            let origins: Vec<String> = state.pending_storage.keys().map(address).collect();
            let _ = write!(
                text,
                " The local storage of {} is restored when a page of it is opened.",
                origins.join(", ")
            );
        } else if restored.is_none() {
            text.push_str(" Open or reload the site to use them.");
        }
        Ok(ToolOutput::text(text))
    }

    /// Writes the saved local storage of the current page's origin, if
    /// `state_load` left some waiting for it; returns the origin.
    pub(crate) async fn restore_storage(
        &self,
        state: &mut State,
    ) -> Result<Option<PageText>, ToolError> {
        if state.pending_storage.is_empty() {
            return Ok(None);
        }
        let local = self.driver.own_world(&[], READ_LOCAL).await?;
        let origin = local.get("origin").text().unwrap_or_else(|| "null".into());
        #[allow(clippy::disallowed_methods)] // a key of the person's file
        let Some(items) = state.pending_storage.remove(origin.untrusted()) else {
            return Ok(None);
        };
        let items = serde_json::to_string(&items).unwrap_or_else(|_| "[]".to_owned());
        self.driver
            .own_world(&[], &format!("(() => {{ for (const [k, v] of {items}) localStorage.setItem(k, v); return true; }})()"))
            .await?;
        Ok(Some(origin))
    }

    pub(crate) async fn cookies(&self, _state: &mut State, _: arguments::NoArgs) -> Outcome {
        let cookies = self
            .driver
            .devtools_answer("Network.getAllCookies", json!({}))
            .await?;
        // Every string of a cookie is the site's (its name, domain, path,
        // SameSite and value): read as page words from the start.
        #[allow(clippy::disallowed_methods)] // into `Cookie`, of `PageText`s
        let cookies: Vec<Cookie> = cookies
            .get("cookies")
            .items()
            .iter()
            .filter_map(PageValue::decode)
            .collect();
        let site = self.driver.own_world(&[], "location.hostname").await?;
        #[allow(clippy::disallowed_methods)] // compared, not shown
        let host = site
            .untrusted()
            .as_str()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let mut lines = Vec::new();
        for cookie in cookies.iter().filter(|cookie| cookie.of_site(&host)) {
            let mut line = format!(
                "{} (domain {}, path {})",
                address(&cookie.name),
                address(&cookie.domain),
                address(&cookie.path)
            );
            match cookie.expires {
                Some(expires) if !cookie.session && expires > 0.0 => {
                    let days = (expires - now_seconds()) / 86_400.0;
                    let _ = write!(line, ", expires in {:.0} days", days.max(0.0));
                }
                _ => line.push_str(", for this session"),
            }
            for (set, name) in [(cookie.http_only, "HttpOnly"), (cookie.secure, "Secure")] {
                if set {
                    let _ = write!(line, ", {name}");
                }
            }
            if let Some(same_site) = &cookie.same_site {
                let _ = write!(line, ", SameSite={}", address(same_site));
            }
            let _ = write!(
                line,
                "; value hidden ({} characters)",
                cookie.value_length()
            );
            lines.push(line);
        }
        if host.is_empty() {
            return Ok(ToolOutput::text(
                "This page has no site, so no cookies of its own; open a page of the site first."
                    .to_owned(),
            ));
        }
        if lines.is_empty() {
            return Ok(ToolOutput::text(format!(
                "{} has no cookies in this browser.",
                address(&host)
            )));
        }
        lines.insert(0, format!("{} cookies of {}:", lines.len(), address(&host)));
        Ok(ToolOutput::text(lines.join("\n")))
    }

    /// The file of a saved state: a plain name under the state folder,
    /// which is made owner-only.
    fn state_file(&self, tool: &'static str, name: &str) -> Result<PathBuf, ToolError> {
        let Some(folder) = &self.options.state_dir else {
            return Err(ToolError::bad(
                tool,
                "no state folder was given: start tabwright with --state-dir DIR",
            ));
        };
        let name = name.trim();
        if name.is_empty()
            || name.len() > 64
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(ToolError::bad(
                tool,
                format!("{name:?} is not a state name: use letters, digits, - and _ (at most 64)"),
            ));
        }
        make_private_dir(folder).map_err(|error| {
            ToolError::bad(
                tool,
                format!("cannot use the state folder {}: {error}", folder.display()),
            )
        })?;
        Ok(folder.join(format!("{name}.json")))
    }
}

/// A listed cookie as the browser takes it back: the fields it knows, an
/// expiry only for a cookie that has one.
fn cookie_param(cookie: &Value) -> Value {
    let mut param = serde_json::Map::new();
    for field in COOKIE_FIELDS {
        if let Some(value) = cookie.get(*field) {
            param.insert((*field).to_owned(), value.clone());
        }
    }
    if let Some(expires) = cookie["expires"]
        .as_f64()
        .filter(|e| *e > 0.0 && cookie["session"] != true)
    {
        param.insert("expires".to_owned(), json!(expires));
    }
    Value::Object(param)
}

fn read_saved(file: &Path) -> Option<Saved> {
    serde_json::from_slice(&std::fs::read(file).ok()?).ok()
}

fn saved_names(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

fn now_seconds() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs_f64())
        .unwrap_or_default()
}

/// Creates `folder` if needed, readable by its owner only.
fn make_private_dir(folder: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Writes a file only its owner can read (replacing it whole).
fn write_private(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let partial = file.with_extension("json.partial");
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        use std::io::Write;
        let mut out = options.open(&partial)?;
        out.write_all(bytes)?;
        out.sync_all()?;
    }
    std::fs::rename(partial, file)
}

/// A cookie as DevTools lists it, its strings the site's.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Cookie {
    name: PageText,
    value: PageText,
    domain: PageText,
    #[serde(default)]
    path: PageText,
    expires: Option<f64>,
    #[serde(default)]
    session: bool,
    #[serde(default)]
    http_only: bool,
    #[serde(default)]
    secure: bool,
    same_site: Option<PageText>,
}

#[allow(clippy::disallowed_methods)] // compared and counted, not shown
impl Cookie {
    /// Whether it is sent to `host` (lower case): its domain is the host
    /// or, with or without a leading dot, a site the host is under.
    fn of_site(&self, host: &str) -> bool {
        let bare = self
            .domain
            .untrusted()
            .trim_start_matches('.')
            .to_ascii_lowercase();
        !host.is_empty() && (host == bare || host.ends_with(&format!(".{bare}")))
    }

    fn value_length(&self) -> usize {
        self.value.untrusted().chars().count()
    }
}

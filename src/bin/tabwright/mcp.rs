//! `tabwright mcp`: the tool pack as an MCP server, over stdio (one
//! session) or streamable HTTP (`http`: browser sessions from a [`Hub`],
//! each under a handle: one made for each MCP session, or by `open` for
//! stateless requests).
//!
//! stdout carries the protocol, so everything else (logs) goes to stderr.
//! A tool's failure is an MCP tool result with `isError: true` and the
//! pack's sentence, which clients show to the model; screenshots are MCP
//! image content. A cancelled request stops its call (the pack stops what
//! it was doing in the page); a request with a progress token gets a
//! progress notification each second the call runs.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeRequestParams, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};
use tools::{Pack, ToolOutput};

use crate::hub::{Hub, Legacy, Owner};

/// The argument that names a browser session over HTTP.
const SESSION: &str = "session";

/// How often a call with a progress token reports that it still runs.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// The MCP face of the tool pack.
#[derive(Clone)]
pub struct McpServer {
    serves: Serves,
}

#[derive(Clone)]
enum Serves {
    /// stdio: one pack, one client.
    One(Arc<Pack>),
    /// HTTP: sessions from the hub; `own` is this MCP session's, made at
    /// `initialize` (none for a stateless request).
    Hub {
        hub: Arc<Hub>,
        own: Arc<Mutex<Option<Legacy>>>,
    },
}

/// Which pack a call goes to, and what its answer says first.
struct Route {
    pack: Arc<Pack>,
    /// The handle the call used, for its idle clock and `close`.
    handle: Option<String>,
    /// A line said before the answer (a new handle).
    preface: Option<String>,
}

impl McpServer {
    /// A server answering with `pack` (stdio).
    pub fn new(pack: Arc<Pack>) -> Self {
        Self {
            serves: Serves::One(pack),
        }
    }

    /// A server for one request or MCP session of the HTTP server.
    pub fn over_http(hub: Arc<Hub>) -> Self {
        Self {
            serves: Serves::Hub {
                hub,
                own: Arc::new(Mutex::new(None)),
            },
        }
    }

    /// Serves MCP over this process's stdin and stdout until the client
    /// closes them, then closes the browser.
    pub async fn serve_stdio(self) -> Result<(), String> {
        let Serves::One(pack) = &self.serves else {
            return Err("stdio serves one pack".to_owned());
        };
        let pack = Arc::clone(pack);
        let running = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|error| format!("the MCP handshake failed: {error}"))?;
        let ended = running.waiting().await;
        pack.close().await;
        ended
            .map(|reason| tracing::info!(?reason, "MCP session ended"))
            .map_err(|error| format!("the MCP session failed: {error}"))
    }

    /// The pack this call goes to, or the answer that says why none.
    fn target(
        &self,
        tool: &str,
        arguments: &mut Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> Result<Route, String> {
        let named = arguments.remove(SESSION);
        let (hub, own) = match &self.serves {
            Serves::One(pack) => {
                return Ok(Route {
                    pack: Arc::clone(pack),
                    handle: None,
                    preface: None,
                })
            }
            Serves::Hub { hub, own } => (hub, own),
        };
        let owner = owner(context);
        match named {
            Some(Value::String(handle)) if !handle.is_empty() => match hub.find(&handle, owner) {
                Some(pack) => {
                    // An MCP session that joins a browser session by its
                    // handle (a client that reconnected) gives up the
                    // unused one it was made with.
                    let own = own.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                    if let Some(legacy) = own.as_ref().filter(|legacy| legacy.handle != handle) {
                        legacy.give_up_if_unused();
                    }
                    Ok(Route {
                        pack,
                        handle: Some(handle),
                        preface: None,
                    })
                }
                None => Err(format!(
                    "There is no browser session {:?} (it was closed, sat unused for more than {} s, or another client made it). Call open without a session to start a new one.",
                    handle.chars().take(40).collect::<String>(),
                    hub.idle.as_secs()
                )),
            },
            Some(Value::Null) | None => {
                let own = own.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                if let Some(legacy) = own.as_ref() {
                    if !legacy.owner.is(&owner) {
                        return Err(
                            "This MCP session was opened with another token, so its browser is not served to this one; initialize a session of your own."
                                .to_owned(),
                        );
                    }
                    if let Some(pack) = hub.find(&legacy.handle, owner) {
                        let first = legacy.use_once();
                        let handle = &legacy.handle;
                        return Ok(Route {
                            pack,
                            // Not the handle's `close` rule: the MCP
                            // session's next call starts a fresh browser.
                            handle: None,
                            preface: first.then(|| format!(
                                "Session {handle}: this browser is kept under that handle; if your client reconnects (a new MCP session), pass \"session\": \"{handle}\" to keep it (its tabs, cookies and numbers)."
                            )),
                        });
                    }
                    if tool != "open" {
                        return Err(format!(
                            "This MCP session's browser session was closed (it sat unused for more than {} s, or its place went to another client). Call open to start a new one.",
                            hub.idle.as_secs()
                        ));
                    }
                }
                drop(own);
                if tool != "open" {
                    return Err(
                        "This call names no browser session. On this server each session has a handle: call open (its answer starts with the handle), then pass it as \"session\" in every call."
                            .to_owned(),
                    );
                }
                let (handle, pack) = hub.mint(owner).map_err(|full| format!("{full}."))?;
                tracing::info!(open = hub.open(), "a session handle was made");
                Ok(Route {
                    pack,
                    preface: Some(format!(
                        "Session {handle}: pass \"session\": \"{handle}\" in every later call to keep this browser (its tabs, cookies and numbers)."
                    )),
                    handle: Some(handle),
                })
            }
            Some(_) => Err(
                "The session argument is a handle (a string such as \"tw_…\") that open answered with."
                    .to_owned(),
            ),
        }
    }
}

/// Whose request this is, as the HTTP gate named it (its token's digest;
/// a server without tokens has one owner).
fn owner(context: &RequestContext<RoleServer>) -> Owner {
    context
        .extensions
        .get::<hyper::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Owner>().copied())
        .unwrap_or_else(|| Owner::of(None))
}

/// Runs `call`, telling `peer` each second that it still runs.
async fn with_progress(
    call: impl std::future::Future<Output = ToolOutput>,
    token: ProgressToken,
    peer: &Peer<RoleServer>,
    tool: &str,
) -> ToolOutput {
    tokio::pin!(call);
    let started = Instant::now();
    let mut ticks =
        tokio::time::interval_at(tokio::time::Instant::now() + PROGRESS_EVERY, PROGRESS_EVERY);
    loop {
        tokio::select! {
            output = &mut call => return output,
            _ = ticks.tick() => {
                let seconds = started.elapsed().as_secs_f64().floor();
                let waiting_for = if tool == "handoff" { "the person" } else { "the page" };
                let note = ProgressNotificationParam::new(token.clone(), seconds)
                    .with_message(format!("{tool}: waiting for {waiting_for} ({seconds:.0} s)"));
                if let Err(error) = peer.notify_progress(note).await {
                    tracing::debug!(%error, "a progress notification could not be sent");
                }
            }
        }
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let handles = match self.serves {
            Serves::One(_) => "",
            Serves::Hub { .. } => {
                " Each browser session has a handle, named in its first answer: pass it as \
                 session in later calls (without an MCP session, in every call) to keep the \
                 browser."
            }
        };
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("tabwright", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!("{}{handles}", tools::INSTRUCTIONS))
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        // An MCP session of the HTTP server takes its browser session's
        // place here, where the session is made: a burst cannot pass the
        // limit.
        if let Serves::Hub { hub, own } = &self.serves {
            let owner = owner(&context);
            let legacy = hub
                .legacy(owner)
                .map_err(|full| ErrorData::invalid_request(full.to_string(), None))?;
            *own.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(legacy);
        }
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // The pack's own MCP export is what is sent: one definition of each
        // tool, with its title and annotations; over HTTP each takes the
        // session handle too.
        let definitions = match &self.serves {
            Serves::One(pack) => pack.tools().iter().map(tools::ToolDef::to_mcp).collect(),
            Serves::Hub { hub, .. } => {
                let mut definitions = hub.definitions.clone();
                for definition in &mut definitions {
                    if let Some(properties) = definition
                        .pointer_mut("/inputSchema/properties")
                        .and_then(Value::as_object_mut)
                    {
                        properties
                            .insert(SESSION.to_owned(), serde_json::json!({ "type": "string" }));
                    }
                }
                definitions
            }
        };
        let tools = definitions
            .into_iter()
            .map(serde_json::from_value::<Tool>)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        Ok(ListToolsResult::with_all_items(tools))
    }

    // Hosts probe for resources and prompts; there are none, which is an
    // answer, not an error worth a warning.
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::default())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::default())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::default())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut arguments = request.arguments.unwrap_or_default();
        let name = request.name.to_string();
        let shown = Value::Object(arguments.clone());
        tracing::info!(tool = %name, arguments = %shown, "tool call");
        let target = match self.target(&name, &mut arguments, &context) {
            Ok(target) => target,
            Err(sentence) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(sentence)]).into())
            }
        };
        let cancelled = context.ct.clone();
        let call =
            target
                .pack
                .call_until(&name, Value::Object(arguments), cancelled.cancelled_owned());
        let mut output = match context.meta.get_progress_token() {
            Some(token) => with_progress(call, token, &context.peer, &name).await,
            None => call.await,
        };
        if let (Serves::Hub { hub, .. }, Some(handle)) = (&self.serves, &target.handle) {
            if name == "close" && !output.is_error {
                hub.end(handle);
                output.text.push_str(&format!(
                    "\nSession {handle} is ended; open without a session starts a new one."
                ));
            } else {
                hub.touch(handle);
            }
        }
        if let Some(preface) = target.preface {
            output.text = format!("{preface}\n{}", output.text);
        }
        let mut content = vec![ContentBlock::text(output.text)];
        for image in &output.images {
            content.push(ContentBlock::image(image.base64(), image.mime_type));
        }
        let result = if output.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        };
        Ok(result.into())
    }
}

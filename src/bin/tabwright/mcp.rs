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
//! progress notification each second the call runs, and over HTTP one
//! without gets pings, so that a long call does not let its MCP session
//! end as idle.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::ElicitationAction;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    InitializeRequestParams, InitializeResult, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::model::{
    CancelTaskParams, CreateTaskResult, GetTaskParams, GetTaskResult, UpdateTaskParams,
};
use rmcp::service::{ElicitationMode, RequestContext};
use rmcp::task_manager::{TaskContext, TaskExit, TaskManager, TaskOptions};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};
use tools::{Pack, ToolOutput};

use crate::hub::{Hub, Legacy, Owner};

/// The argument that names a browser session over HTTP.
const SESSION: &str = "session";

/// How often a call with a progress token reports that it still runs.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// How long a call of a client that takes tasks runs before it becomes one.
const TASK_AFTER: Duration = Duration::from_secs(2);

/// How long a task's answer is kept for the client to read (10 minutes).
const TASK_KEPT_MS: u64 = 600_000;

/// A task's time to live, counted from its start: the longest its call
/// may run (a handoff's, whose person's link the task holds) and a
/// minute, then [`TASK_KEPT_MS`] to read the answer. A task dropped while
/// its call runs would revoke that link mid-handoff.
fn task_ttl_ms() -> u64 {
    let longest = u64::try_from(tools::LONGEST_CALL.as_millis()).unwrap_or(u64::MAX);
    longest.saturating_add(60_000).saturating_add(TASK_KEPT_MS)
}

/// The MCP face of the tool pack.
#[derive(Clone)]
pub struct McpServer {
    serves: Serves,
    tasks: Arc<Tasks>,
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
            tasks: Arc::default(),
        }
    }

    /// A server for one request or MCP session of the HTTP server.
    pub fn over_http(hub: Arc<Hub>, tasks: Arc<Tasks>) -> Self {
        Self {
            serves: Serves::Hub {
                hub,
                own: Arc::new(Mutex::new(None)),
            },
            tasks,
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

impl McpServer {
    /// The MCP answer to a call the pack answered: the handle's idle clock
    /// or its end, and a preface (a new handle) before the pack's words.
    fn answered(
        &self,
        handle: &Option<String>,
        preface: Option<String>,
        name: &str,
        mut output: ToolOutput,
    ) -> CallToolResult {
        if let (Serves::Hub { hub, .. }, Some(handle)) = (&self.serves, handle) {
            if name == "close" && !output.is_error {
                hub.end(handle);
                output.text.push_str(&format!(
                    "\nSession {handle} is ended; open without a session starts a new one."
                ));
            } else {
                hub.touch(handle);
            }
        }
        if let Some(preface) = preface {
            output.text = format!("{preface}\n{}", output.text);
        }
        let mut content = vec![ContentBlock::text(output.text)];
        for image in &output.images {
            content.push(ContentBlock::image(image.base64(), image.mime_type));
        }
        if output.is_error {
            CallToolResult::error(content)
        } else {
            CallToolResult::success(content)
        }
    }

    /// Where the client can show a person a link (URL-mode elicitation),
    /// asks the host to show the live view of this session alone, under a
    /// key that expires with the handoff: the person does what the reason
    /// says in the picture there, then presses Done there or accepts in
    /// the host (declining gives up). For `page_tool` (and `run`, whose
    /// script may call one), the same once the pack asks the person to
    /// confirm a page tool (accepting lets it run). `None` where the host cannot, or on stdio (its live view
    /// has no keys).
    fn hand_over_through_host(
        &self,
        tool: &str,
        target: &Route,
        arguments: &Map<String, Value>,
        context: &RequestContext<RoleServer>,
    ) -> Option<ThroughHost> {
        let Serves::Hub { hub, .. } = &self.serves else {
            return None;
        };
        if !context
            .peer
            .supported_elicitation_modes()
            .contains(&ElicitationMode::Url)
        {
            return None;
        }
        let (id, watch) = hub.watch_of(&target.pack)?;
        let seconds = arguments
            .get("seconds")
            .and_then(Value::as_f64)
            .filter(|seconds| seconds.is_finite())
            .unwrap_or(300.0)
            .clamp(1.0, tools::LONGEST_CALL.as_secs_f64());
        let lasts = Duration::from_secs_f64(seconds);
        let key = hub.view_key(id, owner(context), lasts + Duration::from_secs(60));
        let link = url::Url::parse(&format!("{}/live?key={key}", hub.live_url)).ok()?;
        let reason: String = arguments
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .chars()
            .take(300)
            .collect();
        let handoff = tool == "handoff";
        let peer = context.peer.clone();
        let asked = tokio::spawn(async move {
            // The handoff begins in the pack a moment later; an answer
            // before it would reach nothing. A page tool's question begins
            // only for a consequential tool, whenever the pack gets there
            // (this waits no longer than the call: it is aborted with it).
            let began = async {
                loop {
                    if let Some((asked, _)) = watch.handoff() {
                        return asked;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            };
            let begun = if handoff {
                tokio::time::timeout(Duration::from_secs(5), began)
                    .await
                    .ok()
            } else {
                Some(began.await)
            };
            let message = match (handoff, begun) {
                (true, _) => format!(
                    "The agent hands you its browser: {reason}. Open the link and do it in the picture there; then press Done on that page, or accept here."
                ),
                (false, Some(asked)) => format!(
                    "{} Open the link to see the page; accept here to let it run, decline to refuse.",
                    asked.chars().take(900).collect::<String>()
                ),
                (false, None) => return,
            };
            let answered = peer
                .elicit_url_with_timeout(message, link, format!("handoff-{id}"), Some(lasts))
                .await;
            let input = match answered {
                Ok(ElicitationAction::Accept) => tools::PersonInput::Done,
                Ok(_) => tools::PersonInput::GiveUp,
                Err(error) => {
                    tracing::debug!(%error, "the host did not show the handoff's link");
                    return;
                }
            };
            watch.person(input);
        });
        Some(ThroughHost {
            asked,
            key,
            hub: Arc::clone(hub),
        })
    }

    /// A call from a client that takes tasks: answered as usual if it ends
    /// within [`TASK_AFTER`] (at once for `handoff` and `wait_for`, which
    /// wait by design), else it goes on as a task the client polls
    /// (`tasks/get`, its status the same sentence a progress notification
    /// carries) and may cancel (`tasks/cancel` stops it as a cancelled call
    /// does), whatever the host's patience for one request.
    async fn call_as_task(
        &self,
        target: Route,
        name: String,
        arguments: Map<String, Value>,
        context: &RequestContext<RoleServer>,
        through_host: Option<ThroughHost>,
    ) -> CallToolResponse {
        let stop = tokio_util::sync::CancellationToken::new();
        let pack = Arc::clone(&target.pack);
        let running = {
            let (name, stop) = (name.clone(), stop.clone());
            tokio::spawn(async move {
                pack.call_until(&name, Value::Object(arguments), stop.cancelled_owned())
                    .await
            })
        };
        let mut running = Box::pin(running);
        let after = if matches!(name.as_str(), "handoff" | "wait_for") {
            Duration::ZERO
        } else {
            TASK_AFTER
        };
        let joined = |joined: Result<ToolOutput, tokio::task::JoinError>| {
            joined.unwrap_or_else(|error| ToolOutput {
                text: format!("The call failed inside tabwright (a bug: {error}); try again or take a snapshot."),
                images: Vec::new(),
                is_error: true,
            })
        };
        tokio::select! {
            biased;
            done = &mut running => {
                let output = joined(done);
                return self.answered(&target.handle, target.preface, &name, output).into();
            }
            () = context.ct.cancelled() => {
                stop.cancel();
                let output = joined(running.await);
                return self.answered(&target.handle, target.preface, &name, output).into();
            }
            () = tokio::time::sleep(after) => {}
        }
        let server = self.clone();
        let waiting_for = if name == "handoff" {
            "the person"
        } else {
            "the page"
        };
        let started = Instant::now();
        let task = self.tasks.manager.spawn(
            TaskOptions::new()
                .with_ttl_ms(task_ttl_ms())
                .with_poll_interval_ms(1000)
                .with_status_message(format!("{name}: waiting for {waiting_for} (0 s)")),
            move |task: TaskContext| {
                Box::pin(async move {
                    // The host's link lasts as long as the task's call.
                    let _through_host = through_host;
                    let mut ticks = tokio::time::interval(PROGRESS_EVERY);
                    loop {
                        tokio::select! {
                            done = &mut running => {
                                let output = joined(done);
                                return Ok(server.answered(&target.handle, target.preface, &name, output));
                            }
                            () = task.cancelled() => {
                                stop.cancel();
                                let _ = running.await;
                                return Err(TaskExit::Cancelled);
                            }
                            _ = ticks.tick() => {
                                let seconds = started.elapsed().as_secs();
                                task.set_status_message(format!("{name}: waiting for {waiting_for} ({seconds} s)"));
                            }
                        }
                    }
                })
            },
        );
        self.tasks
            .owners
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .insert(task.task_id.clone(), owner(context));
        tracing::info!(task = %task.task_id, "a call goes on as a task");
        CallToolResponse::Task(CreateTaskResult::new(task))
    }
}

/// A handoff offered through the host: withdrawn (the request to the host
/// dropped, the key ended) when the call ends.
struct ThroughHost {
    asked: tokio::task::JoinHandle<()>,
    key: String,
    hub: Arc<Hub>,
}

impl Drop for ThroughHost {
    fn drop(&mut self) {
        self.asked.abort();
        self.hub.revoke(&self.key);
    }
}

/// The tasks calls became, and who may see each: one table for the whole
/// server, since on the stateless revision `tasks/get` comes on a request
/// of its own.
#[derive(Default)]
pub struct Tasks {
    manager: TaskManager,
    owners: Mutex<std::collections::HashMap<String, Owner>>,
}

impl Tasks {
    /// Refuses a task another token made, as if it did not exist.
    fn check(&self, task: &str, owner: Owner) -> Result<(), ErrorData> {
        let owners = self
            .owners
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        match owners.get(task) {
            Some(made_by) if made_by.is(&owner) => Ok(()),
            _ => Err(ErrorData::invalid_params(
                format!(
                    "there is no task {:?}",
                    task.chars().take(60).collect::<String>()
                ),
                None,
            )),
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

/// Runs `call`, pinging `peer` a few times per `idle`: the MCP session
/// layer ends a session that carried no message for that long, and a call
/// that runs longer (a browser starting on a busy machine, a wait, a
/// handoff) must not lose its session and its answer with it. (A request
/// with a progress token gets progress notifications instead.)
async fn with_pings(
    call: impl std::future::Future<Output = ToolOutput>,
    peer: &Peer<RoleServer>,
    idle: Duration,
) -> ToolOutput {
    tokio::pin!(call);
    let every = (idle / 3).clamp(Duration::from_secs(1), Duration::from_secs(60));
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    loop {
        tokio::select! {
            output = &mut call => return output,
            _ = ticks.tick() => {
                // The ping's being sent is what keeps the session; its
                // answer is not waited for.
                let peer = peer.clone();
                tokio::spawn(async move {
                    let ping = rmcp::model::ServerRequest::PingRequest(Default::default());
                    let _ = tokio::time::timeout(every, peer.send_request(ping)).await;
                });
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
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
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
        // A handoff, where the host can show a person a link, is offered
        // there too; it is withdrawn when the call ends.
        // So is a page tool's question to the person (asked only if it
        // must be confirmed: the question begins in the pack), a script's
        // page tool's included.
        let through_host = matches!(
            name.as_str(),
            "handoff" | "page_tool" | "run" | "ask_origin"
        )
        .then(|| self.hand_over_through_host(&name, &target, &arguments, &context))
        .flatten();
        let takes_tasks = context
            .client_capabilities()
            .is_some_and(|capabilities| capabilities.supports_tasks());
        if takes_tasks {
            return Ok(self
                .call_as_task(target, name, arguments, &context, through_host)
                .await);
        }
        let cancelled = context.ct.clone();
        let call =
            target
                .pack
                .call_until(&name, Value::Object(arguments), cancelled.cancelled_owned());
        let output = match (context.meta.get_progress_token(), &self.serves) {
            (Some(token), _) => with_progress(call, token, &context.peer, &name).await,
            // Over HTTP a session with no message either way for the idle
            // time is ended, a call under way or not: pings keep it.
            (None, Serves::Hub { hub, .. }) => with_pings(call, &context.peer, hub.idle).await,
            (None, Serves::One(_)) => call.await,
        };
        drop(through_host);
        Ok(self
            .answered(&target.handle, target.preface, &name, output)
            .into())
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, ErrorData> {
        self.tasks.check(&request.task_id, owner(&context))?;
        let task = self.tasks.manager.get_task(&request.task_id)?;
        Ok(GetTaskResult::new(task))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.check(&request.task_id, owner(&context))?;
        self.tasks
            .manager
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.tasks.check(&request.task_id, owner(&context))?;
        self.tasks.manager.cancel_task(&request.task_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A handoff may wait its whole limit and its answer still be read:
    /// the task outlives the call by the time an answer is kept.
    #[test]
    fn a_task_lasts_as_long_as_its_longest_call() {
        let handoff_ms = 1_800_000;
        assert!(
            task_ttl_ms() >= handoff_ms + TASK_KEPT_MS,
            "{}",
            task_ttl_ms()
        );
    }
}

//! The DevTools methods and events the backends name by string, each
//! written once. A command chromiumoxide's generated types send (the CDP
//! backend's typed calls) carries its name in its type and is not here.
//!
//! Commands and events are listed by domain, in the protocol's spelling.

// --- commands ---
/// `Accessibility.getPartialAXTree`.
pub const ACCESSIBILITY_GET_PARTIAL_AX_TREE: &str = "Accessibility.getPartialAXTree";
/// `Accessibility.queryAXTree`.
pub const ACCESSIBILITY_QUERY_AX_TREE: &str = "Accessibility.queryAXTree";
/// `Browser.setDownloadBehavior`.
pub const BROWSER_SET_DOWNLOAD_BEHAVIOR: &str = "Browser.setDownloadBehavior";
/// `CSS.createStyleSheet`.
pub const CSS_CREATE_STYLE_SHEET: &str = "CSS.createStyleSheet";
/// `CSS.enable`.
pub const CSS_ENABLE: &str = "CSS.enable";
/// `CSS.setStyleSheetText`.
pub const CSS_SET_STYLE_SHEET_TEXT: &str = "CSS.setStyleSheetText";
/// `DOM.describeNode`.
pub const DOM_DESCRIBE_NODE: &str = "DOM.describeNode";
/// `DOM.enable`.
pub const DOM_ENABLE: &str = "DOM.enable";
/// `DOM.resolveNode`.
pub const DOM_RESOLVE_NODE: &str = "DOM.resolveNode";
/// `DOM.setFileInputFiles`.
pub const DOM_SET_FILE_INPUT_FILES: &str = "DOM.setFileInputFiles";
/// `Fetch.continueRequest`.
pub const FETCH_CONTINUE_REQUEST: &str = "Fetch.continueRequest";
/// `Fetch.disable`.
pub const FETCH_DISABLE: &str = "Fetch.disable";
/// `Fetch.enable`.
pub const FETCH_ENABLE: &str = "Fetch.enable";
/// `Fetch.failRequest`.
pub const FETCH_FAIL_REQUEST: &str = "Fetch.failRequest";
/// `Input.dispatchKeyEvent`.
pub const INPUT_DISPATCH_KEY_EVENT: &str = "Input.dispatchKeyEvent";
/// `Input.dispatchMouseEvent`.
pub const INPUT_DISPATCH_MOUSE_EVENT: &str = "Input.dispatchMouseEvent";
/// `Inspector.enable`.
pub const INSPECTOR_ENABLE: &str = "Inspector.enable";
/// `LayerTree.disable`.
pub const LAYER_TREE_DISABLE: &str = "LayerTree.disable";
/// `LayerTree.enable`.
pub const LAYER_TREE_ENABLE: &str = "LayerTree.enable";
/// `LayerTree.layerTreeDidChange`.
pub const LAYER_TREE_DID_CHANGE: &str = "LayerTree.layerTreeDidChange";
/// `LayerTree.makeSnapshot`.
pub const LAYER_TREE_MAKE_SNAPSHOT: &str = "LayerTree.makeSnapshot";
/// `LayerTree.releaseSnapshot`.
pub const LAYER_TREE_RELEASE_SNAPSHOT: &str = "LayerTree.releaseSnapshot";
/// `LayerTree.replaySnapshot`.
pub const LAYER_TREE_REPLAY_SNAPSHOT: &str = "LayerTree.replaySnapshot";
/// `Overlay.enable`.
pub const OVERLAY_ENABLE: &str = "Overlay.enable";
/// `Overlay.hideHighlight`.
pub const OVERLAY_HIDE_HIGHLIGHT: &str = "Overlay.hideHighlight";
/// `Overlay.highlightRect`.
pub const OVERLAY_HIGHLIGHT_RECT: &str = "Overlay.highlightRect";
/// `Page.addScriptToEvaluateOnNewDocument`.
pub const PAGE_ADD_SCRIPT_TO_EVALUATE_ON_NEW_DOCUMENT: &str =
    "Page.addScriptToEvaluateOnNewDocument";
/// `Page.bringToFront`.
pub const PAGE_BRING_TO_FRONT: &str = "Page.bringToFront";
/// `Page.captureScreenshot`.
pub const PAGE_CAPTURE_SCREENSHOT: &str = "Page.captureScreenshot";
/// `Page.createIsolatedWorld`.
pub const PAGE_CREATE_ISOLATED_WORLD: &str = "Page.createIsolatedWorld";
/// `Page.enable`.
pub const PAGE_ENABLE: &str = "Page.enable";
/// `Page.getLayoutMetrics`.
pub const PAGE_GET_LAYOUT_METRICS: &str = "Page.getLayoutMetrics";
/// `Page.getNavigationHistory`.
pub const PAGE_GET_NAVIGATION_HISTORY: &str = "Page.getNavigationHistory";
/// `Page.navigate`.
pub const PAGE_NAVIGATE: &str = "Page.navigate";
/// `Page.screencastFrameAck`.
pub const PAGE_SCREENCAST_FRAME_ACK: &str = "Page.screencastFrameAck";
/// `Page.setInterceptFileChooserDialog`.
pub const PAGE_SET_INTERCEPT_FILE_CHOOSER_DIALOG: &str = "Page.setInterceptFileChooserDialog";
/// `Page.startScreencast`.
pub const PAGE_START_SCREENCAST: &str = "Page.startScreencast";
/// `Page.stopLoading`.
pub const PAGE_STOP_LOADING: &str = "Page.stopLoading";
/// `Page.stopScreencast`.
pub const PAGE_STOP_SCREENCAST: &str = "Page.stopScreencast";
/// `Runtime.callFunctionOn`.
pub const RUNTIME_CALL_FUNCTION_ON: &str = "Runtime.callFunctionOn";
/// `Runtime.enable`.
pub const RUNTIME_ENABLE: &str = "Runtime.enable";
/// `Runtime.evaluate`.
pub const RUNTIME_EVALUATE: &str = "Runtime.evaluate";
/// `Runtime.getProperties`.
pub const RUNTIME_GET_PROPERTIES: &str = "Runtime.getProperties";
/// `Runtime.releaseObject`.
pub const RUNTIME_RELEASE_OBJECT: &str = "Runtime.releaseObject";
/// `Runtime.releaseObjectGroup`.
pub const RUNTIME_RELEASE_OBJECT_GROUP: &str = "Runtime.releaseObjectGroup";
/// `Runtime.runIfWaitingForDebugger`.
pub const RUNTIME_RUN_IF_WAITING_FOR_DEBUGGER: &str = "Runtime.runIfWaitingForDebugger";
/// `Runtime.terminateExecution`.
pub const RUNTIME_TERMINATE_EXECUTION: &str = "Runtime.terminateExecution";
/// `Target.attachToTarget`.
pub const TARGET_ATTACH_TO_TARGET: &str = "Target.attachToTarget";
/// `Target.closeTarget`.
pub const TARGET_CLOSE_TARGET: &str = "Target.closeTarget";
/// `Target.createTarget`.
pub const TARGET_CREATE_TARGET: &str = "Target.createTarget";
/// `Target.getTargets`.
pub const TARGET_GET_TARGETS: &str = "Target.getTargets";
/// `Tracing.end`.
pub const TRACING_END: &str = "Tracing.end";
/// `Tracing.start`.
pub const TRACING_START: &str = "Tracing.start";

// --- events ---

/// `Browser.downloadProgress`.
pub const BROWSER_DOWNLOAD_PROGRESS: &str = "Browser.downloadProgress";
/// `Browser.downloadWillBegin`.
pub const BROWSER_DOWNLOAD_WILL_BEGIN: &str = "Browser.downloadWillBegin";
/// `Fetch.requestPaused`.
pub const FETCH_REQUEST_PAUSED: &str = "Fetch.requestPaused";
/// `Inspector.targetCrashed`.
pub const INSPECTOR_TARGET_CRASHED: &str = "Inspector.targetCrashed";
/// `Network.loadingFailed`.
pub const NETWORK_LOADING_FAILED: &str = "Network.loadingFailed";
/// `Network.loadingFinished`.
pub const NETWORK_LOADING_FINISHED: &str = "Network.loadingFinished";
/// `Network.requestWillBeSent`.
pub const NETWORK_REQUEST_WILL_BE_SENT: &str = "Network.requestWillBeSent";
/// `Network.responseReceived`.
pub const NETWORK_RESPONSE_RECEIVED: &str = "Network.responseReceived";
/// `Page.fileChooserOpened`.
pub const PAGE_FILE_CHOOSER_OPENED: &str = "Page.fileChooserOpened";
/// `Page.frameAttached`.
pub const PAGE_FRAME_ATTACHED: &str = "Page.frameAttached";
/// `Page.frameDetached`.
pub const PAGE_FRAME_DETACHED: &str = "Page.frameDetached";
/// `Page.frameNavigated`.
pub const PAGE_FRAME_NAVIGATED: &str = "Page.frameNavigated";
/// `Page.javascriptDialogClosed`.
pub const PAGE_JAVASCRIPT_DIALOG_CLOSED: &str = "Page.javascriptDialogClosed";
/// `Page.javascriptDialogOpening`.
pub const PAGE_JAVASCRIPT_DIALOG_OPENING: &str = "Page.javascriptDialogOpening";
/// `Page.loadEventFired`.
pub const PAGE_LOAD_EVENT_FIRED: &str = "Page.loadEventFired";
/// `Page.navigatedWithinDocument`.
pub const PAGE_NAVIGATED_WITHIN_DOCUMENT: &str = "Page.navigatedWithinDocument";
/// `Page.screencastFrame`.
pub const PAGE_SCREENCAST_FRAME: &str = "Page.screencastFrame";
/// `Runtime.consoleAPICalled`.
pub const RUNTIME_CONSOLE_API_CALLED: &str = "Runtime.consoleAPICalled";
/// `Runtime.exceptionThrown`.
pub const RUNTIME_EXCEPTION_THROWN: &str = "Runtime.exceptionThrown";
/// `Runtime.executionContextCreated`.
pub const RUNTIME_EXECUTION_CONTEXT_CREATED: &str = "Runtime.executionContextCreated";
/// `Runtime.executionContextDestroyed`.
pub const RUNTIME_EXECUTION_CONTEXT_DESTROYED: &str = "Runtime.executionContextDestroyed";
/// `Runtime.executionContextsCleared`.
pub const RUNTIME_EXECUTION_CONTEXTS_CLEARED: &str = "Runtime.executionContextsCleared";
/// `Target.attachedToTarget`.
pub const TARGET_ATTACHED_TO_TARGET: &str = "Target.attachedToTarget";
/// `Target.detachedFromTarget`.
pub const TARGET_DETACHED_FROM_TARGET: &str = "Target.detachedFromTarget";
/// `Target.targetCrashed`.
pub const TARGET_TARGET_CRASHED: &str = "Target.targetCrashed";
/// `Target.targetCreated`.
pub const TARGET_TARGET_CREATED: &str = "Target.targetCreated";
/// `Target.targetDestroyed`.
pub const TARGET_TARGET_DESTROYED: &str = "Target.targetDestroyed";
/// `Target.targetInfoChanged`.
pub const TARGET_TARGET_INFO_CHANGED: &str = "Target.targetInfoChanged";
/// `Tracing.dataCollected`.
pub const TRACING_DATA_COLLECTED: &str = "Tracing.dataCollected";
/// `Tracing.tracingComplete`.
pub const TRACING_TRACING_COMPLETE: &str = "Tracing.tracingComplete";

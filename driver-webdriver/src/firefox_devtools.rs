//! The DevTools commands the tool pack sends for its optional groups
//! (cookies and saved state, uploads, PDFs, a drag, an element's picture,
//! emulation, a response's body), answered over WebDriver BiDi where BiDi
//! has the words, in the shape DevTools answers them; any other command is
//! unsupported, as Firefox speaks no DevTools.
//!
//! Coordinates are the current tab's, as DevTools takes them; a node id
//! (`DOM.querySelector`, a caught file chooser's field) stands for a BiDi
//! shared reference the session keeps until the next document query.

use driver_core::{Capability, DriverError, Result};
use serde_json::{json, Value};

use crate::firefox_session::{FxSession, SANDBOX};

/// The commands answered here.
pub(crate) const IN_BIDI: &[&str] = &[
    "Network.getResponseBody",
    "Network.getAllCookies",
    "Network.setCookies",
    "Page.printToPDF",
    "Page.captureScreenshot",
    "Input.dispatchMouseEvent",
    "DOM.getDocument",
    "DOM.querySelector",
    "DOM.setFileInputFiles",
    "Emulation.setDeviceMetricsOverride",
    "Emulation.clearDeviceMetricsOverride",
    "Emulation.setUserAgentOverride",
    "Emulation.setTimezoneOverride",
    "Emulation.setLocaleOverride",
    "Emulation.setGeolocationOverride",
    "Emulation.setTouchEmulationEnabled",
    "Browser.grantPermissions",
];

/// The emulation overrides of one value, for the current tab: the
/// DevTools command, BiDi's, and the value's name in each.
const OVERRIDES: &[(&str, &str, &str, &str)] = &[
    (
        "Emulation.setUserAgentOverride",
        "emulation.setUserAgentOverride",
        "userAgent",
        "userAgent",
    ),
    (
        "Emulation.setTimezoneOverride",
        "emulation.setTimezoneOverride",
        "timezoneId",
        "timezone",
    ),
    (
        "Emulation.setLocaleOverride",
        "emulation.setLocaleOverride",
        "locale",
        "locale",
    ),
];

/// Why a command has no BiDi word.
const NO_WORD: &str = "WebDriver BiDi has no word for it (Firefox speaks no DevTools)";

impl FxSession {
    /// `method` with `params`, as DevTools would answer it (see the module
    /// docs).
    pub(crate) async fn as_devtools(&mut self, method: &str, params: Value) -> Result<Value> {
        let context = self.current.clone();
        let contexts = json!([context]);
        if let Some((_, command, from, to)) =
            OVERRIDES.iter().find(|(devtools, ..)| *devtools == method)
        {
            let mut asked = json!({ "contexts": contexts });
            asked[*to] = params[*from].clone();
            return self.call(command, asked).await;
        }
        match method {
            "Network.getAllCookies" => {
                let answer = self.call("storage.getCookies", json!({})).await?;
                let cookies: Vec<Value> = answer["cookies"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(cookie_as_devtools)
                    .collect();
                Ok(json!({ "cookies": cookies }))
            }
            "Network.setCookies" => {
                for cookie in params["cookies"].as_array().into_iter().flatten() {
                    self.call(
                        "storage.setCookie",
                        json!({ "cookie": cookie_as_bidi(cookie) }),
                    )
                    .await?;
                }
                Ok(json!({}))
            }
            "Network.getResponseBody" => {
                let answer = self
                    .call(
                        "network.getData",
                        json!({ "dataType": "response", "request": params["requestId"] }),
                    )
                    .await?;
                let bytes = &answer["bytes"];
                Ok(json!({ "body": bytes["value"].as_str().unwrap_or_default(),
                           "base64Encoded": bytes["type"] == "base64" }))
            }
            "Page.printToPDF" => {
                self.call(
                    "browsingContext.print",
                    json!({ "context": context,
                            "background": params["printBackground"].as_bool().unwrap_or(false) }),
                )
                .await
            }
            "Page.captureScreenshot" => {
                let clip = &params["clip"];
                let mut format = json!({ "type": format!("image/{}", params["format"].as_str().unwrap_or("png")) });
                if let Some(quality) = params["quality"].as_f64() {
                    format["quality"] = json!(quality / 100.0);
                }
                let mut asked =
                    json!({ "context": context, "origin": "document", "format": format });
                if clip.is_object() {
                    asked["clip"] = json!({ "type": "box", "x": clip["x"], "y": clip["y"],
                                            "width": clip["width"], "height": clip["height"] });
                }
                self.call("browsingContext.captureScreenshot", asked).await
            }
            "Input.dispatchMouseEvent" => self.mouse_event(&params).await,
            "DOM.getDocument" => {
                self.nodes.clear();
                Ok(json!({ "root": { "nodeId": 0 } }))
            }
            "DOM.querySelector" => {
                let selector = params["selector"].as_str().unwrap_or_default();
                let answer = self
                    .call(
                        "script.evaluate",
                        json!({ "expression": format!("document.querySelector({})", json!(selector)),
                                "target": { "context": context, "sandbox": SANDBOX },
                                "awaitPromise": false }),
                    )
                    .await?;
                let Some(shared) = answer["result"]["sharedId"].as_str() else {
                    return Ok(json!({ "nodeId": 0 }));
                };
                Ok(json!({ "nodeId": self.node_id(&context, shared) }))
            }
            "DOM.setFileInputFiles" => {
                let (context, node) = params["nodeId"]
                    .as_i64()
                    .or(params["backendNodeId"].as_i64())
                    .and_then(|id| usize::try_from(id).ok())
                    .and_then(|id| id.checked_sub(1))
                    .and_then(|index| self.nodes.get(index))
                    .cloned()
                    .ok_or_else(|| {
                        DriverError::InvalidArgument(
                            "the file field is no longer known; find it again".to_owned(),
                        )
                    })?;
                // Files here reach a browser elsewhere through its end.
                let params = match self.firefox.remote() {
                    Some(remote) => remote.files_there(params).await?,
                    None => params,
                };
                self.call(
                    "input.setFiles",
                    json!({ "context": context, "element": { "sharedId": node },
                            "files": params["files"] }),
                )
                .await
            }
            "Emulation.setDeviceMetricsOverride" => {
                let size = json!({ "width": params["width"], "height": params["height"] });
                self.metrics(size, params["deviceScaleFactor"].clone())
                    .await
            }
            // (The viewport is set again by whoever clears the metrics.)
            "Emulation.clearDeviceMetricsOverride" => self.metrics(Value::Null, Value::Null).await,
            "Emulation.setGeolocationOverride" => {
                self.call(
                    "emulation.setGeolocationOverride",
                    json!({ "coordinates": { "latitude": params["latitude"],
                                             "longitude": params["longitude"],
                                             "accuracy": params["accuracy"] },
                            "contexts": contexts }),
                )
                .await
            }
            "Browser.grantPermissions" => {
                let origin = params["origin"].as_str().map(str::to_owned);
                let origin = match origin {
                    Some(origin) => origin,
                    None => self
                        .evaluate(&context, true, "location.origin")
                        .await?
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                };
                for name in params["permissions"].as_array().into_iter().flatten() {
                    self.call(
                        "permissions.setPermission",
                        json!({ "descriptor": { "name": name }, "state": "granted",
                                "origin": origin }),
                    )
                    .await?;
                }
                Ok(json!({}))
            }
            "Emulation.setTouchEmulationEnabled" if params["enabled"] == false => Ok(json!({})),
            "Emulation.setTouchEmulationEnabled" => Err(Self::unsupported(
                Capability::DevTools,
                "Firefox's WebDriver BiDi cannot emulate a touch screen",
            )),
            _ => Err(Self::unsupported(Capability::DevTools, NO_WORD)),
        }
    }

    /// The current tab's viewport and screen `size` and its pixel `ratio`
    /// (both null: as the browser has them), as DevTools' device metrics.
    async fn metrics(&mut self, size: Value, ratio: Value) -> Result<Value> {
        let context = self.current.clone();
        let mut viewport = json!({ "context": context, "devicePixelRatio": ratio });
        if !size.is_null() {
            viewport["viewport"] = size.clone();
        }
        self.call("browsingContext.setViewport", viewport).await?;
        self.call(
            "emulation.setScreenSettingsOverride",
            json!({ "screenArea": size, "contexts": [context] }),
        )
        .await
    }

    /// The DevTools node id that stands for the node `shared` of `context`.
    pub(crate) fn node_id(&mut self, context: &str, shared: &str) -> i64 {
        self.nodes.push((context.to_owned(), shared.to_owned()));
        i64::try_from(self.nodes.len()).unwrap_or(i64::MAX)
    }

    /// A DevTools mouse event as a BiDi pointer action of the current
    /// tab's: the button stays down between a press and a release (BiDi
    /// keeps the input state between calls), and a release lets every
    /// input go.
    async fn mouse_event(&mut self, params: &Value) -> Result<Value> {
        let (x, y) = (
            params["x"].as_f64().unwrap_or(0.0),
            params["y"].as_f64().unwrap_or(0.0),
        );
        let button = match params["button"].as_str() {
            Some("middle") => 1,
            Some("right") => 2,
            _ => 0,
        };
        let then = match params["type"].as_str() {
            Some("mousePressed") => vec![json!({ "type": "pointerDown", "button": button })],
            Some("mouseReleased") => vec![json!({ "type": "pointerUp", "button": button })],
            _ => Vec::new(),
        };
        let context = self.current.clone();
        self.call(
            "input.performActions",
            json!({ "context": context, "actions": [crate::actions::mouse(x, y, &then)] }),
        )
        .await?;
        if params["type"] == "mouseReleased" {
            self.call("input.releaseActions", json!({ "context": context }))
                .await?;
        }
        Ok(json!({}))
    }
}

/// A BiDi cookie as DevTools describes one.
fn cookie_as_devtools(cookie: &Value) -> Value {
    let value = match cookie["value"]["type"].as_str() {
        Some("base64") => cookie["value"]["value"]
            .as_str()
            .and_then(|data| {
                base64::Engine::decode(&base64::engine::general_purpose::STANDARD, data).ok()
            })
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_default(),
        _ => cookie["value"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    };
    let same_site = match cookie["sameSite"].as_str() {
        Some("strict") => json!("Strict"),
        Some("lax") => json!("Lax"),
        Some("none") => json!("None"),
        _ => Value::Null,
    };
    let mut described = json!({
        "name": cookie["name"], "value": value, "domain": cookie["domain"],
        "path": cookie["path"], "size": cookie["size"], "httpOnly": cookie["httpOnly"],
        "secure": cookie["secure"], "session": cookie["expiry"].is_null(),
        "expires": cookie["expiry"].as_f64().unwrap_or(-1.0),
    });
    if !same_site.is_null() {
        described["sameSite"] = same_site;
    }
    described
}

/// A DevTools cookie (as `Network.setCookies` takes one) as BiDi's
/// `storage.setCookie` takes it.
fn cookie_as_bidi(cookie: &Value) -> Value {
    let mut made = json!({
        "name": cookie["name"],
        "value": { "type": "string", "value": cookie["value"].as_str().unwrap_or_default() },
        "domain": cookie["domain"].as_str().map(|domain| domain.trim_start_matches('.')),
    });
    for (from, to) in [
        ("path", "path"),
        ("httpOnly", "httpOnly"),
        ("secure", "secure"),
    ] {
        if !cookie[from].is_null() {
            made[to] = cookie[from].clone();
        }
    }
    if let Some(same_site) = cookie["sameSite"].as_str() {
        made["sameSite"] = json!(same_site.to_ascii_lowercase());
    }
    if let Some(expires) = cookie["expires"].as_f64().filter(|expires| *expires > 0.0) {
        made["expiry"] = json!(expires as u64);
    }
    made
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_override_is_listed() {
        for (devtools, ..) in OVERRIDES {
            assert!(IN_BIDI.contains(devtools), "{devtools}");
        }
    }

    #[test]
    fn cookies_go_both_ways() {
        let bidi = json!({ "name": "sid", "value": { "type": "string", "value": "abc" },
                           "domain": "shop.example", "path": "/", "size": 6, "httpOnly": true,
                           "secure": true, "sameSite": "lax", "expiry": 1_900_000_000u64 });
        let devtools = cookie_as_devtools(&bidi);
        assert_eq!(devtools["value"], "abc");
        assert_eq!(devtools["sameSite"], "Lax");
        assert_eq!(devtools["session"], false);
        let back = cookie_as_bidi(&devtools);
        assert_eq!(back["value"]["value"], "abc");
        assert_eq!(back["sameSite"], "lax");
        assert_eq!(back["expiry"], 1_900_000_000u64);
        assert_eq!(back["httpOnly"], true);
    }
}

//! The emulation group: `emulate` makes the current tab look like another
//! device (its viewport, pixel ratio, touch, user agent), place, time zone
//! or language, through DevTools commands both backends carry.

use driver_core::{Driver, DriverError, Viewport};
use serde_json::json;

use crate::arguments;
use crate::browser::Browser;
use crate::error::ToolError;
use crate::options::Group;
use crate::output::{Outcome, ToolOutput};
use crate::page_values::PageAnswers;
use crate::state::State;
use crate::tool::{takes, Hints, Returns, Tool};

/// The emulation group. The handlers are below; `table` says what each field
/// means.
pub(crate) static TOOLS: &[Tool] = &[
    Tool {
        group: Group::Emulation,
        hints: Hints { idempotent: true, ..Hints::LOCAL },
        returns: Returns::Itself,
        example: r#"`{"device": "iPhone 15"}`, `{"width": 800, "timezone": "Asia/Tokyo", "locale": "fr-FR"}`"#,
        ..Tool::action(
            "emulate",
            "Emulate a device",
            "Look like a phone or tablet, or set the viewport, touch, place, time zone or language; reload to see the page's layout for it.",
            takes!(browser EmulateArgs => emulate),
        )
    },
];

/// A device `emulate` knows by name.
struct Device {
    name: &'static str,
    width: u32,
    height: u32,
    scale: f64,
    mobile: bool,
    user_agent: &'static str,
}

/// The named devices: a current phone of each kind and a tablet. "Desktop"
/// (the browser's own window again) is not one of them: it undoes them.
const DEVICES: &[Device] = &[
    Device {
        name: "iPhone 15",
        width: 393,
        height: 852,
        scale: 3.0,
        mobile: true,
        user_agent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
    },
    Device {
        name: "Pixel 7",
        width: 412,
        height: 915,
        scale: 2.625,
        mobile: true,
        user_agent: "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36",
    },
    Device {
        name: "iPad",
        width: 820,
        height: 1180,
        scale: 2.0,
        mobile: true,
        user_agent: "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
    },
];

impl Browser {
    // (Over 100 lines: one arm per thing emulated (device, locale, time zone, place, agent), each its checks and its commands.)
    pub(crate) async fn emulate(&self, state: &mut State, args: arguments::EmulateArgs) -> Outcome {
        let mut said = Vec::new();
        let device = match args.device.as_deref().map(str::trim) {
            None => None,
            Some(name) if name.eq_ignore_ascii_case("desktop") => {
                self.driver.devtools_answer("Emulation.clearDeviceMetricsOverride", json!({})).await?;
                let options = self.driver.options();
                self.driver
                    .set_viewport(Viewport { width: options.width, height: options.height })
                    .await?;
                self.touch(false).await?;
                if let Some(agent) = state.user_agent.take() {
                    self.driver.devtools_answer("Emulation.setUserAgentOverride", json!({ "userAgent": agent })).await?;
                }
                said.push(format!("a desktop window of {}×{}", options.width, options.height));
                None
            }
            Some(name) => Some(
                DEVICES
                    .iter()
                    .find(|device| device.name.eq_ignore_ascii_case(name) || squash(device.name) == squash(name))
                    .ok_or_else(|| {
                        ToolError::bad(
                            "emulate",
                            format!(
                                "there is no device {name:?}; the devices: {}, Desktop (or give width and height)",
                                DEVICES.iter().map(|d| d.name).collect::<Vec<_>>().join(", ")
                            ),
                        )
                    })?,
            ),
        };
        let width = args.width.or(device.map(|d| d.width));
        let height = args.height.or(device.map(|d| d.height));
        let mobile = args.mobile.or(device.map(|d| d.mobile));
        let touch = args.touch.or(device.map(|d| d.mobile));
        if width.is_some() != height.is_some() {
            return Err(ToolError::bad("emulate", "give width and height together"));
        }
        if let (Some(width), Some(height)) = (width, height) {
            Viewport { width, height }.check()?;
            let scale = device.map_or(1.0, |d| d.scale);
            let mobile = mobile.unwrap_or(false);
            self.driver
                .devtools_answer(
                    "Emulation.setDeviceMetricsOverride",
                    json!({ "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile }),
                )
                .await?;
            said.push(match device {
                Some(device) => format!("a {} ({width}×{height}, touch)", device.name),
                None => format!(
                    "a {width}×{height} {} viewport",
                    if mobile { "mobile" } else { "desktop" }
                ),
            });
        } else if mobile.is_some() {
            return Err(ToolError::bad(
                "emulate",
                "mobile needs a size: give a device, or width and height",
            ));
        }
        if let Some(device) = device {
            if state.user_agent.is_none() {
                let agent = self.driver.own_world(&[], "navigator.userAgent").await?;
                state.user_agent = agent.text();
            }
            self.driver
                .devtools_answer(
                    "Emulation.setUserAgentOverride",
                    json!({ "userAgent": device.user_agent }),
                )
                .await?;
        }
        if let Some(touch) = touch {
            match self.touch(touch).await? {
                Some(reason) => {
                    // The rest still holds: said without the touch screen.
                    for part in &mut said {
                        *part = part.replace(", touch)", ")");
                    }
                    said.push(format!("no touch screen ({reason})"));
                }
                None if args.touch.is_some() => said.push(if touch {
                    "touch input".to_owned()
                } else {
                    "mouse input".to_owned()
                }),
                None => {}
            }
        }
        if let Some(place) = args.geolocation {
            if !(-90.0..=90.0).contains(&place.latitude)
                || !(-180.0..=180.0).contains(&place.longitude)
            {
                return Err(ToolError::bad(
                    "emulate",
                    "latitude must be from -90 to 90 and longitude from -180 to 180",
                ));
            }
            // The page may read the place without asking a person who is
            // not there.
            let origin = self.driver.own_world(&[], "location.origin").await?;
            let mut grant = json!({ "permissions": ["geolocation"] });
            #[allow(clippy::disallowed_methods)] // handed back to the browser
            if let Some(origin) = origin
                .untrusted()
                .as_str()
                .filter(|origin| origin.starts_with("http"))
            {
                grant["origin"] = json!(origin);
            }
            self.driver
                .devtools_answer("Browser.grantPermissions", grant)
                .await?;
            self.driver
                .devtools_answer(
                    "Emulation.setGeolocationOverride",
                    json!({ "latitude": place.latitude, "longitude": place.longitude, "accuracy": 10 }),
                )
                .await?;
            said.push(format!(
                "the location {:.4}, {:.4}",
                place.latitude, place.longitude
            ));
        }
        // Chrome takes a time zone or a language it does not know, and
        // falls back silently: the page's own Intl says which it knows.
        if let Some(zone) = args.timezone.as_deref().map(str::trim) {
            self.known(
                "timezone",
                zone,
                &format!("new Intl.DateTimeFormat('en', {{ timeZone: {zone:?} }}) && true"),
            )
            .await?;
        }
        if let Some(locale) = args.locale.as_deref().map(str::trim) {
            self.known(
                "locale",
                locale,
                &format!("Intl.getCanonicalLocales({locale:?}).length === 1"),
            )
            .await?;
        }
        if let Some(zone) = args.timezone.as_deref().map(str::trim) {
            self.driver
                .devtools_answer(
                    "Emulation.setTimezoneOverride",
                    json!({ "timezoneId": zone }),
                )
                .await
                .map_err(|error| refused("timezone", zone, error))?;
            said.push(format!("the time zone {zone}"));
        }
        if let Some(locale) = args.locale.as_deref().map(str::trim) {
            self.driver
                .devtools_answer("Emulation.setLocaleOverride", json!({ "locale": locale }))
                .await
                .map_err(|error| refused("locale", locale, error))?;
            said.push(format!("the language {locale}"));
        }
        if said.is_empty() {
            return Err(ToolError::bad(
                "emulate",
                "say what to emulate: a device, width and height, touch, geolocation, timezone or locale",
            ));
        }
        let laid_out = args.device.is_some() || args.width.is_some() || args.mobile.is_some();
        Ok(ToolOutput::text(format!(
            "This tab now emulates {}.{}",
            said.join(", "),
            if laid_out {
                " Reload the page (or open one) to see it laid out for that."
            } else {
                ""
            }
        )))
    }

    /// Whether the browser's Intl knows a time zone or a locale (`check`
    /// throws, or is false, when not).
    async fn known(&self, what: &str, value: &str, check: &str) -> Result<(), ToolError> {
        let checked = self
            .driver
            .own_world(
                &[],
                &format!("(() => {{ try {{ return {check}; }} catch {{ return false; }} }})()"),
            )
            .await?;
        if checked == true {
            Ok(())
        } else {
            Err(ToolError::bad(
                "emulate",
                format!("{value:?} is not a {what} the browser knows (e.g. Europe/Paris, fr-FR)"),
            ))
        }
    }

    /// Turns touch input on or off: `Some(why)` where the browser cannot
    /// emulate a touch screen.
    async fn touch(&self, on: bool) -> Result<Option<String>, ToolError> {
        match self
            .driver
            .devtools_answer(
                "Emulation.setTouchEmulationEnabled",
                json!({ "enabled": on, "maxTouchPoints": if on { 5 } else { 1 } }),
            )
            .await
        {
            Ok(_) => Ok(None),
            Err(DriverError::Unsupported { reason, .. }) if on => Ok(Some(reason.to_owned())),
            Err(error) => Err(error.into()),
        }
    }
}

/// A protocol refusal of a time zone or locale, said as the model's mistake.
fn refused(what: &str, value: &str, error: DriverError) -> ToolError {
    match error {
        DriverError::Protocol(_) => ToolError::bad(
            "emulate",
            format!("{value:?} is not a {what} the browser knows (e.g. Europe/Paris, fr-FR)"),
        ),
        other => other.into(),
    }
}

/// A device name without spaces or case: "iphone15".
fn squash(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

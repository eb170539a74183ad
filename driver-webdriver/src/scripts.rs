//! Running scripts in the page: expressions and statements with promises
//! awaited (as CDP's `Runtime.evaluate` does), in the top frame or a frame
//! by path.

use serde_json::{json, Value};

use driver_core::{DriverError, Result, TabId};

use crate::errors::sort;
use crate::session::WdSession;

impl WdSession {
    /// Evaluates an expression (or, if it is not one, statements) with
    /// promises awaited, as the CDP backend's `Runtime.evaluate` does.
    pub(crate) async fn eval(&mut self, expression: &str) -> Result<Value> {
        let as_expression = format!("async () => (\n{expression}\n)");
        let answer = match self.run_async(&as_expression).await {
            // Statements (`throw …`, `while …`) are not an expression.
            Err(DriverError::Script { message }) if message.untrusted().contains("SyntaxError") => {
                self.run_async(&format!("async () => {{\n{expression}\n}}"))
                    .await
            }
            other => other,
        };
        self.unless_tab_gone(answer).await
    }

    /// Evaluates in the frame at `path` (`window.frames` indices), then
    /// returns to the top frame whatever happened.
    pub(crate) async fn eval_in_frame(&mut self, path: &[u32], expression: &str) -> Result<Value> {
        if path.is_empty() {
            return self.eval(expression).await;
        }
        self.focus_current().await?;
        let mut entered = Ok(());
        for index in path {
            let index = u16::try_from(*index).unwrap_or(u16::MAX);
            if let Err(error) = self.client.clone().enter_frame(index).await {
                entered = Err(DriverError::FrameUnreachable {
                    path: format!("{path:?}"),
                    reason: sort(error).to_string(),
                });
                break;
            }
        }
        let result = match entered {
            Ok(()) => {
                let as_expression = format!("async () => (\n{expression}\n)");
                self.run_async(&as_expression).await
            }
            Err(error) => Err(error),
        };
        self.raw(http::Method::POST, "frame", Some(json!({ "id": null })))
            .await?;
        result
    }

    /// Evaluates in tabwright's own world of the frame at `path`, over the
    /// browser's DevTools socket; where the session has none, in the
    /// page's world (the capability says so).
    pub(crate) async fn eval_isolated(&mut self, path: &[u32], expression: &str) -> Result<Value> {
        let Some(relay) = &self.relay else {
            return self.eval_in_frame(path, expression).await;
        };
        let answer = relay.eval_isolated(&self.current, path, expression).await;
        self.unless_tab_gone(answer).await
    }

    pub(crate) async fn current_tab(&mut self) -> Result<TabId> {
        self.focus_current().await?;
        Ok(TabId(self.current.clone()))
    }

    /// Executes an asynchronous script. chromedriver answers "script
    /// timeout" at once when the document unloads under the script (a
    /// navigation), and geckodriver a JavaScript error saying so; both are
    /// told apart from a real timeout, which comes only at the limit.
    pub(crate) async fn execute_async(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        let started = std::time::Instant::now();
        let answer = self.client.execute_async(script, args).await;
        answer.map_err(|error| match sort(error) {
            DriverError::Timeout { .. } if started.elapsed() < self.script_limit / 2 => {
                DriverError::DocumentReplaced
            }
            DriverError::Script { message } if message.untrusted().contains("unloaded") => {
                DriverError::DocumentReplaced
            }
            other => other,
        })
    }

    pub(crate) async fn run_async(&self, function: &str) -> Result<Value> {
        let script = format!(
            "const done = arguments[arguments.length - 1];\n\
             Promise.resolve().then({function}).then(\n\
               (value) => done({{ value: value === undefined ? null : value }}),\n\
               (error) => done({{ error: (error && error.stack && String(error.stack).split('\\n')[0]) || String(error) }}));"
        );
        let answer = self.execute_async(&script, vec![]).await?;
        match answer.get("error").and_then(Value::as_str) {
            Some(message) => Err(DriverError::Script {
                message: message.into(),
            }),
            None => Ok(answer.get("value").cloned().unwrap_or(Value::Null)),
        }
    }
}

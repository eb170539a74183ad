//! A [`Handover`] over the DevTools layer, the same for both backends (the
//! CDP backend's connection, the WebDriver backend's relay).
//!
//! The page's world lists the elements; each is described by DevTools
//! (`DOM.describeNode`: its node, and a closed shadow root like any other),
//! resolved into tabwright's world (`DOM.resolveNode` with that world's
//! context), and, if asked, looked up in Chromium's accessibility tree
//! (`Accessibility.getPartialAXTree` of that node alone), and its
//! pseudo-elements' words (`Accessibility.queryAXTree` of the text under
//! each pseudo-element `DOM.describeNode` lists); then one call in
//! tabwright's world gives `receive` all of it. The objects made on the
//! way are released as one group, whatever happened.

use futures::future::join_all;
use serde_json::{json, Value};

use super::devtools::{frames, names, DevToolsSocket, FoundFrame, TargetsLock, World};
use crate::{Accessible, DriverError, Generated, Handover, Result, HANDED_AT_MOST};

/// The object group every object a handover makes belongs to.
const GROUP: &str = "tabwright-handover";

/// Hands over what `handover` asks, in the tab whose DevTools session is
/// `tab.0` and whose target is `tab.1`: `receive`'s value.
pub async fn hand_over(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    (tab, target): (&str, &str),
    handover: &Handover,
) -> Result<Value> {
    let path = &handover.frame;
    let frame = if path.is_empty() {
        FoundFrame {
            session: tab.to_owned(),
            frame: target.to_owned(),
        }
    } else {
        frames::frame_at(socket, targets, tab, target, path).await?
    };
    let (session, page) = frames::world_in(socket, targets, &frame, World::Page, path).await?;
    frames::world_in(socket, targets, &frame, World::Isolated, path).await?;
    let own = targets
        .with_targets(|targets| {
            targets
                .context(&session, &frame.frame, World::Isolated)
                .map(|context| context.id)
        })
        .ok_or_else(|| DriverError::FrameUnreachable {
            path: format!("{path:?}"),
            reason: "tabwright's world in it went away".to_owned(),
        })?;
    let handed = handed(socket, &session, (&page, own), handover).await;
    let _ = socket
        .send(
            Some(&session),
            names::RUNTIME_RELEASE_OBJECT_GROUP,
            json!({ "objectGroup": GROUP }),
        )
        .await;
    handed
}

/// The handover itself, in the document whose session is `session`: the
/// page's world by unique id (`worlds.0`), tabwright's by context id.
async fn handed(
    socket: &DevToolsSocket,
    session: &str,
    (page, own): (&str, i64),
    handover: &Handover,
) -> Result<Value> {
    let on = Some(session);
    let listed = socket
        .call(
            on,
            names::RUNTIME_EVALUATE,
            json!({ "expression": handover.elements, "uniqueContextId": page,
                    "objectGroup": GROUP, "returnByValue": false }),
        )
        .await?;
    // A list the page's world could not make (its script broke the
    // expression) lists no one.
    let array = match listed.get("exceptionDetails") {
        Some(_) => None,
        None => listed["result"]["objectId"].as_str(),
    };
    let mut elements: Vec<(usize, String)> = Vec::new();
    if let Some(array) = array {
        let properties = socket
            .call(
                on,
                names::RUNTIME_GET_PROPERTIES,
                json!({ "objectId": array, "ownProperties": true }),
            )
            .await?;
        for property in properties["result"].as_array().into_iter().flatten() {
            let index = property["name"].as_str().and_then(|name| name.parse().ok());
            let object = property["value"]["objectId"].as_str();
            if let (Some(index), Some(object), Some("node")) =
                (index, object, property["value"]["subtype"].as_str())
            {
                elements.push((index, object.to_owned()));
            }
        }
    }
    elements.sort();
    elements.truncate(HANDED_AT_MOST);
    let found = join_all(
        elements
            .iter()
            .map(|(_, object)| one(socket, session, own, object, handover)),
    )
    .await;
    let mut facts = Vec::new();
    let mut arguments = vec![Value::Null];
    for (host, root, accessible) in found.into_iter().flatten() {
        facts.push(accessible.map_or(Value::Null, |node| json!(node)));
        arguments.push(json!({ "objectId": host }));
        arguments.push(root.map_or_else(|| json!({}), |root| json!({ "objectId": root })));
    }
    arguments[0] = json!({ "value": facts });
    let answer = socket
        .call(
            on,
            names::RUNTIME_CALL_FUNCTION_ON,
            json!({ "functionDeclaration": handover.receive, "executionContextId": own,
                    "arguments": arguments, "returnByValue": true, "objectGroup": GROUP }),
        )
        .await?;
    crate::backend::devtools::evaluated(&answer)
}

/// One element (by its object in the page's world): its object in
/// tabwright's world (context `own`), its closed shadow root's there, and
/// its accessibility node and pseudo-elements' words as `handover` asks;
/// `None` if it went away.
async fn one(
    socket: &DevToolsSocket,
    session: &str,
    own: i64,
    object: &str,
    handover: &Handover,
) -> Option<(String, Option<String>, Option<Accessible>)> {
    let on = Some(session);
    let node = socket
        .call(
            on,
            names::DOM_DESCRIBE_NODE,
            json!({ "objectId": object, "depth": 0 }),
        )
        .await
        .ok()?;
    let node = &node["node"];
    let backend = node["backendNodeId"].as_i64()?;
    let closed = node["shadowRoots"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|root| root["shadowRootType"] == "closed")
        .and_then(|root| root["backendNodeId"].as_i64());
    let resolve = |backend: i64| async move {
        let resolved = socket
            .call(
                on,
                names::DOM_RESOLVE_NODE,
                json!({ "backendNodeId": backend, "executionContextId": own,
                        "objectGroup": GROUP }),
            )
            .await
            .ok()?;
        resolved["object"]["objectId"].as_str().map(str::to_owned)
    };
    let pseudo: Vec<(String, i64)> = node["pseudoElements"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|pseudo| {
            Some((
                pseudo["pseudoType"].as_str()?.to_owned(),
                pseudo["backendNodeId"].as_i64()?,
            ))
        })
        .collect();
    let read = async {
        if !handover.accessible {
            return None;
        }
        let tree = socket
            .call(
                on,
                names::ACCESSIBILITY_GET_PARTIAL_AX_TREE,
                json!({ "backendNodeId": backend, "fetchRelatives": false }),
            )
            .await
            .ok()?;
        let nodes = tree["nodes"].as_array()?;
        let node = nodes
            .iter()
            .find(|node| node["backendDOMNodeId"].as_i64() == Some(backend))
            .or_else(|| nodes.first())?;
        Some(accessible_of(node))
    };
    let root = async {
        match closed {
            Some(root) => resolve(root).await,
            None => None,
        }
    };
    let words = async {
        if !handover.generated {
            return None;
        }
        Some(generated(socket, session, &pseudo).await)
    };
    let (host, root, facts, words) = tokio::join!(resolve(backend), root, read, words);
    let facts = match (facts, words) {
        (facts, None) => facts,
        (facts, generated) => Some(Accessible {
            generated,
            ..facts.unwrap_or_default()
        }),
    };
    Some((host?, root, facts))
}

/// The words of an element's pseudo-elements (each by its kind and its
/// DevTools node), as the accessibility tree holds them.
async fn generated(socket: &DevToolsSocket, session: &str, pseudo: &[(String, i64)]) -> Generated {
    let words = join_all(pseudo.iter().map(|(kind, backend)| async move {
        let found = socket
            .call(
                Some(session),
                names::ACCESSIBILITY_QUERY_AX_TREE,
                json!({ "backendNodeId": backend, "role": "StaticText" }),
            )
            .await
            .ok()?;
        let text: String = found["nodes"]
            .as_array()?
            .iter()
            // (Under a marker the text is left out of the tree, the marker
            // standing for it: it is still what is drawn.)
            .filter_map(|node| node["name"]["value"].as_str())
            .collect();
        Some((kind.as_str(), text))
    }))
    .await;
    let mut generated = Generated::default();
    for (kind, text) in words.into_iter().flatten() {
        match kind {
            "marker" => generated.marker = text,
            "before" => generated.before = text,
            "after" => generated.after = text,
            _ => {}
        }
    }
    generated
}

/// What an accessibility node (`Accessibility.AXNode`) says, as a
/// handover gives it.
fn accessible_of(node: &Value) -> Accessible {
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    // The source the name came from: the first with a value that nothing
    // superseded.
    let from = node["name"]["sources"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|source| source.get("value").is_some() && source["superseded"] != true)
        .map(|source| text(&source["type"]))
        .unwrap_or_default();
    let mut states: serde_json::Map<String, Value> = node["properties"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|property| {
            Some((
                property["name"].as_str()?.to_owned(),
                property["value"].get("value")?.clone(),
            ))
        })
        .collect();
    // Where a range stands (a slider's number) is the node's value, not a
    // property: kept as the attribute that would say it.
    if let Some(now) = node["value"].get("value").filter(|now| now.is_number()) {
        states.insert("valuenow".into(), now.clone());
    }
    Accessible {
        role: text(&node["role"]["value"]),
        name: text(&node["name"]["value"]),
        from,
        ignored: node["ignored"] == true,
        states,
        generated: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_read_as_chromium_gives_it() {
        let node = json!({
            "nodeId": "10", "ignored": false,
            "role": { "type": "role", "value": "option" },
            "name": { "type": "computedString", "value": "Apple pie", "sources": [
                { "type": "relatedElement", "attribute": "aria-labelledby" },
                { "type": "attribute", "attribute": "aria-label",
                  "value": { "type": "computedString", "value": "Apple pie" } },
                { "type": "contents", "superseded": true,
                  "value": { "type": "computedString", "value": "pie" } },
            ] },
            "properties": [
                { "name": "focusable", "value": { "type": "booleanOrUndefined", "value": true } },
                { "name": "selected", "value": { "type": "booleanOrUndefined", "value": true } },
                { "name": "checked", "value": { "type": "tristate", "value": "mixed" } },
            ],
        });
        let read = accessible_of(&node);
        assert_eq!(read.role, "option");
        assert_eq!(read.name, "Apple pie");
        assert_eq!(read.from, "attribute");
        assert!(!read.ignored);
        assert_eq!(read.states["selected"], json!(true));
        assert_eq!(read.states["checked"], json!("mixed"));
        assert!(!read.states.contains_key("valuenow"));
    }

    #[test]
    fn a_range_keeps_where_it_stands() {
        let node = json!({
            "nodeId": "11", "ignored": false,
            "role": { "type": "role", "value": "slider" },
            "name": { "type": "computedString", "value": "Volume" },
            "value": { "type": "number", "value": 40 },
            "properties": [
                { "name": "valuetext", "value": { "type": "string", "value": "forty" } },
            ],
        });
        let read = accessible_of(&node);
        assert_eq!(read.states["valuenow"], json!(40));
        assert_eq!(read.states["valuetext"], json!("forty"));
    }
}

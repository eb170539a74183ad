//! JSON Schemas a model is shown, made from the argument types
//! (`arguments`) by `schemars` and trimmed to what every consumer accepts,
//! and the adaptations each model API wants.
//!
//! The schemas are draft 2020-12, self-contained (subschemas inlined: some
//! function-calling APIs reject `$ref`) and lean: no `$schema`, no titles,
//! no type docs, no `format` (schemars writes Rust's `uint32` and `double`,
//! which are no JSON Schema formats and which strict validators such as
//! ajv refuse to compile), an optional field simply not `required` rather
//! than `["integer", "null"]`, a choice of words an `enum`, no
//! `"default": false` and no `additionalProperties` (the parser refuses an
//! unknown field in a sentence). Every one of those costs tokens on every
//! request a model makes.
//!
//! OpenAI's strict function calling wants more: every property in
//! `required` (an optional one as a union with `null`) and
//! `additionalProperties: false` on every object; [`strict_for_openai`]
//! makes that form from the lean one.

use schemars::{generate::SchemaSettings, JsonSchema};
use serde_json::{json, Map, Value};

/// The lean schema of `T` (see the module docs).
pub(crate) fn schema_of<T: JsonSchema>() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    let mut value = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    if let Some(root) = value.as_object_mut() {
        root.remove("$schema");
        root.remove("title");
        // The type's own doc comment is for Rust readers.
        root.remove("description");
        root.entry("properties").or_insert_with(|| json!({}));
    }
    lean(&mut value);
    value
}

/// Trims a schema in place, at every level.
fn lean(value: &mut Value) {
    match value {
        Value::Object(object) => {
            object.remove("title");
            object.remove("format");
            // An absent flag is false, and an unknown field is refused by
            // the parser in a sentence: neither needs saying on every
            // request (the strict OpenAI form says the second again).
            if object.get("default") == Some(&json!(false)) {
                object.remove("default");
            }
            object.remove("additionalProperties");
            // schemars says an unsigned integer is at least 0: a model
            // sending -1 is told by the parser, in a sentence.
            if object.get("minimum") == Some(&json!(0)) && allows(object, "integer") {
                object.remove("minimum");
            }
            drop_null(object);
            choices_as_enum(object);
            for child in object.values_mut() {
                lean(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(lean),
        _ => {}
    }
}

/// Whether a schema's `type` is `kind` or a list holding it.
fn allows(object: &Map<String, Value>, kind: &str) -> bool {
    match object.get("type") {
        Some(Value::String(one)) => one == kind,
        Some(Value::Array(many)) => many.iter().any(|one| one == kind),
        _ => false,
    }
}

/// `"type": ["integer", "null"]` → `"type": "integer"`: an optional field
/// is one that is not required; a `null` sent for it is read as absent.
fn drop_null(object: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|kind| kind != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            object.insert("type".to_owned(), only);
        }
    }
    if let Some(Value::Array(choices)) = object.get_mut("enum") {
        choices.retain(|choice| !choice.is_null());
    }
    // Optional subschemas (an `Option` of a struct or an enum) come as
    // `anyOf: [schema, {"type": "null"}]`.
    if let Some(Value::Array(variants)) = object.get_mut("anyOf") {
        variants.retain(|variant| variant != &json!({ "type": "null" }));
        if variants.len() == 1 {
            let only = variants.remove(0);
            object.remove("anyOf");
            if let Value::Object(only) = only {
                for (key, value) in only {
                    object.entry(key).or_insert(value);
                }
            }
        }
    }
}

/// `oneOf` of constants (what schemars makes of a Rust enum whose
/// variants have docs) → `"type": "string", "enum": [...]`, which every
/// API takes and costs a third of the tokens.
fn choices_as_enum(object: &mut Map<String, Value>) {
    let Some(Value::Array(variants)) = object.get("oneOf") else {
        return;
    };
    let constants: Option<Vec<Value>> = variants
        .iter()
        .map(|variant| {
            variant
                .get("const")
                .cloned()
                .or_else(|| variant.get("enum").and_then(|one| one.get(0)).cloned())
        })
        .collect();
    if let Some(constants) = constants {
        object.remove("oneOf");
        object.insert("type".to_owned(), json!("string"));
        object.insert("enum".to_owned(), Value::Array(constants));
    }
}

/// The schema as OpenAI's strict function calling takes it: every object
/// closed (`additionalProperties: false`) with all its properties
/// required, those that were optional made nullable; `default`s and
/// numeric bounds left out.
pub(crate) fn strict_for_openai(schema: &Value) -> Value {
    let mut schema = schema.clone();
    close_objects(&mut schema);
    schema
}

fn close_objects(value: &mut Value) {
    let Value::Object(object) = value else {
        if let Value::Array(items) = value {
            items.iter_mut().for_each(close_objects);
        }
        return;
    };
    object.remove("default");
    object.remove("minimum");
    object.remove("maximum");
    if allows(object, "object") {
        let required: Vec<String> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|names| {
                names
                    .iter()
                    .filter_map(|name| name.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        let mut all = Vec::new();
        if let Some(Value::Object(properties)) = object.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                all.push(Value::String(name.clone()));
                if !required.contains(name) {
                    nullable(property);
                }
            }
        }
        object.insert("required".to_owned(), Value::Array(all));
        object.insert("additionalProperties".to_owned(), json!(false));
    }
    for child in object.values_mut() {
        close_objects(child);
    }
}

/// Lets a property be `null` too.
fn nullable(property: &mut Value) {
    let Value::Object(object) = property else {
        return;
    };
    match object.get_mut("type") {
        Some(Value::String(kind)) => {
            let kind = kind.clone();
            object.insert("type".to_owned(), json!([kind, "null"]));
            if let Some(Value::Array(choices)) = object.get_mut("enum") {
                choices.push(Value::Null);
            }
        }
        Some(Value::Array(kinds)) => {
            if !kinds.contains(&json!("null")) {
                kinds.push(json!("null"));
            }
        }
        _ => {
            let inner = Value::Object(std::mem::take(object));
            object.insert("anyOf".to_owned(), json!([inner, { "type": "null" }]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arguments::{EmulateArgs, ScrollArgs, TabsArgs};

    #[test]
    fn schemas_are_lean() {
        let scroll = schema_of::<ScrollArgs>();
        let text = scroll.to_string();
        for waste in ["format", "null", "title", "$schema", "oneOf", "minimum"] {
            assert!(!text.contains(waste), "{waste}: {text}");
        }
        assert_eq!(
            scroll["properties"]["direction"]["enum"],
            json!(["up", "down", "left", "right"])
        );
        assert_eq!(scroll["properties"]["element"]["type"], "integer");
        assert!(scroll.get("description").is_none(), "{text}");
        let tabs = schema_of::<TabsArgs>();
        assert_eq!(
            tabs["properties"]["action"]["enum"],
            json!(["list", "switch", "close", "new"])
        );
        let emulate = schema_of::<EmulateArgs>();
        assert_eq!(
            emulate["properties"]["geolocation"]["type"], "object",
            "{emulate}"
        );
    }

    #[test]
    fn the_strict_form_requires_everything_and_allows_null() {
        let strict = strict_for_openai(&schema_of::<EmulateArgs>());
        let required = strict["required"].as_array().map_or(0, Vec::len);
        let properties = strict["properties"].as_object().map_or(0, Map::len);
        assert_eq!(required, properties, "{strict}");
        assert_eq!(strict["additionalProperties"], false);
        assert_eq!(
            strict["properties"]["width"]["type"],
            json!(["integer", "null"])
        );
        let place = &strict["properties"]["geolocation"];
        assert!(place.to_string().contains("null"), "{place}");
        assert!(
            place.to_string().contains("\"additionalProperties\":false"),
            "{place}"
        );
    }
}

//! Secrets typed by name through every group's tools, never read back.

use super::*;

/// A page that echoes every keystroke into its text, its title and its
/// console, and sends the value in a header, a query string and local
/// storage: no answer holds the value in any form.
pub(super) async fn secrets(backend: Backend) {
    let folders = Folders::new();
    let mut s = start(backend, &folders).await;
    let mut answers = Vec::new();
    let page = s.ok("open", json!({ "url": s.url("/fx/echo.html") })).await;
    let field = Session::number(&page, "\"Password\"");
    let send = Session::number(&page, "\"Send\"");
    answers.push(
        s.ok(
            "type",
            json!({ "element": field, "text": "{{secret:PASSWORD}}" }),
        )
        .await,
    );
    answers.push(s.ok("snapshot", json!({})).await);
    answers.push(s.ok("click", json!({ "element": send })).await);
    answers.push(s.ok("wait_for", json!({ "text": "Sent:" })).await);
    answers.push(s.ok("console", json!({})).await);
    answers.push(s.ok("tabs", json!({})).await);
    answers.push(s.ok("find", json!({ "text": "typed" })).await);
    // The page's own script could read the field back: not run here.
    let expression =
        json!({ "expression": "[document.title, localStorage.getItem('token'), location.href]" });
    answers.push(
        refused(
            &mut s,
            "evaluate",
            expression.clone(),
            "a secret was typed on this page",
        )
        .await,
    );
    // The network log's times and sizes differ from run to run: read
    // outside the transcript.
    let requests = s
        .pack
        .call("requests", json!({ "filter": "api/echo" }))
        .await;
    assert!(!requests.is_error, "{}", requests.text);
    assert!(requests.text.contains("GET 404 Fetch"), "{}", requests.text);
    let number: u32 = requests
        .text
        .lines()
        .nth(2)
        .and_then(|line| line.split('.').next()?.parse().ok())
        .expect("a numbered request");
    let one = s.pack.call("request", json!({ "id": number })).await;
    assert!(!one.is_error, "{}", one.text);
    assert!(
        one.text.contains("Authorization: (hidden: a credential)"),
        "{}",
        one.text
    );
    assert!(one.text.contains("X-Token: ••••"), "{}", one.text);
    answers.push(one);
    let all = s.pack.call("requests", json!({})).await;
    assert!(all.text.contains("refused by the guard"), "{}", all.text);
    answers.push(all);
    let document = s.pack.call("request", json!({ "id": 1 })).await;
    assert!(
        document.text.contains("Response body") && document.text.contains("<h1>Echo</h1>"),
        "{}",
        document.text
    );
    answers.push(document);
    answers.push(requests);
    // On the page anew it runs, and what it returns is scrubbed (the page
    // kept the secret in its storage).
    answers.push(s.ok("open", json!({ "url": s.url("/fx/echo.html") })).await);
    answers.push(s.ok("evaluate", expression).await);
    let unknown = refused(
        &mut s,
        "type",
        json!({ "element": field, "text": "{{secret:TOKEN}}" }),
        "the secrets are: PASSWORD",
    )
    .await;
    answers.push(unknown);
    let encoded = [
        SECRET.to_owned(),
        "hunter2%20%26%20%22co%22%2F%2B".to_owned(),
        "hunter2+%26+%22co%22%2F%2B".to_owned(),
        serde_json::to_string(SECRET)
            .expect("json")
            .trim_matches('"')
            .to_owned(),
        "hunter2 &amp; &quot;co&quot;/+".to_owned(),
    ];
    // Typed one key at a time, every beginning of it was on the page too.
    let chars: Vec<char> = SECRET.chars().collect();
    let beginnings: Vec<String> = (4..chars.len())
        .map(|n| chars[..n].iter().collect())
        .collect();
    // Nor any six characters of it in a row, whatever their case, spacing
    // or the invisible characters between them (the page shows its
    // middle, its capitals, spaced out, split by zero-width spaces).
    let fold = |text: &str| -> String {
        text.chars()
            .filter(|c| {
                !c.is_whitespace()
                    && !matches!(
                        c,
                        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}'
                    )
            })
            .flat_map(char::to_lowercase)
            .collect()
    };
    let folded: Vec<char> = fold(SECRET).chars().collect();
    for answer in &answers {
        let text = fold(&answer.text);
        for window in folded.windows(6) {
            let window: String = window.iter().collect();
            assert!(
                !text.contains(&window),
                "six characters of the secret ({window}) show in:\n{}",
                answer.text
            );
        }
        for form in encoded.iter().chain(&beginnings) {
            assert!(
                !answer.text.contains(form.as_str()),
                "the secret ({form}) shows in:\n{}",
                answer.text
            );
        }
    }
    assert!(
        answers[0].text.contains("{{secret:PASSWORD}}"),
        "{}",
        answers[0].text
    );
    assert!(answers[1].text.contains("••••"), "{}", answers[1].text);
    s.finish("groups_secrets").await;
}

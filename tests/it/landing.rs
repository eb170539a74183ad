//! Where a click lands: on the numbered element, once it holds still, and
//! said when it is not. Pages that swap another button in under the
//! pointer (as it arrives: refused before the press; as it goes down: the
//! answer says what the click reached), a checkbox's label with another
//! nearly invisible checkbox at its centre, a button that slides in, a
//! real button inside an element a library made a tab, and a web
//! component's checkbox labelled across its shadow boundary; and where
//! typing lands when the page moves the focus as the keys come (a
//! secret's stopped before a key lands elsewhere); on both backends,
//! through the pack.

use driver_core::Driver;
use serde_json::json;
use tabwright_tests::Backend;

use crate::tools::Session;

/// The page's log line, from a fresh snapshot.
async fn log(s: &mut Session) -> String {
    let page = s.ok("snapshot", json!({})).await.text;
    page.lines()
        .find(|line| {
            [
                "Nothing",
                "Kept",
                "Upgraded",
                "Stayed",
                "Paid",
                "Newsletter",
                "Authorized",
                "Submitted",
                "Terms",
            ]
            .iter()
            .any(|start| line.starts_with(start))
        })
        .unwrap_or_default()
        .to_owned()
}

async fn clicks_land_where_they_say(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/traps.html") }))
        .await;

    // Swapped in as the pointer arrived: refused, nothing pressed.
    let keep = Session::number(&page, "\"Keep my plan\"");
    let refused = s.call("click", json!({ "element": keep })).await;
    assert!(refused.is_error, "{}", refused.text);
    assert!(
        refused.text.contains(&format!(
            "When the pointer arrived over [{keep}], the page put"
        )) && refused.text.contains("button \"Upgrade for $99\"")
            && refused.text.contains("nothing was pressed"),
        "{}",
        refused.text
    );
    assert_eq!(log(&mut s).await, "Nothing pressed yet.");

    // Swapped in as the button went down: the click went elsewhere, and
    // the answer leads with it.
    let page = s.ok("snapshot", json!({})).await;
    let stay = Session::number(&page, "\"Stay on the free plan\"");
    let reached = s.ok("click", json!({ "element": stay })).await;
    let first = reached.text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("The click reached [")
            && first.contains("button \"Pay for a year\"")
            && first.contains(&format!("not [{stay}] \"Stay on the free plan\"")),
        "{}",
        reached.text
    );
    assert_eq!(log(&mut s).await, "Paid for a year");

    // Through its label, around the other checkbox at its centre.
    let page = s.ok("snapshot", json!({})).await;
    let news = Session::number(&page, "checkbox \"Send me the newsletter\"");
    let ticked = s.ok("click", json!({ "element": news })).await;
    assert!(
        ticked.text.starts_with(&format!("Clicked [{news}].")),
        "{}",
        ticked.text
    );
    assert_eq!(log(&mut s).await, "Newsletter on");

    // A button that slides in is pressed where it comes to rest, with no
    // pause between the two clicks.
    let page = s.ok("snapshot", json!({})).await;
    let show = Session::number(&page, "\"Show the form\"");
    let shown = s.ok("click", json!({ "element": show })).await;
    let submit = Session::number(&shown, "\"Submit the form\"");
    let submitted = s.ok("click", json!({ "element": submit })).await;
    assert!(
        submitted.text.starts_with(&format!("Clicked [{submit}].")),
        "{}",
        submitted.text
    );
    assert_eq!(log(&mut s).await, "Submitted the form");
    s.ok("close", json!({})).await;
}

async fn controls_inside_controls(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/presented.html") }))
        .await;
    // The button a library wrapped in a tab is what the tab's number
    // presses.
    let tab = Session::number(&page, "tab \"Submit\"");
    s.ok("click", json!({ "element": tab })).await;
    assert_eq!(log(&mut s).await, "Submitted");
    // The component's checkbox is named by its slotted words, which are
    // not loose text beside it, and it takes its click.
    let page = s.ok("snapshot", json!({})).await;
    let terms = Session::number(&page, "checkbox \"I accept the terms\" unchecked");
    assert!(
        !page.text.lines().any(|line| line == "I accept the terms"),
        "{}",
        page.text
    );
    let clicked = s.ok("click", json!({ "element": terms })).await;
    assert!(
        clicked.text.starts_with(&format!("Clicked [{terms}].")),
        "{}",
        clicked.text
    );
    assert_eq!(log(&mut s).await, "Terms accepted");
    s.ok("close", json!({})).await;
}

/// A checkout form whose name field sends the focus to the card number
/// at the third key (as code fields that jump to the next box do), and
/// whose card field tells what it heard.
const FOCUS_THIEF: &str = r#"<!doctype html><html><head><title>Checkout</title></head><body>
<label>Name <input id="name"></label>
<label>Card number <input id="card"></label>
<p id="log">Card heard nothing.</p>
<script>
let keys = 0;
const heard = [];
document.getElementById('name').addEventListener('keydown', () => {
  keys += 1;
  if (keys === 3) document.getElementById('card').focus();
});
for (const type of ['keydown', 'beforeinput', 'input']) {
  document.getElementById('card').addEventListener(type, (e) => {
    heard.push(type);
    document.getElementById('log').textContent = 'Card heard ' + heard.length + ' events.';
  });
}
</script>
</body></html>"#;

/// The text of the page's `#log`: what it heard, by its own account.
pub(crate) async fn page_log(s: &Session) -> serde_json::Value {
    s.pack
        .driver()
        .eval("document.getElementById('log').textContent")
        .await
        .expect("the page")
}

/// What the checkout's fields hold, and what its card field heard.
async fn held(s: &Session) -> serde_json::Value {
    s.pack
        .driver()
        .eval("[document.getElementById('name').value, document.getElementById('card').value, document.getElementById('log').textContent]")
        .await
        .expect("the page")
}

/// A session that can type the secret `PW` (`hunter22`) by name.
async fn with_secret(backend: Backend) -> Session {
    let pack = tools::PackOptions {
        secrets: vec![tools::Secret {
            name: "PW".to_owned(),
            value: "hunter22".to_owned(),
        }],
        ..tools::PackOptions::default()
    };
    Session::start_packed(backend, pack, driver_core::Options::default()).await
}

/// A search field whose Enter the page sends to another button.
const ENTER_THIEF: &str = r#"<!doctype html><html><head><title>Account</title></head><body>
<label>Search <input id="search"></label>
<button id="delete" onclick="document.getElementById('log').textContent = 'DELETED'">Delete account</button>
<p id="log">Nothing done.</p>
<script>
document.getElementById('search').addEventListener('keydown', (e) => {
  if (e.key === 'Enter') document.getElementById('delete').focus();
});
</script>
</body></html>"#;

/// A field that opens an alert at the fifth key.
const ALERTING: &str = r#"<!doctype html><html><head><title>Alerting</title></head><body>
<label>Code <input id="code"></label>
<script>
let n = 0;
document.getElementById('code').addEventListener('keydown', () => { n += 1; if (n === 5) alert('Slow down'); });
</script>
</body></html>"#;

/// Typing says where its text went when the page moves the focus as the
/// keys come, and a secret goes into the field it was typed into or
/// nowhere: checked against what the page's fields hold and heard.
async fn keys_land_where_they_say(backend: Backend) {
    let mut s = with_secret(backend).await;
    s.site.page("/thief", FOCUS_THIEF).await;
    let url = s.url("/thief");
    let page = s.ok("open", json!({ "url": url })).await;
    let name = Session::number(&page, "textbox \"Name\"");
    let card = Session::number(&page, "textbox \"Card number\"");
    let typed = s
        .ok("type", json!({ "element": name, "text": "Alice Smith" }))
        .await;

    let fields = held(&s).await;
    assert_eq!(
        (&fields[0], &fields[1]),
        (&json!("Al"), &json!("ice Smith")),
        "{}",
        typed.text
    );
    assert!(
        typed.text.contains(&format!(
            "\"Al\" into [{name}] textbox \"Name\"; \"ice Smith\" into [{card}] textbox \"Card number\""
        )),
        "{}",
        typed.text
    );

    // A secret: stopped at the key the page sent elsewhere.
    let page = s.ok("open", json!({ "url": url })).await;
    let name = Session::number(&page, "textbox \"Name\"");
    let typed = s
        .ok("type", json!({ "element": name, "text": "{{secret:PW}}" }))
        .await;
    assert_eq!(
        held(&s).await,
        json!(["hu", "", "Card heard nothing."]),
        "{}",
        typed.text
    );
    assert!(
        typed.text.contains("Typing stopped")
            && typed.text.contains("textbox \"Card number\"")
            && typed.text.contains("got 2 of its characters"),
        "{}",
        typed.text
    );
    assert!(!typed.text.contains("hunter"), "{}", typed.text);

    // A dialog mid-way: the answer does not claim the rest was typed.
    s.site.page("/alerting", ALERTING).await;
    let page = s.ok("open", json!({ "url": s.url("/alerting") })).await;
    let code = Session::number(&page, "textbox \"Code\"");
    let cut = s
        .call("type", json!({ "element": code, "text": "ABCDEFGHIJKL" }))
        .await;
    assert!(
        cut.text.contains("cut short") && !cut.text.contains("Typed \"ABCDEFGHIJKL\""),
        "{}",
        cut.text
    );
    s.ok("dialog", json!({ "accept": true })).await;

    // A key: the answer names what its events reached.
    s.site.page("/enter", ENTER_THIEF).await;
    let url = s.url("/enter");
    let pressed = enter_on_the_thief(&mut s, &url).await;
    let heard = page_log(&s).await;
    assert_eq!(heard, json!("DELETED"), "{pressed}");
    // Text typed into a button would press it (the space): refused, and
    // the page heard nothing.
    let page = s.ok("open", json!({ "url": s.url("/enter") })).await;
    let button = Session::number(&page, "button \"Delete account\"");
    let typed = s
        .call("type", json!({ "element": button, "text": "a b" }))
        .await;
    assert!(
        typed.is_error && typed.text.contains("it takes no text"),
        "{}",
        typed.text
    );
    assert_eq!(page_log(&s).await, json!("Nothing done."), "{}", typed.text);
}

/// Opens `url`, where the Enter thief is (in a frame or not), types into
/// its search field and presses Enter: the answer, which must name the
/// Delete button the page moved the focus to as the key came.
async fn enter_on_the_thief(s: &mut Session, url: &str) -> String {
    let page = s.ok("open", json!({ "url": url })).await;
    let search = Session::number(&page, "textbox \"Search\"");
    let delete = Session::number(&page, "button \"Delete account\"");
    s.ok("type", json!({ "element": search, "text": "shoes" }))
        .await;
    let pressed = s.ok("press", json!({ "keys": "Enter" })).await;
    assert!(
        pressed.text.starts_with(&format!(
            "Pressed Enter, but the page moved the focus to [{delete}] button \"Delete account\" as a key came"
        )) && pressed.text.contains("not to \"Search\""),
        "{}",
        pressed.text
    );
    pressed.text
}

/// A box of text that scrolls, with no label of its own, which logs a
/// click on it.
const SCROLL_BOX: &str = r#"<!doctype html><html><head><title>Inbox</title></head><body>
<div id="box" style="height: 120px; overflow: auto; border: 1px solid #888"></div>
<p id="log">No click.</p>
<script>
const box = document.getElementById('box');
for (let i = 1; i <= 40; i++) { const p = document.createElement('p'); p.textContent = 'Primary message ' + i; box.append(p); }
box.addEventListener('click', () => { document.getElementById('log').textContent = 'Box clicked.'; });
</script>
</body></html>"#;

/// A numbered scroll box is clicked like any element: the check that it is
/// still what the model read compares the name the snapshot listed it by
/// (its own label, none here), not all the text it holds.
async fn a_scroll_box_takes_a_click(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site.page("/box", SCROLL_BOX).await;
    let page = s.ok("open", json!({ "url": s.url("/box") })).await;
    let number = Session::number(&page, "scroll box");
    let clicked = s.ok("click", json!({ "element": number })).await;
    let heard = page_log(&s).await;
    assert_eq!(heard, json!("Box clicked."), "{}", clicked.text);
}

/// A button whose handler clicks another, and a label whose `for` points
/// at another checkbox than the one beside it.
const PASSED_ON: &str = r#"<!doctype html><html><head><title>Plans</title></head><body>
<button id="keep">Keep my plan</button>
<button id="upgrade" onclick="document.getElementById('log').textContent = 'PAID'">Upgrade for $99</button>
<p id="log">Nothing paid.</p>
<script>
document.getElementById('keep').addEventListener('click', () => document.getElementById('upgrade').click());
</script>
</body></html>"#;

/// A click the page's script passes on to another control is said, with
/// what it activated; what the page heard is the truth.
async fn a_click_passed_on_is_said(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site.page("/passed", PASSED_ON).await;
    let page = s.ok("open", json!({ "url": s.url("/passed") })).await;
    let keep = Session::number(&page, "button \"Keep my plan\"");
    let upgrade = Session::number(&page, "button \"Upgrade for $99\"");
    let clicked = s.ok("click", json!({ "element": keep })).await;
    let heard = page_log(&s).await;
    assert_eq!(heard, json!("PAID"), "{}", clicked.text);
    assert!(
        clicked.text.contains(&format!(
            "it also activated [{upgrade}] button \"Upgrade for $99\""
        )),
        "{}",
        clicked.text
    );
    // A plain click says nothing more.
    let again = s.ok("click", json!({ "element": upgrade })).await;
    assert!(!again.text.contains("also activated"), "{}", again.text);
}

/// A button that another site's transparent frame covers the moment the
/// button goes down: the release, and so the click, goes into the frame.
async fn a_frame_slid_over_takes_the_click(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let Some(other) = s.site.other_origin() else {
        return;
    };
    s.site
        .page(
            "/slid",
            &format!(
                r#"<!doctype html><html><head><title>Pay</title></head><body>
<button id="pay" style="position:absolute;left:40px;top:80px;width:200px;height:60px">Pay</button>
<iframe id="cover" src="{other}/fx/blank.html" style="position:absolute;left:0;top:0;width:400px;height:300px;border:0;opacity:0;pointer-events:none"></iframe>
<p id="log" style="position:absolute;top:320px">No payment.</p>
<script>
document.getElementById('pay').addEventListener('click', () => {{ document.getElementById('log').textContent = 'PAID'; }});
window.addEventListener('pointerdown', () => {{ document.getElementById('cover').style.pointerEvents = 'auto'; }}, true);
</script>
</body></html>"#
            ),
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/slid") })).await;
    let pay = Session::number(&page, "button \"Pay\"");
    let clicked = s.call("click", json!({ "element": pay })).await;
    let heard = page_log(&s).await;
    assert_eq!(heard, json!("No payment."), "{}", clicked.text);
    assert!(
        !clicked.text.starts_with(&format!("Clicked [{pay}]"))
            && clicked.text.contains(&format!("not [{pay}]")),
        "{}",
        clicked.text
    );
}

/// A page that slides `Upgrade for $99` over its own same-origin frame
/// the moment the pointer arrives over the frame (`hover`) or goes down
/// in it (`press`): the frame's `Renew` is what the model asks for.
fn slid_over_frame(when: &str) -> String {
    let slide = match when {
        "hover" => "frame.addEventListener('pointerover', slide);",
        _ => "frame.addEventListener('load', () => frame.contentDocument.addEventListener('pointerdown', slide, true));",
    };
    format!(
        r#"<!doctype html><html><head><title>Plans</title></head><body>
<h1>Plans</h1>
<iframe id="inner" src="/over-frame-inner" style="margin-top:300px;width:400px;height:200px;border:0"></iframe>
<button id="upgrade" style="display:none;position:absolute;width:400px;height:200px">Upgrade for $99</button>
<p id="log">Nothing.</p>
<script>
window.heard = (what) => {{ document.getElementById('log').textContent = what; }};
document.getElementById('upgrade').addEventListener('click', () => heard('PAID'));
const frame = document.getElementById('inner');
const slide = () => {{
  const box = frame.getBoundingClientRect();
  const up = document.getElementById('upgrade');
  up.style.left = box.left + 'px'; up.style.top = box.top + window.scrollY + 'px';
  up.style.display = 'block';
}};
{slide}
</script>
</body></html>"#
    )
}

/// A click on a same-origin frame's button that the parent page covers
/// with its own when the pointer arrives, or when it goes down: the press
/// is checked against the top document's hit test too, so the answer never
/// says the button was clicked, and says what the page did get.
async fn a_parent_slid_over_a_frame_is_seen(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site
        .page(
            "/over-frame-inner",
            "<!doctype html><button id='renew' style='margin:40px;width:200px;height:60px' onclick='parent.heard(\"RENEWED\")'>Renew</button>",
        )
        .await;
    for when in ["hover", "press"] {
        s.site
            .page(&format!("/over-frame-{when}"), &slid_over_frame(when))
            .await;
        let page = s
            .ok(
                "open",
                json!({ "url": s.url(&format!("/over-frame-{when}")) }),
            )
            .await;
        let renew = Session::number(&page, "button \"Renew\"");
        let clicked = s.call("click", json!({ "element": renew })).await;
        let heard = page_log(&s).await;
        let said_clicked = clicked.text.starts_with(&format!("Clicked [{renew}]."));
        match heard.as_str() {
            // Arrived over: seen before the press, and nothing pressed.
            Some("Nothing.") => assert!(
                clicked.is_error && !said_clicked && clicked.text.contains("Upgrade for $99"),
                "{when}: {}",
                clicked.text
            ),
            // Slid over on the press: the release stays with the frame that
            // took the press, as in Chrome; the click said is the one heard.
            Some("RENEWED") => assert!(said_clicked, "{when}: {}", clicked.text),
            _ => assert!(
                !said_clicked && clicked.text.contains("Upgrade for $99"),
                "{when}: the page heard {heard}, and the answer said {}",
                clicked.text
            ),
        }
        if when == "hover" {
            assert_eq!(heard, json!("Nothing."), "{}", clicked.text);
        }
    }
}

/// A checkout whose `Name` field sends the keys elsewhere from the third
/// on, by the handler `how` names: focus moved in a `keypress` or a
/// `beforeinput` handler, or the text carried to `Card number` by the
/// page's own script (the key's default prevented, the text put into the
/// card with an `input` event of the page's making).
fn thief_by(how: &str) -> String {
    let handler = match how {
        "carried" => "name.addEventListener('keydown', (e) => { keys += 1; if (keys >= 3 && e.key.length === 1) { e.preventDefault(); card.value += e.key; card.dispatchEvent(new InputEvent('input', {bubbles: true, data: e.key, inputType: 'insertText'})); } });",
        other => &format!("name.addEventListener('{other}', () => {{ keys += 1; if (keys === 3) card.focus(); }});"),
    };
    format!(
        r#"<!doctype html><html><head><title>Checkout</title></head><body>
<label>Name <input id="name"></label>
<label>Card number <input id="card"></label>
<script>
const name = document.getElementById('name'), card = document.getElementById('card');
let keys = 0;
{handler}
</script>
</body></html>"#
    )
}

/// Whatever the handler that sends keys elsewhere (keypress, beforeinput,
/// the page's own re-dispatch), the answer says what the fields hold: all
/// of it typed into the field asked for, or where each part went.
async fn keys_sent_elsewhere_by_any_handler(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    for how in ["keypress", "beforeinput", "carried"] {
        let path = format!("/thief-{how}");
        s.site.page(&path, &thief_by(how)).await;
        let page = s.ok("open", json!({ "url": s.url(&path) })).await;
        let name = Session::number(&page, "textbox \"Name\"");
        let card = Session::number(&page, "textbox \"Card number\"");
        let typed = s
            .ok("type", json!({ "element": name, "text": "Alice Smith" }))
            .await;
        let fields = s
            .pack
            .driver()
            .eval("[document.getElementById('name').value, document.getElementById('card').value]")
            .await
            .expect("the fields");
        let (held, carried) = (
            fields[0].as_str().unwrap_or_default(),
            fields[1].as_str().unwrap_or_default(),
        );
        assert_eq!(format!("{held}{carried}"), "Alice Smith", "{how}: {fields}");
        if carried.is_empty() {
            assert!(
                typed
                    .text
                    .starts_with(&format!("Typed \"Alice Smith\" into [{name}]")),
                "{how}: {}",
                typed.text
            );
        } else {
            assert!(
                typed.text.contains(&format!(
                    "\"{held}\" into [{name}] textbox \"Name\"; \"{carried}\" into [{card}] textbox \"Card number\""
                )),
                "{how}: the fields hold {fields}, and the answer said {}",
                typed.text
            );
        }
    }
}

/// What the two-deep page's fields hold: the outer frame's card, the
/// inner frame's name.
async fn deep_fields(s: &Session) -> serde_json::Value {
    s.pack
        .driver()
        .eval("[document.getElementById('outer').contentDocument.getElementById('card').value, document.getElementById('outer').contentDocument.getElementById('inner').contentDocument.getElementById('name').value]")
        .await
        .expect("the fields")
}

/// Two frames deep (same origin): the top slides its own button over the
/// outer frame as the pointer arrives, and the inner frame's field sends
/// its keys to a field of the outer frame. Neither a click nor the typing
/// is claimed where it did not land.
async fn two_frames_deep(backend: Backend) {
    let mut s = with_secret(backend).await;
    s.site
        .page(
            "/deep-inner",
            r#"<!doctype html><body>
<label>Name <input id="name"></label>
<button id="renew" onclick="top.heard('RENEWED')">Renew</button>
<script>
let keys = 0;
document.getElementById('name').addEventListener('keydown', () => {
  keys += 1;
  if (keys === 3) parent.document.getElementById('card').focus();
});
</script></body>"#,
        )
        .await;
    s.site
        .page(
            "/deep-outer",
            r#"<!doctype html><body>
<label>Card number <input id="card"></label>
<iframe id="inner" src="/deep-inner" style="width:360px;height:160px;border:0"></iframe>
</body>"#,
        )
        .await;
    s.site
        .page(
            "/deep",
            r#"<!doctype html><html><head><title>Deep</title></head><body>
<h1>Deep</h1>
<iframe id="outer" src="/deep-outer" style="margin-top:260px;width:420px;height:260px;border:0"></iframe>
<button id="upgrade" style="display:none;position:absolute;width:420px;height:260px">Upgrade for $99</button>
<p id="log">Nothing.</p>
<script>
window.heard = (what) => { document.getElementById('log').textContent = what; };
document.getElementById('upgrade').addEventListener('click', () => heard('PAID'));
const outer = document.getElementById('outer');
window.armed = false;
outer.addEventListener('pointerover', () => {
  if (!window.armed) return;
  const box = outer.getBoundingClientRect(), up = document.getElementById('upgrade');
  up.style.left = box.left + 'px'; up.style.top = box.top + window.scrollY + 'px'; up.style.display = 'block';
});
</script>
</body></html>"#,
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/deep") })).await;
    let name = Session::number(&page, "textbox \"Name\"");
    let card = Session::number(&page, "textbox \"Card number\"");
    let typed = s
        .ok("type", json!({ "element": name, "text": "Alice Smith" }))
        .await;
    let held = deep_fields(&s).await;
    // (The key whose keydown moved the focus to another document is lost
    // on the way, as in Chrome by hand.)
    let carried = held[0].as_str().unwrap_or_default();
    assert!(
        held[1] == json!("Al") && "ice Smith".ends_with(carried) && !carried.is_empty(),
        "{held}: {}",
        typed.text
    );
    assert!(
        typed.text.contains(&format!(
            "\"Al\" into [{name}] textbox \"Name\"; \"{carried}\" into [{card}] textbox \"Card number\""
        )),
        "{}",
        typed.text
    );
    // A secret goes into the field it was typed into or nowhere, across
    // frames too.
    let page = s.ok("open", json!({ "url": s.url("/deep") })).await;
    let name = Session::number(&page, "textbox \"Name\"");
    let renew = Session::number(&page, "button \"Renew\"");
    let secret = s
        .ok("type", json!({ "element": name, "text": "{{secret:PW}}" }))
        .await;
    let held = deep_fields(&s).await;
    assert_eq!(held, json!(["", "hu"]), "{}", secret.text);
    assert!(
        secret.text.contains("Typing stopped") && !secret.text.contains("hunter"),
        "{}",
        secret.text
    );
    // Move away, arm the trap, and click the inner frame's button.
    s.pack.driver().move_mouse(5.0, 5.0).await.expect("moved");
    s.pack
        .driver()
        .eval("window.armed = true")
        .await
        .expect("armed");
    let clicked = s.call("click", json!({ "element": renew })).await;
    let heard = page_log(&s).await;
    assert_eq!(heard, json!("Nothing."), "{}", clicked.text);
    assert!(
        clicked.is_error && clicked.text.contains("Upgrade for $99"),
        "{}",
        clicked.text
    );
}

/// A drawn checkbox whose words are a label `for` another checkbox, kept
/// out of sight: a click on the drawn one ticks the other.
const LABEL_ELSEWHERE: &str = r#"<!doctype html><html><head><title>Order</title></head><body>
<div id="wrap" role="checkbox" aria-checked="false" tabindex="0" style="display:inline-block"><label for="insurance">Gift wrap</label></div>
<input type="checkbox" id="insurance" aria-label="Add insurance for $30" style="position:absolute;left:-9999px">
<p id="log">Nothing added.</p>
<script>
document.getElementById('insurance').addEventListener('change', (e) => {
  document.getElementById('log').textContent = e.target.checked ? 'INSURED' : 'Nothing added.';
});
</script>
</body></html>"#;

/// The click the label passes to the control it is `for` is said.
async fn a_label_passes_the_click_on(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site.page("/label-elsewhere", LABEL_ELSEWHERE).await;
    let page = s
        .ok("open", json!({ "url": s.url("/label-elsewhere") }))
        .await;
    let wrap = Session::number(&page, "checkbox \"Gift wrap\"");
    let clicked = s.ok("click", json!({ "element": wrap })).await;
    assert_eq!(page_log(&s).await, json!("INSURED"), "{}", clicked.text);
    assert!(
        clicked.text.contains("it also activated")
            && clicked.text.contains("Add insurance for $30"),
        "{}",
        clicked.text
    );
}

/// A control in a closed shadow root the parser made
/// (`<template shadowrootmode="closed">`): no script made it, no hook saw
/// it; DevTools finds it, and it is read, numbered and pressed. The page
/// hears the click at its host.
const DECLARED_ROOT: &str = r#"<!doctype html><html><head><title>Checkout</title></head><body>
<h1>Checkout</h1>
<x-pay><template shadowrootmode="closed"><p>Total 30 EUR</p><button>Pay now</button></template></x-pay>
<p id="log">Not paid.</p>
<script>
document.addEventListener('click', (e) => {
  if (e.target.localName === 'x-pay') document.getElementById('log').textContent = 'PAID';
});
</script>
</body></html>"#;

/// A declarative closed root's controls are numbered and acted on.
async fn a_declared_closed_root_is_numbered(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site.page("/declared", DECLARED_ROOT).await;
    let page = s.ok("open", json!({ "url": s.url("/declared") })).await;
    assert!(page.text.contains("Total 30 EUR"), "{}", page.text);
    let pay = Session::number(&page, "button \"Pay now\"");
    let paid = s.ok("click", json!({ "element": pay })).await;
    assert_eq!(page_log(&s).await, json!("PAID"), "{}", paid.text);
    assert!(
        paid.text.starts_with(&format!("Clicked [{pay}]")),
        "{}",
        paid.text
    );
}

/// Keys pressed where the focus is in another site's frame are followed
/// there: the frame's page moving the focus as Enter comes is said, with
/// the number of what the key reached (what the frame heard is the truth).
async fn keys_in_another_sites_frame(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let Some(other) = s.site.other_origin() else {
        return;
    };
    s.site.other_page("/enter", ENTER_THIEF).await;
    s.site
        .page(
            "/framed-enter",
            &format!(
                "<!doctype html><title>Framed</title><h1>Shop</h1>\
                 <iframe src=\"{other}/enter\" style=\"width: 500px; height: 200px\"></iframe>"
            ),
        )
        .await;
    let url = s.url("/framed-enter");
    let pressed = enter_on_the_thief(&mut s, &url).await;
    assert!(pressed.contains("DELETED"), "{pressed}");
}

both_backends!(
    keys_in_another_sites_frame,
    a_declared_closed_root_is_numbered,
    a_label_passes_the_click_on,
    keys_sent_elsewhere_by_any_handler,
    two_frames_deep,
    a_parent_slid_over_a_frame_is_seen,
    a_frame_slid_over_takes_the_click,
    clicks_land_where_they_say,
    controls_inside_controls,
    keys_land_where_they_say,
    a_scroll_box_takes_a_click,
    a_click_passed_on_is_said
);

//! Where a call aims by a point or at both ends: a drag acts where it
//! drops and carries what it picks up, which no matching of words sees; a
//! point acts in the frame drawn there. The truth is the answer's refusal,
//! and the drag the browser did where none is refused.

use super::*;

/// The shop's page that embeds the mail (a frame of the mail's origin)
/// beside its own field.
async fn serve_paying(web: &Web) {
    serve(
        &web.shop,
        "/with-mail",
        &format!(
            r#"<!doctype html><html><head><title>Pay</title></head><body>
<h1>Pay with your code</h1>
<label>Code <input id="code"></label>
<iframe src="{mail}/inbox" style="width:600px;height:300px"></iframe>
</body></html>"#,
            mail = web.mail.uri()
        ),
    )
    .await;
}

/// A drag acts where it drops and carries what it picks up, which no
/// matching of words sees: from the mail's frame onto the shop's field, or
/// from the shop onto the ad's, it is refused, saying which origins; within
/// the shop's page it goes.
async fn drags_stay_within_an_origin(backend: Backend) {
    let web = Web::start().await;
    let pack = pack_built(
        backend,
        &web,
        |task| task,
        None,
        |options| PackOptions {
            groups: vec![Group::Core, Group::Forms],
            ..options
        },
    );
    let (mail, shop, attacker) = (web.mail.uri(), web.shop.uri(), web.attacker.uri());
    serve_paying(&web).await;
    let page = ok(&pack, "open", json!({ "url": format!("{shop}/with-mail") })).await;
    let prize = tools::element_number(&page.text, "link \"Claim your prize\"").expect("the link");
    let code = tools::element_number(&page.text, "textbox \"Code\"").expect("the field");
    let carried = format!("it would carry what it picks up on {mail} to {shop}");
    refused(
        &pack,
        "drag",
        json!({ "from": prize, "to": code }),
        &carried,
    )
    .await;
    let (x, y) = centre(&pack, "h1").await;
    let within = pack
        .call("drag", json!({ "from_x": x, "from_y": y, "to": code }))
        .await;
    assert!(within.text.starts_with("Dragged"), "{}", within.text);
    let deals = ok(&pack, "open", json!({ "url": format!("{shop}/with-ad") })).await;
    let ad = tools::element_number(&deals.text, "textbox \"Email for your prize\"")
        .expect("the ad's field");
    let (x, y) = centre(&pack, "h1").await;
    refused(
        &pack,
        "drag",
        json!({ "from_x": x, "from_y": y, "to": ad }),
        &attacker,
    )
    .await;
    pack.close().await;
}

/// A click at a point of an ad's frame where nothing is numbered acts in
/// the ad's document, not the shop's around it: refused, the ad's origin
/// named.
async fn a_point_acts_in_the_frame_drawn_there(backend: Backend) {
    let web = Web::start().await;
    let pack = pack(backend, &web, false);
    let (shop, attacker) = (web.shop.uri(), web.attacker.uri());
    ok(&pack, "open", json!({ "url": format!("{shop}/with-ad") })).await;
    // The frame's middle, below the ad's one line.
    let (x, y) = centre(&pack, "iframe").await;
    refused(&pack, "click", json!({ "x": x, "y": y }), &attacker).await;
    pack.close().await;
}

every_backend!(
    drags_stay_within_an_origin,
    a_point_acts_in_the_frame_drawn_there
);

//! Real UI kits from the npm registry (jQuery UI, Bootstrap, Ant Design and
//! MUI on React, jsTree, Shoelace's and Material Web's components, Tom
//! Select, AG Grid, CodeMirror 6 and 5, Ace, Monaco), served
//! with their own scripts and styles on loopback, and every task of
//! `tabwright_tests::tasks` on them: a date picker's arrows, menus and
//! submenus, autocomplete suggestions, spinners, a listbox, trees (one that
//! animates open), selects, tabs, an accordion, a carousel, radios,
//! checkboxes inside components, a modal, a dialog and a sliding drawer,
//! a data grid's rows ticked (clear real checkboxes), scrolled to and sorted,
//! components whose shadow roots hold the real controls, code editors'
//! files read back, typed over and added to (three through a hidden
//! textarea),
//! driven through the pack on both backends by a policy that reads only
//! the tools' text. Every task must succeed.

use tabwright_tests::site::Site;
use tabwright_tests::tasks::{self, Policy};
use tabwright_tests::Backend;

async fn kit(backend: Backend, page: &str) {
    let site = Site::with_kits().await;
    let mut policy = Policy::new(backend, &site);
    let mut failed = Vec::new();
    for task in tasks::on(page) {
        if let Err(why) = policy.run(task).await {
            failed.push(format!("{} ({page}): {why}", task.name));
        }
    }
    policy.close().await;
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

async fn jquery_ui(backend: Backend) {
    kit(backend, "jquery-ui.html").await;
}

async fn antd(backend: Backend) {
    kit(backend, "antd.html").await;
}

async fn bootstrap(backend: Backend) {
    kit(backend, "bootstrap.html").await;
}

async fn jstree(backend: Backend) {
    kit(backend, "jstree.html").await;
}

async fn shoelace(backend: Backend) {
    kit(backend, "shoelace.html").await;
}

async fn mui(backend: Backend) {
    kit(backend, "mui.html").await;
}

async fn tom_select(backend: Backend) {
    kit(backend, "tom-select.html").await;
}

async fn ag_grid(backend: Backend) {
    kit(backend, "ag-grid.html").await;
}

async fn material(backend: Backend) {
    kit(backend, "material.html").await;
}

async fn codemirror(backend: Backend) {
    kit(backend, "codemirror.html").await;
}

async fn ace(backend: Backend) {
    kit(backend, "ace.html").await;
}

async fn codemirror5(backend: Backend) {
    kit(backend, "codemirror5.html").await;
}

async fn monaco(backend: Backend) {
    kit(backend, "monaco.html").await;
}

every_backend!(
    jquery_ui,
    antd,
    bootstrap,
    jstree,
    shoelace,
    mui,
    tom_select,
    ag_grid,
    material,
    codemirror,
    ace,
    codemirror5,
    monaco
);
